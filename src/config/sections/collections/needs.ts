/**
 * What checks need of the `collections` section: a collection, a writable one, a walk of a
 * style, a sub-collection, items with actions. The helpers are the other sections' too (a
 * webhook's trigger is a writable collection).
 */
import type { ConfigKey } from '../../../model/config-keys.js';
import { need } from '../../../model/need.js';
import type { TargetProfile } from '../../../model/profile.js';
import { Unmet } from '../../../model/unmet.js';
import type { ChildProfile, CollectionMethod, CollectionProfile } from './profile.js';

/** A collection the harness may create items in. */
export type WritableCollection = CollectionProfile & { readonly createBody: Record<string, unknown> };
/** A writable collection whose items can be marked and listed by their mark. */
export type WalkableCollection = WritableCollection & { readonly markField: string };
/** A walkable collection with a sort field the harness can set on the items it creates. */
export type SortableWalk = WalkableCollection & { readonly sortField: string };
/** A walkable collection with a declared page-size cap small enough to fill past. */
export type CappedWalk = WalkableCollection & { readonly maxLimit: number };
/** A writable collection and one of its configured sub-collections. */
export interface NestedCollection {
  readonly parent: WritableCollection;
  readonly child: ChildProfile;
}

/** Items whose `_links` name state-dependent actions: a writable collection's own, or those of one of its sub-collections. */
export interface ActionItems {
  /** The collection whose items carry the actions, or that owns the sub-collection whose items do. */
  readonly collection: WritableCollection;
  /** The sub-collection whose items carry them; absent: the collection's own items. */
  readonly child?: ChildProfile;
  readonly actions: readonly string[];
}

/** Filling a page past a cap above this costs too many requests for one check. */
export const maxCapToFill = 999;

/** Whether the collection's config says it supports `method` (absent `methods`: every one). */
export function supports(c: CollectionProfile, method: CollectionMethod): boolean {
  return c.methods === undefined || c.methods.includes(method);
}

/** A collection restprobe may create in: it has a create body, takes POST, and can DELETE what it made. */
export const creatable = (c: CollectionProfile): boolean => c.createBody !== undefined && supports(c, 'POST') && supports(c, 'DELETE');

/**
 * The collection as the checks may write to it: a replace or patch body only where the
 * collection takes PUT or PATCH, so no check sends a write the config says is unsupported.
 */
export function asWritable(c: CollectionProfile): WritableCollection {
  return { ...c, replaceBody: supports(c, 'PUT') ? c.replaceBody : undefined, patchBody: supports(c, 'PATCH') ? c.patchBody : undefined } as WritableCollection;
}

function writable(p: TargetProfile): WritableCollection | Unmet {
  if (p.safety.readOnly) return new Unmet('read-only run: this check writes', 'safety.readOnly');
  const c = p.collections.find(creatable);
  if (c) return asWritable(c);
  const withBody = p.collections.find((x) => x.createBody !== undefined);
  if (withBody) return new Unmet(`${withBody.name} takes no ${supports(withBody, 'POST') ? 'DELETE: restprobe would leave what it creates' : 'POST'}`, 'collections[].methods');
  return new Unmet('no collection with a create body', 'collections[].create.body');
}

/** The writable collection when it also has `field`, else why not. */
function writableWith<F extends 'replaceBody' | 'patchBody'>(p: TargetProfile, field: F, key: ConfigKey): (WritableCollection & Required<Pick<CollectionProfile, F>>) | Unmet {
  const c = writable(p);
  if (c instanceof Unmet) return c;
  if (c[field] !== undefined) return c as WritableCollection & Required<Pick<CollectionProfile, F>>;
  const method = field === 'replaceBody' ? 'PUT' : 'PATCH';
  if (!supports(c, method)) return new Unmet(`${c.name} takes no ${method}`, 'collections[].methods');
  return new Unmet(`no ${field === 'replaceBody' ? 'replace' : 'patch'} body for ${c.name}`, key);
}

/**
 * How far a collection got towards being walkable, in the order the config must say it:
 * a skip names the first key still missing on the collection that got furthest.
 */
const walkSteps: readonly ConfigKey[] = ['collections[].pagination.style', 'collections[].create.body', 'collections[].methods', 'collections[].mark', 'collections[].filters'];

