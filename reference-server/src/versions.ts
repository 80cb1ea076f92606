/**
 * API versions (conventions §9): `v2` is current, `v1` is deprecated (§3 deprecation
 * flow: `Deprecation` as an RFC 9745 sf-date, `Sunset` as an RFC 8594 HTTP-date later than
 * it, and a `Link rel="deprecation"` to its notice), `v0` is removed (410). One scheme
 * serves the whole API, chosen when the server starts:
 *
 * - `url` (the default): `/v2/projects`, `/v1/projects`;
 * - `header`: `/projects`, with `Accept: application/vnd.restprobe+json; version=1`
 *   choosing the version (none: the current one); the response carries `Vary: Accept`;
 * - `x-api-version`: `/projects`, with `X-API-Version: 1` choosing the version (none: the
 *   current one); the response carries `Vary: Accept, X-API-Version`;
 * - `query`: `/projects?v=1` (none: the current one), the scheme §9.2 discourages: it is
 *   here so that the check that warns of it has a real target.
 *
 * The routes are written once, under `/v2`; a request for another version is routed
 * there, and its reply is shaped here: its links written for the version and scheme
 * (links.ts), a field rename in transition (v1 still sends `title`, the old name of a
 * project's `name`), the deprecation headers.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { faultActive } from './request-faults.js';
import { genericProblem, ProblemError } from './problem.js';
import type { LinkWriter } from './links.js';
import { acceptedVersion } from './media-types.js';
import type { Reply } from './respond.js';

export type Versioning = 'url' | 'header' | 'x-api-version' | 'query';

/** Every scheme, for `serve --versioning`. */
export const versioningSchemes: readonly Versioning[] = ['url', 'header', 'x-api-version', 'query'];
/** The header of the `x-api-version` scheme, which responses name in Vary. */
export const versionHeader = 'X-API-Version';
/** The parameter of the `query` scheme. */
export const versionQueryParam = 'v';

export const currentVersion = 2;
export const deprecatedVersion = 1;
export const removedVersion = 0;
export { vendorMediaType } from './media-types.js';
/** When v1 was deprecated (2025-01-01T00:00:00Z) and when it goes (2030-01-01T00:00:00Z), in seconds. */
export const deprecatedAt = 1_735_689_600;
export const sunsetAt = 1_893_456_000;
/** The renames in transition: the old name v1 still sends beside the new one, per collection path. */
export const renames: readonly { readonly path: string; readonly from: string; readonly to: string }[] = [{ path: '/v2/projects', from: 'title', to: 'name' }];
/** The deprecation notice of v1, as the routes serve it. */
export const deprecationNoticePath = '/v2/deprecations/v1';

/** Which version a request asks for, and the route path (under `/v2`) that serves it. */
export interface Versioned {
  readonly version: number;
  readonly path: string;
}

/** The version a request names outside its path, in the scheme's header or parameter; undefined when none. */
function sentVersion(headers: IncomingHttpHeaders, query: URLSearchParams, scheme: Exclude<Versioning, 'url'>): string | undefined {
  switch (scheme) {
    case 'header':
      return acceptedVersion(headers.accept);
    case 'x-api-version': {
      const value = headers[versionHeader.toLowerCase()];
      return typeof value === 'string' ? value.trim() : undefined;
    }
    case 'query':
      return query.get(versionQueryParam) ?? undefined;
  }
}

/**
 * The version a request names and where it is routed. Throws 410 for the removed
 * version; for a version the scheme does not know, 406 in Accept (no representation
 * fits), 400 in a header or parameter of its own.
 */
export function versionOf(path: string, query: URLSearchParams, headers: IncomingHttpHeaders, scheme: Versioning): Versioned {
  const removed = (): never => {
    // Fault `removed-version-500`: the retired version's code is gone, and so is its 404.
    if (faultActive('removed-version-500')) throw new Error('fault removed-version-500: no handler for the removed version');
    throw new ProblemError(genericProblem(410, `API version ${removedVersion} was removed on its sunset date; use version ${currentVersion}.`));
  };
  if (scheme === 'url') {
    const m = /^\/v(\d+)(?=\/|$)/.exec(path);
    const version = m === null ? undefined : Number(m[1]);
    if (version === removedVersion) removed();
    // Fault `version-query-accepted`: `?v=1` chooses a version too, a second scheme beside the URL's.
    const queried = faultActive('version-query-accepted') ? query.get(versionQueryParam)?.replace(/^v/, '') : undefined;
    if (queried === String(removedVersion)) removed();
    if (version !== deprecatedVersion && queried !== String(deprecatedVersion)) return { version: currentVersion, path };
    if (faultActive('deprecated-version-gone')) removed();
    return { version: deprecatedVersion, path: m === null ? path : `/v${currentVersion}${path.slice(m[0].length)}` };
  }
  // Other schemes: no version in the path; `/v2/…` names nothing.
  const route = /^\/v\d+(?:\/|$)/.test(path) ? `/unversioned${path}` : `/v${currentVersion}${path === '/' ? '' : path}`;
  const sent = sentVersion(headers, query, scheme);
  if (sent === undefined) return { version: currentVersion, path: route };
  const version = /^v?\d{1,3}$/.test(sent) ? Number(sent.replace(/^v/, '')) : NaN;
  if (version === removedVersion || (version === deprecatedVersion && faultActive('deprecated-version-gone'))) removed();
  if (version !== currentVersion && version !== deprecatedVersion) {
    const how = scheme === 'header' ? 'send version=' : scheme === 'query' ? `send ?${versionQueryParam}=` : `send ${versionHeader}: `;
    throw new ProblemError(genericProblem(scheme === 'header' ? 406 : 400, `API version ${sent} is not served; ${how}${currentVersion} (current) or ${deprecatedVersion} (deprecated).`));
  }
  return { version, path: route };
}

