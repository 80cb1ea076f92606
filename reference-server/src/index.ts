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
import { newSecret } from './secrets.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClientErrorListener, createRequestListener } from './app.js';
import { roundRobin } from './balancer.js';
import { KeyRing } from './auth.js';
import { SessionStore } from './sessions.js';
import { hstsValue, redirectToHttps, withHsts } from './transport.js';
import { ValidatorMemory, Validators } from './conditional.js';
import { createRoutes } from './routes.js';
import { resolveFaults } from './faults.js';
import { RateLimits, type RateLimitOptions } from './rate-limit.js';
import { AuthorizationServer, type JwtAlgorithm, type OAuthSecrets } from './oauth/server.js';
import { Webhooks, webhookSchedules, type WebhookSchedule, type WebhookScheduleName, type WebhookSigning } from './webhooks.js';

export { webhookScheduleNames, webhookSchedules, webhookSubscriptionsPath, type WebhookSchedule, type WebhookScheduleName } from './webhooks.js';
export { startReferenceReceiver, receiverFaultCatalogue, type ReferenceReceiver, type ReceiverFault, type ReceiverFaultName } from './receiver.js';

export { defaultProbeRateLimit, parseRateLimit, rateLimitAlgorithms, retryAfterFormats, type RateLimit, type RateLimitAlgorithm, type RateLimitOptions, type RetryAfterFormat } from './rate-limit.js';

export { jwtAlgorithms, type JwtAlgorithm, type OAuthSecrets } from './oauth/server.js';

export { currentVersion, deprecatedVersion, removedVersion, vendorMediaType, versioningSchemes, type Versioning } from './versions.js';
import type { Versioning } from './versions.js';
export { faultCatalogue, faultNames, isFaultName, type Fault, type FaultDefinition, type FaultName } from './faults.js';

/**
 * Rate limits (see rate-limit.ts): `rateLimit` for every client but the probe keys
 * (`serve --rate-limit 20/10s`; none by default), `probeRateLimit` for the probe keys
 * (default 10 per 250 ms), the algorithm, the Retry-After format, and overload shedding.
 */
export interface ReferenceServerOptions extends RateLimitOptions {
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  readonly port?: number;
  /**
   * Fault names from {@link faultCatalogue}; none by default. Plain strings (user input):
   * unknown names are rejected when the server starts.
   */
  readonly faults?: readonly string[];
  /** The API key clients must send, with every scope; default: 32 random bytes, base64url. */
  readonly apiKey?: string;
  /** A second key with every `read:` scope and no `write:` one; default: 32 random bytes, base64url. */
  readonly readOnlyKey?: string;
  /**
   * HTTPS on every node, with a CA and a server certificate (SAN IP 127.0.0.1, DNS
   * localhost) generated at start, `Strict-Transport-Security` on every response, and a
   * plain-HTTP listener that redirects to the first node (`serve --tls`). Default false.
   */
  readonly tls?: boolean;
  /**
   * Projects to create before listening, for pagination at scale: names `seed-000001`,
   * `seed-000002`, … in creation order, label `"seed"`, status `active`. Default 0; at
   * most {@link maxSeedProjects}.
   */
  readonly seedProjects?: number;
  /**
   * The projects listing's maximum page size (`limit`), from 1; default 100, as the
   * reference config declares. A smaller cap lets a test fill a page past it with fewer items
   * (the tests' profile then declares it: `collections[].pagination.maxLimit`).
   */
  readonly projectsMaxLimit?: number;
  /**
   * How many nodes to start, from 1 (the default) to {@link maxNodes}: listeners over one
   * shared store, with the same API key and cursor key, as the backends behind a load
   * balancer. With port 0 each node gets its own free port; with port P, nodes get P, P+1, …
   */
  readonly nodes?: number;
  /**
   * A load balancer in front of the nodes (`serve --balancer`): one more listener that hands
   * each request to the next node in turn. With port 0 it gets a free port; with port P, the
   * port after the nodes' (and after the plain-HTTP listener's, with `tls`).
   */
  readonly balancer?: boolean;
  /** Integer ids that a delete frees for the next create (`serve --reuse-ids`); random UUIDs by default. */
  readonly reuseIds?: boolean;
  /**
   * How webhook deliveries are retried: `short` (250 ms timeout, 50 ms first retry, six
   * attempts; the default, which the reference config's windows fit) or `standard` (15 s, 5 s,
   * eight attempts, as production senders: `serve --webhook-schedule standard`).
   */
  readonly webhookSchedule?: WebhookScheduleName | WebhookSchedule;
  /** How webhook deliveries are signed: `standard` (the default) or `github` (`X-Hub-Signature-256`, no timestamp). */
  readonly webhookScheme?: WebhookSigning;
  /**
   * How clients name the API version (see versions.ts): `url` (the default: `/v2/projects`,
   * deprecated `/v1/projects`), `header` (`/projects` with
   * `Accept: application/vnd.restprobe+json; version=1`, `Vary: Accept`), `x-api-version`
   * (`/projects` with `X-API-Version: 1`, `Vary: Accept, X-API-Version`) or `query`
   * (`/projects?v=1`, the scheme §9.2 discourages).
   */
  readonly versioning?: Versioning;
  /**
   * How the authorization server signs access tokens (`serve --jwt-alg`): `RS256` (the
   * default; the public key in the JWKS) or `HS256` (a shared secret; the JWKS is empty).
   */
  readonly jwtAlg?: JwtAlgorithm;
}

