/**
 * The bodies a collection's config holds (create, replace, patch, invalid), from the
 * document: its own examples first, when they are valid against its own schema, else
 * values generated from the schema. An invalid body is the create body with one property
 * given a value its schema refuses (a wrong type, else a value outside its enum).
 */
import { isObject } from '../model/json.js';
import type { OpenApiDocument } from '../model/openapi-document.js';
import { isObjectSchema, ValueGenerator, type BodyPurpose } from '../document/generate.js';
import type { SchemaValidator } from '../document/json-schema.js';
import type { MediaType } from '../document/operations.js';
import { admits, flatten } from '../document/schema.js';

export type Body = Record<string, unknown>;

/** A body, where it came from, and what was passed over on the way. */
export type BodyResult =
  | { readonly ok: true; readonly body: Body; readonly from: 'example' | 'generated'; readonly notes: readonly string[] }
  | { readonly ok: false; readonly problem: string; readonly notes: readonly string[] };

/** Values of each JSON type, to find one a property's schema refuses. */
const wrongValues: readonly (readonly [string, unknown])[] = [
  ['integer', 42],
  ['string', 'restprobe-not-valid'],
  ['boolean', true],
  ['object', {}],
  ['array', []],
];

export class BodyInference {
  private readonly generator: ValueGenerator;

  constructor(
    private readonly doc: OpenApiDocument,
    private readonly validator: SchemaValidator,
  ) {
    this.generator = new ValueGenerator(doc, validator);
  }

  /**
   * A body for `purpose` sent as `media`: a valid example of the document's, else a generated one.
   *
   * @example
   * ```ts
   * bodies.body(postMedia, 'create'); // { ok: true, body: { name: 'Apollo' }, from: 'example', notes: [] }
   * ```
   */
  body(media: MediaType | undefined, purpose: BodyPurpose): BodyResult {
    if (media === undefined) return { ok: false, problem: 'the document gives no JSON request body', notes: [] };
    const notes: string[] = [];
    const schema = media.schema;
    for (const example of media.examples) {
      if (!isObject(example)) continue;
      const validity = schema === undefined ? ({ ok: true } as const) : this.validator.validate(schema, example);
      if (validity.ok) return { ok: true, body: example, from: 'example', notes };
      notes.push(`the document's example breaks its own schema (${validity.problem}), so it was not used`);
    }
    if (schema === undefined) return { ok: false, problem: `the ${media.type} body has neither a schema nor a usable example`, notes };
    if (!isObjectSchema(this.doc, schema)) return { ok: false, problem: 'the request body is not a JSON object, and restprobe sends objects', notes };
    const made = this.generator.value(schema, purpose);
    if (made === undefined || !isObject(made.value)) return { ok: false, problem: `no value could be generated that is valid against ${schema.pointer}`, notes };
    return { ok: true, body: made.value, from: 'generated', notes };
  }

  /**
   * A PATCH body that changes one property of `create` (never one of `keep`), valid against
   * the PATCH schema; the document's example when it has a valid one.
   */
  patch(media: MediaType | undefined, create: Body, keep: readonly string[]): BodyResult {
    if (media?.examples.some(isObject) === true) {
      const fromExample = this.body(media, 'patch');
      if (fromExample.ok) return fromExample;
    }
    const schema = media?.schema;
    if (schema === undefined) return this.body(media, 'patch');
    const changed = this.changedProperty(schema, create, keep);
    if (changed !== undefined) {
      for (const candidate of [changed, { ...create, ...changed }]) {
        if (this.validator.validate(schema, candidate).ok) return { ok: true, body: candidate, from: 'generated', notes: [] };
      }
    }
    return this.body(media, 'patch');
  }

  /** `{ prop: new value }` for the first property of `create` whose schema yields a patched value that differs. */
  private changedProperty(schema: NonNullable<MediaType['schema']>, create: Body, keep: readonly string[]): Body | undefined {
    const flat = flatten(this.doc, schema);
    for (const [name, prop] of flat.properties) {
      if (keep.includes(name) || !(name in create) || flatten(this.doc, prop).readOnly) continue;
      const made = this.generator.value(prop, 'patch', name);
      if (made !== undefined && JSON.stringify(made.value) !== JSON.stringify(create[name])) return { [name]: made.value };
    }
    return undefined;
  }

  /**
   * `create` with one property its schema refuses: a required one first, by a value of a type
   * the property does not admit, else one outside its enum.
   *
   * @example
   * ```ts
   * bodies.invalid(postMedia, { name: 'probe', status: 'active' }); // { ok: true, body: { name: 42, status: 'active' }, … }
   * ```
   */
  invalid(media: MediaType | undefined, create: Body): BodyResult {
    const schema = media?.schema;
    if (schema === undefined) return { ok: false, problem: 'the document gives no schema for the create body, so nothing says what is invalid', notes: [] };
    // With oneOf/anyOf, the properties are the branch's that the create body matches.
    const top = flatten(this.doc, schema);
    const branch = top.properties.size > 0 ? undefined : top.alternatives.find((b) => this.validator.validate(b, create).ok);
    const flat = branch === undefined ? top : flatten(this.doc, branch);
    const names = [...flat.properties.keys()].filter((n) => n in create);
    const ordered = [...names.filter((n) => flat.required.has(n)), ...names.filter((n) => !flat.required.has(n))];
    for (const name of ordered) {
      const prop = flatten(this.doc, flat.properties.get(name)!);
      if (prop.readOnly) continue;
      const wrong = [...wrongValues.filter(([type]) => !admits(prop, type as 'integer')).map(([, v]) => v), ...(prop.enum !== undefined ? ['restprobe-not-a-member'] : [])];
      for (const value of wrong) {
        const body = { ...create, [name]: value };
        if (!this.validator.validate(schema, body).ok) return { ok: true, body, from: 'generated', notes: [] };
      }
    }
    return { ok: false, problem: 'no property of the create body has a constraint one value can break', notes: [] };
  }
}
