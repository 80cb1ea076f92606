/**
 * Request bodies drawn from a create operation's JSON schema, as fast-check arbitraries:
 * bodies the schema accepts, and bodies that break exactly one constraint it states (a
 * type, a required property, an enum, a bound, a pattern, a format) of one property.
 *
 * Read in the request direction: `readOnly` properties are never sent. Every body is checked
 * with ajv against the very schema it came from before it is used, so a value the schema
 * refuses is never sent as valid, nor one it accepts as invalid. The collection's mark field
 * is left out of both: the check gives each body a fresh mark, so whatever a target creates
 * can be proven restprobe's and deleted.
 */
import type { Arbitrary } from 'fast-check';
import { fastCheck } from './lazy-libraries.js';
import { CheckSkipped } from '../model/check.js';
import type { CheckContext } from '../model/context.js';
import type { CollectionProfile } from '../model/profile.js';
import { isObject } from '../model/json.js';
import { brief } from '../model/describe-response.js';
import type { Located, OpenApiDocument } from '../model/openapi-document.js';
import { validatorOf, type SchemaValidator } from '../document/json-schema.js';
import { ValueGenerator, wholePattern } from '../document/generate.js';
import { admits, flatten, soleType, type FlatSchema } from '../document/schema.js';
import { documentPattern } from '../document/pattern.js';
import { singularForms } from '../model/ids.js';
import { jsonMedia, type Operation } from '../document/operations.js';
import { judgeFor, responseFor } from './documented-answers.js';

export type Body = Record<string, unknown>;

/** The kinds of constraint a broken body breaks, in the order the targeted cases try them. */
export const constraintKinds = ['type', 'required', 'enum', 'bounds', 'pattern', 'format'] as const;
export type ConstraintKind = (typeof constraintKinds)[number];

/** One constraint of one property, and how a body breaks it: a value, or (required) the property left out. */
export interface Break {
  readonly property: string;
  readonly kind: ConstraintKind;
  /** What is broken, for messages: `maxLength 200`, `enum ["active","archived"]`. */
  readonly constraint: string;
  /** The value sent instead; absent for a required property left out. */
  readonly value?: unknown;
}

/** An invalid body as a case: the constraint broken, on a valid body. */
export interface BrokenBody {
  readonly broken: Break;
  readonly base: Body;
}

/** Random strings take these characters: no blank a server may trim to nothing, nothing a pattern-less field would balk at. */
const alphanumeric = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** Random strings without a maxLength are at most this much longer than their minimum. */
const randomLength = 24;
/** Integers without bounds are drawn from ±this. */
const unboundedInt = 10_000;
/** Targeted valid bodies, at most: enough for every member of a short enum. */
const maxEdgeBodies = 6;

/**
 * Values of each JSON type, to find one a property's type refuses: an object first, which no
 * scalar field takes, where 42 for a string is turned into "42" and rightly accepted by DRF's
 * CharField, pydantic v1 and Mongoose.
 */
const wrongTypes: readonly (readonly ['integer' | 'string' | 'boolean' | 'object' | 'array', unknown])[] = [
  ['object', {}],
  ['integer', 42],
  ['string', 'restprobe-wrong-type'],
  ['boolean', true],
  ['array', []],
];

/** Strings tried against a pattern, the first the pattern refuses within the length bounds. */
const unpatterned = ['restprobe does not match!', '!', ' ', '~~~~~~~~', '0', 'a'];

/**
 * The bodies a create schema describes, for property checks.
 *
 * @example
 * ```ts
 * const inputs = BodyInputs.of(openapi, media.schema, { leaveOut: ['label'] });
 * if (typeof inputs === 'string') throw new CheckSkipped(inputs);
 * await checkProperty(ctx, { arbitrary: inputs.valid(), examples: inputs.edgeBodies(), predicate });
 * ```
 */
/**
 * The longest text a case sends: generated documents often say `maxLength: 2147483647`,
 * which no body can hold; a bound past this is not tried at its edge.
 */
const longestText = 64 * 1024;

/** `char` repeated `length` times, when that is short enough to send; else nothing. */
const sendable = (char: string, length: number): string[] => (length <= longestText ? [char.repeat(length)] : []);

export class BodyInputs {
  private readonly flat: FlatSchema;
  /** The writable properties, in document order, without those left out. */
  private readonly properties: readonly (readonly [string, Located, FlatSchema])[];

