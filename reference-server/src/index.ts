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
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClientErrorListener, createRequestListener } from './app.js';
import { resolveFaults } from './faults.js';

export { faultCatalogue, type Fault } from './faults.js';

export interface ReferenceServerOptions {
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Fault names from {@link faultCatalogue}; none by default. */
  readonly faults?: readonly string[];
  /** The API key clients must send; default: 32 random bytes, base64url. */
  readonly apiKey?: string;
}

/** A running reference server. */
export interface ReferenceServer {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  readonly url: string;
  readonly port: number;
  /** What a client needs, named as the environment variables `restprobe serve` prints. */
  readonly secrets: { readonly RESTPROBE_API_KEY: string };
  /** The active faults, as given. */
  readonly faults: readonly string[];
  /** Stops listening and closes every connection, idle keep-alive ones included. */
  close(): Promise<void>;
}

/**
 * Starts a reference server on 127.0.0.1 with fresh, empty in-memory state.
 *
 * @throws Error when a fault name is not in the catalogue (the message lists valid names).
 */
export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const faultNames = [...(options.faults ?? [])];
  const faults = resolveFaults(faultNames);
  const apiKey = options.apiKey ?? randomBytes(32).toString('base64url');

  const server = createServer(createRequestListener({ apiKey, faults }));
  server.on('clientError', createClientErrorListener(faults));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port ?? 0, host: '127.0.0.1' }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    secrets: { RESTPROBE_API_KEY: apiKey },
    faults: faultNames,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}
