/**
 * Values made from a schema when the document gives no example: strings that fit their
 * format, length and pattern, numbers inside their bounds, the enum member that is not the
 * default, objects with the properties a client writes (never `readOnly` ones). Every value
 * is checked against its schema with ajv before it is used, so an alternative that does not
 * fit (a `oneOf` branch, a pattern no stock string matches) is passed over, and a schema
 * nothing fits yields no value rather than a wrong one.
 *
 * A `variant` makes a second or third value that differs from the first where the schema
 * allows it (`(replaced)`, another enum member), for replace and patch bodies.
 */
import type { Located, OpenApiDocument } from '../model/openapi-document.js';
import type { SchemaValidator } from './json-schema.js';
import { admits, flatten, soleType, type FlatSchema, type SchemaType } from './schema.js';
import { documentPattern } from './pattern.js';

/** What a generated body is for: a create writes every property, a replace the required ones. */
export type BodyPurpose = 'create' | 'replace' | 'patch';

const variantOf: Record<BodyPurpose, number> = { create: 0, replace: 1, patch: 2 };
const suffixOf: Record<BodyPurpose, string> = { create: '', replace: ' (replaced)', patch: ' (patched)' };

/** No value could be made. */
const none: unique symbol = Symbol('none');
type Made = unknown | typeof none;

/** How deep objects and arrays may nest in a generated value (recursive schemas stop here). */
const maxDepth = 6;

const formatSamples: Readonly<Record<string, readonly string[]>> = {
  'date-time': ['2024-05-01T12:00:00Z', '2024-06-01T12:00:00Z', '2024-07-01T12:00:00Z'],
  date: ['2024-05-01', '2024-06-01', '2024-07-01'],
  time: ['12:00:00Z', '13:00:00Z', '14:00:00Z'],
  email: ['restprobe@example.com', 'restprobe.replaced@example.com', 'restprobe.patched@example.com'],
  'idn-email': ['restprobe@example.com', 'restprobe.replaced@example.com', 'restprobe.patched@example.com'],
  uri: ['https://example.com/restprobe', 'https://example.com/restprobe/replaced', 'https://example.com/restprobe/patched'],
  url: ['https://example.com/restprobe', 'https://example.com/restprobe/replaced', 'https://example.com/restprobe/patched'],
  'uri-reference': ['https://example.com/restprobe', 'https://example.com/restprobe/replaced', 'https://example.com/restprobe/patched'],
  iri: ['https://example.com/restprobe', 'https://example.com/restprobe/replaced', 'https://example.com/restprobe/patched'],
  uuid: ['6f1c2b9e-4d3a-4b5c-8e7f-0a1b2c3d4e5f', '7a2d3c0f-5e4b-4c6d-9f80-1b2c3d4e5f60', '8b3e4d1a-6f5c-4d7e-a091-2c3d4e5f6071'],
  ipv4: ['192.0.2.10', '192.0.2.11', '192.0.2.12'],
  ipv6: ['2001:db8::10', '2001:db8::11', '2001:db8::12'],
  hostname: ['restprobe.example.com', 'replaced.example.com', 'patched.example.com'],
  byte: ['cmVzdHByb2Jl', 'cmVwbGFjZWQ=', 'cGF0Y2hlZA=='],
  password: ['Restprobe-Probe-1', 'Restprobe-Probe-2', 'Restprobe-Probe-3'],
};

/** Strings tried when a pattern refuses the readable one (codes, slugs, phone numbers…). */
const stockStrings = ['restprobe', 'restprobe-1', 'restprobe_1', 'abc', 'ABC', 'abc123', 'a', 'A', '1', '123', '12345', 'US', 'USD', 'usd', 'en', 'en-US', '+15555550100', '2024-05-01', 'https://example.com'];

/**
 * `pattern` to be matched whole, as Java's and .NET's validators read one (springdoc and
 * Swashbuckle write `@Pattern` and `[RegularExpression]` unanchored): a string that matches
 * it so matches it as JSON Schema does too, anywhere in the string.
 */
export const wholePattern = (pattern: string): string => `^(?:${pattern})$`;

/** Whether a string matches `pattern` whole; undefined for a pattern JavaScript cannot compile. */
function matchesWhole(pattern: string): ((s: string) => boolean) | undefined {
  const whole = documentPattern(wholePattern(pattern));
  return whole && ((s) => whole.test(s));
}

export class ValueGenerator {
  constructor(
    private readonly doc: OpenApiDocument,
    private readonly validator: SchemaValidator,
  ) {}

