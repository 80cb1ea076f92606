/**
 * Cache policy: `Cache-Control` and `Vary` for every response, decided here and nowhere
 * else (conventions §4 "Conditional and cache headers", §8.6–8.7; RFC 9111 §5.2).
 *
 * - A credentialed read (200 or 304 to GET/HEAD) is personal: `private, no-cache`. The
 *   user's own browser may store it, but must revalidate before each reuse, which the
 *   ETag makes cheap (a 304). Shared caches must not store it; it is never `public`.
 * - Everything else (errors, write responses, OPTIONS) is `no-store`.
 * - A read whose content was negotiated (the server answers 406 to other Accept values)
 *   carries `Vary: Accept` (and the version's header, under the `x-api-version` scheme). Credentials are not listed: the responses are `private`, and
 *   RFC 9110 §12.5.5 does not require listing them.
 */

import { faultActive } from './request-faults.js';

/** What the policy needs to know about a response. */
export interface CacheFacts {
  /** The request method, as received. */
  readonly method: string;
  readonly status: number;
  /** The request carried valid credentials, so the response is personalised. */
  readonly authenticated: boolean;
  /** The content holds a secret: never stored, by any cache. */
  readonly holdsSecret?: boolean;
  /** The pipeline chose the content by Accept (it got past the 406 stage). */
  readonly negotiated: boolean;
  /** A request header besides Accept that chose the content (`X-API-Version`): Vary names it too. */
  readonly varyAlso?: string;
}

/** The cache headers of one response: always `Cache-Control`, and `Vary` when the content was negotiated. */
export function cacheHeadersFor(facts: CacheFacts): Record<string, string> {
  if (facts.holdsSecret) {
    return faultActive('secret-cacheable') ? { 'Cache-Control': 'private, max-age=300' } : { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
  }
  const read = (facts.method === 'GET' || facts.method === 'HEAD') && (facts.status === 200 || facts.status === 304);
  if (!read) return { 'Cache-Control': 'no-store' };
  const headers: Record<string, string> = {};
  if (facts.authenticated) {
    if (faultActive('cache-control-public')) headers['Cache-Control'] = 'public, max-age=60';
    else if (faultActive('cache-control-malformed')) headers['Cache-Control'] = 'private, max-age="60"';
    else if (!faultActive('cache-control-missing')) headers['Cache-Control'] = 'private, no-cache';
  } else {
    headers['Cache-Control'] = 'no-store';
  }
  if (facts.negotiated && !faultActive('vary-missing')) headers['Vary'] = facts.varyAlso === undefined ? 'Accept' : `Accept, ${facts.varyAlso}`;
  return headers;
}
