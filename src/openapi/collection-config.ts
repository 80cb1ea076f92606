/**
 * One collection's config from its shape in the document: paths, id field and type, the
 * methods its paths take, the four bodies, how it lists, its noun actions and its
 * sub-collections, with a comment for each thing the document said that the config cannot
 * hold and a commented line for each thing it could hold but the document did not say.
 */
import { isServerKeptName } from '../model/server-kept-fields.js';
import type { RawChild, RawCollection } from '../config/raw-config.js';
import type { CollectionMethod } from '../model/profile.js';
import type { BodyInference, BodyResult } from './bodies.js';
import type { ChildShape, CollectionShape } from './collections.js';
import type { Located, OpenApiDocument } from '../model/openapi-document.js';
import { fillInLine, type ConfigPath, type Draft } from './draft.js';
import { inferListing, type ListingInference } from './listing.js';
import { jsonMedia, successResponse, type Operation, type OperationMethod } from '../document/operations.js';
import { flatten, soleType, type FlatSchema } from '../document/schema.js';

export interface CollectionContext {
  readonly doc: OpenApiDocument;
  readonly bodies: BodyInference;
  /** What precedes the document's paths on the wire (`/v2`). */
  readonly prefix: string;
  readonly draft: Draft;
}

/** What `--probe` needs to confirm a collection. */
export interface ProbeTarget {
  readonly name: string;
  readonly path: string;
  readonly listing: ListingInference;
}

const collectionMethods: readonly CollectionMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** `{owner}` in a path template becomes the config's `{id}`. */
const withId = (path: string, param: string | undefined): string => (param === undefined ? path : path.replace(`{${param}}`, '{id}'));


function itemSchema(doc: OpenApiDocument, get: Operation | undefined, listItems: Located | undefined): FlatSchema | undefined {
  const media = get === undefined ? undefined : jsonMedia(successResponse(get)?.content);
  const node = media?.schema ?? listItems;
  return node === undefined ? undefined : flatten(doc, node);
}

/** The id field (`id`, else the item path's parameter when the items carry it) and whether ids are integers. */
function idOf(doc: OpenApiDocument, item: FlatSchema | undefined, param: string | undefined, get: Operation | undefined): { idField?: string; idType: 'string' | 'integer' } {
  const p = get?.parameters.find((x) => x.in === 'path' && x.name === param);
  const type = p?.schema === undefined ? undefined : soleType(flatten(doc, p.schema));
  const idType = type === 'integer' || type === 'number' ? 'integer' : 'string';
  if (item === undefined || item.properties.has('id')) return { idType };
  if (param !== undefined && item.properties.has(param)) return { idField: param, idType };
  return { idType };
}

/** The `_links` members of an item schema, for the noun actions that are linked. */
function linkNames(doc: OpenApiDocument, item: FlatSchema | undefined): Set<string> {
  const links = item?.properties.get('_links');
  return new Set(links === undefined ? [] : flatten(doc, links).properties.keys());
}

/** Media types a client may try to write in, which ERR-unsupported-content-type-415 can send. */
const otherWriteTypes = ['application/x-www-form-urlencoded', 'multipart/form-data', 'application/xml', 'text/plain'];

/**
 * The media types the writes take, and the `notConsumed` line to fill in: left to the team,
 * since many frameworks take forms whatever their document says, and a type listed there
 * that the API takes would fail the 415 check.
 */
function consumed(ops: readonly (Operation | undefined)[]): string | undefined {
  const writes = ops.filter((op): op is Operation => op?.requestBody !== undefined);
  if (writes.length === 0) return undefined;
  const taken = new Set(writes.flatMap((op) => op.requestBody!.content.map((m) => (m.type.split(';')[0] ?? '').trim().toLowerCase())));
  const untaken = otherWriteTypes.filter((t) => !taken.has(t));
  const said = writes.map((op) => `${op.method} ${op.requestBody!.content.map((m) => m.type).join(', ')}`).join('; ');
  return `notConsumed: the media types the API refuses with 415, such as ${untaken.join(', ')}, which its document does not list (it says the writes take: ${said}); many frameworks take forms whatever their document says, so list only what the API refuses`;
}

