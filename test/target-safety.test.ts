/**
 * Against a user's target the harness touches only what it created, cleans up, writes
 * nothing in a read-only run, sends credentials only to the target, and never reports a
 * secret it meets. Shown on the reference server, through a proxy that records requests.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { executeCheck } from '../src/engine/execute.js';
import { runChecks } from '../src/engine/run.js';
import { clientForProfile } from '../src/http/client.js';
import { RecordingSession } from '../src/http/session.js';
import { loadProfile } from '../src/config/load.js';
import type { TargetProfile } from '../src/model/profile.js';
import { catalogue } from '../suites/catalogue.js';
import { startReferenceServer, type ReferenceServer } from '../reference-server/src/index.js';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy.js';
import { referenceConfig } from './support/target.js';

let server: ReferenceServer;
let proxy: RecordingProxy;

async function setUp(faults: string[], tweak: (p: TargetProfile) => TargetProfile = (p) => p): Promise<TargetProfile> {
  server = await startReferenceServer({ port: 0, faults });
  proxy = await startRecordingProxy(server.url);
  return tweak(await loadProfile({ configPath: referenceConfig, baseUrl: proxy.url, env: { ...server.secrets } }));
}

afterEach(async () => {
  await proxy.close();
  await server.close();
});

async function runAll(profile: TargetProfile) {
  return (await runChecks({ profile, checks: catalogue, seed: 3 })).results;
}

async function leftovers(): Promise<number> {
  const headers = { 'x-api-key': server.secrets.RESTPROBE_API_KEY };
  let n = 0;
  for (const path of ['/v2/projects', '/v2/members']) n += ((await (await fetch(`${server.url}${path}?limit=20`, { headers })).json()) as { data: unknown[] }).data.length;
  return n;
}

describe('target safety', () => {
  it('a Location that names the collection never turns into a write on the collection, and nothing is left behind', async () => {
    const profile = await setUp(['location-points-to-collection']);
    const results = await runAll(profile);
    expect(results.find((r) => r.id === 'END-post-location-resolves')?.status).toBe('fail');
    const collectionWrites = proxy.requests.filter((r) => ['PUT', 'PATCH', 'DELETE'].includes(r.method) && /^\/v2\/(projects|members)\/?$/.test(r.path.split('?')[0]!));
    // The unsupported-method probe sends PATCH {} to a collection on purpose; nothing else may.
    expect(collectionWrites.filter((r) => r.method !== 'PATCH')).toEqual([]);
    expect(await leftovers()).toBe(0);
  });

  it('a read-only run sends no POST, PUT, PATCH or DELETE', async () => {
    const profile = await setUp([], (p) => ({ ...p, safety: { ...p.safety, readOnly: true } }));
    const results = await runAll(profile);
    // Needs keep writing checks from running: none reaches the transport's read-only guard.
    expect(results.filter((r) => r.errorCode === 'ERR_HARNESS').map((r) => `${r.id}: ${r.message}`)).toEqual([]);
    expect(results.filter((r) => r.status === 'skip' && r.configKey === 'safety.readOnly').length).toBeGreaterThan(20);
    expect(proxy.requests.length).toBeGreaterThan(0);
    // Safe methods only (RFC 9110 §9.2.1): TRACE is the 405 probe's, a method the conventions leave unused.
    expect(proxy.requests.filter((r) => !['GET', 'HEAD', 'OPTIONS', 'TRACE'].includes(r.method)).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('a spent request budget still lets every check clean up', async () => {
    const profile = await setUp([], (p) => ({ ...p, safety: { ...p.safety, maxRequests: 150 } }));
    const results = await runAll(profile);
    expect(results.some((r) => r.status === 'error' && /budget/.test(r.message))).toBe(true);
    expect(await leftovers()).toBe(0);
  });

  it('credentials go only to the target\'s origins, wherever a URL points', async () => {
    // The proxy stands in for a foreign origin: the profile points at the server itself.
    const profile = await setUp([], (p) => ({ ...p, baseUrl: server.url }));
    const client = clientForProfile(profile);
    try {
      const session = new RecordingSession(client, profile);
      await session.send({ method: 'GET', url: `${proxy.url}/v2/projects` });
      expect(proxy.requests).toHaveLength(1);
      expect(proxy.requests[0]!.headers['x-api-key']).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it('a key the target mints is scrubbed from the evidence like a configured secret', async () => {
    const profile = await setUp(['secret-cacheable']);
    const client = clientForProfile(profile);
    try {
      const result = await executeCheck(catalogue.find((c) => c.id === 'LIM-no-store-secrets')!, { profile, client, seed: 1 });
      expect(result.status).toBe('fail');
      expect(JSON.stringify(result)).not.toMatch(/rk_[A-Za-z0-9_-]{16,}/);
      expect(result.evidence.exchanges.some((x) => x.response?.body?.includes('<redacted>') || x.response?.body?.includes('$MINTED_SECRET'))).toBe(true);
    } finally {
      await client.close();
    }
  });
});
