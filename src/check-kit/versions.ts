/**
 * Naming an API version in a request, in the scheme the config says (conventions §9), and
 * reading what a deprecated version's answers say of its lifecycle (RFC 9745, RFC 8594).
 */
import type { RequestSpec } from '../model/context.js';
import type { VersionProfile } from '../model/profile.js';
import { httpDateProblem, splitList } from './http-grammar.js';
import { withQueryParam } from '../http/target-url.js';
import { versionHeader } from '../http/session.js';

export { withQueryParam };

/** The `v<current>` segment of a path under the URL scheme. */
const segment = (version: string): RegExp => new RegExp(`(^|/)v${version}(?=/|$)`);

/**
 * `path` (a configured path, which names the current version under the URL scheme) as a
 * request for `version`; undefined when the URL scheme's path names no current version.
 *
 * @example
 * ```ts
 * versionedRequest({ scheme: 'url', current: '2', … }, '1', '/v2/projects'); // { path: '/v1/projects' }
 * versionedRequest({ scheme: 'header', header: 'Accept', vendor: 'acme', … }, '1', '/projects');
 * // { path: '/projects', headers: { Accept: 'application/vnd.acme+json; version=1' } }
 * ```
 */
export function versionedRequest(v: VersionProfile, version: string, path: string): Pick<RequestSpec, 'path' | 'headers'> | undefined {
  switch (v.scheme) {
    case 'url':
      return segment(v.current).test(path) ? { path: path.replace(segment(v.current), `$1v${version}`) } : undefined;
    case 'header':
      return { path, headers: versionHeader(v, version) };
    case 'query':
      return { path: withQueryParam(path, v.queryParam, version) };
  }
}


/** Why a `Deprecation` value is not an sf-date (`@` and an sf-integer, RFC 9745 §2.1); undefined when it is one. */
export function deprecationProblem(value: string): string | undefined {
  if (/^@-?\d{1,15}$/.test(value)) return undefined;
  if (value === 'true' || httpDateProblem(value) === undefined) return 'is the format of the drafts before RFC 9745, expected an sf-date such as @1688169599';
  return 'is not an sf-date (@ and seconds since the epoch)';
}

/** The targets of the `Link` header's links whose rel names `rel` (RFC 8288). */
export function linkTargets(link: string | undefined, rel: string): string[] {
  if (link === undefined) return [];
  return splitList(link).flatMap((one) => {
    const m = /^<([^>]*)>(.*)$/.exec(one.trim());
    if (m === null) return [];
    const rels = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;]+))/i.exec(m[2] ?? '');
    const names = (rels?.[1] ?? rels?.[2] ?? '').toLowerCase().split(/\s+/);
    return names.includes(rel) ? [m[1] ?? ''] : [];
  });
}
