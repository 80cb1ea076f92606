/**
 * Test support: a reference server on port 0 with a profile and a client pointed at it,
 * so self-tests run checks directly through the engine (no nested vitest).
 */
import { join } from 'node:path';
import { loadProfile } from '../../src/config/load.js';
import { HttpClient } from '../../src/http/client.js';
import type { TargetProfile } from '../../src/model/profile.js';
import { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../reference-server/src/index.js';
import { startRewritingProxy, type Rewrites, type RewritingProxy } from './rewriting-proxy.js';

export const repoRoot = join(import.meta.dirname, '..', '..');
export const referenceConfig = join(repoRoot, 'fixtures', 'reference.config.json');

export interface Target {
  readonly server: ReferenceServer;
  readonly profile: TargetProfile;
  readonly client: HttpClient;
  close(): Promise<void>;
}

/** The reference server with two nodes over one store, so cross-node checks run. */
export async function startTarget(faults: readonly string[] = [], options: Pick<ReferenceServerOptions, 'rateLimit'> = {}): Promise<Target> {
  const server = await startReferenceServer({ port: 0, faults, nodes: 2, ...options });
  return targetAt(server, server.url, server.urls.slice(1));
}

/** A variant of the reference server: the server (with `faults`) behind a proxy that applies `rewrites`. */
export interface Variant extends Target {
  readonly proxy: RewritingProxy;
}

/**
 * The reference server behind a rewriting proxy: a target that differs from the clean
 * server in what `rewrites` change. The profile points at the proxy (one node).
 */
export async function startVariant(rewrites: Rewrites, faults: readonly string[] = []): Promise<Variant> {
  const server = await startReferenceServer({ port: 0, faults });
  const proxy = await startRewritingProxy(server.url, rewrites);
  const target = await targetAt(server, proxy.url, []);
  return {
    ...target,
    proxy,
    async close() {
      await target.close();
      await proxy.close();
    },
  };
}

export async function targetAt(server: ReferenceServer, baseUrl: string, nodes: readonly string[]): Promise<Target> {
  const loaded = await loadProfile({ configPath: referenceConfig, baseUrl, env: { ...server.secrets } });
  const profile = { ...loaded, nodes };
  const client = new HttpClient({ timeoutMs: 5_000, maxBodyBytes: profile.http.maxBodyBytes, connections: 4, maxRequests: 50_000 });
  return {
    server,
    profile,
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** Checks whose honest verdict on the clean server is not `pass`, with the reason. */
export const cleanServerExceptions: Record<string, { status: string; why: string }> = {
  'END-offset-shift-under-inserts': { status: 'warn', why: 'the conventions call offset pages unstable: every offset-paginated collection shifts' },
};
