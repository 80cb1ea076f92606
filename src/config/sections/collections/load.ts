/** The `collections` section as {@link CollectionProfile}s: every default applied, names unique. */
import type { RawCollection, RawConfig } from '../../raw-config.js';
import { conventionalEnvelope } from '../../../model/page-envelope.js';
import { serverKeptFields } from '../../../model/server-kept-fields.js';
import type { CollectionMethod, CollectionProfile, PaginationProfile } from './profile.js';

/** What a collection (and a sub-collection) holds where the config says nothing. */
export const collectionDefaults = {
  idField: 'id',
  newId: 'uuid',
  idType: 'string',
  methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as readonly CollectionMethod[],
  /** Common names of fields a server keeps on its own, less those a collection's bodies send. */
  volatileFields: serverKeptFields,
  pagination: { style: 'cursor', param: 'cursor', limitParam: 'limit', offsetParam: 'offset', pageParam: 'page', firstPage: 1, sortParam: 'sort' },
  /** The keys of `pagination.envelope` the config leaves out: the conventions' page. */
  pageEnvelope: conventionalEnvelope,
  filters: [] as readonly string[],
  sorts: [] as readonly string[],
  children: [] as readonly never[],
  actions: [] as readonly string[],
} as const;

/** Collections are named in messages and selected by name, so names must be unique (a rule a JSON Schema cannot say). */
export function duplicateNames(config: RawConfig): string[] {
  const firstIndex = new Map<string, number>();
  const problems: string[] = [];
  (config.collections ?? []).forEach((c, i) => {
    const first = firstIndex.get(c.name);
    if (first === undefined) firstIndex.set(c.name, i);
    else problems.push(`collections[${i}].name: must be unique (found "${c.name}", also the name of collections[${first}])`);
  });
  return problems;
}

/** The pagination, defaults applied; an envelope only when the config names one (absent, readers take the conventions'). */
function paginationProfile(raw: RawCollection['pagination']): PaginationProfile {
  const { envelope, ...rest } = raw ?? {};
  const { items, next, nextIs } = collectionDefaults.pageEnvelope;
  const filled = envelope && { items: envelope.items ?? items, next: envelope.next ?? next, nextIs: envelope.nextIs ?? nextIs };
  return { ...collectionDefaults.pagination, ...rest, ...(filled && { envelope: filled }) };
}

/** The default volatile fields: a field a create, replace or patch body sends is the client's to set, not the server's. */
function serverKeptFieldsNotSent(raw: RawCollection): readonly string[] {
  const sent = new Set([raw.create?.body, raw.replace?.body, raw.patch?.body].flatMap((b) => (typeof b === 'object' && b !== null && !Array.isArray(b) ? Object.keys(b) : [])));
  return collectionDefaults.volatileFields.filter((f) => !sent.has(f));
}

export function collectionProfile(raw: RawCollection): CollectionProfile {
  return {
    name: raw.name,
    path: raw.path,
    itemPath: raw.itemPath ?? `${raw.path.replace(/\/+$/, '')}/{id}`,
    idField: raw.idField ?? collectionDefaults.idField,
    createBody: raw.create?.body,
    replaceBody: raw.replace?.body,
    patchBody: raw.patch?.body,
    invalidBody: raw.invalid?.body,
    volatileFields: raw.volatileFields ?? serverKeptFieldsNotSent(raw),
    ...(raw.volatileFields === undefined && { volatileByDefault: true as const }),
    ...(raw.writeOnlyFields !== undefined && raw.writeOnlyFields.length > 0 && { writeOnlyFields: raw.writeOnlyFields }),
    newId: raw.newId ?? collectionDefaults.newId,
    idType: raw.idType ?? collectionDefaults.idType,
    methods: raw.methods ?? collectionDefaults.methods,
    pagination: paginationProfile(raw.pagination),
    filters: raw.filters ?? collectionDefaults.filters,
    sorts: raw.sorts ?? collectionDefaults.sorts,
    ...(raw.mark && { markField: raw.mark.field }),
    ...(raw.personalised !== undefined && { personalised: raw.personalised }),
    ...(raw.notConsumed !== undefined && { notConsumed: raw.notConsumed }),
    actions: raw.actions ?? collectionDefaults.actions,
    ...(raw.postLinks !== undefined && raw.postLinks.length > 0 && { postLinks: raw.postLinks }),
    children: (raw.children ?? collectionDefaults.children).map((child) => ({
      name: child.name,
      path: child.path,
      itemPath: child.itemPath,
      idField: child.idField ?? collectionDefaults.idField,
      createBody: child.create.body,
      actions: child.actions ?? collectionDefaults.actions,
      ...(child.postLinks !== undefined && child.postLinks.length > 0 && { postLinks: child.postLinks }),
    })),
  };
}
