/**
 * How a collection is listed, from its GET's query parameters and its list response:
 * the page style and parameter names (cursor, offset, or page number; the page size and its
 * maximum), the envelope the items come in, the sort keys (from the sort parameter's enum),
 * the filters (parameters named for a field of the items), and a field restprobe may mark
 * its items with (a free-text filterable field).
 */
import type { RawCollection } from '../config/raw-config.js';
import type { Located, OpenApiDocument } from '../model/openapi-document.js';
import { jsonMedia, successResponse, type Operation, type Parameter } from '../document/operations.js';
import { pointerOf } from '../model/json-pointer.js';
import { flatten, listShape, soleType, type FlatSchema } from '../document/schema.js';

export interface ListingInference {
  readonly pagination?: NonNullable<RawCollection['pagination']>;
  readonly sorts: readonly string[];
  readonly filters: readonly string[];
  readonly mark?: string;
  /** What the document says that the config cannot hold, or that the team should look at. */
  readonly notes: readonly string[];
  /** What the config could hold but the document does not say. */
  readonly fillIns: readonly string[];
  /** The page's item schema, for the id field and volatile fields. */
  readonly items?: Located;
  /** The envelope's members, or undefined for a bare array. */
  readonly envelope?: { readonly arrayField: string; readonly fields: readonly string[] };
}

const names = {
  cursor: ['cursor', 'after', 'starting_after', 'page_token', 'pagetoken', 'next', 'next_token', 'continuation', 'continuation_token', 'page_cursor'],
  offset: ['offset', 'skip', 'start'],
  page: ['page', 'page_number', 'pagenumber', 'p'],
  limit: ['limit', 'per_page', 'perpage', 'page_size', 'pagesize', 'size', 'count', 'max_results', 'maxresults', 'top', 'first'],
  sort: ['sort', 'sort_by', 'sortby', 'order_by', 'orderby'],
  order: ['order', 'direction', 'dir', 'sort_dir', 'sortdir', 'sort_order', 'sortorder', 'sort_direction'],
} as const;

/** Query parameters that select a page, a version or a representation, never a field. */
const notFilters = new Set(['q', 'query', 'search', 'fields', 'expand', 'include', 'embed', 'v', 'version', 'api-version', 'api_version', 'format', 'callback', 'before', 'ending_before']);

const lower = (s: string): string => s.toLowerCase();

function named(params: readonly Parameter[], list: readonly string[]): Parameter | undefined {
  return params.find((p) => list.includes(lower(p.name)));
}

/** The string members of a parameter's enum (its items' enum for an array parameter). */
function enumOf(doc: OpenApiDocument, p: Parameter | undefined): string[] | undefined {
  if (p?.schema === undefined) return undefined;
  const flat = flatten(doc, p.schema);
  const values = flat.enum ?? (flat.items !== undefined ? flatten(doc, flat.items).enum : undefined);
  return values?.filter((v): v is string => typeof v === 'string');
}

const isDirection = (values: readonly string[] | undefined): boolean => values !== undefined && values.length > 0 && values.every((v) => /^(asc|desc|ascending|descending)$/i.test(v));

function integerBound(doc: OpenApiDocument, p: Parameter | undefined, key: 'maximum' | 'minimum'): number | undefined {
  if (p?.schema === undefined) return undefined;
  const flat = flatten(doc, p.schema);
  const v = key === 'maximum' ? (flat.maximum ?? (flat.exclusiveMaximum !== undefined ? flat.exclusiveMaximum - 1 : undefined)) : flat.minimum;
  return v !== undefined && Number.isInteger(v) ? v : undefined;
}

/** A field restprobe can set to a run-unique value: an optional, free-text string property. */
function markable(doc: OpenApiDocument, create: FlatSchema | undefined, field: string): boolean {
  const node = create?.properties.get(field);
  if (node === undefined || create?.required.has(field)) return false;
  const f = flatten(doc, node);
  const fitsMark = f.maxLength === undefined || f.maxLength >= 40;
  return soleType(f) === 'string' && f.enum === undefined && !f.hasConst && f.format === undefined && f.pattern === undefined && !f.readOnly && fitsMark;
}