/** Where a route path (`/v2/…`) is reached under `version` in `scheme`. */
function publicPath(path: string, version: number, scheme: Versioning): string {
  const rest = path.slice(`/v${currentVersion}`.length);
  if (scheme === 'url') return `/v${version}${rest}`;
  const unversioned = rest === '' || rest.startsWith('?') ? `/${rest}` : rest;
  // Under the query scheme a link keeps the version it was answered in; the current one needs no parameter.
  if (scheme !== 'query' || version === currentVersion) return unversioned;
  return `${unversioned}${unversioned.includes('?') ? '&' : '?'}${versionQueryParam}=${version}`;
}

const isRoutePath = (s: string): boolean => s === `/v${currentVersion}` || s.startsWith(`/v${currentVersion}/`);

/** How links are written in a reply for `version` in `scheme`; undefined where they stay route paths (url, current). */
export function linkWriter(versioned: Versioned, scheme: Versioning): LinkWriter | undefined {
  if (versioned.version === currentVersion && scheme === 'url') return undefined;
  return (path) => (isRoutePath(path) ? publicPath(path, versioned.version, scheme) : path);
}

type Rename = { readonly from: string; readonly to: string };

/** An item with the old name of a renamed field added, before the new one and with its value. */
function withOldName(item: unknown, rename: Rename): unknown {
  if (item === null || typeof item !== 'object' || Array.isArray(item) || !Object.hasOwn(item, rename.to) || Object.hasOwn(item, rename.from)) return item;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) {
    if (k === rename.to) out[rename.from] = v;
    out[k] = v;
  }
  return out;
}

/** A reply value of a renamed collection as v1 sends it: an item, or each item of a page's `data`. */
function renamed(value: unknown, rename: Rename): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  if (!('data' in value)) return withOldName(value, rename);
  const { data } = value as { data: unknown };
  return { ...value, data: Array.isArray(data) ? data.map((item) => withOldName(item, rename)) : data };
}

const httpDate = (seconds: number): string => new Date(seconds * 1000).toUTCString();

/** The deprecation fields of a deprecated version's responses (RFC 9745, RFC 8594). */
function deprecationHeaders(scheme: Versioning): Record<string, string> {
  const notice = publicPath(deprecationNoticePath, currentVersion, scheme);
  return {
    Deprecation: faultActive('deprecation-date-malformed') ? httpDate(deprecatedAt) : `@${deprecatedAt}`,
    // Fault `sunset-before-deprecation`: a year before the deprecation date.
    Sunset: httpDate(faultActive('sunset-before-deprecation') ? deprecatedAt - 365 * 86_400 : sunsetAt),
    Link: `<${faultActive('deprecation-link-dead') ? `${notice}-gone` : notice}>; rel="deprecation"; type="application/json"`,
  };
}

/**
 * The reply as `version` in `scheme` sends it: Location as the client reaches it, the
 * deprecation headers, the old names of renamed fields. Its links are written when it is
 * sent ({@link linkWriter}); nothing else in its value is touched.
 */
export function shapeReply(reply: Reply, versioned: Versioned, scheme: Versioning): Reply {
  const { version } = versioned;
  const headers: Record<string, string> = { ...reply.headers };
  const location = headers['Location'];
  if (location !== undefined && isRoutePath(location)) headers['Location'] = publicPath(location, version, scheme);
  if (version === deprecatedVersion || faultActive('deprecation-on-current')) Object.assign(headers, deprecationHeaders(scheme));
  const rename = version === deprecatedVersion && !faultActive('rename-dropped-early') ? renames.find((r) => versioned.path === r.path || versioned.path.startsWith(`${r.path}/`)) : undefined;
  const { content } = reply;
  const shaped = rename !== undefined && content !== undefined && 'value' in content && content.type === 'application/json' ? { ...content, value: renamed(content.value, rename) } : content;
  return { ...reply, headers, ...(shaped !== undefined && { content: shaped }) };
}
