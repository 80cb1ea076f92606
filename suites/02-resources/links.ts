/** §1 hypermedia: the `_links` an API shows lead somewhere. */
import { CheckFailure, CheckSkipped, defineCheck } from '../../src/model/check.js';
import { describe } from '../../src/check-kit/expect.js';
import { leadsToResource, linkedItems, linkTarget, resourceStatuses } from '../../src/check-kit/links.js';
import { targetOrigins } from '../../src/check-kit/created-url.js';
import { parseAllow } from '../../src/check-kit/probes.js';
import type { CheckContext } from '../../src/model/context.js';

/**
 * Whether OPTIONS on `url` answers 2xx with an Allow that lists methods but not GET: a path
 * that serves a write alone (an action taken with POST), which Express, NestJS and Fastify
 * answer a GET with 404, not 405. A path whose Allow lists GET, or that OPTIONS does not
 * know, is not: its GET's 404 says the resource is missing.
 */
async function servesNoGet(ctx: CheckContext, url: string, origins: ReadonlySet<string>): Promise<boolean> {
  const res = await ctx.http.send({ method: 'OPTIONS', url, auth: origins.has(new URL(url).origin) });
  const allow = res.status >= 200 && res.status < 300 ? parseAllow(res.headers['allow']) : undefined;
  return allow !== undefined && allow.some((m) => m !== 'OPTIONS') && !allow.includes('GET');
}

export const linksResolve = defineCheck({
  id: 'RES-links-resolve',
  title: 'Every link in _links resolves',
  rule: 'Links are optional, but a `_links` member the API shows MUST lead to a resource: a GET on it (following one redirect) never answers 404, 410, a 400 or 422 (an id left unset, as `/projects/undefined`) or a server error (§1 hypermedia); a 404 to a path whose OPTIONS lists only other methods (an action taken with POST, which Express answers GET with 404) leads to one, and a link the config names in `collections[].postLinks` is not followed.',
  severity: 'must',
  needs: ['mayWrite'],
  dependsOn: ['END-create-returns-resource'],
  async run(ctx) {
    const items = await linkedItems(ctx);
    const shown = items.filter((i) => i.links.size > 0);
    if (items.length === 0) throw new CheckSkipped('no collection restprobe may create an item in, to read its _links', 'collections[].create.body');
    if (shown.length === 0) throw new CheckSkipped(`no _links on ${items.map((i) => i.what).join(', ')}: hypermedia is optional`);
    const origins = targetOrigins(ctx.profile);
    // Credentials only to the target's own origins.
    const get = (url: string) => ctx.http.send({ method: 'GET', url, auth: origins.has(new URL(url).origin) });
    for (const { what, links, actions, postLinks } of shown) {
      const followed: string[] = [];
      for (const [name, href] of links) {
        // An action's own resource may not exist until it is taken: its link is judged by STA-links-open-actions.
        if (actions.includes(name)) continue;
        if (postLinks.includes(name)) {
          // Not fetched, but an id left unset in it (`/projects/undefined/duplicate`) is a dead link all the same.
          const unset = /\/(?:undefined|null|NaN)(?:\/|\?|$)/.exec(new URL(linkTarget(ctx.profile, href)).pathname);
          if (unset) throw new CheckFailure(`_links.${name} of ${what} names ${href}: an id left unset in its path, expected it to lead to a resource`, 'a path with the item\'s id', href);
          ctx.note(`_links.${name} of ${what} names ${href}: an action taken with POST alone (collections[].postLinks), not followed with GET`);
          continue;
        }
        followed.push(name);
        const target = linkTarget(ctx.profile, href);
        let res = await get(target);
        // A redirect is followed once: where it leads is what the link leads to.
        const location = res.status >= 300 && res.status < 400 ? res.headers['location'] : undefined;
        if (location !== undefined && URL.canParse(location, target)) res = await get(new URL(location, target).href);
        if (res.status === 404 && (await servesNoGet(ctx, res.url, origins))) {
          ctx.note(`_links.${name} of ${what} names ${href}: GET answered 404, and OPTIONS lists only other methods (a path that serves a write alone, as an action's does; Express answers GET there 404)`);
          continue;
        }
        if (!leadsToResource(res.status)) {
          const post = res.status === 404 ? ' (if this link names an action taken with POST alone, where OPTIONS tells nothing, collections[].postLinks says so)' : '';
          throw new CheckFailure(`_links.${name} of ${what} names ${href}: ${describe(res)}, expected it to lead to a resource${post}`, resourceStatuses, String(res.status), res.exchangeIndex);
        }
      }
      if (followed.length > 0) ctx.note(`${what}: ${followed.join(', ')} followed`);
    }
  },
});
