/**
 * Splits an absolute URL into what undici's `dispatch()` takes: the origin and the request
 * target (path and query). The result is exactly what WHATWG URL parsing gives
 * (`url.origin`, `url.pathname + url.search`), but the common case, a plain path on an
 * origin seen before, costs a regex test instead of a URL object: a URL per request was a
 * measurable share of the harness's HTTP cost (`npm run bench`). Anything the URL parser
 * would rewrite (percent-encoding, dot segments, a fragment, an empty query) takes the
 * parser's path.
 */

/** Scheme and authority, then a path of characters that the URL parser leaves as they are. */
const plainUrl = /^(https?:\/\/[A-Za-z0-9\-._~%:[\]]+)(\/[A-Za-z0-9\-._~!$&()*+,;=:@%/?]*)?$/;
/** A dot segment, possibly percent-encoded, which the parser would resolve. */
const dotSegment = /\/\.|%2e/i;
/** Origins as the parser normalises them (case, default port), by how they were written. */
const origins = new Map<string, string>();
const maxOrigins = 64;

export interface TargetUrl {
  readonly origin: string;
  /** Path and query: what goes in the request line. */
  readonly path: string;
}

/**
 * @example
 * ```ts
 * splitUrl('http://127.0.0.1:8080/v2/projects?limit=5');
 * // { origin: 'http://127.0.0.1:8080', path: '/v2/projects?limit=5' }
 * ```
 * @throws TypeError when `url` is not a valid absolute URL (from the URL parser).
 */
export function splitUrl(url: string): TargetUrl {
  const m = plainUrl.exec(url);
  if (m) {
    const path = m[2] ?? '/';
    const query = path.indexOf('?');
    const pathname = query === -1 ? path : path.slice(0, query);
    if (!dotSegment.test(pathname) && query !== path.length - 1) {
      const origin = originOf(m[1]!);
      if (origin !== undefined) return { origin, path };
    }
  }
  const parsed = new URL(url);
  return { origin: parsed.origin, path: parsed.pathname + parsed.search };
}

function originOf(written: string): string | undefined {
  let origin = origins.get(written);
  if (origin === undefined) {
    // Not URL.canParse: on Node 20 it refuses some URLs the parser accepts.
    try {
      origin = new URL(written).origin;
    } catch {
      return undefined;
    }
    if (origins.size >= maxOrigins) origins.clear();
    origins.set(written, origin);
  }
  return origin;
}