function bodyComment(result: BodyResult & { ok: true }, schema: Located | undefined): string {
  return result.from === 'example' ? "the document's example" : `generated from ${schema?.pointer ?? 'the schema'}`;
}

/** The actions of `links` among `shapes`: those the item links in `_links`; the others are said in a comment. */
function actionsOf(shapes: CollectionShape['actions'], links: ReadonlySet<string>, notes: string[], prefix: string): string[] {
  const linked = shapes.filter((a) => links.has(a.name)).map((a) => a.name);
  for (const a of shapes.filter((x) => !links.has(x.name))) notes.push(`POST ${prefix}${a.path} looks like a noun action; list it in actions if items link it in _links while it is open`);
  return linked;
}

function childConfig(ctx: CollectionContext, child: ChildShape, at: ConfigPath, notes: string[]): RawChild | undefined {
  const { doc, bodies, prefix } = ctx;
  if (child.itemPath === undefined) {
    notes.push(`${prefix}${child.path} lists items that live only under their owner${child.nestedItemPath === undefined ? '' : ` (${prefix}${child.nestedItemPath})`}: restprobe's children need a top-level item path (§2), so it is not configured`);
    return undefined;
  }
  const media = jsonMedia(child.create?.requestBody?.content);
  const create = bodies.body(media, 'create');
  if (!create.ok) {
    notes.push(`${prefix}${child.path} is a sub-collection, but ${child.create === undefined ? 'takes no POST' : create.problem}: restprobe's children need a create body, so it is not configured`);
    return undefined;
  }
  const item = itemSchema(doc, child.item.get('GET'), undefined);
  const { idField } = idOf(doc, item, child.itemParam, child.item.get('GET'));
  const links = linkNames(doc, item);
  const actionNotes: string[] = [];
  const actions = actionsOf(child.actions, links, actionNotes, prefix);
  ctx.draft.trailing([...at, 'create'], bodyComment(create, media?.schema));
  ctx.draft.before(at, ...create.notes, ...actionNotes);
  return {
    name: child.name,
    path: prefix + withId(child.path, child.ownerParam),
    itemPath: prefix + withId(child.itemPath, child.itemParam),
    ...(idField !== undefined && { idField }),
    create: { body: create.body },
    ...(actions.length > 0 && { actions }),
  };
}

/**
 * The config of one collection, its comments added to the draft at `at`.
 *
 * @example
 * ```ts
 * collectionConfig(ctx, shape, ['collections', 0]).config;
 * // { name: 'things', path: '/v2/things', idType: 'string', methods: [...], create: { body: {...} }, … }
 * ```
 */