type RawEnvelope = NonNullable<NonNullable<RawCollection['pagination']>['envelope']>;

/** What a next member holds, by its format or name (`next_url`, `next_token`); undefined when neither tells. */
function nextKind(doc: OpenApiDocument, page: Located, member: string): 'cursor' | 'url' | undefined {
  const node = flatten(doc, page).properties.get(member);
  const format = node === undefined ? undefined : flatten(doc, node).format;
  if ((format !== undefined && /^(uri|url|uri-reference|iri)$/.test(format)) || /url|link|href/i.test(member)) return 'url';
  return /cursor|token/i.test(member) ? 'cursor' : undefined;
}

/**
 * The `pagination.envelope` of pages that are not the conventions' `{ "data", "next_cursor" }`
 * (§4), with a note saying so and fill-ins for what the document does not tell (whether
 * `next` is a cursor or a URL); undefined for the conventions' own pages.
 */
function envelopeOf(doc: OpenApiDocument, page: Located, shape: NonNullable<ListingInference['envelope']>, style: string | undefined): { config?: RawEnvelope; note: string; fillIns: string[] } | undefined {
  const { arrayField, fields } = shape;
  const next = style === 'cursor' ? fields.find((f) => /next/i.test(f)) : undefined;
  if (arrayField === 'data' && (style !== 'cursor' || next === 'next_cursor')) return undefined;
  const members = `{ ${fields.map((f) => `"${f}"`).join(', ')} }`;
  const conventions = `the conventions' { "data"${style === 'cursor' ? ', "next_cursor"' : ''} } (§4)`;
  // Without a page style restprobe reads no page parameter, and the config holds no envelope.
  if (style === undefined) return { note: `pages come as ${members}, not ${conventions}, so the page checks will say where this differs`, fillIns: [] };
  const fillIns: string[] = [];
  const kind = next === undefined ? undefined : nextKind(doc, page, next);
  if (style === 'cursor' && next === undefined) fillIns.push(`pagination.envelope.next: a JSON Pointer to the next page's cursor or URL (no member of ${members} is named for it)`);
  if (next !== undefined && next !== 'next_cursor' && kind === undefined) fillIns.push(`pagination.envelope.nextIs: cursor or url, what "${next}" holds (the document does not say)`);
  const config: RawEnvelope = {
    ...(arrayField !== 'data' && { items: pointerOf([arrayField]) }),
    ...(next !== undefined && next !== 'next_cursor' && { next: pointerOf([next]) }),
    ...(kind === 'url' && { nextIs: 'url' as const }),
  };
  return { ...(Object.keys(config).length > 0 && { config }), note: `pages come as ${members}, not ${conventions}: END-get-collection-200 will say so, and the other page checks read them through pagination.envelope`, fillIns };
}

/**
 * What the GET of a collection says about listing it.
 *
 * @example
 * ```ts
 * inferListing(doc, listOp, createSchema);
 * // { pagination: { style: 'cursor', param: 'cursor', maxLimit: 100 }, sorts: ['created_at', 'name'], filters: ['status', 'label'], mark: 'label', … }
 * ```
 */
