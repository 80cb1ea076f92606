/** `_links` (§1 hypermedia): an object mapping an action name to a path (or a HAL-style `{ href }`). */
import type { CheckContext, FixtureMaker, HttpResponse } from '../model/context.js';
import { creatable } from '../model/needs.js';
import type { TargetProfile } from '../model/profile.js';
import { resolveUrl } from '../http/session.js';
import { createChild } from './children.js';
import { adoptedFixture } from './probes.js';

/** The links of a representation, name → target; empty when it has no `_links` object. */
export function linksOf(representation: unknown): Map<string, string> {
  const links = (representation as { _links?: unknown } | null | undefined)?._links;
  const out = new Map<string, string>();
  if (links === null || typeof links !== 'object' || Array.isArray(links)) return out;
  for (const [name, value] of Object.entries(links)) {
    const link = typeof value === 'string' ? undefined : (value as { href?: unknown; templated?: unknown } | null);
    const given = typeof value === 'string' ? value : link?.href;
    if (typeof given !== 'string') continue;
    // A HAL templated link is the client's to fill in: its query expressions left out (RFC 6570: /orders{?page} is /orders), it is followed; one with a path variable left is not.
    const templated = link?.templated === true;
    const href = templated ? given.replace(/\{[?&][^}]*\}/g, '') : given;
    if (!(templated && href.includes('{'))) out.set(name, href);
  }
  return out;
}

/**
 * Where a link leads. An absolute URL as it is; a path (the conventions' links are paths)
 * under the base URL, as the configured paths are, unless it names the base URL's path
 * already: an API served behind a gateway under `https://gw/api` may link `/api/v2/…`
 * (it knows its prefix, as a Location resolved by RFC 3986 would) or `/v2/…` (it does not).
 * A relative path (no `/`) resolves against `relativeTo` when given.
 *
 * @example
 * ```ts
 * linkTarget({ baseUrl: 'https://gw.example/api' }, '/api/v2/projects/7'); // 'https://gw.example/api/v2/projects/7'
 * linkTarget({ baseUrl: 'https://gw.example/api' }, '/v2/projects/7');     // 'https://gw.example/api/v2/projects/7'
 * ```
 */
export function linkTarget(profile: Pick<TargetProfile, 'baseUrl'>, href: string, relativeTo?: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return href;
  if (!href.startsWith('/') && relativeTo !== undefined) return new URL(href, relativeTo).toString();
  const path = href.startsWith('/') ? href : `/${href}`;
  const base = new URL(profile.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const named = basePath !== '' && (path === basePath || /^[/?#]/.test(path.slice(basePath.length))) && path.startsWith(basePath);
  return named ? base.origin + path : resolveUrl(profile.baseUrl, path);
}

/** An item the check created, with the links it shows. */
export interface Linked {
  /** `a projects item`, for messages. */
  readonly what: string;
  readonly id: string;
  /** The Location its create answered with, if any. */
  readonly location?: string;
  /** Its create's answer, which shows the Location and links: in the evidence of each check that reads them. */
  readonly response: HttpResponse;
  readonly links: Map<string, string>;
  /** Link names that are state-dependent actions (the config's `collections[].actions` or `children[].actions`). */
  readonly actions: readonly string[];
  /** Link names of always-open actions taken with POST alone (`collections[].postLinks`, `children[].postLinks`): not followed with GET. */
  readonly postLinks: readonly string[];
}

/**
 * An item in every collection restprobe may create in, and one in each of its
 * sub-collections, with their links: one set for the run, made by the first check that asks
 * (the checks only read the links and follow them with GET), the items kept until the run
 * ends and their creates' answers in each asking check's evidence.
 */
export function linkedItems(ctx: CheckContext): Promise<Linked[]> {
  return adoptedFixture(ctx, 'an item in every collection and sub-collection, for its links', (maker) => makeLinked(ctx.profile, maker), (items, take) => items.map((i) => ({ ...i, response: take(i.response) })));
}

async function makeLinked(profile: TargetProfile, ctx: FixtureMaker): Promise<Linked[]> {
  const out: Linked[] = [];
  for (const c of profile.collections.filter(creatable)) {
    const item = await ctx.create(c);
    out.push({ what: `a ${c.name} item`, id: item.id, location: item.response.headers['location'], response: item.response, links: linksOf(item.body), actions: c.actions ?? [], postLinks: c.postLinks ?? [] });
    for (const child of c.children ?? []) {
      const created = await createChild(ctx, { parent: { ...c, createBody: c.createBody! }, child }, item);
      out.push({ what: `a ${child.name} item`, id: created.id, location: created.response.headers['location'], response: created.response, links: linksOf(created.body), actions: child.actions, postLinks: child.postLinks ?? [] });
    }
  }
  return out;
}

/**
 * An answer that shows a resource is there: a success, a redirect left after the one followed
 * (http → https, then a trailing slash), a refusal to this client (a documentation site's bot
 * protection), a method or format it does not serve, or a rate limiter's 429.
 *
 * @example
 * ```ts
 * leadsToResource(403); // true
 * leadsToResource(404); // false
 * ```
 */
export const leadsToResource = (status: number): boolean => (status >= 200 && status < 400) || [401, 403, 405, 406, 429].includes(status);

/** What {@link leadsToResource} takes, for a failure's `expected`. */
export const resourceStatuses = '2xx, 3xx, 401, 403, 405, 406 or 429';