  /**
   * A value valid against `schema`, or `undefined` when none could be made.
   *
   * @example
   * ```ts
   * new ValueGenerator(doc, new SchemaValidator(doc, 'request')).value(schema, 'create');
   * // { name: 'restprobe name', status: 'archived' }
   * ```
   */
  value(schema: Located, purpose: BodyPurpose, name = 'probe'): { value: unknown } | undefined {
    const made = this.make(schema, purpose, name, 0, []);
    return made === none ? undefined : { value: made };
  }

  private valid(schema: Located, value: unknown): boolean {
    return this.validator.validate(schema, value).ok;
  }

  private firstValid(schema: Located, candidates: readonly unknown[]): Made {
    for (const c of candidates) if (this.valid(schema, c)) return c;
    return none;
  }

  private make(schema: Located, purpose: BodyPurpose, name: string, depth: number, stack: readonly string[]): Made {
    if (depth > maxDepth || stack.includes(schema.pointer)) return none;
    const inner = [...stack, schema.pointer];
    const flat = flatten(this.doc, schema);
    if (flat.hasConst) return flat.const;
    if (flat.alternatives.length > 0) return this.alternative(schema, flat, purpose, name, depth, inner);
    if (flat.enum !== undefined) return this.enumValue(schema, flat, purpose);
    const type = this.typeOf(flat);
    switch (type) {
      case 'object':
        return this.object(schema, flat, purpose, depth, inner);
      case 'array':
        return this.array(schema, flat, purpose, name, depth, inner);
      case 'string':
        return this.string(schema, flat, purpose, name);
      case 'integer':
      case 'number':
        return this.number(schema, flat, purpose, type);
      case 'boolean':
        return this.firstValid(schema, purpose === 'create' ? [flat.default !== true, flat.default === true] : [flat.default === true, flat.default !== true]);
      case 'null':
        return null;
    }
  }

  private typeOf(flat: FlatSchema): SchemaType {
    return soleType(flat) ?? (['object', 'string', 'integer', 'number', 'boolean', 'array'] as const).find((t) => flat.types.has(t)) ?? (flat.types.has('null') ? 'null' : 'string');
  }

  /** The enum members, the default last, rotated by the purpose so a replace differs from a create. */
  private enumValue(schema: Located, flat: FlatSchema, purpose: BodyPurpose): Made {
    const members = (flat.enum ?? []).filter((v) => v !== null);
    const ordered = [...members.filter((v) => v !== flat.default), ...members.filter((v) => v === flat.default)];
    const shift = variantOf[purpose] % Math.max(ordered.length, 1);
    return this.firstValid(schema, [...ordered.slice(shift), ...ordered.slice(0, shift), ...(flat.enum ?? [])]);
  }

  private string(schema: Located, flat: FlatSchema, purpose: BodyPurpose, name: string): Made {
    const variant = variantOf[purpose];
    const samples = flat.format === undefined ? undefined : formatSamples[flat.format];
    const readable = `restprobe ${name.replace(/[_-]+/g, ' ')}${suffixOf[purpose]}`;
    const fitted = (text: string): string => {
      const min = flat.minLength ?? 0;
      const max = flat.maxLength ?? Infinity;
      const padded = text.length < min ? text + 'x'.repeat(min - text.length) : text;
      return padded.length > max ? padded.slice(0, max) : padded;
    };
    const examples = purpose === 'create' ? flat.examples : [];
    const candidates = [...(samples !== undefined ? [...examples, samples[variant], ...samples] : [...examples, fitted(readable), ...stockStrings.map(fitted)]), ...flat.examples, ...(flat.default !== undefined ? [flat.default] : [])];
    // A value that matches the pattern whole first (wholePattern says why).
    const whole = flat.pattern === undefined ? undefined : matchesWhole(flat.pattern);
    return this.firstValid(schema, whole === undefined ? candidates : [...candidates.filter((c) => typeof c === 'string' && whole(c)), ...candidates]);
  }

