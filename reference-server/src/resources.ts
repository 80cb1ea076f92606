/**
 * The method semantics every resource shares (conventions §4 "Method contract"):
 * list, create, read, replace, patch and delete, with the faults that bend them.
 *
 * A resource kind supplies its store, its paths and how a body becomes field values;
 * everything about status codes, Location and representations lives here, once.
 */
import { faultActive } from './request-faults.js';
import type { JsonObject } from './body.js';
import { param, requiredBody, type Operation, type RequestContext } from './context.js';
import { cursorPage, offsetPage, queryWithCarriedFilters, readCursor, readView, type ListingSpec } from './listing.js';
import { offsetPageBody, pageBody, readLimit, readOffset, readPageNumber, withOrder } from './pagination.js';
import { genericProblem, invalidQuery, notFound, ProblemError, validationFailed, type FieldError } from './problem.js';
import { emptyReply, jsonReply, type Reply } from './respond.js';
import type { RouteLink } from './links.js';
import type { Route } from './router.js';
import type { Collection, Entry, Fields } from './store.js';
import type { WriteMode } from './validation.js';

/** Ids a client may choose with PUT-create. Anything else can never exist: 404. */
export const clientIdPattern = /^[A-Za-z0-9_-]{1,64}$/;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** How a body is turned into field values for one write. */
export interface Write<D extends Fields> {
  readonly mode: WriteMode;
  /** The stored values (for `merge`, and to keep what a replace cannot reset). */
  readonly current?: D;
  /** The resource does not exist yet (POST, or PUT to a missing id). */
  readonly creating: boolean;
  /** The owner named by a nested collection path (POST /projects/{id}/tasks). */
  readonly parentId?: string;
}

export interface ResourceKind<D extends Fields> {
  /** "project", for messages. */
  readonly noun: string;
  readonly store: Collection<D>;
  /** The item's path, as Location sends it. */
  itemPath(id: string): string;
  /** Field values from a body; throws 422 with one error per bad field. */
  build(body: JsonObject, write: Write<D>, ctx: RequestContext): D;
  /** The stored values with optional fields at their defaults (fault `patch-resets-unsent`). */
  resetOptional(current: D): D;
  /** Runs after the store changed an entry (keeps dependent state in step). */
  afterWrite?(entry: Entry<D>): void;
  /** Runs after an entry was deleted (cascades). */
  afterDelete?(entry: Entry<D>): void;
  /** The item's `_links` (§1 hypermedia): action name → path, only the actions open in its state. */
  links?(entry: Entry<D>): Record<string, RouteLink>;
}

/** The representation: id, the fields in order, timestamps (and counters under faults). */
export function represent<D extends Fields>(kind: ResourceKind<D>, entry: Entry<D>): Record<string, unknown> {
  const representation: Record<string, unknown> = {
    id: entry.id,
    ...entry.data,
    created_at: entry.createdAt,
    updated_at: faultActive('field-retyped') ? Date.parse(entry.updatedAt) : entry.updatedAt,
  };
  if (faultActive('field-removed')) delete representation['created_at'];
  if (faultActive('get-counts-views')) representation['views'] = entry.views;
  if (faultActive('put-bumps-revision')) representation['revision'] = entry.revision;
  if (kind.links !== undefined) representation['_links'] = kind.links(entry);
  return representation;
}

/** 404 for an id that names nothing. The id is not echoed: it may be long or odd. */
function missing(noun: string): Error {
  return notFound(`No ${noun} exists with this id.`);
}

/**
 * If-Match / If-None-Match of a write, against the representation a GET of the item would
 * return now (`undefined`: no item). Runs after the 404 checks and before the body is
 * validated (RFC 9110 §13.2.1); throws 412 when they fail (see conditional.ts).
 */
function checkPreconditions<D extends Fields>(kind: ResourceKind<D>, ctx: RequestContext, current: Entry<D> | undefined): void {
  ctx.conditional.checkWrite(current === undefined ? undefined : JSON.stringify(represent(kind, current)));
}

/** GET on a collection, cursor style: one page of `{ data, next_cursor }`, filtered and sorted. */
export function listItems<D extends Fields>(
  kind: ResourceKind<D>,
  ctx: RequestContext,
  options: {
    /** Names the listing inside cursors, so they cannot cross listings. */
    readonly scope: string;
    /** The filters and sorts the listing offers. */
    readonly listing: ListingSpec<D>;
    /** This listing's maximum page size; default {@link maxLimit}. */
    readonly maxLimit?: number | undefined;
  },
): Reply {
  const errors: FieldError[] = [];
  const overridden = faultActive('cursor-overrides-filter') ? queryWithCarriedFilters(ctx.query, options.listing) : undefined;
  const query = overridden?.query ?? ctx.query;
  const limit = readLimit(query, errors, options.maxLimit);
  const view = readView(query, options.listing, errors);
  const start = readCursor(query, options.scope, view, errors);
  if (errors.length > 0) throw invalidQuery(errors);
  const page = cursorPage(kind.store, view, options.scope, start, limit, overridden?.carried);
  // Fault `default-page-truncated`: without a limit, the first page is the last.
  const nextCursor = faultActive('default-page-truncated') && !query.has('limit') ? null : page.nextCursor;
  return jsonReply(200, pageBody(page.items.map((e) => represent(kind, e)), nextCursor));
}

