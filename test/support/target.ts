/**
 * Test support: a reference server on port 0 with a profile and a client pointed at it,
 * so self-tests run checks directly through the engine (no nested vitest).
 */
import { join } from 'node:path';
import { loadProfile } from '../../src/config/load.js';
import { HttpClient } from '../../src/http/client.js';
import type { TargetProfile } from '../../src/model/profile.js';
import { startReferenceServer, type ReferenceServer } from '../../reference-server/src/index.js';

export const repoRoot = join(import.meta.dirname, '..', '..');
export const referenceConfig = join(repoRoot, 'fixtures', 'reference.config.json');

export interface Target {
  readonly server: ReferenceServer;
  readonly profile: TargetProfile;
  readonly client: HttpClient;
  close(): Promise<void>;
}

/** The reference server with two nodes over one store, so cross-node checks run. */
export async function startTarget(faults: readonly string[] = []): Promise<Target> {
  const server = await startReferenceServer({ port: 0, faults, nodes: 2 });
  const loaded = await loadProfile({ configPath: referenceConfig, baseUrl: server.url, env: { ...server.secrets } });
  const profile = { ...loaded, nodes: server.urls.slice(1) };
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
