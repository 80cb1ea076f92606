/** The `collections` section as the profile holds them: every default applied. */

/** A method a collection may support. */
export type CollectionMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface CollectionProfile {
  /** A short name used in messages (`projects`). */
  readonly name: string;
  /** Path of the collection relative to the base URL (`/v2/projects`). */
  readonly path: string;
  /** Path template of one item; `{id}` is replaced. Default: `<path>/{id}`. */
  readonly itemPath: string;
  /** Field of the representation that holds the id. Default `id`. */
  readonly idField: string;
  /** Body of a POST that creates a valid item. Without it, write checks skip. */
  readonly createBody?: Record<string, unknown>;
  /** Full body for a PUT that replaces the item; fields of createBody missing here must reset. */
  readonly replaceBody?: Record<string, unknown>;
  /** Partial body for a PATCH; fields not named here must be kept. */
  readonly patchBody?: Record<string, unknown>;
  /** A well-formed JSON body that fails validation (422). Default: derived from createBody. */
  readonly invalidBody?: Record<string, unknown>;
  /** Fields the server may change on its own (timestamps, revisions); ignored in comparisons. */
  readonly volatileFields: readonly string[];
  /**
   * Set where the config names no volatile fields and `volatileFields` are the names
   * frameworks give them (model/server-kept-fields.ts): a write may move them, but a safe
   * call or a refused write that does still changed the item.
   */
  readonly volatileByDefault?: true;
  /** Fields the API takes but never shows (a password): not expected back in an answer. Absent: none. */
  readonly writeOnlyFields?: readonly string[];
  /** How a fresh id for PUT-creates-missing is made: `uuid` (default) or `none` to skip. */
  readonly newId: 'uuid' | 'none';
  /** What ids look like; absent: strings. */
  readonly idType?: 'string' | 'integer';
  /** The methods the collection's paths support; restprobe sends no other write. Absent: all five. */
  readonly methods?: readonly CollectionMethod[];
  readonly pagination: PaginationProfile;
  /** Fields the collection filters on. */
  readonly filters: readonly string[];
  /** Fields `sort` accepts. */
  readonly sorts: readonly string[];
  /** A string field the harness may set to mark the items it creates. */
  readonly markField?: string;
  /**
   * Whether what the collection answers depends on who asks (a user's own data): such
   * responses must not be stored by shared caches. Undefined when the config does not say.
   */
  readonly personalised?: boolean;
  /** Media types the collection's writes do not consume (`application/xml`): 415 is owed for each. */
  readonly notConsumed?: readonly string[];
  /** `_links` members of an item that are state-dependent actions (see {@link ChildProfile.actions}); the loader always fills it. */
  readonly actions?: readonly string[];
  /** `_links` members of an item that name an always-open action taken with POST alone: not followed with GET. Absent: none. */
  readonly postLinks?: readonly string[];
  /** Sub-collections listed under one item of this collection (`/projects/{id}/tasks`); the loader always fills it. */
  readonly children?: readonly ChildProfile[];
}

/**
 * A sub-collection (conventions §2): listed under its owner, each item also addressed at
 * the top level.
 */
export interface ChildProfile {
  readonly name: string;
  /** The nested listing; `{id}` is the owner's id (`/v2/projects/{id}/tasks`). */
  readonly path: string;
  /** One item at the top level; `{id}` is the child's id (`/v2/tasks/{id}`). */
  readonly itemPath: string;
  readonly idField: string;
  /** Body of a POST to the nested listing that creates a valid child. */
  readonly createBody: Record<string, unknown>;
  /** `_links` members that are state-dependent actions: linked while open, taken with POST, then no longer linked. */
  readonly actions: readonly string[];
  /** `_links` members that name an always-open action taken with POST alone (see {@link CollectionProfile.postLinks}). Absent: none. */
  readonly postLinks?: readonly string[];
}

export interface PaginationProfile {
  /** `cursor` (`next_cursor`), `offset` (`limit` + `offset`) or `page` (a page number + a page size). */
  readonly style: 'cursor' | 'offset' | 'page';
  /** Query parameter that takes `next_cursor` (cursor style). */
  readonly param: string;
  /** Query parameter for the page size (`limit`; `per_page` is common with page numbers). */
  readonly limitParam: string;
  readonly offsetParam: string;
  /** Query parameter for the page number (page style). */
  readonly pageParam: string;
  /** The number of the first page (page style): 1 or 0. */
  readonly firstPage: number;
  readonly sortParam: string;
  /** Set when a separate parameter gives the direction (`sort=name&order=desc`); absent: a `-` prefix on the field means descending. */
  readonly orderParam?: string;
  /** The declared maximum page size; absent: none declared. */
  readonly maxLimit?: number;
  /** Where pages keep their items and next cursor, when the config says; absent: the conventions' `data` and `next_cursor`. */
  readonly envelope?: PageEnvelope;
}

/**
 * Where an API's pages keep their items and next cursor (`pagination.envelope`), every
 * default applied: Django REST framework's cursor pages are
 * `{ items: '/results', next: '/next', nextIs: 'url' }`.
 */
export interface PageEnvelope {
  /** JSON Pointer to the items array; `''` is the body itself. */
  readonly items: string;
  /** JSON Pointer to the next cursor, or the next page's URL (cursor style). */
  readonly next: string;
  /** `cursor`: `next` is the cursor; `url`: the next page's URL, whose `param` query parameter is the cursor. */
  readonly nextIs: 'cursor' | 'url';
}