/** GET on a collection, offset style: `{ data, total }` for `limit` and `offset`, filtered and sorted. */
export function listItemsByOffset<D extends Fields>(
  kind: ResourceKind<D>,
  ctx: RequestContext,
  options: { readonly listing: ListingSpec<D>; /** This listing's maximum page size; default {@link maxLimit}. */ readonly maxLimit?: number },
): Reply {
  const errors: FieldError[] = [];
  const limit = readLimit(ctx.query, errors, options.maxLimit);
  const offset = readOffset(ctx.query, errors);
  const view = readView(ctx.query, options.listing, errors);
  if (errors.length > 0) throw invalidQuery(errors);
  const { items, total } = offsetPage(kind.store, view, offset, limit);
  // Fault `default-page-truncated`: without a limit, the first page is the last (later pages are empty).
  const shown = faultActive('default-page-truncated') && !ctx.query.has('limit') && offset > 0 ? [] : items;
  return jsonReply(200, offsetPageBody(shown.map((e) => represent(kind, e)), total));
}

/**
 * GET on a collection paged by number: `page` (from 1) and `per_page`, the direction of
 * `sort` in `order`; answered with `{ data, total }` like an offset page.
 */
export function listItemsByPageNumber<D extends Fields>(kind: ResourceKind<D>, ctx: RequestContext, options: { readonly listing: ListingSpec<D>; readonly maxLimit?: number }): Reply {
  const errors: FieldError[] = [];
  const perPage = readLimit(ctx.query, errors, options.maxLimit, 'per_page');
  const page = readPageNumber(ctx.query, errors);
  const view = readView(withOrder(ctx.query, options.listing.sorts[0].name, errors), options.listing, errors);
  if (errors.length > 0) throw invalidQuery(errors);
  const { items, total } = offsetPage(kind.store, view, (page - 1) * perPage, perPage);
  return jsonReply(200, offsetPageBody(items.map((e) => represent(kind, e)), total));
}

/** POST on a collection: the server chooses the id; 201, Location, the new resource. */
export function createItem<D extends Fields>(
  kind: ResourceKind<D>,
  ctx: RequestContext,
  body: JsonObject,
  where: { readonly collectionPath: string; readonly parentId?: string },
): Reply {
  const data = kind.build(body, { mode: 'replace', creating: true, parentId: where.parentId }, ctx);
  let id = kind.store.newId();
  const sentId = body['id'];
  if (faultActive('client-id-conflict-500') && typeof sentId === 'string' && kind.store.get(sentId) !== undefined) {
    // Fault: the id reaches the insert, which fails on the duplicate key.
    throw new Error('fault client-id-conflict-500: duplicate key');
  }
  if (faultActive('client-chosen-id') && typeof sentId === 'string' && clientIdPattern.test(sentId) && kind.store.get(sentId) === undefined) {
    id = sentId;
  }
  // Fault `client-uuid-id-adopted`: the id is a column the create validates, as a model reused for input does (a UUID, unique): one of the server's own kind is adopted.
  if (faultActive('client-uuid-id-adopted') && sentId !== undefined) {
    if (typeof sentId !== 'string' || !uuidPattern.test(sentId)) throw validationFailed([{ field: 'id', message: 'must be a UUID' }]);
    if (kind.store.get(sentId) !== undefined) throw new ProblemError(genericProblem(409, 'A resource with this id exists already.'));
    id = sentId;
  }
  const entry = kind.store.insert(id, data);
  kind.afterWrite?.(entry);
  const representation = faultActive('create-returns-id-only') ? { id } : represent(kind, entry);
  if (faultActive('post-200-no-location')) return jsonReply(200, representation);
  const location = faultActive('location-points-to-collection') ? where.collectionPath : kind.itemPath(id);
  return jsonReply(201, representation, { Location: location });
}

