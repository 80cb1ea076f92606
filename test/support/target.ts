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

export async function startTarget(faults: readonly string[] = []): Promise<Target> {
  const server = await startReferenceServer({ port: 0, faults });
  const profile = await loadProfile({ configPath: referenceConfig, baseUrl: server.url, env: { ...server.secrets } });
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
