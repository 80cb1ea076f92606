/** §1 and §2: an item's `_links` name only the actions open in its state; an action is taken with POST, never GET. */
import { CheckFailure, defineCheck } from '../../src/model/check.js';
import type { CheckContext, HttpResponse } from '../../src/model/context.js';
import type { ActionItems } from '../../src/model/needs.js';
import { brief, describe, expectJsonObject, expectStatus } from '../../src/check-kit/expect.js';
import { createChild } from '../../src/check-kit/children.js';
import { diffRepresentations } from '../../src/check-kit/compare.js';
import { linksOf, linkTarget } from '../../src/check-kit/links.js';
import { setupError } from '../../src/check-kit/setup.js';

const readItem = async (ctx: CheckContext, url: string, what: string): Promise<{ res: HttpResponse; body: Record<string, unknown> }> => {
  const res = await ctx.http.send({ method: 'GET', url });
  expectStatus(res, 200, what);
  return { res, body: expectJsonObject(res, what) };
};

/** A new item that carries the actions: one of the collection's own, or a child under a new owner. Returns its URL. */
async function newItem(ctx: CheckContext, { collection, child }: ActionItems): Promise<string> {
  const owner = await ctx.create(collection);
  if (child === undefined) return owner.url;
  return (await createChild(ctx, { parent: collection, child }, owner)).url;
}

export const linksOpenActions = defineCheck({
  id: 'STA-links-open-actions',
  title: '_links name only the open actions; an action is taken with POST, never with GET',
  rule: "An item's `_links` MUST name an action while it is open and not once it is taken (the server decides which actions are open); the action is a POST to a noun sub-resource, and a GET on it MUST change nothing (§1 hypermedia, §2 non-CRUD actions, §4.1).",
  severity: 'must',
  needs: ['actions'],
  // A GET that changes an item at all is END-safe-methods-no-change's to judge.
  dependsOn: ['RES-nested-listing'],
  assumes: ['END-safe-methods-no-change'],
  async run(ctx, { actions: carriers }) {
    for (const carrier of carriers) {
      const name = (carrier.child ?? carrier.collection).name;
      // A child's items have no volatileFields of their own: the owner collection's serve both.
      const volatile = carrier.collection.volatileFields;
      for (const action of carrier.actions) {
        const url = await newItem(ctx, carrier);
        const before = await readItem(ctx, url, `the new ${name} item`);
        const href = linksOf(before.body).get(action);
        if (href === undefined) {
          throw new CheckFailure(`${describe(before.res)}: _links has no "${action}" (${brief(before.body['_links'])}), expected the action linked on a new ${name} item, where it is open`, `_links.${action}`, brief(before.body['_links']), before.res.exchangeIndex);
        }
        const actionUrl = linkTarget(ctx.profile, href, url);
        // A GET on the action reads it at most: the item stays as it was, the action still open.
        await ctx.http.send({ method: 'GET', url: actionUrl });
        const afterGet = await readItem(ctx, url, `the ${name} item after a GET on its ${action}`);
        // Fields the config says change on their own (a view counter, a computed expiry) say nothing of the GET.
        const changed = diffRepresentations(before.body, afterGet.body, ['updated_at', ...volatile]);
        if (changed.length > 0 || !linksOf(afterGet.body).has(action)) {
          throw new CheckFailure(`a GET on ${href} changed the ${name} item (${changed.slice(0, 3).join('; ') || `_links.${action} is gone`}), expected a GET to change nothing: an action is taken with POST`, 'unchanged', changed.join('; '), afterGet.res.exchangeIndex);
        }
        // With an empty JSON object: an endpoint that binds a body (FastAPI, Spring's @RequestBody,
        // ASP.NET's [FromBody], a Fastify schema) refuses a POST with none, or without its type.
        const taken = await ctx.http.send({ method: 'POST', url: actionUrl, json: {} });
        if (taken.status === 400 || taken.status === 415 || taken.status === 422) {
          throw setupError(taken, `taking the open action ${action} with an empty JSON object: ${describe(taken)}, so the action wants a body restprobe cannot know, and its links cannot be judged after it (check collections[].actions)`);
        }
        if (taken.status < 200 || taken.status > 299) throw new CheckFailure(`taking the open action ${action}: ${describe(taken)}, expected a 2xx`, '2xx', String(taken.status), taken.exchangeIndex);
        const after = await readItem(ctx, url, `the ${name} item after its ${action}`);
        if (linksOf(after.body).has(action)) {
          throw new CheckFailure(`${describe(after.res)}: _links still names "${action}" (${brief(after.body['_links'])}) after it was taken, expected only the actions open in the item's new state`, `no _links.${action}`, brief(after.body['_links']), after.res.exchangeIndex);
        }
        ctx.note(`${name} ${action}: linked while open, taken with POST ${href} (${taken.status}), then no longer linked`);
      }
    }
  },
});
