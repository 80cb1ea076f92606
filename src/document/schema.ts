/**
 * One schema seen flat, whichever OpenAPI version wrote it: its types (3.0's `nullable`
 * and 3.1's type arrays alike), its properties and required names merged across `allOf`,
 * its value constraints and examples. What infers bodies, ids, filters and pages reads
 * schemas through this, never the raw nodes.
 */
import { isObject } from '../model/json.js';
import type { Located, OpenApiDocument } from '../model/openapi-document.js';

export type SchemaType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';

export interface FlatSchema {
  readonly located: Located;
  /** Empty when the schema does not say (any type). */
  readonly types: ReadonlySet<SchemaType>;
  readonly properties: ReadonlyMap<string, Located>;
  readonly required: ReadonlySet<string>;
  readonly additionalProperties?: boolean | Located;
  readonly items?: Located;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly hasConst: boolean;
  readonly default?: unknown;
  /** `example` (3.0) and `examples` (3.1), in that order. */
  readonly examples: readonly unknown[];
  readonly format?: string;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly multipleOf?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems: boolean;
  readonly readOnly: boolean;
  readonly writeOnly: boolean;
  /** `oneOf` and `anyOf` alternatives, resolved. */
  readonly alternatives: readonly Located[];
  readonly discriminator?: { readonly propertyName: string; readonly mapping: Readonly<Record<string, string>> };
}

