/**
 * Validates values against the schemas of an OpenAPI document, with ajv (JSON Schema
 * 2020-12, which 3.1's schemas are). A 3.0 document's schemas are first rewritten into the
 * same dialect: `nullable` becomes a `null` type, boolean `exclusiveMinimum` a number.
 *
 * One reading departs from the letter of JSON Schema, as OpenAPI tools do: an object schema
 * with `additionalProperties: false` beside `allOf` (or `oneOf`, `anyOf`) is read as
 * `unevaluatedProperties: false`, so the properties its parts declare are allowed; and an
 * `allOf` part that names a closed base is an open copy of it, so a subtype's own are too.
 *
 * The direction matters: a property marked `readOnly` is required of a response only, a
 * `writeOnly` one of a request only (OpenAPI 3.0 §4.7.25.3 and 3.1's JSON Schema alike).
 * `init` checks every body it infers this way; response checks can later do the same.
 */
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import type { RegExpLike } from 'ajv/dist/types/index.js';
import { documentPattern } from './pattern.js';
import { newAjv } from '../ajv-lib.js';
import { isObject } from '../model/json.js';
import type { Located, OpenApiDocument } from '../model/openapi-document.js';
import { tokensOf, valueAt } from '../model/json-pointer.js';

/** Which side of an exchange a value is: what a client sends, or what a server answers. */
export type Direction = 'request' | 'response';

/** `formatOnly`: the value breaks a `format` and nothing else (an annotation in JSON Schema 2020-12 unless a dialect asserts it). */
export type Validity = { readonly ok: true } | { readonly ok: false; readonly problem: string; readonly formatOnly?: boolean };

const documentKey = 'urn:restprobe:openapi-document';

/** ajv's pattern engine: {@link documentPattern}, and a pattern it cannot compile matches anything (not judged). */
const patternEngine = Object.assign((pattern: string): RegExpLike => documentPattern(pattern) ?? { test: () => true }, { code: 'documentPattern' });

/** The node a local `$ref` names in the original document, for a property's readOnly/writeOnly. */
function target(root: unknown, node: unknown, depth = 0): unknown {
  if (depth > 16 || !isObject(node) || typeof node['$ref'] !== 'string') return node;
  const tokens = tokensOf(node['$ref']);
  return tokens === undefined ? node : target(root, valueAt(root, tokens), depth + 1);
}

