/**
 * Representation comparison that ignores what the server may change on its own
 * (`volatileFields`: timestamps and the like) and reports the first differences. Two
 * date-times that name one instant at the coarser of their precisions are equal: a create's
 * answer may carry the milliseconds a MySQL DATETIME then drops (or rounds), or the
 * nanoseconds Postgres keeps as microseconds (Sequelize, Hibernate).
 */
import { brief } from './expect.js';

/** Differences between two representations, as `field: a → b` lines (empty when equal). */
export function diffRepresentations(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  volatileFields: readonly string[],
): string[] {
  const out: string[] = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (volatileFields.includes(key)) continue;
    if (!deepEqual(before[key], after[key]) && !sameInstant(before[key], after[key])) out.push(`${key}: ${brief(before[key], 60)} → ${brief(after[key], 60)}`);
  }
  return out;
}

const dateTime = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/i;

/** A date-time as whole nanoseconds since the epoch (exact: a number would round at the microsecond). */
const nanos = (m: RegExpExecArray): bigint => BigInt(Date.parse(`${m[1]!}${m[3]!}`)) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0'));

/**
 * Whether two RFC 3339 date-times of different precisions are one instant as a store keeps it:
 * the coarser one is the finer one truncated or rounded to its precision. Of one precision,
 * they are compared as they are.
 */
export function sameInstant(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  const [ma, mb] = [dateTime.exec(a), dateTime.exec(b)];
  if (ma === null || mb === null) return false;
  const [da, db] = [(ma[2] ?? '').length, (mb[2] ?? '').length];
  if (da === db) return false;
  const [fine, coarse, digits] = da > db ? [nanos(ma), nanos(mb), db] : [nanos(mb), nanos(ma), da];
  const unit = 10n ** BigInt(9 - digits);
  const truncated = fine - (((fine % unit) + unit) % unit);
  return coarse === truncated || coarse === truncated + unit && (fine - truncated) * 2n >= unit;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The named fields of `o` that it has. */
export function pickFields(o: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]));
}

/**
 * Whether `stored` is `sent` as a server keeps it: the same JSON value, a string without the
 * leading and trailing whitespace it was sent with, or a number as the decimal string of the
 * same value (`9.9` → `"9.90"`). Those normalisations are documented by common frameworks
 * (Django REST framework's CharField trims, and its DecimalField answers a string by default,
 * COERCE_DECIMAL_TO_STRING, as pydantic v2 does a Decimal) and change no meaning; restprobe's
 * own generated values carry no such whitespace, so trimming only matters for values a config supplies.
 */
export function storedAsSent(sent: unknown, stored: unknown): boolean {
  return deepEqual(sent, stored) || (typeof sent === 'string' && typeof stored === 'string' && sent.trim() === stored) || asDecimal(sent, stored);
}

/** A number stored as the decimal string of the same value (`9.9` as `"9.90"`). */
const asDecimal = (sent: unknown, stored: unknown): boolean => typeof sent === 'number' && typeof stored === 'string' && /^-?\d+(\.\d+)?$/.test(stored) && Number(stored) === sent;

/**
 * Fields of `sent` whose value `stored` does not hold ({@link storedAsSent}), as
 * `field: sent → stored`. A field stored trimmed is noted through `note`, not listed; so is a
 * write-only field (`collections[].writeOnlyFields`) the answer leaves out.
 */
export function valuesNotStored(sent: Record<string, unknown>, stored: Record<string, unknown>, note: (line: string) => void, writeOnly: readonly string[] = []): string[] {
  const hidden = Object.keys(sent).filter((k) => writeOnly.includes(k) && !(k in stored));
  if (hidden.length > 0) note(`write-only, not expected back (collections[].writeOnlyFields): ${hidden.join(', ')}`);
  const shown = Object.keys(sent).filter((k) => !hidden.includes(k));
  const normalised = shown.filter((k) => !deepEqual(sent[k], stored[k]) && storedAsSent(sent[k], stored[k]));
  if (normalised.length > 0) note(`stored trimmed, or a number as its decimal string, judged as sent: ${normalised.map((k) => `${k} ${brief(sent[k], 40)} → ${brief(stored[k], 40)}`).join('; ')}`);
  return shown.filter((k) => !storedAsSent(sent[k], stored[k])).map((k) => `${k}: ${brief(sent[k], 40)} → ${brief(stored[k], 40)}`);
}
