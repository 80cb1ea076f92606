/**
 * Field rules and how a body is checked against them, for the three kinds of write:
 * create or full replacement (PUT), and JSON merge patch (RFC 7396).
 *
 * Unknown fields are ignored (tolerant reader); every bad known field gets one entry in
 * the 422's `errors`, named by its property.
 */
import type { JsonObject } from './body.js';
import { validationFailed, type FieldError } from './problem.js';
import { faultActive } from './request-faults.js';

/** The rule for one field of a resource. */
export type FieldRule =
  /** A string; required ones must be 1..max characters after trimming, optional ones ≤ max and default to null. */
  | { readonly kind: 'text'; readonly required: boolean; readonly max: number }
  | { readonly kind: 'enum'; readonly values: readonly string[]; readonly default: string }
  | { readonly kind: 'boolean'; readonly default: boolean };

/** A resource's writable fields, in representation order. */
export type FieldRules = Readonly<Record<string, FieldRule>>;

export type FieldValue = string | boolean | null;

/** How the body relates to the stored resource. */
export type WriteMode =
  /** POST or PUT: the body is the whole resource; what it omits takes its default. */
  | 'replace'
  /** PATCH: what the body omits is kept; `null` removes (back to the default). */
  | 'merge';

/** Length in characters (code points), as a user would count them. */
function characters(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The value an optional field takes when absent or removed; `undefined` for required ones. */
function defaultOf(rule: FieldRule): FieldValue | undefined {
  switch (rule.kind) {
    case 'text':
      return rule.required ? undefined : null;
    case 'enum':
    case 'boolean':
      return rule.default;
  }
}

/** Checks one present, non-null value; returns an error message or the value. */
function check(rule: FieldRule, value: unknown): { ok: FieldValue } | { error: string } {
  switch (rule.kind) {
    case 'text': {
      if (typeof value !== 'string') return { error: 'must be a string' };
      const length = characters(rule.required ? value.trim() : value);
      if (rule.required && length === 0) return { error: 'must not be blank' };
      // Fault: the length limit the document states is not enforced.
      if (length > rule.max && !faultActive('text-max-length-unchecked')) return { error: `must be at most ${rule.max} characters` };
      return { ok: value };
    }
    case 'enum':
      // Fault: the first member the document lists is refused, as if it were not one.
      return typeof value === 'string' && rule.values.includes(value) && !(faultActive('enum-member-refused') && value === rule.values[0])
        ? { ok: value }
        : { error: `must be one of ${rule.values.map((v) => JSON.stringify(v)).join(', ')}` };
    case 'boolean':
      return typeof value === 'boolean' ? { ok: value } : { error: 'must be true or false' };
  }
}

/**
 * Builds the new field values from a body.
 *
 * @param current the stored values (required for `merge`; ignored for `replace`).
 * @returns the values in rule order, or the list of field errors.
 */
export function applyFields(
  rules: FieldRules,
  body: JsonObject,
  mode: WriteMode,
  current?: Readonly<Record<string, FieldValue>>,
): { values: Record<string, FieldValue>; errors: FieldError[] } {
  const values: Record<string, FieldValue> = {};
  const errors: FieldError[] = [];
  for (const [field, rule] of Object.entries(rules)) {
    const sent = Object.hasOwn(body, field);
    const value = sent ? body[field] : undefined;
    if (mode === 'merge' && !sent) {
      const kept = current?.[field];
      if (kept !== undefined) values[field] = kept;
      continue;
    }
    if (value === undefined || value === null) {
      const fallback = defaultOf(rule);
      if (fallback === undefined) errors.push({ field, message: value === null ? 'is required and cannot be null' : 'is required' });
      else values[field] = fallback;
      continue;
    }
    const result = check(rule, value);
    // Fault: a merge patch is not validated (Mongoose's findByIdAndUpdate without runValidators): a bad value is dropped, the rest applied.
    if ('error' in result && mode === 'merge' && faultActive('patch-skips-validation')) {
      const kept = current?.[field];
      if (kept !== undefined) values[field] = kept;
    } else if ('error' in result) errors.push({ field, message: result.error });
    else values[field] = result.ok;
  }
  return { values, errors };
}

/** The stored values with every optional field back at its default (required ones kept). */
export function resetOptionalFields(
  rules: FieldRules,
  current: Readonly<Record<string, FieldValue>>,
): Record<string, FieldValue> {
  const values: Record<string, FieldValue> = {};
  for (const [field, rule] of Object.entries(rules)) {
    const fallback = defaultOf(rule);
    const kept = current[field];
    if (fallback !== undefined) values[field] = fallback;
    else if (kept !== undefined) values[field] = kept;
  }
  return values;
}

/** Throws 422 when there are field errors. */
export function throwIfInvalid(errors: readonly FieldError[]): void {
  if (errors.length > 0) throw validationFailed(errors);
}
