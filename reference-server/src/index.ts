/**
 * The restprobe reference server: a small projects-and-tasks API that follows every
 * convention, and can be started with named faults that each break one of them.
 *
 * @example
 * ```ts
 * const server = await startReferenceServer({ faults: ['delete-soft'] });
 * const res = await fetch(`${server.url}/v2/projects`, {
 *   headers: { 'X-API-Key': server.secrets.RESTPROBE_API_KEY },
 * });
 * await server.close();
 * ```
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClientErrorListener, createRequestListener } from './app.js';
import { KeyRing } from './auth.js';
import { ValidatorMemory, Validators } from './conditional.js';
import { createRoutes } from './routes.js';
import { resolveFaults } from './faults.js';
import { RateLimiter, type RateLimit } from './rate-limit.js';

export { parseRateLimit, type RateLimit } from './rate-limit.js';

export { faultCatalogue, faultNames, isFaultName, type Fault, type FaultDefinition, type FaultName } from './faults.js';

export interface ReferenceServerOptions {
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  readonly port?: number;
  /**
   * Fault names from {@link faultCatalogue}; none by default. Plain strings (user input):
   * unknown names are rejected when the server starts.
   */
  readonly faults?: readonly string[];
  /** The API key clients must send; default: 32 random bytes, base64url. */
  readonly apiKey?: string;
  /**
   * Projects to create before listening, for pagination at scale: names `seed-000001`,
   * `seed-000002`, … in creation order, label `"seed"`, status `active`. Default 0; at
   * most {@link maxSeedProjects}.
   */
  readonly seedProjects?: number;
  /**
   * How many nodes to start, from 1 (the default) to {@link maxNodes}: listeners over one
   * shared store, with the same API key and cursor key, as the backends behind a load
   * balancer. With port 0 each node gets its own free port; with port P, nodes get P, P+1, …
   */
  readonly nodes?: number;
  /** A fixed-window rate limit per client, shared by every node (`serve --rate-limit 20/10s`); none by default. */
  readonly rateLimit?: RateLimit;
  /** Integer ids that a delete frees for the next create (`serve --reuse-ids`); random UUIDs by default. */
  readonly reuseIds?: boolean;
}

/** The most nodes `nodes` may ask for. */
export const maxNodes = 8;

/** The most projects `seedProjects` may ask for. */
export const maxSeedProjects = 1_000_000;

/** A running reference server. */
export interface ReferenceServer {
  /** `http://127.0.0.1:PORT` of the first node, without a trailing slash. */
  readonly url: string;
  /** The first node's port. */
  readonly port: number;
  /** Every node's URL, the first node's first (`urls[0] === url`). */
  readonly urls: readonly string[];
  /** What a client needs, named as the environment variables `restprobe serve` prints. */
  readonly secrets: { readonly RESTPROBE_API_KEY: string };
  /** The active faults, as given. */
  readonly faults: readonly string[];
  /** Stops every node listening and closes every connection, idle keep-alive ones included. */
  close(): Promise<void>;
}

/**
 * Starts a reference server on 127.0.0.1 with fresh in-memory state (empty, apart from
 * any `seedProjects`).
 *
 * @throws Error when a fault name is not in the catalogue (the message lists valid names),
 *   when `seedProjects` is not an integer from 0 to {@link maxSeedProjects}, when `nodes`
 *   is not an integer from 1 to {@link maxNodes}, or when a node cannot listen (the nodes
 *   already started are closed first).
 */
export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const faultNames = [...(options.faults ?? [])];
  const faults = resolveFaults(faultNames);
  const apiKey = options.apiKey ?? randomBytes(32).toString('base64url');
  const seedProjects = options.seedProjects ?? 0;
  if (!Number.isSafeInteger(seedProjects) || seedProjects < 0 || seedProjects > maxSeedProjects) {
    throw new Error(`seedProjects must be an integer from 0 to ${maxSeedProjects}, not ${String(seedProjects)}.`);
  }

  const nodes = options.nodes ?? 1;
  if (!Number.isSafeInteger(nodes) || nodes < 1 || nodes > maxNodes) {
    throw new Error(`nodes must be an integer from 1 to ${maxNodes}, not ${String(nodes)}.`);
  }
  const basePort = options.port ?? 0;
  if (basePort !== 0 && basePort + nodes - 1 > 65535) {
    throw new Error(`ports ${basePort} to ${basePort + nodes - 1} do not all exist; pick a lower port.`);
  }

  // One store (behind the routes) and one validator memory, shared by every node.
  const keys = new KeyRing(apiKey);
  const routes = createRoutes({ seedProjects, keys, ids: options.reuseIds ? 'reuse' : 'uuid' });
  const memory = new ValidatorMemory();
  const limiter = options.rateLimit ? new RateLimiter(options.rateLimit) : undefined;
  const servers: Server[] = [];
  const ports: number[] = [];
  try {
    for (let node = 1; node <= nodes; node++) {
      const validators = new Validators(faults, memory, node);
      const server = createServer(createRequestListener({ keys, faults, routes, validators, ...(limiter && { limiter }) }));
      server.on('clientError', createClientErrorListener(faults));
      await listen(server, basePort === 0 ? 0 : basePort + node - 1);
      servers.push(server);
      ports.push((server.address() as AddressInfo).port);
    }
  } catch (error) {
    await Promise.all(servers.map(stop));
    throw error;
  }
  const urls = ports.map((p) => `http://127.0.0.1:${p}`);

  return {
    url: urls[0] ?? '',
    port: ports[0] ?? 0,
    urls,
    secrets: { RESTPROBE_API_KEY: apiKey },
    faults: faultNames,
    close: async () => {
      await Promise.all(servers.map(stop));
    },
  };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1' }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Stops listening and closes every connection, idle keep-alive ones included. */
function stop(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.close((error) => (error === undefined ? resolve() : reject(error)));
    server.closeAllConnections();
  });
}
