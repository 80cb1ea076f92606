/**
 * The collections a document's paths describe (conventions §2): a path whose GET lists
 * items (`/things`), the item path below it (`/things/{id}`), the sub-collections listed
 * under one item (`/things/{id}/parts`) with the top-level path their items live at
 * (`/parts/{id}`), and the noun actions taken on an item (`POST /things/{id}/approval`).
 *
 * Only the shape of the paths and the list responses are read here; what the collections
 * take (bodies, pages, filters) is inferred from the operations found.
 */
import type { OpenApiDocument } from '../model/openapi-document.js';
import { jsonMedia, successResponse, type Operation, type OperationMethod, type PathItem } from '../document/operations.js';
import { listShape } from '../document/schema.js';

export interface ActionShape {
  /** The last segment: the `_links` member that names it. */
  readonly name: string;
  readonly path: string;
  readonly operations: readonly Operation[];
}

export interface ChildShape {
  readonly name: string;
  /** The nested listing (`/things/{id}/parts`). */
  readonly path: string;
  /** The owner's path parameter in it. */
  readonly ownerParam: string;
  readonly list?: Operation;
  readonly create?: Operation;
  /** Where one item lives at the top level (`/parts/{partId}`), if the document says. */
  readonly itemPath?: string;
  readonly itemParam?: string;
  readonly item: ReadonlyMap<OperationMethod, Operation>;
  /** `/things/{id}/parts/{partId}`, when the items live only under their owner. */
  readonly nestedItemPath?: string;
  readonly actions: readonly ActionShape[];
}

export interface CollectionShape {
  readonly name: string;
  readonly path: string;
  readonly list: Operation;
  readonly create?: Operation;
  readonly itemPath?: string;
  readonly itemParam?: string;
  readonly item: ReadonlyMap<OperationMethod, Operation>;
  readonly children: readonly ChildShape[];
  readonly actions: readonly ActionShape[];
}

/** What the document's paths are, once collections were taken out: for comments. */
export interface PathShapes {
  readonly collections: readonly CollectionShape[];
  /** Nested listings the config cannot hold (deeper than one level, or with no create). */
  readonly skipped: readonly { readonly path: string; readonly why: string }[];
}

const isParam = (segment: string): boolean => /^\{[^}]+\}$/.test(segment);
const paramName = (segment: string): string => segment.slice(1, -1);
const segmentsOf = (path: string): string[] => path.split('/').filter((s) => s !== '');
const isVersion = (segment: string): boolean => /^v\d+$/i.test(segment);
const lastSegment = (path: string): string => segmentsOf(path).pop() ?? '';

function byMethod(item: PathItem | undefined, methods: readonly OperationMethod[]): Map<OperationMethod, Operation> {
  return new Map((item?.operations ?? []).filter((o) => methods.includes(o.method)).map((o) => [o.method, o]));
}

const itemMethods: readonly OperationMethod[] = ['GET', 'PUT', 'PATCH', 'DELETE'];

export class PathIndex {
  private readonly byPath: Map<string, PathItem>;

  constructor(
    private readonly doc: OpenApiDocument,
    items: readonly PathItem[],
  ) {
    this.byPath = new Map(items.map((i) => [i.path, i]));
  }

  get(path: string): PathItem | undefined {
    return this.byPath.get(path);
  }

  op(path: string, method: OperationMethod): Operation | undefined {
    return this.byPath.get(path)?.operations.find((o) => o.method === method);
  }

  /** Paths one segment below `path`, with that segment. */
  below(path: string): [string, PathItem][] {
    const depth = segmentsOf(path).length + 1;
    return [...this.byPath].flatMap(([p, item]): [string, PathItem][] => {
      const segs = segmentsOf(p);
      return p.startsWith(`${path}/`) && segs.length === depth ? [[segs[depth - 1] ?? '', item]] : [];
    });
  }

  /** The item path below a collection path (`/things/{id}`) and its parameter, if the document has one. */
  itemOf(path: string): { path: string; param: string } | undefined {
    const found = this.below(path).find(([seg]) => isParam(seg));
    return found === undefined ? undefined : { path: `${path}/${found[0]}`, param: paramName(found[0]) };
  }

  /**
   * Whether a GET answers a list: a JSON array or an envelope holding one. A GET whose answer
   * has no schema counts when the path has an item path below it.
   */
  lists(get: Operation | undefined, hasItems: boolean): boolean {
    if (get === undefined) return false;
    const media = jsonMedia(successResponse(get)?.content);
    if (media?.schema === undefined) return hasItems;
    return listShape(this.doc, media.schema, lastSegment(get.path)) !== undefined;
  }
}

/** A path less its last segment: where a sub-collection's items live beside their owner (`/v2/projects` → `/v2`). */
function parentOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/'));
}