export function collectionConfig(ctx: CollectionContext, shape: CollectionShape, at: ConfigPath): { config: RawCollection; operations: Operation[]; probe: ProbeTarget } {
  const { doc, bodies, prefix, draft } = ctx;
  const notes: string[] = [];
  const fillIns: string[] = [];
  const ops = [shape.list, shape.create, ...shape.item.values()].filter((o): o is Operation => o !== undefined);
  const methods = collectionMethods.filter((m) => ops.some((o) => o.method === (m as OperationMethod)));

  const createMedia = jsonMedia(shape.create?.requestBody?.content);
  const createSchema = createMedia?.schema === undefined ? undefined : flatten(doc, createMedia.schema);
  const listing = inferListing(doc, shape.list, createSchema, prefix);
  const item = itemSchema(doc, shape.item.get('GET'), listing.items);
  const { idField, idType } = idOf(doc, item, shape.itemParam, shape.item.get('GET'));
  if (item !== undefined && !item.properties.has('id') && idField === undefined) fillIns.push("idField: the field of an item that holds its id (the document's items have no id)");
  if (shape.itemPath === undefined) notes.push(`the document has no item path below ${prefix}${shape.path}: restprobe reads and writes items at ${prefix}${shape.path}/{id}`);

  const config: Record<string, unknown> = { name: shape.name, path: prefix + shape.path };
  if (idField !== undefined) config['idField'] = idField;
  config['idType'] = idType;
  config['methods'] = methods;

  const bodyNotes: string[] = [];
  if (shape.create !== undefined) {
    const create = bodies.body(createMedia, 'create');
    bodyNotes.push(...create.notes);
    if (create.ok) {
      config['create'] = { body: create.body };
      draft.trailing([...at, 'create'], bodyComment(create, createMedia?.schema));
      const put = shape.item.get('PUT');
      const putMedia = jsonMedia(put?.requestBody?.content);
      const replace = put === undefined ? undefined : bodies.body(putMedia, 'replace');
      if (replace?.ok === true) {
        config['replace'] = { body: replace.body };
        draft.trailing([...at, 'replace'], bodyComment(replace, putMedia?.schema));
      } else if (replace !== undefined) fillIns.push(`replace.body: a full PUT body (${replace.problem})`);
      bodyNotes.push(...(replace?.notes ?? []));
      const patchOp = shape.item.get('PATCH');
      const patchMedia = jsonMedia(patchOp?.requestBody?.content);
      const patch = patchOp === undefined ? undefined : bodies.patch(patchMedia, create.body, listing.mark === undefined ? [] : [listing.mark]);
      if (patch?.ok === true) {
        config['patch'] = { body: patch.body };
        draft.trailing([...at, 'patch'], bodyComment(patch, patchMedia?.schema));
      } else if (patch !== undefined) fillIns.push(`patch.body: a PATCH body that changes one field (${patch.problem})`);
      bodyNotes.push(...(patch?.notes ?? []));
      const invalid = bodies.invalid(createMedia, create.body);
      if (invalid.ok) {
        config['invalid'] = { body: invalid.body };
        draft.trailing([...at, 'invalid'], 'the create body with one field its schema refuses');
      } else fillIns.push(`invalid.body: a well-formed body the API must refuse with 422 (${invalid.problem})`);
    } else fillIns.push(`create.body: a body that creates a valid item (${create.problem})`);
  }

  // Fields a server keeps on its own; one the create body may send (an app's own `version`, not readOnly) is the client's.
  const sentByClient = (k: string): boolean => {
    const p = createSchema?.properties.get(k);
    return p !== undefined && flatten(doc, p).readOnly !== true;
  };
  const volatile = item === undefined ? [] : [...item.properties.keys()].filter((k) => isServerKeptName(k) && !sentByClient(k));
  if (volatile.length > 0) config['volatileFields'] = volatile;
  // Taken but never shown: `writeOnly`, or a create field the item's schema leaves out (FastAPI's separate response model).
  const writeOnly = createSchema === undefined ? [] : [...createSchema.properties].filter(([k, p]) => flatten(doc, p).writeOnly || (item !== undefined && item.properties.size > 0 && !item.properties.has(k))).map(([k]) => k);
  if (writeOnly.length > 0) config['writeOnlyFields'] = writeOnly;
  if (listing.pagination !== undefined) config['pagination'] = listing.pagination;
  if (listing.filters.length > 0) config['filters'] = listing.filters;
  if (listing.sorts.length > 0) config['sorts'] = listing.sorts;
  if (listing.mark !== undefined) config['mark'] = { field: listing.mark };
  fillIns.push(...listing.fillIns, 'personalised: true when what this collection answers depends on who asks (one user\'s or tenant\'s data), false when every caller sees the same');

  const actions = actionsOf(shape.actions, linkNames(doc, item), notes, prefix);
  if (actions.length > 0) config['actions'] = actions;
  const children: RawChild[] = [];
  for (const c of shape.children) {
    // A child that is not kept adds no comment, so the next kept one's index is the count so far.
    const found = childConfig(ctx, c, [...at, 'children', children.length], notes);
    if (found !== undefined) children.push(found);
  }
  if (children.length > 0) config['children'] = children;

  const media = consumed([shape.create, shape.item.get('PUT'), shape.item.get('PATCH')]);
  if (media !== undefined) fillIns.push(media);
  draft.before(at, ...bodyNotes, ...listing.notes, ...notes);
  draft.end(at, ...fillIns.map(fillInLine));
  return { config: config as unknown as RawCollection, operations: [...ops, ...shape.children.flatMap((c) => [c.list, c.create, ...c.item.values()].filter((o): o is Operation => o !== undefined))], probe: { name: shape.name, path: prefix + shape.path, listing } };
}