/** The most nodes `nodes` may ask for. */
export const maxNodes = 8;

/** The most projects `seedProjects` may ask for. */
export const maxSeedProjects = 1_000_000;

/** A running reference server. */
export interface ReferenceServer {
  /** `http://127.0.0.1:PORT` (`https://` with `tls`) of the first node, without a trailing slash. */
  readonly url: string;
  /** The first node's port. */
  readonly port: number;
  /** Every node's URL, the first node's first (`urls[0] === url`). */
  readonly urls: readonly string[];
  /** With `balancer`: the load balancer's URL, which hands requests to the nodes in turn. */
  readonly balancerUrl?: string;
  /**
   * What a client needs, named as the environment variables `restprobe serve` prints: the
   * primary key (every scope), the read-only key (`read:*`), the rate-limit probe keys, and
   * the OAuth client, test user and token signing key (a JWK, JSON).
   */
  readonly secrets: { readonly RESTPROBE_API_KEY: string; readonly RESTPROBE_READONLY_KEY: string; readonly RESTPROBE_LIMIT_KEY: string; readonly RESTPROBE_LIMIT_KEY_2: string } & OAuthSecrets;
  /** With `tls`: the CA certificate (PEM) that issued the nodes' certificates. */
  readonly ca?: string;
  /** With `tls`: the CA certificate written to a file under the OS temp directory, removed by `close`. */
  readonly caPath?: string;
  /**
   * With `tls`: `http://127.0.0.1:PORT` of a plain-HTTP listener (port 0: a free one; else
   * the port after the last node's) that answers everything with 308 to the first node.
   */
  readonly plainUrl?: string;
  /** The active faults, as given. */
  readonly faults: readonly string[];
  /** Stops every node (and the plain listener) and closes every connection, idle keep-alive ones included; removes the CA file. */
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
  const apiKey = options.apiKey ?? newSecret();
  const readOnlyKey = options.readOnlyKey ?? newSecret();
  const seedProjects = options.seedProjects ?? 0;
  if (!Number.isSafeInteger(seedProjects) || seedProjects < 0 || seedProjects > maxSeedProjects) {
    throw new Error(`seedProjects must be an integer from 0 to ${maxSeedProjects}, not ${String(seedProjects)}.`);
  }

  const projectsMaxLimit = options.projectsMaxLimit;
  if (projectsMaxLimit !== undefined && (!Number.isSafeInteger(projectsMaxLimit) || projectsMaxLimit < 1)) {
    throw new Error(`projectsMaxLimit must be a positive integer, not ${String(projectsMaxLimit)}.`);
  }
  const nodes = options.nodes ?? 1;
  if (!Number.isSafeInteger(nodes) || nodes < 1 || nodes > maxNodes) {
    throw new Error(`nodes must be an integer from 1 to ${maxNodes}, not ${String(nodes)}.`);
  }
  const basePort = options.port ?? 0;
  // With TLS, the plain-HTTP listener takes the port after the nodes', and a balancer the next.
  const lastPort = basePort + nodes - (options.tls === true ? 0 : 1) + (options.balancer === true ? 1 : 0);
  if (basePort !== 0 && lastPort > 65535) {
    throw new Error(`ports ${basePort} to ${lastPort} do not all exist; pick a lower port.`);
  }