  /** The generated body, without the properties left out. */
  private readonly base: Body;
  /** The generated values of the properties left out: what a body is validated with in their place. */
  private readonly held: Body;

  private constructor(
    private readonly doc: OpenApiDocument,
    private readonly schema: Located,
    private readonly validator: SchemaValidator,
    made: Body,
    leaveOut: readonly string[],
    kept: readonly string[],
  ) {
    this.base = Object.fromEntries(Object.entries(made).filter(([name]) => !leaveOut.includes(name)));
    this.held = Object.fromEntries(Object.entries(made).filter(([name]) => leaveOut.includes(name)));
    this.flat = flatten(doc, schema);
    this.properties = [...this.flat.properties].flatMap(([name, node]) => {
      const f = flatten(doc, node);
      return f.readOnly || leaveOut.includes(name) || kept.includes(name) ? [] : [[name, node, f] as const];
    });
  }

  /**
   * The inputs of a request body schema, or why there are none: it is no object with
   * properties, or no body valid against it could be made. `leaveOut` names properties the
   * caller sets itself (the mark field).
   *
   * @example
   * ```ts
   * BodyInputs.of(doc, postMedia.schema, { leaveOut: ['label'] }); // a BodyInputs
   * BodyInputs.of(doc, arrayBody.schema, { leaveOut: [] });       // 'the create body's schema (…) is not an object with properties of its own, …'
   * ```
   */
  static of(doc: OpenApiDocument, schema: Located, options: { readonly leaveOut: readonly string[]; readonly keep?: Readonly<Record<string, unknown>> }): BodyInputs | string {
    const validator = validatorOf(doc, 'request');
    const flat = flatten(doc, schema);
    if (soleType(flat) !== 'object' || flat.properties.size === 0 || flat.alternatives.length > 0) return `the create body's schema (${schema.pointer}) is not an object with properties of its own, which restprobe varies one at a time`;
    const made = new ValueGenerator(doc, validator).value(schema, 'create');
    if (made === undefined || !isObject(made.value)) return `no body valid against ${schema.pointer} could be made`;
    // Values the caller keeps as they are, where the schema takes them with the rest of the generated body.
    const keep = Object.fromEntries(Object.entries(options.keep ?? {}).filter(([name]) => flat.properties.has(name)));
    const keeps = validator.validate(schema, { ...made.value, ...keep }).ok;
    return new BodyInputs(doc, schema, validator, keeps ? { ...made.value, ...keep } : made.value, options.leaveOut, keeps ? Object.keys(keep) : []);
  }

  /** Whether the schema accepts `body`, with values of its own in place of the properties left out (the caller sets those). */
  accepts(body: Body): boolean {
    return this.validator.validate(this.schema, { ...body, ...this.held }).ok;
  }

  /** Bodies the schema accepts: each required property, the optional ones or not, each value drawn within its constraints. */
  valid(): Arbitrary<Body> {
    const fc = fastCheck();
    const model: Record<string, Arbitrary<unknown>> = {};
    for (const [name, node, f] of this.properties) {
      const value = this.valueOf(name, node, f);
      if (value !== undefined) model[name] = value;
    }
    const requiredKeys = this.properties.map(([name]) => name).filter((n) => this.flat.required.has(n));
    const fixed = Object.fromEntries(Object.entries(this.base).filter(([name]) => !(name in model)));
    // The unmapper lets fast-check shrink a targeted body too (an example it did not draw).
    const drawnPart = (value: unknown): Partial<Record<string, unknown>> => {
      if (!isObject(value) || Object.entries(fixed).some(([k, v]) => value[k] !== v)) throw new Error('not a body this arbitrary makes');
      return Object.fromEntries(Object.entries(value).filter(([k]) => k in model));
    };
    // A body the schema refuses as a whole (a rule across properties) gives way to the generated one: never a filter, which could spin.
    return fc
      .record(model, { requiredKeys: requiredKeys.filter((n) => n in model) })
      .map((drawn) => ({ ...fixed, ...drawn }) as Body, drawnPart)
      .map((b) => (this.accepts(b) ? b : this.base), asIs(isObject));
  }