export function inferListing(doc: OpenApiDocument, list: Operation, create: FlatSchema | undefined, prefix = ''): ListingInference {
  const path = prefix + list.path;
  const notes: string[] = [];
  const fillIns: string[] = [];
  const query = list.parameters.filter((p) => p.in === 'query');
  const cursor = named(query, names.cursor);
  const offset = named(query, names.offset);
  const page = named(query, names.page);
  const limit = named(query, names.limit);
  const sortCandidates = query.filter((p) => names.sort.includes(lower(p.name) as never));
  const orderCandidates = query.filter((p) => names.order.includes(lower(p.name) as never));
  // `order` names a direction when its enum is asc/desc, a field otherwise.
  const order = orderCandidates.find((p) => isDirection(enumOf(doc, p)));
  const sort = sortCandidates[0] ?? orderCandidates.find((p) => p !== order);

  const style = cursor !== undefined ? 'cursor' : page !== undefined ? 'page' : offset !== undefined ? 'offset' : undefined;
  const maxLimit = integerBound(doc, limit, 'maximum');
  const firstPage = page === undefined ? undefined : integerBound(doc, page, 'minimum') === 0 ? 0 : 1;
  const pagination: NonNullable<RawCollection['pagination']> | undefined = style === undefined ? undefined : {
    style,
    ...(cursor !== undefined && { param: cursor.name }),
    ...(limit !== undefined && { limitParam: limit.name }),
    ...(style === 'offset' && offset !== undefined && { offsetParam: offset.name }),
    ...(page !== undefined && { pageParam: page.name, firstPage: firstPage as 0 | 1 }),
    ...(sort !== undefined && { sortParam: sort.name }),
    ...(order !== undefined && { orderParam: order.name }),
    ...(maxLimit !== undefined && { maxLimit }),
  };
  if (style === undefined) notes.push(`GET ${path} takes no page parameter (cursor, offset or page): the document describes one page with every item`);
  else if (maxLimit === undefined) fillIns.push(`pagination.maxLimit: the largest page size the API allows (${limit?.name ?? 'limit'} has no maximum in the document)`);

  const sorts = [...new Set((enumOf(doc, sort) ?? []).map((v) => v.replace(/^[-+]/, '').replace(/[: ](asc|desc)$/i, '')))];
  if (sort !== undefined && sorts.length === 0) fillIns.push(`sorts: the fields ${sort.name} accepts (the document gives no enum of them)`);

  const response = jsonMedia(successResponse(list)?.content);
  const shape = listShape(doc, response?.schema, list.path.split('/').pop());
  const itemFields = new Set(shape === undefined ? [] : flatten(doc, shape.items).properties.keys());
  const controls = new Set([cursor, offset, page, limit, sort, order].filter((p) => p !== undefined));
  const filters: string[] = [];
  const other: string[] = [];
  for (const p of query) {
    if (controls.has(p) || notFilters.has(lower(p.name))) continue;
    (itemFields.has(p.name) || create?.properties.has(p.name) === true ? filters : other).push(p.name);
  }
  if (other.length > 0) notes.push(`query parameters that name no field of the items, not judged as filters: ${other.join(', ')}`);
  const mark = filters.find((f) => markable(doc, create, f));
  if (mark === undefined && style !== undefined) fillIns.push('mark.field: an optional free-text field restprobe may set on what it creates, best one the collection filters on (without it the page walks skip)');

  if (shape === undefined && response?.schema !== undefined) notes.push(`the list response of GET ${path} holds no array the document names`);
  if (shape !== undefined && shape.envelope === undefined) notes.push('pages are a bare JSON array: the conventions (§4) wrap them in an object, { "data": [...] } with next_cursor, so the page checks will say so');
  const envelope = shape?.envelope === undefined || response?.schema === undefined ? undefined : envelopeOf(doc, response.schema, shape.envelope, style);
  if (envelope !== undefined) {
    notes.push(envelope.note);
    fillIns.push(...envelope.fillIns);
  }
  return {
    ...(pagination !== undefined && { pagination: { ...pagination, ...(envelope?.config !== undefined && { envelope: envelope.config }) } }),
    sorts,
    filters,
    ...(mark !== undefined && { mark }),
    notes,
    fillIns,
    ...(shape !== undefined && { items: shape.items }),
    ...(shape?.envelope !== undefined && { envelope: shape.envelope }),
  };
}
