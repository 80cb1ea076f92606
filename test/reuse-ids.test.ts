/**
 * The reference server with --reuse-ids, items that were there before the run, and
 * checks running side by side: restprobe changes and deletes nothing it did not create,
 * and leaves nothing it did.
 */
import { expect, it } from 'vitest';
import { runChecks } from '../src/engine/run.js';
import { catalogue } from '../suites/catalogue.js';
import { startReferenceServer } from '../reference-server/src/index.js';
import { cleanServerExceptions, targetAt } from './support/target.js';

it('a full run on a target that reuses ids touches only what it created, and cleans up', async () => {
  const server = await startReferenceServer({ port: 0, nodes: 2, reuseIds: true, seedProjects: 5 });
  const target = await targetAt(server, server.url, server.urls.slice(1));
  try {
    const headers = { 'x-api-key': server.secrets.RESTPROBE_API_KEY, accept: 'application/json' };
    const snapshot = async () => ((await (await fetch(`${server.url}/v2/projects?limit=100`, { headers })).json()) as { data: { id: string }[] }).data;
    const before = await snapshot();
    expect(before.map((p) => p.id)).toEqual(['1', '2', '3', '4', '5']);
    const { results, leftovers } = await runChecks({ profile: target.profile, checks: catalogue, seed: 6, client: target.client });
    expect(new Set(results.map((r) => r.id)).size).toBe(catalogue.length);
    // The verdicts are the clean server's: reused ids mislead no check.
    expect(results.filter((r) => r.status !== 'pass' && r.status !== 'skip' && cleanServerExceptions[r.id]?.status !== r.status).map((r) => `${r.id} ${r.status}: ${r.message}`)).toEqual([]);
    expect(await snapshot()).toEqual(before);
    const members = ((await (await fetch(`${server.url}/v2/members?limit=20`, { headers })).json()) as { data: unknown[] }).data;
    expect(members).toEqual([]);
    expect(leftovers).toEqual([]);
  } finally {
    await target.close();
  }
}, 30_000);