/** GET (and HEAD) on an item. */
export function getItem<D extends Fields>(kind: ResourceKind<D>, id: string): Reply {
  // Fault `link-id-unset`: the id path parameter is typed, as NestJS's ParseUUIDPipe types it: any other id is a 400.
  if (faultActive('link-id-unset') && !uuidPattern.test(id)) throw new ProblemError(genericProblem(400, 'Validation failed (uuid is expected).'));
  let entry = kind.store.get(id);
  if (entry === undefined) {
    if (faultActive('unknown-id-200-null')) return jsonReply(200, null);
    // Fault `not-found-as-200-envelope`: NestJS's NotFoundException body behind a filter that answers everything with 200.
    if (faultActive('not-found-as-200-envelope')) return jsonReply(200, { statusCode: 404, message: 'Not Found' });
    if (faultActive('deleted-item-410') && kind.store.wasDeleted(id)) throw new ProblemError(genericProblem(410, `This ${kind.noun} was deleted.`));
    throw missing(kind.noun);
  }
  if (faultActive('get-counts-views')) entry = kind.store.touch(id, { views: entry.views + 1 });
  if (faultActive('item-get-204')) return emptyReply(204);
  return jsonReply(200, represent(kind, entry));
}

/** PUT on an item: full replacement (omitted fields reset), or creation under the given id. */
export function replaceItem<D extends Fields>(
  kind: ResourceKind<D>,
  ctx: RequestContext,
  id: string,
  body: JsonObject,
): Reply {
  const before = kind.store.get(id);
  if (before === undefined) {
    if (faultActive('put-missing-404') || !clientIdPattern.test(id)) throw missing(kind.noun);
    checkPreconditions(kind, ctx, undefined);
    const entry = kind.store.insert(id, kind.build(body, { mode: 'replace', creating: true }, ctx));
    kind.afterWrite?.(entry);
    return jsonReply(201, represent(kind, entry), faultActive('put-create-no-location') ? {} : { Location: kind.itemPath(id) });
  }
  checkPreconditions(kind, ctx, before);
  const mode: WriteMode = faultActive('put-merges') ? 'merge' : 'replace';
  let entry = kind.store.update(id, kind.build(body, { mode, current: before.data, creating: false }, ctx));
  kind.afterWrite?.(entry);
  if (faultActive('put-bumps-revision')) entry = kind.store.touch(id, { revision: entry.revision + 1 });
  return updateReply(kind, body, faultActive('update-returns-previous') ? before : entry);
}

/** PATCH on an item: JSON merge patch (RFC 7396); fields not sent are kept. */
export function patchItem<D extends Fields>(
  kind: ResourceKind<D>,
  ctx: RequestContext,
  id: string,
  body: JsonObject,
): Reply {
  const before = kind.store.get(id);
  if (before === undefined) throw missing(kind.noun);
  checkPreconditions(kind, ctx, before);
  const base = faultActive('patch-resets-unsent') ? kind.resetOptional(before.data) : before.data;
  const entry = kind.store.update(id, kind.build(body, { mode: 'merge', current: base, creating: false }, ctx));
  kind.afterWrite?.(entry);
  return updateReply(kind, body, faultActive('update-returns-previous') ? before : entry);
}

/**
 * An item's route: read, replace, merge-patch and delete, the same for every kind.
 * `beforeRead` runs before a read (a fault that hides the item there).
 */
export function itemRoute<D extends Fields>(pattern: string, kind: ResourceKind<D>, beforeRead?: () => void): Route<Operation> {
  return {
    pattern,
    operations: {
      GET: {
        handler: (ctx) => {
          beforeRead?.();
          return getItem(kind, param(ctx, 'id'));
        },
      },
      PUT: { body: 'required', handler: (ctx) => replaceItem(kind, ctx, param(ctx, 'id'), requiredBody(ctx)) },
      PATCH: { body: 'required', handler: (ctx) => patchItem(kind, ctx, param(ctx, 'id'), requiredBody(ctx)) },
      DELETE: { handler: (ctx) => deleteItem(kind, ctx, param(ctx, 'id')) },
    },
  };
}

/** The 200 of a PUT or PATCH: the representation (fault `update-echoes-input`: the request body). */
function updateReply<D extends Fields>(kind: ResourceKind<D>, body: JsonObject, entry: Entry<D>): Reply {
  return jsonReply(200, faultActive('update-echoes-input') ? body : represent(kind, entry));
}

/** DELETE on an item: 204; a repeat finds nothing and answers 404, leaving the same state. */
export function deleteItem<D extends Fields>(kind: ResourceKind<D>, ctx: RequestContext, id: string): Reply {
  const entry = kind.store.get(id);
  if (entry === undefined) {
    if (faultActive('delete-repeat-500') && kind.store.wasDeleted(id)) {
      throw new Error('fault delete-repeat-500: the item was already deleted');
    }
    throw missing(kind.noun);
  }
  // Fault `if-match-ignored-on-delete`: DELETE skips its preconditions.
  if (!faultActive('if-match-ignored-on-delete')) checkPreconditions(kind, ctx, entry);
  if (!faultActive('delete-soft')) {
    kind.store.delete(id);
    kind.afterDelete?.(entry);
  }
  return faultActive('delete-200-empty') ? emptyReply(200) : emptyReply(204);
}