  /**
   * The targeted valid bodies, tried before random ones: the required properties alone, then
   * bodies that together give every property each of its edge values (each enum member, both
   * booleans, the shortest and longest strings, the bounds of numbers, null where allowed).
   */
  edgeBodies(): Body[] {
    const edges = this.properties.map(([name, node, f]) => [name, this.edgesOf(name, node, f)] as const);
    const count = Math.min(maxEdgeBodies, Math.max(0, ...edges.map(([, e]) => e.length)));
    const requiredOnly = Object.fromEntries(Object.entries(this.base).filter(([name]) => this.flat.required.has(name)));
    const bodies = [requiredOnly];
    for (let i = 0; i < count; i++) bodies.push({ ...this.base, ...Object.fromEntries(edges.flatMap(([name, e]) => (i < e.length ? [[name, e[i]]] : []))) });
    return bodies.filter((b) => this.accepts(b));
  }

  /**
   * Every constraint the schema states that one property's value (or absence) can break alone.
   *
   * @example
   * ```ts
   * inputs.breaks().map((b) => `${b.property}: ${b.constraint}`);
   * // ['name: type string', 'name: required', 'name: maxLength 200', 'name: minLength 1', 'status: type string', 'status: enum ["active","archived"]', …]
   * ```
   */
  breaks(): Break[] {
    return this.properties.flatMap(([name, , f]) => this.breaksOf(name, f)).filter((b) => !this.accepts(broken({ broken: b, base: this.base })));
  }

  /** The targeted broken bodies: one per kind of constraint the schema states, on the generated body. */
  targetedBreaks(): BrokenBody[] {
    const all = this.breaks();
    return constraintKinds.flatMap((kind) => all.filter((b) => b.kind === kind).slice(0, 1)).map((b) => ({ broken: b, base: this.base }));
  }

  /**
   * Broken bodies at random: any constraint, on any valid body (shrinking goes to the first
   * constraint and the smallest body).
   *
   * @throws CheckSkipped when the schema states no constraint one property can break.
   */
  invalid(): Arbitrary<BrokenBody> {
    const fc = fastCheck();
    const all = this.breaks();
    if (all.length === 0) throw new CheckSkipped(`the create body's schema (${this.schema.pointer}) states no constraint one property can break`);
    // A break a base happens to make valid again (a rule across properties) falls back to the generated base.
    return fc.record({ broken: fc.constantFrom(...all), base: this.valid() }).map((c) => (this.accepts(broken(c)) ? { broken: c.broken, base: this.base } : c), asIs((v): v is BrokenBody => isObject(v) && isObject(v['base'])));
  }

  /**
   * A value arbitrary within the property's constraints; what is not drawn (objects, arrays,
   * formats) takes generated values. Undefined when no value could be made: the property is
   * then sent as the generated body has it, or left out.
   */
  private valueOf(name: string, node: Located, f: FlatSchema): Arbitrary<unknown> | undefined {
    const fc = fastCheck();
    const type = soleType(f);
    const generated = this.generated(name, node);
    const members = f.enum?.filter((v) => v !== null) ?? [];
    const min = f.minLength ?? 0;
    const max = f.maxLength ?? min + randomLength;
    const low = Math.ceil(lowOf(f) ?? -unboundedInt);
    const high = Math.floor(highOf(f) ?? unboundedInt);
    const drawn = (): Arbitrary<unknown> | undefined => {
      if (f.hasConst) return fc.constant(f.const);
      if (members.length > 0) return fc.constantFrom(...members);
      if (type === 'boolean') return fc.boolean();
      // Drawn short (fast-check's default size), but any length the schema allows can be shrunk from.
      if (type === 'string' && f.pattern === undefined && f.format === undefined && min <= max) return fc.string({ unit: fc.constantFrom(...alphanumeric), minLength: min, maxLength: max });
      if (type === 'integer' && low <= high) return fc.integer({ min: low, max: high });
      // A drawn match the other constraints refuse (its length) gives way to a generated value.
      const fallback = generated[0];
      if (type === 'string' && f.pattern !== undefined && f.format === undefined && fallback !== undefined) return matching(f.pattern)?.map((v) => (this.accepts({ ...this.base, [name]: v }) ? v : fallback), asIs((v): v is string => typeof v === 'string'));
      return undefined;
    };
    const own = drawn() ?? (generated.length > 0 ? fc.constantFrom(...generated) : undefined);
    if (own === undefined) return undefined;
    return f.types.has('null') ? fc.oneof(own, fc.constant(null)) : own;
  }

  /** The generator's values for a property (one per purpose, distinct), the body's own first. */
  private generated(name: string, node: Located): unknown[] {
    const generator = new ValueGenerator(this.doc, this.validator);
    const values = [this.base[name], ...(['create', 'replace', 'patch'] as const).map((p) => generator.value(node, p, name)?.value)].filter((v) => v !== undefined);
    return [...new Map(values.map((v) => [JSON.stringify(v), v])).values()];
  }

