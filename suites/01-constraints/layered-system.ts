/** §1 layered system: nodes behind a load balancer answer as one server. */
import { CheckSkipped, defineCheck } from '../../src/model/check.js';
import { ensure } from '../../src/check-kit/expect.js';
import { tagged } from '../../src/check-kit/tagged.js';
import { sharedItem } from '../../src/check-kit/probes.js';

export const etagSameAcrossNodes = defineCheck({
  id: 'CON-etag-same-across-nodes',
  title: 'Every node gives the same ETag',
  rule: 'The ETag of a representation MUST be the same on every server behind the load balancer: where a node sends the same bytes as the base URL, it sends the same ETag.',
  severity: 'must',
  needs: ['nodes', 'writable'],
  assumes: ['END-etag-stable'],
  async run(ctx, { nodes, writable }) {
    const item = await sharedItem(ctx, writable);
    // The item's path below the base URL: a node is the base URL's peer, path prefix and all.
    const path = item.url.slice(ctx.profile.baseUrl.length);
    const here = await tagged(ctx, item.url, 'GET on the base URL', { shared: true });
    let compared = 0;
    for (const node of nodes) {
      const there = await tagged(ctx, `${node}${path}`, `GET on node ${node}`);
      // Links built from the request's Host (DRF's HyperlinkedModelSerializer, Spring HATEOAS) name the node asked: another representation, whose hash-based ETag rightly differs.
      if (there.res.text !== here.res.text) {
        ctx.note(`node ${node} sent other bytes for the item than ${ctx.profile.baseUrl} (links built from the Host asked, a field of the node's own?): its ETag is not compared`);
        continue;
      }
      compared++;
      ensure(there.etag === here.etag, `node ${node} gave ETag ${there.etag} where ${ctx.profile.baseUrl} gave ${here.etag} for the same item, byte for byte, expected one validator on every node`, here.etag, there.etag);
    }
    if (compared === 0) throw new CheckSkipped(`no node sent the same bytes for the item as ${ctx.profile.baseUrl}, so no two ETags of one representation could be compared`);
  },
});

export const constraintChecks = [etagSameAcrossNodes];