/** The schema of property `name` of `schema`: its own, else one of its `allOf` parts' (where 3.0 documents often declare them). */
function propertyOf(root: unknown, schema: unknown, name: string, depth = 0): unknown {
  const s = target(root, schema);
  if (depth > 16 || !isObject(s)) return undefined;
  const own = isObject(s['properties']) ? s['properties'][name] : undefined;
  if (own !== undefined) return target(root, own);
  const parts = Array.isArray(s['allOf']) ? s['allOf'] : [];
  for (const part of parts) {
    const found = propertyOf(root, part, name, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** `required` without the properties the other direction owns. */
function requiredFor(root: unknown, schema: Record<string, unknown>, direction: Direction): unknown {
  const required = schema['required'];
  if (!Array.isArray(required)) return required;
  const owned = direction === 'request' ? 'readOnly' : 'writeOnly';
  return required.filter((name) => {
    const prop = propertyOf(root, schema, String(name));
    return !(isObject(prop) && prop[owned] === true);
  });
}

/** A copy of the document in ajv's dialect for `direction` (see the module comment). */
/** The keywords that compose a schema of parts. */
const compositions = ['allOf', 'oneOf', 'anyOf'] as const;

function convert(root: unknown, node: unknown, version: OpenApiDocument['version'], direction: Direction): unknown {
  if (Array.isArray(node)) return node.map((v) => convert(root, v, version, direction));
  if (!isObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = convert(root, v, version, direction);
  if (out['required'] !== undefined) out['required'] = requiredFor(root, node, direction);
  if (Array.isArray(out['oneOf']) && isObject(out['discriminator']) && typeof out['discriminator']['propertyName'] === 'string') byDiscriminator(out);
  // A closed base a part names (Swashbuckle closes every object schema, and writes a subtype as
  // allOf its base and its own properties) would refuse the subtype's own: the part is an open
  // copy of the base, and the subtype closes the whole (below) where it is closed itself.
  if (Array.isArray(node['allOf']) && Array.isArray(out['allOf'])) out['allOf'] = out['allOf'].map((part, i) => openedBase(root, (node['allOf'] as unknown[])[i], version, direction) ?? part);
  const composed = compositions.some((k) => Array.isArray(out[k]));
  // `additionalProperties: false` beside `allOf` refuses, in JSON Schema, every property the
  // parts declare: no object is valid. Its authors mean what 2020-12 says with `unevaluatedProperties`.
  if (out['additionalProperties'] === false && composed) {
    delete out['additionalProperties'];
    out['unevaluatedProperties'] = false;
  }
  if (version === '3.0') {
    for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
      if (typeof out[flag] !== 'boolean') continue;
      if (out[flag] === true && typeof out[bound] === 'number') out[flag] = out[bound];
      else delete out[flag];
      if (typeof out[flag] === 'number') delete out[bound];
    }
    if (out['nullable'] === true) {
      delete out['nullable'];
      // 3.0 tools honour `nullable` beside a `$ref`, though the spec ignores siblings there.
      if (typeof out['$ref'] === 'string') return { anyOf: [{ $ref: out['$ref'] }, { type: 'null' }] };
      // Beside a composition (drf-spectacular's nullable nested serializer: allOf around a $ref, with a type or not), null is one more choice: the parts would refuse it.
      if (composed) return { anyOf: [out, { type: 'null' }] };
      const type = out['type'];
      if (typeof type === 'string') out['type'] = [type, 'null'];
      if (Array.isArray(out['enum']) && !out['enum'].includes(null)) out['enum'] = [...out['enum'], null];
    }
  }
  return out;
}

/** For an `allOf` part that is a `$ref` to a closed object schema, a converted copy of it that is open; otherwise undefined. */
function openedBase(root: unknown, part: unknown, version: OpenApiDocument['version'], direction: Direction): unknown {
  if (!isObject(part) || typeof part['$ref'] !== 'string') return undefined;
  const base = target(root, part);
  if (!isObject(base) || (base['additionalProperties'] !== false && base['unevaluatedProperties'] !== false)) return undefined;
  const { additionalProperties: _a, unevaluatedProperties: _u, ...open } = convert(root, base, version, direction) as Record<string, unknown>;
  return open;
}

/**
 * `oneOf` with an OpenAPI `discriminator`, rewritten so the tag picks the branch: the
 * discriminator's value names one schema (by `mapping`, or by the schema's own name, the last
 * segment of its `$ref`), and the value must be valid against that one. Branches that
 * overlap (subtypes that `allOf` a common base, as springdoc's @JsonSubTypes and
 * drf-spectacular's PolymorphicProxySerializer write them) would otherwise match twice and
 * fail `oneOf`. A value without a tag that names a branch is invalid, as OpenAPI says, unless
 * a branch is inline (it has no name): then it must match one branch or more.
 */
function byDiscriminator(out: Record<string, unknown>): void {
  const d = out['discriminator'] as { propertyName: string; mapping?: unknown };
  const mapping = isObject(d.mapping) ? Object.entries(d.mapping).filter((e): e is [string, string] => typeof e[1] === 'string') : [];
  const branches = out['oneOf'] as unknown[];
  const cases: Record<string, unknown>[] = [];
  const named: string[] = [];
  for (const branch of branches) {
    const ref = isObject(branch) && typeof branch['$ref'] === 'string' ? branch['$ref'] : undefined;
    if (ref === undefined) continue;
    const name = ref.slice(ref.lastIndexOf('/') + 1);
    // A mapping value is a schema name or a reference; the schema's own name names it too, unless the mapping gives that name to another schema.
    const mapped = mapping.filter(([, to]) => to === ref || to === name).map(([tag]) => tag);
    const names = [...new Set([...mapped, ...(mapping.some(([tag]) => tag === name) && !mapped.includes(name) ? [] : [name])])];
    named.push(...names);
    cases.push({ if: { properties: { [d.propertyName]: { enum: names } }, required: [d.propertyName] }, then: branch });
  }
  if (cases.length === 0) return;
  delete out['oneOf'];
  const tagged = { properties: { [d.propertyName]: { enum: named } }, required: [d.propertyName] };
  // OpenAPI: the tag MUST be present and name a schema. With a branch of no name (inline), any branch may be the one.
  const choice = { if: tagged, then: { allOf: cases }, else: cases.length === branches.length ? tagged : { anyOf: branches } };
  out['allOf'] = [...(Array.isArray(out['allOf']) ? out['allOf'] : []), choice];
}

/** A pointer as a URI fragment ajv resolves back to the same tokens. */
const fragment = (pointer: string): string => pointer.split('/').map((t) => encodeURIComponent(t)).join('/');

/**
 * @example
 * ```ts
 * const requests = new SchemaValidator(doc, 'request');
 * requests.validate(media.schema!, { name: 'probe' }); // { ok: true }
 * requests.validate(media.schema!, { name: 42 });      // { ok: false, problem: '/name must be string' }
 * ```
 */
export class SchemaValidator {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction | string>();
  /** The same schemas with `format` not asserted, made when a value first breaks a format: whether it breaks anything else. */
  private lenient?: SchemaValidator;

  constructor(
    private readonly doc: OpenApiDocument,
    private readonly direction: Direction,
    formats = true,
  ) {
    // Documents are not JSON Schema meta-valid (they hold paths, info…), use keywords of their own
    // (`example`, `discriminator`, `xml`), and write patterns for other engines (documentPattern).
    // Decimal steps (`multipleOf: 0.01`) are judged to 9 places: 19.99 / 0.01 is 1998.9999… in floats.
    this.ajv = newAjv('2020-12', { strict: false, validateSchema: false, allErrors: false, logger: false, code: { regExp: patternEngine }, multipleOfPrecision: 9, allowUnionTypes: true, validateFormats: formats });
    this.ajv.addSchema(convert(doc.root, doc.root, doc.version, direction) as object, documentKey);
  }

  /** Whether `value` is valid against the schema at `schema` (a node of the document). */
  validate(schema: Located, value: unknown): Validity {
    const validator = this.validatorFor(schema.pointer);
    if (typeof validator === 'string') return { ok: false, problem: validator };
    if (validator(value)) return { ok: true };
    const first = validator.errors?.[0];
    const where = first?.instancePath === '' || first === undefined ? '(the value)' : first.instancePath;
    const params = first?.params as Record<string, unknown> | undefined;
    const detail = params?.['allowedValues'] !== undefined ? ` (${JSON.stringify(params['allowedValues'])})` : '';
    const formatOnly = first?.keyword === 'format' && (this.lenient ??= new SchemaValidator(this.doc, this.direction, false)).validate(schema, value).ok;
    return { ok: false, problem: `${where} ${first?.message ?? 'is not valid'}${detail}`, ...(formatOnly && { formatOnly }) };
  }

  private validatorFor(pointer: string): ValidateFunction | string {
    let found = this.compiled.get(pointer);
    if (found === undefined) {
      try {
        found = this.ajv.compile({ $ref: `${documentKey}#${fragment(pointer)}` });
      } catch (err) {
        found = `the schema at ${pointer} cannot be compiled: ${(err as Error).message}`;
      }
      this.compiled.set(pointer, found);
    }
    return found;
  }
}

/** One validator per document and direction, shared by every run of the process that holds the document (each would otherwise convert and compile it again). */
const validators = new WeakMap<OpenApiDocument, Partial<Record<Direction, SchemaValidator>>>();

/**
 * The shared {@link SchemaValidator} of a document for one direction.
 *
 * @example
 * ```ts
 * validatorOf(doc, 'response').validate(media.schema!, body);
 * ```
 */
export function validatorOf(doc: OpenApiDocument, direction: Direction): SchemaValidator {
  let byDirection = validators.get(doc);
  if (byDirection === undefined) validators.set(doc, (byDirection = {}));
  return (byDirection[direction] ??= new SchemaValidator(doc, direction));
}
