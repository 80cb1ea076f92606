/** §1 layered system: nodes behind a load balancer answer as one server. */
import type { Check } from '../../src/model/check.js';
import { CheckSkipped } from '../../src/model/check.js';
import { ensure } from '../../src/checks/expect.js';
import { tagged } from '../04-endpoints/conditional.js';

export const etagSameAcrossNodes: Check = {
  id: 'CON-etag-same-across-nodes',
  section: 'CON',
  title: 'Every node gives the same ETag',
  rule: 'The ETag of a representation MUST be the same on every server behind the load balancer.',
  severity: 'must',
  requires: ['write'],
  async run(ctx) {
    if (ctx.profile.nodes.length === 0) throw new CheckSkipped('no other nodes of the deployment configured', 'nodes');
    const item = await ctx.create(ctx.writableCollection());
    // The item's path below the base URL: a node is the base URL's peer, path prefix and all.
    const path = item.url.slice(ctx.profile.baseUrl.length);
    const here = await tagged(ctx, item.url, 'GET on the base URL');
    for (const node of ctx.profile.nodes) {
      const there = await tagged(ctx, `${node}${path}`, `GET on node ${node}`);
      ensure(there.etag === here.etag, `node ${node} gave ETag ${there.etag} where ${ctx.profile.baseUrl} gave ${here.etag} for the same item, expected one validator on every node`, here.etag, there.etag);
    }
  },
};

export const constraintChecks: readonly Check[] = [etagSameAcrossNodes];