const schemaTypes = new Set<string>(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

interface Builder {
  types: Set<SchemaType>;
  typed: boolean;
  properties: Map<string, Located>;
  required: Set<string>;
  fields: Record<string, unknown>;
  examples: unknown[];
  alternatives: Located[];
}

/** Collects one node (and its `allOf` parts, depth first) into the builder. */
function collect(doc: OpenApiDocument, node: Located, into: Builder, seen: Set<string>): void {
  if (seen.has(node.pointer)) return; // a recursive allOf adds nothing the first visit did not
  seen.add(node.pointer);
  const s = node.value;
  if (!isObject(s)) return;
  const type = s['type'];
  const declared = (Array.isArray(type) ? type : type === undefined ? [] : [type]).filter((t): t is SchemaType => typeof t === 'string' && schemaTypes.has(t));
  if (declared.length > 0) {
    // allOf parts narrow: a second declaration keeps only what both allow.
    if (into.typed) into.types = new Set([...into.types].filter((t) => declared.includes(t) || (t === 'integer' && declared.includes('number'))));
    else into.types = new Set(declared);
    into.typed = true;
  }
  if (s['nullable'] === true) into.types.add('null');
  for (const [name, prop] of doc.entries(doc.child(node, 'properties'))) if (!into.properties.has(name)) into.properties.set(name, prop);
  if (Array.isArray(s['required'])) for (const r of s['required']) if (typeof r === 'string') into.required.add(r);
  if (s['example'] !== undefined) into.examples.push(s['example']);
  if (Array.isArray(s['examples'])) into.examples.push(...s['examples']);
  for (const key of ['enum', 'const', 'default', 'format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems', 'uniqueItems', 'readOnly', 'writeOnly', 'discriminator']) {
    if (s[key] !== undefined && into.fields[key] === undefined) into.fields[key] = s[key];
  }
  if (s['additionalProperties'] !== undefined && into.fields['additionalProperties'] === undefined) {
    into.fields['additionalProperties'] = typeof s['additionalProperties'] === 'boolean' ? s['additionalProperties'] : doc.child(node, 'additionalProperties');
  }
  if (s['items'] !== undefined && into.fields['items'] === undefined) into.fields['items'] = doc.child(node, 'items');
  for (const key of ['oneOf', 'anyOf']) into.alternatives.push(...doc.items(doc.child(node, key)));
  for (const part of doc.items(doc.child(node, 'allOf'))) collect(doc, part, into, seen);
}

/** 3.0 writes an exclusive bound as a boolean beside the bound; 3.1 as the bound itself. */
function exclusive(fields: Record<string, unknown>, key: 'exclusiveMinimum' | 'exclusiveMaximum', bound: 'minimum' | 'maximum'): { bound?: number; exclusive?: number } {
  const flag = fields[key];
  if (flag === true) return { exclusive: num(fields[bound]) };
  return { bound: num(fields[bound]), exclusive: num(flag) };
}

/**
 * The schema at `node` seen flat.
 *
 * @example
 * ```ts
 * const flat = flatten(doc, doc.at('/components/schemas/Thing')!);
 * [...flat.properties.keys()]; // ['id', 'name', 'status']
 * flat.types.has('object');    // true
 * ```
 */
export function flatten(doc: OpenApiDocument, node: Located): FlatSchema {
  const b: Builder = { types: new Set(), typed: false, properties: new Map(), required: new Set(), fields: {}, examples: [], alternatives: [] };
  collect(doc, node, b, new Set());
  const f = b.fields;
  // A schema that lists properties but names no type is an object to every generator.
  if (!b.typed && (b.properties.size > 0 || b.required.size > 0)) b.types.add('object');
  if (!b.typed && f['items'] !== undefined) b.types.add('array');
  const min = exclusive(f, 'exclusiveMinimum', 'minimum');
  const max = exclusive(f, 'exclusiveMaximum', 'maximum');
  const discriminator = isObject(f['discriminator']) && typeof f['discriminator']['propertyName'] === 'string'
    ? { propertyName: f['discriminator']['propertyName'], mapping: isObject(f['discriminator']['mapping']) ? (f['discriminator']['mapping'] as Record<string, string>) : {} }
    : undefined;
  return {
    located: node,
    types: b.types,
    properties: b.properties,
    required: b.required,
    ...(f['additionalProperties'] !== undefined && { additionalProperties: f['additionalProperties'] as boolean | Located }),
    ...(f['items'] !== undefined && { items: f['items'] as Located }),
    ...(Array.isArray(f['enum']) && { enum: f['enum'] }),
    ...(f['const'] !== undefined && { const: f['const'] }),
    hasConst: f['const'] !== undefined,
    ...(f['default'] !== undefined && { default: f['default'] }),
    examples: b.examples,
    ...(typeof f['format'] === 'string' && { format: f['format'] }),
    ...(typeof f['pattern'] === 'string' && { pattern: f['pattern'] }),
    ...(num(f['minLength']) !== undefined && { minLength: num(f['minLength']) }),
    ...(num(f['maxLength']) !== undefined && { maxLength: num(f['maxLength']) }),
    ...(min.bound !== undefined && { minimum: min.bound }),
    ...(max.bound !== undefined && { maximum: max.bound }),
    ...(min.exclusive !== undefined && { exclusiveMinimum: min.exclusive }),
    ...(max.exclusive !== undefined && { exclusiveMaximum: max.exclusive }),
    ...(num(f['multipleOf']) !== undefined && { multipleOf: num(f['multipleOf']) }),
    ...(num(f['minItems']) !== undefined && { minItems: num(f['minItems']) }),
    ...(num(f['maxItems']) !== undefined && { maxItems: num(f['maxItems']) }),
    uniqueItems: f['uniqueItems'] === true,
    readOnly: f['readOnly'] === true,
    writeOnly: f['writeOnly'] === true,
    alternatives: b.alternatives,
    ...(discriminator !== undefined && { discriminator }),
  };
}

/** Whether a flat schema admits a type (a schema that names none admits all). */
export function admits(flat: FlatSchema, type: SchemaType): boolean {
  return flat.types.size === 0 || flat.types.has(type) || (type === 'integer' && flat.types.has('number'));
}

/** The one non-null type a schema names, if it names exactly one. */
export function soleType(flat: FlatSchema): SchemaType | undefined {
  const types = [...flat.types].filter((t) => t !== 'null');
  return types.length === 1 ? types[0] : undefined;
}

/**
 * The items of a list response: a bare array, or the array member of an envelope, named
 * as envelopes name it (`data`, `items`, `results`…) or after the collection (`things` in
 * the page of `/things`). Any other array member is a field of one object, not a page.
 */
export function listShape(doc: OpenApiDocument, node: Located | undefined, collection?: string): { items: Located; envelope?: { arrayField: string; fields: readonly string[] } } | undefined {
  if (node === undefined) return undefined;
  const flat = flatten(doc, node);
  if (soleType(flat) === 'array' && flat.items !== undefined) return { items: flat.items };
  if (!admits(flat, 'object')) return undefined;
  const arrays = [...flat.properties].filter(([, p]) => {
    const f = flatten(doc, p);
    return soleType(f) === 'array' && f.items !== undefined;
  });
  const preferred = ['data', 'items', 'results', 'records', 'entries', 'values', 'elements', 'content', 'rows', ...(collection === undefined ? [] : [collection.toLowerCase()])];
  const chosen = arrays.find(([name]) => preferred.includes(name.toLowerCase()));
  if (chosen === undefined) return undefined;
  const items = flatten(doc, chosen[1]).items;
  return items === undefined ? undefined : { items, envelope: { arrayField: chosen[0], fields: [...flat.properties.keys()] } };
}
