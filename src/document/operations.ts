/**
 * The operations a document describes, each with what a client needs to call it: its
 * parameters (path-level and operation-level merged), the media types and schemas of its
 * request body, its responses (media types, schemas, header names) and its security.
 *
 * Schemas stay {@link Located}: what is inferred from them (bodies now; response
 * conformance later) can be checked against the very node it came from.
 */
import { isObject } from '../model/json.js';
import type { Located, OpenApiDocument } from '../model/openapi-document.js';
import { below, pointerOf } from '../model/json-pointer.js';

/** The methods a path item may describe, in the order restprobe lists them. */
export const operationMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE'] as const;
export type OperationMethod = (typeof operationMethods)[number];

export interface Parameter {
  readonly name: string;
  readonly in: 'query' | 'header' | 'path' | 'cookie';
  readonly required: boolean;
  readonly schema?: Located;
  readonly description?: string;
}

/** One media type of a body: its schema and the examples the document gives for it. */
export interface MediaType {
  readonly type: string;
  readonly schema?: Located;
  /** `example`, then each of `examples` (their `value`s), as written. */
  readonly examples: readonly unknown[];
}

export interface Response {
  /** `200`, `2XX`, `default`. */
  readonly status: string;
  readonly content: readonly MediaType[];
  /** Header names as the document spells them, with their objects. */
  readonly headers: readonly (readonly [string, Located])[];
}

/** A security requirement: scheme name → scopes. An empty list of them means "no credentials". */
export type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

export interface Operation {
  readonly method: OperationMethod;
  /** The path template as the document writes it (`/things/{id}`). */
  readonly path: string;
  readonly pointer: string;
  readonly operationId?: string;
  readonly parameters: readonly Parameter[];
  readonly requestBody?: { readonly required: boolean; readonly content: readonly MediaType[] };
  readonly responses: readonly Response[];
  /** The operation's own requirements, else the document's; undefined when neither says. */
  readonly security?: readonly SecurityRequirement[];
  readonly deprecated: boolean;
  /** The runtime expressions of its callbacks (`{$request.body#/url}`): where it will call back. */
  readonly callbacks: readonly string[];
}

export interface PathItem {
  readonly path: string;
  readonly operations: readonly Operation[];
}

const parameterLocations = new Set(['query', 'header', 'path', 'cookie']);

function parameter(doc: OpenApiDocument, node: Located): Parameter | undefined {
  const p = node.value;
  if (!isObject(p) || typeof p['name'] !== 'string' || typeof p['in'] !== 'string' || !parameterLocations.has(p['in'])) return undefined;
  // A parameter described by `content` (rare) keeps the schema of its first media type.
  const schema = doc.child(node, 'schema') ?? doc.child(doc.entries(doc.child(node, 'content'))[0]?.[1], 'schema');
  return {
    name: p['name'],
    in: p['in'] as Parameter['in'],
    required: p['in'] === 'path' || p['required'] === true,
    ...(schema !== undefined && { schema }),
    ...(typeof p['description'] === 'string' && { description: p['description'] }),
  };
}

/** Path-level parameters, overridden by operation-level ones of the same name and location. */
function parameters(doc: OpenApiDocument, pathItem: Located, operation: Located): Parameter[] {
  const byKey = new Map<string, Parameter>();
  for (const node of [...doc.items(doc.child(pathItem, 'parameters')), ...doc.items(doc.child(operation, 'parameters'))]) {
    const p = parameter(doc, node);
    if (p !== undefined) byKey.set(`${p.in}:${p.name}`, p);
  }
  return [...byKey.values()];
}

function examplesOf(doc: OpenApiDocument, media: Located): unknown[] {
  const m = media.value as Record<string, unknown>;
  const found: unknown[] = [];
  if (m['example'] !== undefined) found.push(m['example']);
  for (const [, example] of doc.entries(doc.child(media, 'examples'))) {
    if (isObject(example.value) && example.value['value'] !== undefined) found.push(example.value['value']);
  }
  return found;
}

function content(doc: OpenApiDocument, node: Located | undefined): MediaType[] {
  return doc.entries(doc.child(node, 'content')).map(([type, media]) => {
    const schema = doc.child(media, 'schema');
    return { type, ...(schema !== undefined && { schema }), examples: examplesOf(doc, media) };
  });
}

function security(doc: OpenApiDocument, node: Located | undefined): SecurityRequirement[] | undefined {
  if (node === undefined || !Array.isArray(node.value)) return undefined;
  return doc.items(node).flatMap((r) => (isObject(r.value) ? [Object.fromEntries(Object.entries(r.value).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : []]))] : []));
}

function operation(doc: OpenApiDocument, path: string, pathItem: Located, method: OperationMethod): Operation | undefined {
  const node = doc.child(pathItem, method.toLowerCase());
  if (node === undefined || !isObject(node.value)) return undefined;
  const op = node.value;
  const body = doc.child(node, 'requestBody');
  const responses = doc.entries(doc.child(node, 'responses')).map(([status, response]): Response => ({
    status,
    content: content(doc, response),
    headers: doc.entries(doc.child(response, 'headers')),
  }));
  const sec = security(doc, doc.child(node, 'security')) ?? security(doc, doc.child({ value: doc.root, pointer: '' }, 'security'));
  return {
    method,
    path,
    pointer: node.pointer,
    ...(typeof op['operationId'] === 'string' && { operationId: op['operationId'] }),
    parameters: parameters(doc, pathItem, node),
    ...(body !== undefined && { requestBody: { required: isObject(body.value) && body.value['required'] === true, content: content(doc, body) } }),
    responses,
    ...(sec !== undefined && { security: sec }),
    deprecated: op['deprecated'] === true,
    callbacks: doc.entries(doc.child(node, 'callbacks')).flatMap(([, callback]) => (isObject(callback.value) ? Object.keys(callback.value) : [])),
  };
}

/**
 * Every path of the document with its operations, in document order.
 *
 * @example
 * ```ts
 * pathItems(doc).map((p) => `${p.path}: ${p.operations.map((o) => o.method).join(' ')}`);
 * // ['/things: GET POST', '/things/{id}: GET PUT PATCH DELETE']
 * ```
 */
export function pathItems(doc: OpenApiDocument): PathItem[] {
  const paths = doc.child({ value: doc.root, pointer: '' }, 'paths');
  if (paths === undefined || !isObject(paths.value)) return [];
  return Object.keys(paths.value).flatMap((path) => {
    if (!path.startsWith('/')) return []; // `x-` extensions live beside the paths
    const item = doc.resolve({ value: (paths.value as Record<string, unknown>)[path], pointer: below(pointerOf(['paths']), path) });
    if (item === undefined) return [];
    return [{ path, operations: operationMethods.flatMap((m) => operation(doc, path, item, m) ?? []) }];
  });
}

/** The first 2xx response (`200`, `201`, `2XX`…), the way a success is described. */
export function successResponse(op: Operation): Response | undefined {
  const ok = op.responses.filter((r) => /^2(\d\d|XX)$/i.test(r.status));
  return ok.sort((a, b) => a.status.localeCompare(b.status))[0];
}

/** The JSON media type of a body or response (application/json, or any `+json`), if it has one. */
export function jsonMedia(content: readonly MediaType[] | undefined): MediaType | undefined {
  const essence = (t: string): string => (t.split(';')[0] ?? '').trim().toLowerCase();
  return content?.find((m) => essence(m.type) === 'application/json') ?? content?.find((m) => /^application\/[^/]*\+json$/.test(essence(m.type)) && essence(m.type) !== 'application/merge-patch+json') ?? content?.find((m) => /json/.test(essence(m.type)));
}
