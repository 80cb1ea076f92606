/**
 * Where the described API lives: the document's servers, their variables filled with their
 * defaults, relative ones resolved against the document's own URL (OpenAPI 3.x §4.8.5), and
 * split into the base URL restprobe is pointed at and the path prefix every collection path
 * carries. A version segment at the end of a server URL (`https://api.example.com/v2`)
 * belongs to the paths, so that the URL versioning checks can name another version.
 */
import { isObject } from '../model/json.js';
import type { OpenApiDocument } from '../model/openapi-document.js';

export interface ApiServer {
  /** As the document writes it, variables filled. */
  readonly url: string;
  /** Absolute (http or https), when the document or its location makes it so. */
  readonly absolute?: string;
  readonly description?: string;
}

export interface ApiTarget {
  readonly servers: readonly ApiServer[];
  /** The first server's origin and path, less a trailing version segment; undefined when it is relative to a file. */
  readonly baseUrl?: string;
  /** What precedes every path of the document on the wire (`/v2`, or `` when nothing). */
  readonly prefix: string;
}

const isUrl = (s: string): boolean => /^https?:\/\//i.test(s);

/** `{name}` replaced by each variable's default (its first enum member when it has none). */
function filled(url: string, variables: unknown): string {
  return url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const v = isObject(variables) ? variables[name] : undefined;
    if (!isObject(v)) return whole;
    const value = v['default'] ?? (Array.isArray(v['enum']) ? v['enum'][0] : undefined);
    return value === undefined ? whole : String(value);
  });
}

function absoluteOf(url: string, source: string): string | undefined {
  if (isUrl(url)) return url;
  if (!isUrl(source)) return undefined;
  try {
    return new URL(url, source).href;
  } catch {
    return undefined;
  }
}

/** The servers of the document, or `/` when it names none (the default OpenAPI gives). */
export function serversOf(doc: OpenApiDocument): ApiServer[] {
  const list = Array.isArray(doc.root['servers']) ? doc.root['servers'].filter(isObject) : [];
  const servers = list.length > 0 ? list : [{ url: '/' }];
  return servers.flatMap((s) => {
    if (typeof s['url'] !== 'string') return [];
    const url = filled(s['url'], s['variables']);
    const absolute = absoluteOf(url, doc.source);
    return [{ url, ...(absolute !== undefined && { absolute }), ...(typeof s['description'] === 'string' && { description: s['description'] }) }];
  });
}

/** The path a server puts before every path of the document, without a trailing slash (`/v2`, or ``). */
export function serverPath(server: ApiServer): string {
  return (server.absolute !== undefined ? new URL(server.absolute).pathname : server.url.replace(/^[a-z]+:\/\/[^/]*/i, '')).replace(/\/+$/, '');
}

/**
 * The base URL and path prefix of the document's first server.
 *
 * @example
 * ```ts
 * // servers: [{ url: https://api.example.com/v2 }]
 * targetOf(doc); // { baseUrl: 'https://api.example.com', prefix: '/v2', servers: [...] }
 * // served at http://127.0.0.1:8080/openapi.json with servers: [{ url: /v2 }]
 * targetOf(doc); // { baseUrl: 'http://127.0.0.1:8080', prefix: '/v2', … }
 * ```
 */
export function targetOf(doc: OpenApiDocument): ApiTarget {
  const servers = serversOf(doc);
  const first = servers[0];
  const path = first === undefined ? '' : serverPath(first);
  const version = /\/v\d+$/.exec(path);
  const prefix = version === null ? '' : version[0];
  const basePath = version === null ? path : path.slice(0, version.index);
  if (first?.absolute === undefined) return { servers, prefix: basePath === '' ? prefix : `${basePath}${prefix}` };
  return { servers, baseUrl: `${new URL(first.absolute).origin}${basePath}`, prefix };
}
