/**
 * Every check passes against the clean reference server, run through the engine's entry
 * point exactly as `restprobe run` runs them (seeded order, pool, scheduling classes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCheck } from '../src/engine/execute.js';
import { runChecks, type RunOutcome } from '../src/engine/run.js';
import { catalogue } from '../suites/catalogue.js';
import { cleanServerExceptions, startTarget, type Target } from './support/target.js';

let target: Target;
let run: RunOutcome;
beforeAll(async () => {
  target = await startTarget();
  run = await runChecks({ profile: target.profile, checks: catalogue, seed: 1, client: target.client });
});
afterAll(async () => target.close());

describe('the clean reference server', () => {
  it.each(catalogue.map((c) => [c.id] as const))('passes %s', (id) => {
    const result = run.results.find((r) => r.id === id);
    const expected = cleanServerExceptions[id]?.status ?? 'pass';
    expect({ status: result?.status, message: expected === 'pass' ? result?.message : '' }).toEqual({ status: expected, message: '' });
  });

  it('passes the page-shape check on an offset-paginated collection too (no next_cursor there)', async () => {
    const profile = { ...target.profile, collections: [...target.profile.collections].reverse() };
    expect(profile.collections[0]!.pagination.style).toBe('offset');
    const check = catalogue.find((c) => c.id === 'END-get-collection-200')!;
    const result = await executeCheck(check, { profile, client: target.client, seed: 1 });
    expect({ status: result.status, message: result.message }).toEqual({ status: 'pass', message: '' });
  });

  it.each(['/v2/projects', '/v2/members'])('is left as it was found: every check cleaned up what it created in %s', async (path) => {
    const res = await target.client.send({
      method: 'GET',
      url: `${target.server.url}${path}?limit=20`,
      headers: { 'x-api-key': target.server.secrets.RESTPROBE_API_KEY },
    });
    expect(JSON.parse(res.body.toString()).data).toEqual([]);
  });
});