  private edgesOf(name: string, node: Located, f: FlatSchema): unknown[] {
    const type = soleType(f);
    const values: unknown[] = [];
    if (f.enum !== undefined) values.push(...f.enum.filter((v) => v !== null));
    else if (type === 'boolean') values.push(true, false);
    else if (type === 'string' && f.pattern === undefined && f.format === undefined) values.push(...sendable('a', Math.max(f.minLength ?? 0, 1)), ...(f.maxLength !== undefined ? sendable('z', f.maxLength) : []));
    else if (type === 'integer' || type === 'number') values.push(...[lowOf(f), highOf(f)].filter((n) => n !== undefined));
    else if (type === 'string') values.push(...this.generated(name, node));
    if (f.types.has('null')) values.push(null);
    return values.filter((v) => this.accepts({ ...this.base, [name]: v }));
  }

  private breaksOf(name: string, f: FlatSchema): Break[] {
    const out: Break[] = [];
    // A schema that names no type admits every value: it has no type to break.
    const wrong = f.types.size === 0 ? undefined : wrongTypes.find(([t]) => !admits(f, t));
    if (wrong !== undefined) out.push({ property: name, kind: 'type', constraint: `type ${[...f.types].join(' or ')}`, value: wrong[1] });
    if (this.flat.required.has(name)) out.push({ property: name, kind: 'required', constraint: 'required' });
    if (f.enum !== undefined) {
      const member = f.enum.find((v) => v !== null);
      const outside = typeof member === 'number' ? Math.max(...f.enum.filter((v): v is number => typeof v === 'number')) + 1 : 'restprobe-not-a-member';
      out.push({ property: name, kind: 'enum', constraint: `enum ${JSON.stringify(f.enum)}`, value: outside });
    }
    // A string of z's or a's breaks a pattern, a format or an enum too: lengths are broken alone only where nothing else constrains the text.
    const plainText = f.pattern === undefined && f.format === undefined && f.enum === undefined;
    if (plainText && f.maxLength !== undefined) out.push(...sendable('z', f.maxLength + 1).map((value) => ({ property: name, kind: 'bounds' as const, constraint: `maxLength ${f.maxLength}`, value })));
    if (plainText && f.minLength !== undefined && f.minLength > 0) out.push(...sendable('a', f.minLength - 1).map((value) => ({ property: name, kind: 'bounds' as const, constraint: `minLength ${f.minLength}`, value })));
    const high = highOf(f);
    const low = lowOf(f);
    if (high !== undefined) out.push({ property: name, kind: 'bounds', constraint: `maximum ${high}`, value: high + 1 });
    if (low !== undefined) out.push({ property: name, kind: 'bounds', constraint: `minimum ${low}`, value: low - 1 });
    if (f.pattern !== undefined) {
      const fits = (s: string): boolean => s.length >= (f.minLength ?? 0) && s.length <= (f.maxLength ?? Infinity);
      const pattern = documentPattern(f.pattern);
      const value = unpatterned.find((s) => fits(s) && !(pattern?.test(s) ?? false));
      if (value !== undefined) out.push({ property: name, kind: 'pattern', constraint: `pattern ${f.pattern}`, value });
    }
    if (f.format !== undefined) out.push({ property: name, kind: 'format', constraint: `format ${f.format}`, value: `restprobe-not-a-${f.format}`.slice(0, f.maxLength ?? Infinity) });
    return out;
  }
}

/** The smallest value the schema allows (an exclusive bound moved in by one). */
const lowOf = (f: FlatSchema): number | undefined => f.minimum ?? (f.exclusiveMinimum !== undefined ? f.exclusiveMinimum + 1 : undefined);
/** The largest value the schema allows (an exclusive bound moved in by one). */
const highOf = (f: FlatSchema): number | undefined => f.maximum ?? (f.exclusiveMaximum !== undefined ? f.exclusiveMaximum - 1 : undefined);

/** An unmapper that hands back a value of the arbitrary's kind as it is, so fast-check can shrink a value it did not draw (a targeted case). */
function asIs<T>(is: (v: unknown) => v is T): (v: unknown) => T {
  return (v) => {
    if (!is(v)) throw new Error('not a value this arbitrary makes');
    return v;
  };
}