/** Cursor pages, or positional ones (an offset or a page number: they behave alike under writes). */
type WalkStyle = 'cursor' | 'positional';
const ofWalkStyle = (c: CollectionProfile, style: WalkStyle): boolean => (c.pagination.style === 'cursor') === (style === 'cursor');
const styleName = (style: WalkStyle): string => (style === 'cursor' ? 'cursor' : 'offset- or page-number');

function walkable(p: TargetProfile, style: WalkStyle): WalkableCollection | Unmet {
  if (p.safety.readOnly) return new Unmet('read-only run: this check creates items to walk', 'safety.readOnly');
  const ofStyle = p.collections.filter((c) => ofWalkStyle(c, style));
  if (ofStyle.length === 0) return new Unmet(`no ${styleName(style)}-paginated collection`, 'collections[].pagination.style');
  const withBody = ofStyle.filter((c) => c.createBody !== undefined);
  if (withBody.length === 0) return new Unmet(`no ${styleName(style)}-paginated collection has a create body`, 'collections[].create.body');
  // Walks fill a collection with marked items: only where restprobe can delete them again.
  const writableOnes = withBody.filter(creatable);
  if (writableOnes.length === 0) return new Unmet(`no ${styleName(style)}-paginated collection with a create body takes both POST and DELETE: restprobe would leave what it creates`, 'collections[].methods');
  const marked = writableOnes.filter((c) => c.markField !== undefined);
  if (marked.length === 0) return new Unmet(`no writable ${styleName(style)}-paginated collection has a mark field`, 'collections[].mark');
  const c = marked.find((x) => x.filters.includes(x.markField!));
  if (c) return c as WalkableCollection;
  const first = marked[0]!;
  return new Unmet(`the mark field "${first.markField}" of ${first.name} is not in its filters, so its items cannot be listed by their mark`, 'collections[].filters');
}

const sortedWalkKeys: readonly ConfigKey[] = ['collections[].pagination.style', 'collections[].mark', 'collections[].filters', 'collections[].sorts', 'collections[].create.body', 'collections[].methods', 'safety.readOnly'];

/** A walkable collection of `style` with a sort field that `fits`, or why there is none. */
/** A sort field the harness can set on the items it creates: a string field of the create body, not the mark's (which a walk set's items share). */
export const isSettableSortField = (c: WritableCollection, field: string): boolean => field !== c.markField && typeof c.createBody[field] === 'string';

function walkableSortedBy(p: TargetProfile, style: WalkStyle | 'any', fits: (c: WalkableCollection, field: string) => boolean, missing: (c: WalkableCollection) => string): SortableWalk | Unmet {
  const c = style === 'any' ? anyWalkable(p) : walkable(p, style);
  if (c instanceof Unmet) return c;
  const sortField = c.sorts.find((f) => fits(c, f));
  if (sortField !== undefined) return { ...c, sortField };
  return new Unmet(c.sorts.length === 0 ? `no sort field is configured for ${c.name}` : missing(c), 'collections[].sorts');
}

/** A walkable collection of either style, cursor first; unmet, the style that got further. */
function anyWalkable(p: TargetProfile): WalkableCollection | Unmet {
  const cursor = walkable(p, 'cursor');
  if (!(cursor instanceof Unmet)) return cursor;
  const offset = walkable(p, 'positional');
  if (!(offset instanceof Unmet)) return offset;
  return walkSteps.indexOf(offset.configKey) > walkSteps.indexOf(cursor.configKey) ? offset : cursor;
}


/** A writable collection and its first sub-collection that `fits`, or why there is none. */
function nestedIn(p: TargetProfile, fits: (child: ChildProfile) => boolean): NestedCollection | Unmet {
  if (p.safety.readOnly) return new Unmet('read-only run: this check creates an item and a child of it', 'safety.readOnly');
  const withChildren = p.collections.flatMap((c) => {
    const child = (c.children ?? []).find(fits);
    return child === undefined ? [] : [{ parent: c, child }];
  });
  if (withChildren.length === 0) return new Unmet('no sub-collection configured', 'collections[].children');
  const found = withChildren.find((x) => creatable(x.parent));
  if (found === undefined) return cannotCreate(withChildren[0]!.parent, 'has sub-collections');
  return { parent: asWritable(found.parent), child: found.child };
}

