/**
 * Which URL names an item a request created. A Location is the server's word, but the
 * harness acts on it (GET, cleanup DELETE) only when it is on the target's own origin and
 * names something other than the collection itself: a Location pointing at the collection
 * would turn cleanup into a DELETE of the whole collection.
 */
import type { HttpResponse } from '../model/context.js';
import type { CollectionProfile, TargetProfile } from '../model/profile.js';
import { resolveUrl, targetOrigins } from './session.js';

export { targetOrigins };

const samePath = (a: string, b: string): boolean => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * A backend behind a gateway that serves it under a prefix (`https://host/api/`) often
 * answers with its own paths (`Location: /v2/projects/7`): such a path is read under the
 * base URL's path, where the client reaches it, never outside it.
 */
function underBasePath(profile: TargetProfile, url: URL): URL {
  const basePath = new URL(profile.baseUrl).pathname.replace(/\/+$/, '');
  if (basePath === '' || url.pathname === basePath || url.pathname.startsWith(`${basePath}/`)) return url;
  const inside = new URL(url);
  inside.pathname = basePath + url.pathname;
  return inside;
}

/**
 * The item URL for a 2xx create response: a safe Location, else the id's item path.
 * `reason` says why a Location was not used, for the evidence.
 */
export function createdItemUrl(
  profile: TargetProfile,
  res: HttpResponse,
  collection?: CollectionProfile,
): { url?: string; reason?: string } {
  const location = res.headers['location'];
  let reason: string | undefined;
  if (location) {
    const url = new URL(location, res.url);
    const listing = new URL(res.url);
    if (!targetOrigins(profile).has(url.origin)) reason = `Location ${location} is on another origin`;
    else if (samePath(url.pathname, listing.pathname)) reason = `Location ${location} names the collection, not the item`;
    else {
      const prefixed = underBasePath(profile, url);
      return prefixed === url ? { url: url.toString() } : { url: prefixed.toString(), reason: `Location ${location} is outside the base URL's path (a backend behind a gateway that adds a prefix)` };
    }
  }
  const id = collection ? (res.json as Record<string, unknown> | null | undefined)?.[collection.idField] : undefined;
  if (collection && (typeof id === 'string' || typeof id === 'number')) {
    return { url: resolveUrl(profile.baseUrl, collection.itemPath.replace('{id}', encodeURIComponent(String(id)))), ...(reason && { reason }) };
  }
  return { reason: reason ?? 'the response has neither a Location nor an id' };
}

/**
 * The evidence note of how a create's item URL was read, when not from a plain Location
 * (`POST /v2/projects: Location … is on another origin; using …`); undefined otherwise.
 *
 * @example
 * ```ts
 * const found = createdItemUrl(profile, res, collection);
 * const note = createdUrlNote(collection, found); // undefined for a plain Location
 * ```
 */
export function createdUrlNote(collection: CollectionProfile, { url, reason }: { url?: string; reason?: string }): string | undefined {
  return reason === undefined ? undefined : `POST ${collection.path}: ${reason}${url ? `; using ${url}` : ''}`;
}

/**
 * The id an item URL holds where the collection's item path puts it: a create answered with a
 * Location and no body (Spring's `ResponseEntity.created(uri).build()`) names its item only
 * there. Undefined when the URL's path is not of that shape.
 *
 * @example
 * ```ts
 * idFromItemUrl(profile, projects, 'https://api.example.com/v2/projects/7'); // '7'
 * ```
 */
export function idFromItemUrl(profile: TargetProfile, collection: CollectionProfile, url: string): string | undefined {
  // A word no URL parser encodes or strips stands for the id.
  const slot = 'restprobeidslot';
  const template = new URL(resolveUrl(profile.baseUrl, collection.itemPath.replace('{id}', slot))).pathname;
  const [before, after] = template.split(slot) as [string, string | undefined];
  const path = new URL(url).pathname;
  if (after === undefined || !path.startsWith(before) || !path.endsWith(after) || path.length <= before.length + after.length) return undefined;
  const id = path.slice(before.length, path.length - after.length);
  return id.includes('/') ? undefined : decodeURIComponent(id);
}
