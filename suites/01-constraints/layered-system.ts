/** §1 layered system: nodes behind a load balancer answer as one server. */
import { defineCheck } from '../../src/model/check.js';
import { ensure } from '../../src/check-kit/expect.js';
import { tagged } from '../../src/check-kit/tagged.js';
import { sharedItem } from '../../src/check-kit/probes.js';

export const etagSameAcrossNodes = defineCheck({
  id: 'CON-etag-same-across-nodes',
  title: 'Every node gives the same ETag',
  rule: 'The ETag of a representation MUST be the same on every server behind the load balancer.',
  severity: 'must',
  needs: ['nodes', 'writable'],
  assumes: ['END-etag-stable'],
  async run(ctx, { nodes, writable }) {
    const item = await sharedItem(ctx, writable);
    // The item's path below the base URL: a node is the base URL's peer, path prefix and all.
    const path = item.url.slice(ctx.profile.baseUrl.length);
    const here = await tagged(ctx, item.url, 'GET on the base URL', { shared: true });
    for (const node of nodes) {
      const there = await tagged(ctx, `${node}${path}`, `GET on node ${node}`);
      ensure(there.etag === here.etag, `node ${node} gave ETag ${there.etag} where ${ctx.profile.baseUrl} gave ${here.etag} for the same item, expected one validator on every node`, here.etag, there.etag);
    }
  },
});

export const constraintChecks = [etagSameAcrossNodes];