  // One store (behind the routes), one session store and one validator memory, shared by every node.
  const keys = new KeyRing(apiKey, readOnlyKey);
  const sessions = new SessionStore();
  const schedule = options.webhookSchedule ?? 'short';
  const webhooks = new Webhooks(faults, typeof schedule === 'string' ? webhookSchedules[schedule] : schedule, options.webhookScheme ?? 'standard');
  const routes = createRoutes({ seedProjects, projectsMaxLimit, keys, sessions, ids: options.reuseIds ? 'reuse' : 'uuid', webhooks, faults });
  // Loaded only for TLS: the certificate library and its polyfill stay out of plain runs.
  const tls = options.tls === true ? await (await import('./certificates.js')).generateTlsMaterial() : undefined;
  // Fault `missing-hsts`: only the 2xx and 3xx responses carry it.
  const hstsOnErrors = !faults.has('missing-hsts');
  /** A node's server (or the balancer's): HTTPS with HSTS under `tls`, else plain HTTP. */
  const serverFor = (app: ReturnType<typeof withHsts>): Server => {
    // An https.Server is an http.Server for everything used here (listen, close, address).
    const server: Server = tls === undefined ? createServer(app) : createHttpsServer({ key: tls.key, cert: tls.cert }, withHsts(app, hstsOnErrors));
    server.on('clientError', createClientErrorListener(faults, tls !== undefined && hstsOnErrors ? { 'Strict-Transport-Security': hstsValue } : {}));
    return server;
  };
  const memory = new ValidatorMemory();
  // One authorization server for every node: clients, logins, codes and refresh tokens shared.
  const versioning = options.versioning ?? 'url';
  const oauth = await AuthorizationServer.create({ faults, alg: options.jwtAlg ?? 'RS256', apiBase: versioning === 'url' ? '/v2' : '' });
  const accessTokens = oauth.accessTokens;
  // One counter store for every node, counting a client's access tokens as one client; the probe keys join the key ring (read-only).
  const rateLimits = new RateLimits(options, faults, keys, accessTokens);
  const servers: Server[] = [];
  const ports: number[] = [];
  const apps: ReturnType<typeof withHsts>[] = [];
  let plainUrl: string | undefined;
  let balancerUrl: string | undefined;
  let caDir: string | undefined;
  try {
    for (let node = 1; node <= nodes; node++) {
      const validators = new Validators(faults, memory, node);
      const app = oauth.inFrontOf(createRequestListener({ keys, sessions, faults, routes, validators, limiter: rateLimits.nodeLimiter(), versioning, accessTokens }));
      apps.push(app);
      const server = serverFor(app);
      await listen(server, basePort === 0 ? 0 : basePort + node - 1);
      servers.push(server);
      ports.push((server.address() as AddressInfo).port);
      // The first node's origin is the issuer, and the API audience, on every node.
      if (node === 1) oauth.origin.set(`${tls === undefined ? 'http' : 'https'}://127.0.0.1:${ports[0] ?? 0}`);
    }
    if (tls !== undefined) {
      const firstPort = ports[0] ?? 0;
      // Fault `plain-http-serves-data`: the plain listener is one more node of the API.
      const plainApp = faults.has('plain-http-serves-data')
        ? oauth.inFrontOf(createRequestListener({ keys, sessions, faults, routes, validators: new Validators(faults, memory, 1), limiter: rateLimits.nodeLimiter(), versioning, accessTokens }))
        : redirectToHttps(firstPort);
      const plain = createServer(plainApp);
      plain.on('clientError', createClientErrorListener(faults));
      await listen(plain, basePort === 0 ? 0 : basePort + nodes);
      servers.push(plain);
      plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
      caDir = await mkdtemp(join(tmpdir(), 'restprobe-ca-'));
      await writeFile(join(caDir, 'ca.pem'), tls.ca);
    }
    if (options.balancer === true) {
      const balancer = serverFor(roundRobin(apps));
      await listen(balancer, basePort === 0 ? 0 : lastPort);
      servers.push(balancer);
      balancerUrl = `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${(balancer.address() as AddressInfo).port}`;
    }
  } catch (error) {
    await webhooks.close();
    await Promise.all(servers.map(stop));
    if (caDir !== undefined) await rm(caDir, { recursive: true, force: true });
    throw error;
  }
  const scheme = tls === undefined ? 'http' : 'https';
  const urls = ports.map((p) => `${scheme}://127.0.0.1:${p}`);

  return {
    url: urls[0] ?? '',
    port: ports[0] ?? 0,
    urls,
    ...(balancerUrl !== undefined && { balancerUrl }),
    secrets: { RESTPROBE_API_KEY: apiKey, RESTPROBE_READONLY_KEY: readOnlyKey, ...rateLimits.secrets, ...oauth.secrets },
    faults: faultNames,
    ...(tls !== undefined && { ca: tls.ca }),
    ...(caDir !== undefined && { caPath: join(caDir, 'ca.pem') }),
    ...(plainUrl !== undefined && { plainUrl }),
    close: async () => {
      await webhooks.close();
      await Promise.all(servers.map(stop));
      if (caDir !== undefined) await rm(caDir, { recursive: true, force: true });
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
