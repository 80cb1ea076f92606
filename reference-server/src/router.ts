/**
 * A tiny router: path patterns with `:name` segments, matched segment by segment.
 *
 * Matching works on the raw (still percent-encoded) path, so an encoded slash can never
 * split a segment; parameters are decoded afterwards.
 */

/** Methods a route can implement. HEAD and OPTIONS are derived, never declared. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Every method the server speaks of, in the order `Allow` lists them. */
const allowOrder = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** A route's operations, keyed by method. */
export type Operations<Op> = Partial<Record<Method, Op>>;

export interface Route<Op> {
  /** Such as `/v2/projects/:id/tasks`. */
  readonly pattern: string;
  readonly operations: Operations<Op>;
}

export interface RouteMatch<Op> {
  readonly route: Route<Op>;
  readonly params: Readonly<Record<string, string>>;
}

/** The methods a route answers: its own, plus HEAD with GET, plus OPTIONS always. */
export function allowedMethods(route: Route<unknown>): string[] {
  const own = new Set<string>(Object.keys(route.operations));
  if (own.has('GET')) own.add('HEAD');
  own.add('OPTIONS');
  return allowOrder.filter((m) => own.has(m));
}

/** Decodes one path segment; an undecodable segment stays raw and matches no id. */
function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export class Router<Op> {
  private readonly compiled: { route: Route<Op>; segments: readonly string[] }[];

  constructor(routes: readonly Route<Op>[]) {
    this.compiled = routes.map((route) => ({ route, segments: route.pattern.split('/') }));
  }

  /** The route whose pattern the path fits, or `undefined` (→ 404). */
  match(path: string): RouteMatch<Op> | undefined {
    const segments = path.split('/');
    for (const { route, segments: pattern } of this.compiled) {
      if (pattern.length !== segments.length) continue;
      const params: Record<string, string> = {};
      let fits = true;
      for (let i = 0; i < pattern.length && fits; i++) {
        const want = pattern[i] ?? '';
        const got = segments[i] ?? '';
        if (want.startsWith(':')) {
          // An empty segment ("/v2/projects/") is no id.
          if (got === '') fits = false;
          else params[want.slice(1)] = decodeSegment(got);
        } else if (want !== got) {
          fits = false;
        }
      }
      if (fits) return { route, params };
    }
    return undefined;
  }
}

/** Path and query of a request target, whatever its form (origin or absolute). */
export function parseTarget(target: string): { path: string; query: URLSearchParams } {
  if (target.startsWith('/')) {
    const hash = target.indexOf('#');
    const withoutFragment = hash === -1 ? target : target.slice(0, hash);
    const q = withoutFragment.indexOf('?');
    return q === -1
      ? { path: withoutFragment, query: new URLSearchParams() }
      : { path: withoutFragment.slice(0, q), query: new URLSearchParams(withoutFragment.slice(q + 1)) };
  }
  try {
    // Absolute form (`GET http://host/v2/projects`), allowed by RFC 9112 §3.2.2.
    const url = new URL(target);
    return { path: url.pathname, query: url.searchParams };
  } catch {
    // Asterisk form or garbage: names no resource here.
    return { path: '', query: new URLSearchParams() };
  }
}