/** Why nothing is created in `c` (which `creatable` refused), for a check that would: `what` it has all the same. */
function cannotCreate(c: CollectionProfile, what: string): Unmet {
  if (c.createBody === undefined) return new Unmet(`${c.name} ${what} but no create body`, 'collections[].create.body');
  return new Unmet(`${c.name} ${what} but takes no ${supports(c, 'POST') ? 'DELETE: restprobe would leave what it creates' : 'POST'}`, 'collections[].methods');
}


/** The needs the collections meet. */
export const collectionNeeds = {
  /** A configured collection. */
  collection: need<CollectionProfile>({
    perCollection: true,
    label: 'a collection',
    keys: ['collections'],
    resolve: (p) => p.collections[0] ?? new Unmet('no collection configured', 'collections'),
  }),
  /** The first configured collection, once per run (where one GET stands for the API: a token presented to the resource server). */
  firstCollection: need<CollectionProfile>({
    label: 'a collection',
    keys: ['collections'],
    resolve: (p) => p.collections[0] ?? new Unmet('no collection configured', 'collections'),
  }),
  /** A collection with a create body, on a run that may write. */
  writable: need<WritableCollection>({ perCollection: true, label: 'a writable collection', keys: ['collections[].create.body', 'safety.readOnly'], resolve: writable }),
  /** A writable collection with a full body for PUT. */
  replaceable: need({
    perCollection: true,
    label: 'a writable collection with a replace body',
    keys: ['collections[].create.body', 'collections[].replace.body', 'safety.readOnly'],
    resolve: (p) => writableWith(p, 'replaceBody', 'collections[].replace.body'),
  }),
  /** A writable collection with a partial body for PATCH. */
  patchable: need({
    perCollection: true,
    label: 'a writable collection with a patch body',
    keys: ['collections[].create.body', 'collections[].patch.body', 'safety.readOnly'],
    resolve: (p) => writableWith(p, 'patchBody', 'collections[].patch.body'),
  }),
  /** A writable collection with a replace or a patch body. */
  updatable: need<WritableCollection>({
    perCollection: true,
    label: 'a writable collection with a replace or patch body',
    keys: ['collections[].create.body', 'collections[].replace.body', 'collections[].patch.body', 'safety.readOnly'],
    resolve: (p) => {
      const c = writable(p);
      if (c instanceof Unmet || c.replaceBody !== undefined || c.patchBody !== undefined) return c;
      if (!supports(c, 'PUT') && !supports(c, 'PATCH')) return new Unmet(`${c.name} takes neither PUT nor PATCH`, 'collections[].methods');
      return new Unmet(`no replace or patch body for ${c.name}`, 'collections[].patch.body');
    },
  }),
  /** A writable collection whose ids the client can make (PUT-creates). */
  clientIds: need<WritableCollection>({
    perCollection: true,
    label: 'a writable collection whose ids a client can make',
    keys: ['collections[].create.body', 'collections[].newId', 'safety.readOnly'],
    resolve: (p) => {
      const c = writable(p);
      if (c instanceof Unmet) return c;
      if (!supports(c, 'PUT')) return new Unmet(`${c.name} takes no PUT`, 'collections[].methods');
      if (c.newId !== 'none') return c;
      return new Unmet('the client cannot make ids for this collection', 'collections[].newId');
    },
  }),
  /** A writable cursor-paginated collection with a mark field that is also a filter. */
  cursorWalk: need<WalkableCollection>({
    perCollection: true,
    label: 'a marked cursor-paginated collection',
    keys: ['collections[].pagination.style', 'collections[].mark', 'collections[].filters', 'collections[].create.body', 'collections[].methods', 'safety.readOnly'],
    resolve: (p) => walkable(p, 'cursor'),
  }),
  /** The same, paginated by offset or page number. */
  offsetWalk: need<WalkableCollection>({
    perCollection: true,
    label: 'a marked offset- or page-number-paginated collection',
    keys: ['collections[].pagination.style', 'collections[].mark', 'collections[].filters', 'collections[].create.body', 'collections[].methods', 'safety.readOnly'],
    resolve: (p) => walkable(p, 'positional'),
  }),
  /** A walkable collection of either style, cursor first. */
  anyWalk: need<WalkableCollection>({
    perCollection: true,
    label: 'a marked paginated collection',
    keys: ['collections[].mark', 'collections[].filters', 'collections[].create.body', 'collections[].methods', 'safety.readOnly'],
    resolve: anyWalkable,
  }),
  /** A marked paginated collection that sorts on a string field of its create body. */
  sortableWalk: need<SortableWalk>({
    perCollection: true,
    label: 'a marked paginated collection with a settable sort field',
    keys: sortedWalkKeys,
    // Not the mark field: the mark a walk set's items share would stand in for each item's own sort value.
    resolve: (p) => walkableSortedBy(p, 'any', isSettableSortField, (c) => `no sortable string field of ${c.name}'s create body but its mark field`),
  }),
  /** A marked offset- or page-number-paginated collection that sorts newest first (by a creation time). */
  newestFirstWalk: need<SortableWalk>({
    perCollection: true,
    label: 'a marked offset- or page-number-paginated collection with a creation-time sort',
    keys: sortedWalkKeys,
    resolve: (p) => walkableSortedBy(p, 'positional', (_c, f) => /^created_?at$/i.test(f), () => 'no creation-time sort to put new items first'),
  }),
  /** A marked paginated collection with a declared cap of at most {@link maxCapToFill}. */
  cappedWalk: need<CappedWalk>({
    perCollection: true,
    label: 'a marked paginated collection with a declared page-size cap',
    keys: ['collections[].pagination.maxLimit', 'collections[].mark', 'collections[].filters', 'collections[].create.body', 'collections[].methods', 'safety.readOnly'],
    resolve: (p) => {
      const c = anyWalkable(p);
      if (c instanceof Unmet) return c;
      // The walkable collection cheapest to fill past its cap: cap + 1 items are created.
      const capped = (['cursor', 'positional'] as const)
        .map((style) => walkable(p, style))
        .filter((w): w is WalkableCollection => !(w instanceof Unmet) && w.pagination.maxLimit !== undefined)
        .sort((a, b) => a.pagination.maxLimit! - b.pagination.maxLimit!)[0];
      if (capped === undefined) return new Unmet(`the maximum page size of ${c.name} is not configured`, 'collections[].pagination.maxLimit');
      const max = capped.pagination.maxLimit!;
      if (max > maxCapToFill) return new Unmet(`maxLimit ${max} would need more than ${maxCapToFill + 1} items to observe`, 'collections[].pagination.maxLimit');
      return { ...capped, maxLimit: max };
    },
  }),
  /** A writable collection with a configured sub-collection. */
  nested: need<NestedCollection>({
    perCollection: true,
    label: 'a writable collection with a sub-collection',
    keys: ['collections[].children', 'collections[].create.body', 'collections[].methods', 'safety.readOnly'],
    resolve: (p) => nestedIn(p, () => true),
  }),
  /** Items (of a writable collection, or of its sub-collections) whose `_links` name state-dependent actions. */
  actions: need<readonly ActionItems[]>({
    perCollection: true,
    label: 'items with state-dependent actions',
    keys: ['collections[].actions', 'collections[].children[].actions', 'collections[].create.body', 'collections[].methods', 'safety.readOnly'],
    resolve: (p) => {
      if (p.safety.readOnly) return new Unmet('read-only run: this check creates items and takes their actions', 'safety.readOnly');
      const declared = p.collections.flatMap((c) => [
        ...((c.actions ?? []).length > 0 ? [{ collection: c, actions: c.actions! }] : []),
        ...(c.children ?? []).filter((child) => child.actions.length > 0).map((child) => ({ collection: c, child, actions: child.actions })),
      ]);
      if (declared.length === 0) return new Unmet('no collection or sub-collection names its state-dependent actions', 'collections[].actions');
      // Only where restprobe may create the items (and delete them again).
      const writable: ActionItems[] = declared.filter((d) => creatable(d.collection)).map((d) => ({ ...d, collection: asWritable(d.collection) }));
      return writable.length > 0 ? writable : cannotCreate(declared[0]!.collection, 'names state-dependent actions');
    },
  }),
  /** The collections whose answers the config declares personalised. */
  personalised: need<readonly CollectionProfile[]>({
    label: 'collections declared personalised',
    keys: ['collections[].personalised'],
    resolve: (p) => {
      const declared = p.collections.filter((c) => c.personalised === true);
      if (declared.length > 0) return declared;
      const why = p.collections.some((c) => c.personalised === false) ? 'every collection is declared not personalised' : 'no collection says whether its answers are personalised';
      return new Unmet(why, 'collections[].personalised');
    },
  }),
} as const;
