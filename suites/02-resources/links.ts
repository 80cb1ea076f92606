/** §1 hypermedia: the `_links` an API shows lead somewhere. */
import { CheckFailure, CheckSkipped, defineCheck } from '../../src/model/check.js';
import { describe } from '../../src/check-kit/expect.js';
import { linkedItems, linkTarget } from '../../src/check-kit/links.js';
import { targetOrigins } from '../../src/check-kit/created-url.js';

export const linksResolve = defineCheck({
  id: 'RES-links-resolve',
  title: 'Every link in _links resolves',
  rule: 'Links are optional, but a `_links` member the API shows MUST lead to a resource: a GET on it never answers 404, 410 or a server error (§1 hypermedia).',
  severity: 'must',
  needs: ['mayWrite'],
  dependsOn: ['END-create-returns-resource'],
  async run(ctx) {
    const items = await linkedItems(ctx);
    const shown = items.filter((i) => i.links.size > 0);
    if (items.length === 0) throw new CheckSkipped('no collection restprobe may create an item in, to read its _links', 'collections[].create.body');
    if (shown.length === 0) throw new CheckSkipped(`no _links on ${items.map((i) => i.what).join(', ')}: hypermedia is optional`);
    for (const { what, links, actions } of shown) {
      for (const [name, href] of links) {
        // An action's own resource may not exist until it is taken: its link is judged by STA-links-open-actions.
        if (actions.includes(name)) continue;
        const target = linkTarget(ctx.profile, href);
        const res = await ctx.http.send({ method: 'GET', url: target, auth: targetOrigins(ctx.profile).has(new URL(target).origin) });
        if (res.status === 404 || res.status === 410 || res.status >= 500) {
          throw new CheckFailure(`_links.${name} of ${what} names ${href}: ${describe(res)}, expected it to lead to a resource`, 'not 404, 410 or 5xx', String(res.status), res.exchangeIndex);
        }
      }
      ctx.note(`${what}: ${[...links.keys()].join(', ')} followed`);
    }
  },
});