  private number(schema: Located, flat: FlatSchema, purpose: BodyPurpose, type: 'integer' | 'number'): Made {
    const step = flat.multipleOf ?? 1;
    const low = flat.minimum ?? (flat.exclusiveMinimum !== undefined ? flat.exclusiveMinimum + (type === 'integer' ? 1 : step) : undefined);
    const high = flat.maximum ?? (flat.exclusiveMaximum !== undefined ? flat.exclusiveMaximum - (type === 'integer' ? 1 : step) : undefined);
    const wanted = 1 + variantOf[purpose];
    const inRange = (n: number): boolean => (low === undefined || n >= low) && (high === undefined || n <= high);
    const onStep = (n: number): number => Math.ceil(n / step) * step;
    const computed = [wanted, low, high, low !== undefined ? onStep(low) : undefined, 0].filter((n): n is number => n !== undefined && inRange(n));
    const examples = purpose === 'create' ? flat.examples : [];
    return this.firstValid(schema, [...examples, ...computed.map(onStep), ...computed, ...flat.examples]);
  }

  private array(schema: Located, flat: FlatSchema, purpose: BodyPurpose, name: string, depth: number, stack: readonly string[]): Made {
    if (flat.maxItems === 0 || flat.items === undefined) return this.firstValid(schema, [[], ...flat.examples]);
    const count = Math.max(flat.minItems ?? 0, 1);
    const purposes: BodyPurpose[] = ['create', 'replace', 'patch'];
    const items: unknown[] = [];
    for (let i = 0; i < count; i++) {
      // Unique items need values that differ: each takes the next purpose's variant.
      const item = this.make(flat.items, flat.uniqueItems ? (purposes[(variantOf[purpose] + i) % 3] ?? purpose) : purpose, name, depth + 1, stack);
      if (item === none) break;
      items.push(item);
    }
    return this.firstValid(schema, [items, ...flat.examples, []]);
  }

  /** The properties a client writes: every one for a create's top level, the required ones elsewhere. */
  private object(schema: Located, flat: FlatSchema, purpose: BodyPurpose, depth: number, stack: readonly string[]): Made {
    const writable = [...flat.properties].filter(([, p]) => !flatten(this.doc, p).readOnly);
    const required = writable.filter(([p]) => flat.required.has(p));
    // A replace with nothing required (an update schema) still sends what it can, or it would say nothing.
    const everything = depth === 0 && (purpose === 'create' || required.length === 0);
    const build = (names: readonly [string, Located][]): Record<string, unknown> | undefined => {
      const out: Record<string, unknown> = {};
      for (const [prop, node] of names) {
        const v = this.make(node, purpose, prop, depth + 1, stack);
        if (v !== none) out[prop] = v;
        else if (flat.required.has(prop)) return undefined;
      }
      for (const prop of flat.required) if (!(prop in out) && !flat.properties.has(prop)) out[prop] = 'restprobe';
      return out;
    };
    const attempts = [everything ? build(writable) : undefined, build(required), ...flat.examples];
    return this.firstValid(schema, attempts.filter((a) => a !== undefined));
  }

  /** The first `oneOf`/`anyOf` branch that yields a value valid against the whole schema. */
  private alternative(schema: Located, flat: FlatSchema, purpose: BodyPurpose, name: string, depth: number, stack: readonly string[]): Made {
    const base = flat.properties.size > 0 ? this.object(schema, { ...flat, alternatives: [] }, purpose, depth, stack) : none;
    for (const branch of flat.alternatives) {
      const made = this.make(branch, purpose, name, depth, stack);
      if (made === none) continue;
      const tag = flat.discriminator === undefined ? {} : this.discriminatorTag(flat.discriminator, branch);
      const merged = base !== none && isPlainObject(base) && isPlainObject(made) ? { ...base, ...made, ...tag } : isPlainObject(made) ? { ...made, ...tag } : made;
      if (this.valid(schema, merged)) return merged;
    }
    return this.firstValid(schema, flat.examples);
  }

  /** The discriminator value that names `branch`: its mapping key, else the schema's own name. */
  private discriminatorTag(d: NonNullable<FlatSchema['discriminator']>, branch: Located): Record<string, string> {
    const key = Object.entries(d.mapping).find(([, ref]) => ref === `#${branch.pointer}` || ref.endsWith(`/${branch.pointer.split('/').pop() ?? ''}`))?.[0];
    const own = /^\/components\/schemas\/([^/]+)$/.exec(branch.pointer)?.[1];
    const tag = key ?? own;
    return tag === undefined ? {} : { [d.propertyName]: tag };
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether a schema admits JSON objects at its top (a body restprobe can send). */
export function isObjectSchema(doc: OpenApiDocument, schema: Located): boolean {
  const flat = flatten(doc, schema);
  return admits(flat, 'object') && (soleType(flat) === 'object' || flat.types.size === 0 || flat.alternatives.length > 0);
}
