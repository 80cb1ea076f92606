/**
 * A load balancer in front of the nodes (`balancer: true`, `serve --balancer`): one more
 * listener that hands each request to the next node in turn (round robin), as a balancer
 * over the backends does. Behind it, a client sees one URL and every node by turns, so a
 * fault that keeps state per node (`rate-limit-per-node`) shows as it does in production.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** Hands request n to node n mod N (each node's own request listener). */
export function roundRobin(nodes: readonly Listener[]): Listener {
  let next = 0;
  return (req, res) => {
    const node = nodes[next % nodes.length]!;
    next = (next + 1) % nodes.length;
    node(req, res);
  };
}
