/**
 * Splits an absolute URL into what undici's `dispatch()` takes: the origin and the request
 * target (path and query). The result is exactly what WHATWG URL parsing gives
 * (`url.origin`, `url.pathname + url.search`), but the common case, a plain path on an
 * origin seen before, costs a regex test instead of a URL object: a URL per request was a
 * measurable share of the harness's HTTP cost (`npm run bench`). Anything the URL parser
 * would rewrite (percent-encoding, dot segments, a fragment, an empty query) takes the
 * parser's path.
 */

/** Scheme and an authority of characters that cannot hide a path, query or user. */
const plainOrigin = /^https?:\/\/[A-Za-z0-9\-._~%:[\]]+$/;
/** A path and query of characters that the URL parser leaves as they are. */
const plainPath = /^\/[A-Za-z0-9\-._~!$&()*+,;=:@%/?]*$/;
/** A dot segment, possibly percent-encoded, which the parser would resolve (anywhere, to be safe). */
const dotSegment = /\/\.|%2e/i;
/** Origins as the parser normalises them (case, default port), by how they were written. */
const origins = new Map<string, string>();
const maxOrigins = 64;
/** The origin of the previous call: most calls repeat it, and then need no lookup at all. */
let last = { written: '', origin: '' };

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
  const slash = url.startsWith('http://') ? url.indexOf('/', 7) : url.startsWith('https://') ? url.indexOf('/', 8) : -1;
  if (slash !== -1) {
    const origin = originOf(url, slash);
    const path = url.slice(slash);
    // An empty query ("/a?") is dropped by the parser.
    if (origin !== undefined && plainPath.test(path) && !dotSegment.test(path) && path.indexOf('?') !== path.length - 1) return { origin, path };
  }
  const parsed = new URL(url);
  return { origin: parsed.origin, path: parsed.pathname + parsed.search };
}

/** The normalised origin of `url`'s first `length` characters, or undefined for the parser to judge. */
function originOf(url: string, length: number): string | undefined {
  if (last.written.length === length && url.startsWith(last.written)) return last.origin;
  const written = url.slice(0, length);
  let origin = origins.get(written);
  if (origin === undefined) {
    if (!plainOrigin.test(written)) return undefined;
    // Not URL.canParse: on Node 20 it refuses some URLs the parser accepts.
    try {
      origin = new URL(written).origin;
    } catch {
      return undefined;
    }
    if (origins.size >= maxOrigins) origins.clear();
    origins.set(written, origin);
  }
  last = { written, origin };
  return origin;
}

/**
 * `url` (a path or an absolute URL) with `name=value` added to its query, before any fragment.
 *
 * @example
 * ```ts
 * withQueryParam('/v2/projects?limit=5', 'v', '2'); // '/v2/projects?limit=5&v=2'
 * ```
 */
export function withQueryParam(url: string, name: string, value: string): string {
  const hash = url.indexOf('#');
  const [head, fragment] = hash === -1 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
  return `${head}${head.includes('?') ? (head.endsWith('?') || head.endsWith('&') ? '' : '&') : '?'}${encodeURIComponent(name)}=${encodeURIComponent(value)}${fragment}`;
}

/** Whether `url`'s query names the parameter `name`. */
export function hasQueryParam(url: string, name: string): boolean {
  const q = url.indexOf('?');
  if (q === -1) return false;
  const hash = url.indexOf('#', q);
  return new URLSearchParams(url.slice(q + 1, hash === -1 ? undefined : hash)).has(name);
}
