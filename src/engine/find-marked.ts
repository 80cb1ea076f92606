/**
 * Finding the items of creates that named none (no answer came before the run ended, or
 * a 2xx without a Location or id) by the mark restprobe gave them: one listing of the
 * collection, filtered by its mark field. Only a listing that honoured the filter can
 * show that nothing was created.
 */
import type { CollectionProfile, TargetProfile } from '../model/profile.js';
import type { Send } from '../http/guards.js';
import { runRequestHeaders, parseJson, resolveUrl, unversionedUrl, versionedUrl } from '../http/session.js';
import { envelopeOf, isMismatch, readItems } from '../model/page-envelope.js';
import type { Mark } from './ledger.js';

/** What a search by mark found: the items' URLs, proof that there is none, or why it cannot tell. */
export type MarkedItems = { readonly found: readonly string[] } | { readonly unknown: string };

/** The configured collection listed at `collectionUrl` (as the ledger names it: without a query version). */
function collectionAt(profile: TargetProfile, collectionUrl: string): CollectionProfile | undefined {
  return profile.collections.find((c) => unversionedUrl(profile, resolveUrl(profile.baseUrl, c.path)) === collectionUrl);
}

/**
 * The URLs of the items in the collection at `collectionUrl` that carry `mark`; an empty
 * list only when the filtered listing shows there is none.
 *
 * @example
 * ```ts
 * await findMarked(profile, send, 'https://api.example.com/v2/projects', { field: 'label', value: 'restprobe-1a2b3c4d-5e6f7a8b' });
 * // { found: ['https://api.example.com/v2/projects/0f3c…'] }
 * ```
 */
export async function findMarked(profile: TargetProfile, send: Send, collectionUrl: string, mark: Mark): Promise<MarkedItems> {
  const collection = collectionAt(profile, collectionUrl);
  const lookFor = `look for ${mark.field} = ${mark.value}`;
  if (collection === undefined) return { unknown: `no configured collection is listed at ${collectionUrl}; ${lookFor}` };
  if (!collection.filters.includes(mark.field)) return { unknown: `${collection.name} lists no filter on ${mark.field} in the config (collections[].filters) to search by; ${lookFor}` };
  const url = new URL(collectionUrl);
  url.searchParams.set(mark.field, mark.value);
  const res = await send({ method: 'GET', url: versionedUrl(profile, url.toString()), headers: await runRequestHeaders(profile), outsideBudget: true });
  const text = res.body.toString('utf8');
  const listed = readItems({ json: parseJson(text), text, url: url.toString() }, envelopeOf(collection.pagination));
  const items = isMismatch(listed) ? undefined : listed;
  if (res.status !== 200 || items === undefined) return { unknown: `GET ${url.pathname}?${mark.field}=… answered ${res.status}${isMismatch(listed) ? ` without a list of items (${listed.found})` : ''}; ${lookFor}` };
  const marked = items.filter((item) => item[mark.field] === mark.value);
  // A listing that ignored the filter may hold the item on a later page: it proves nothing absent.
  if (marked.length < items.length) return { unknown: `GET ${url.pathname}?${mark.field}=… listed items without the mark (the filter was not applied); ${lookFor}` };
  const ids = marked.map((item) => item[collection.idField]).filter((id): id is string | number => typeof id === 'string' || typeof id === 'number');
  return { found: ids.map((id) => unversionedUrl(profile, resolveUrl(profile.baseUrl, collection.itemPath.replace('{id}', encodeURIComponent(String(id)))))) };
}