/** Strings that match `pattern` whole ({@link wholePattern}); undefined for a pattern fast-check cannot draw from (lookarounds, back references). */
function matching(pattern: string): Arbitrary<string> | undefined {
  try {
    return fastCheck().stringMatching(new RegExp(wholePattern(pattern)));
  } catch {
    return undefined;
  }
}

/**
 * The body of a broken case: its base with the one constraint broken.
 *
 * @example
 * ```ts
 * broken({ broken: { property: 'name', kind: 'required', constraint: 'required' }, base: { name: 'a', status: 'active' } }); // { status: 'active' }
 * ```
 */
export function broken({ broken: b, base }: BrokenBody): Body {
  const { [b.property]: _left, ...rest } = base;
  return b.kind === 'required' ? rest : { ...rest, [b.property]: b.value };
}

/**
 * A broken case in a line: the constraint, the value that breaks it, the rest of the body.
 *
 * @example
 * ```ts
 * showBroken({ broken: { property: 'name', kind: 'bounds', constraint: 'maxLength 3', value: 'zzzz' }, base: { name: 'a', status: 'active' } });
 * // 'name breaks maxLength 3 with "zzzz", beside {"status":"active"}'
 * ```
 */
export function showBroken(c: BrokenBody): string {
  const { property, kind, constraint, value } = c.broken;
  const how = kind === 'required' ? 'left out' : `with ${typeof value === 'string' && value.length > 40 ? `a string of ${value.length} characters` : brief(value)}`;
  const { [property]: _broken, ...rest } = c.base;
  return `${property} breaks ${constraint} ${how}, beside ${brief(rest)}`;
}

/**
 * The documented create of a collection (the POST its path answers to) and the bodies its
 * JSON request schema describes, the collection's mark field left for the caller to set.
 *
 * @throws CheckSkipped when the document describes no such POST, no JSON body schema for it,
 *   or a schema restprobe cannot vary property by property.
 *
 * @example
 * ```ts
 * const { operation, inputs } = createInputs(ctx, openapi, writable);
 * inputs.edgeBodies(); // [{ name: 'a' }, { name: 'a', status: 'active' }, …]
 * ```
 */
export function createInputs(ctx: CheckContext, openapi: OpenApiDocument, collection: CollectionProfile): { readonly operation: Operation; readonly inputs: BodyInputs } {
  const found = judgeFor(openapi, ctx.profile).operationOf('POST', ctx.http.url(collection.path));
  if (found === undefined) throw new CheckSkipped(`the OpenAPI document describes no POST at ${collection.path}`);
  const schema = jsonMedia(found.operation.requestBody?.content)?.schema;
  if (schema === undefined) throw new CheckSkipped(`the OpenAPI document gives no JSON request body schema for POST ${found.operation.path}`);
  const inputs = BodyInputs.of(openapi, schema, { leaveOut: collection.markField === undefined ? [] : [collection.markField], keep: references(ctx, collection) });
  if (typeof inputs === 'string') throw new CheckSkipped(inputs);
  return { operation: found.operation, inputs };
}

/**
 * The create body's values that name another resource, kept as configured in every body sent:
 * an id drawn from the schema names nothing the target has, and is refused (DRF's "Invalid
 * pk", a 404, a foreign-key error), though the schema takes it. A reference is a property
 * named like an id (`project_id`, `projectId`, not the collection's own id) or like another
 * configured collection (`project` beside `projects`: DRF's PrimaryKeyRelatedField).
 */
function references(ctx: CheckContext, collection: CollectionProfile): Record<string, unknown> {
  // Every configured collection: a check's profile holds its own alone.
  const others = new Set(ctx.collections.filter((c) => c.name !== collection.name).flatMap((c) => singularForms(c.name)));
  const isReference = (name: string): boolean => name !== collection.idField && (/(?:^|_)id$|[a-z]Id$/.test(name) || others.has(name));
  return Object.fromEntries(Object.entries(collection.createBody ?? {}).filter(([name]) => isReference(name)));
}

/**
 * Whether the operation documents `status` by its code or its range (`4XX`): a `default`
 * response documents no particular refusal.
 *
 * @example
 * ```ts
 * documentsStatus(createOperation, 409); // true when its responses list 409 or 4XX
 * ```
 */
export function documentsStatus(operation: Operation, status: number): boolean {
  const response = responseFor(operation, status);
  return response !== undefined && response.status !== 'default';
}
