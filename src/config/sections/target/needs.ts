/** What checks need of the target's own places: other nodes, requests that return a secret, the plain-HTTP URL. */
import { need } from '../../../model/need.js';
import { Unmet } from '../../../model/unmet.js';
import type { SecretEndpoint } from './profile.js';

/** The needs `nodes`, `secretEndpoints` and `plainHttpUrl` meet. */
export const targetNeeds = {
  /** Other base URLs of the same deployment. */
  nodes: need<readonly string[]>({
    label: 'other nodes of the deployment',
    keys: ['nodes'],
    resolve: (p) => (p.nodes.length > 0 ? p.nodes : new Unmet('no other nodes of the deployment configured', 'nodes')),
  }),
  /** Requests whose responses hold a secret, all sendable on this run. */
  secretEndpoints: need<readonly SecretEndpoint[]>({
    label: 'requests that return a secret',
    keys: ['secretEndpoints', 'safety.readOnly'],
    resolve: (p) => {
      if (p.secretEndpoints.length === 0) return new Unmet('no request that returns a secret configured', 'secretEndpoints');
      if (p.safety.readOnly && p.secretEndpoints.some((e) => e.method !== 'GET')) return new Unmet('read-only run: minting a secret writes', 'safety.readOnly');
      return p.secretEndpoints;
    },
  }),
  /** The target's plain-HTTP URL. */
  plainHttpUrl: need<string>({
    label: "the target's plain-HTTP URL",
    keys: ['plainHttpUrl'],
    resolve: (p) => p.plainHttpUrl ?? new Unmet('no plain-HTTP URL configured to check its redirect', 'plainHttpUrl'),
  }),
} as const;