function actionsBelow(index: PathIndex, itemPath: string | undefined, exclude: ReadonlySet<string>): ActionShape[] {
  if (itemPath === undefined) return [];
  return index.below(itemPath).flatMap(([seg, item]) => {
    if (isParam(seg) || exclude.has(seg)) return [];
    const post = item.operations.find((o) => o.method === 'POST');
    const path = `${itemPath}/${seg}`;
    if (post === undefined || index.lists(index.op(path, 'GET'), index.itemOf(path) !== undefined)) return [];
    return [{ name: seg, path, operations: item.operations }];
  });
}

function child(index: PathIndex, owner: string, ownerParam: string, seg: string, item: PathItem): ChildShape | undefined {
  const path = `${owner}/{${ownerParam}}/${seg}`;
  const list = item.operations.find((o) => o.method === 'GET');
  const create = item.operations.find((o) => o.method === 'POST');
  const nested = index.itemOf(path);
  if (!index.lists(list, nested !== undefined)) return undefined;
  const top = index.itemOf(`${parentOf(owner)}/${seg}`);
  const itemPath = top?.path;
  return {
    name: seg,
    path,
    ownerParam,
    ...(list !== undefined && { list }),
    ...(create !== undefined && { create }),
    ...(top !== undefined && { itemPath: top.path, itemParam: top.param }),
    item: byMethod(itemPath === undefined ? undefined : index.get(itemPath), itemMethods),
    ...(nested !== undefined && { nestedItemPath: nested.path }),
    actions: actionsBelow(index, itemPath, new Set()),
  };
}

/**
 * The collections of a document's paths.
 *
 * @example
 * ```ts
 * // paths: /things (GET, POST), /things/{id} (GET, PUT, PATCH, DELETE), /things/{id}/parts (GET, POST), /parts/{id}
 * collectionShapes(doc, pathItems(doc)).collections.map((c) => [c.name, c.children.map((k) => k.name)]);
 * // [['things', ['parts']]]
 * ```
 */
export function collectionShapes(doc: OpenApiDocument, items: readonly PathItem[]): PathShapes {
  const index = new PathIndex(doc, items);
  const collections: CollectionShape[] = [];
  const skipped: { path: string; why: string }[] = [];
  for (const { path, operations } of items) {
    const segs = segmentsOf(path);
    const last = segs[segs.length - 1];
    if (last === undefined || isVersion(last) || segs.some(isParam)) continue;
    const list = operations.find((o) => o.method === 'GET');
    const item = index.itemOf(path);
    if (list === undefined || !index.lists(list, item !== undefined)) continue;
    const children: ChildShape[] = [];
    for (const [seg, below] of item === undefined ? [] : index.below(item.path)) {
      if (isParam(seg)) continue;
      const found = child(index, path, item!.param, seg, below);
      if (found !== undefined) children.push(found);
      // Listings nested deeper than one level cannot be configured (§2 nests at most two levels).
      for (const [deeper] of index.below(`${item!.path}/${seg}`).filter(([s]) => isParam(s))) {
        for (const [grand] of index.below(`${item!.path}/${seg}/${deeper}`).filter(([s]) => !isParam(s))) skipped.push({ path: `${item!.path}/${seg}/${deeper}/${grand}`, why: 'nested more than two levels deep (§2)' });
      }
    }
    const childNames = new Set(children.map((c) => c.name));
    const create = operations.find((o) => o.method === 'POST');
    collections.push({
      name: last,
      path,
      list,
      ...(create !== undefined && { create }),
      ...(item !== undefined && { itemPath: item.path, itemParam: item.param }),
      item: byMethod(item === undefined ? undefined : index.get(item.path), itemMethods),
      children,
      actions: actionsBelow(index, item?.path, childNames),
    });
  }
  // Listings under a parameter whose owner is no collection (`/files/{key}/comments`): nothing to create them in.
  const underCollection = (path: string): boolean => collections.some((c) => c.itemPath !== undefined && path.startsWith(`${c.itemPath}/`));
  for (const i of items) {
    const lists = index.lists(i.operations.find((o) => o.method === 'GET'), false);
    if (lists && segmentsOf(i.path).some(isParam) && !isParam(lastSegment(i.path)) && !underCollection(i.path)) skipped.push({ path: i.path, why: 'listed under an owner that is no collection restprobe can create in' });
  }
  return { collections: uniqueNames(collections), skipped };
}

/** Collections are named by their last segment; two alike take the segment before it too. */
function uniqueNames(collections: CollectionShape[]): CollectionShape[] {
  const count = new Map<string, number>();
  for (const c of collections) count.set(c.name, (count.get(c.name) ?? 0) + 1);
  const taken = new Set<string>();
  return collections.map((c) => {
    let name = c.name;
    if ((count.get(name) ?? 0) > 1) name = segmentsOf(c.path).slice(-2).join('-');
    let n = 2;
    const base = name;
    while (taken.has(name)) name = `${base}-${n++}`;
    taken.add(name);
    return name === c.name ? c : { ...c, name };
  });
}
