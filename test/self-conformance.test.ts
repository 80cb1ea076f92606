/**
 * Every check passes against the clean reference server, run through the engine's entry
 * point exactly as `restprobe run` runs them (seeded order, pool, scheduling classes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultName } from '../src/model/result.js';
import { runChecks, type RunOutcome } from '../src/engine/run.js';
import { catalogue } from '../suites/catalogue.js';
import { cleanServerExceptions, cleanServerInstanceExceptions, startTarget, testProjectsMaxLimit, type Target } from './support/target.js';
import { cleanShapes } from './support/clean-shapes.js';
import { cleanDocument } from './support/clean-document.js';

let target: Target;
let run: RunOutcome;
beforeAll(async () => {
  target = await startTarget();
  // Compared with its own shapes (taken on another clean server), VER-compatible-within-major judges and passes.
  run = await runChecks({ profile: target.profile, inputs: { baseline: await cleanShapes(), openapi: await cleanDocument() }, checks: catalogue, seed: 1, client: target.client });
  // The whole catalogue, rate-limit waits included: seconds on a busy CI machine.
}, 60_000);
afterAll(async () => target.close());

describe('the clean reference server', () => {
  it.each(catalogue.map((c) => [c.id] as const))('passes %s on every collection it runs on', (id) => {
    const results = run.results.filter((r) => r.id === id);
    expect(results.length).toBeGreaterThan(0);
    for (const result of results) {
      const name = resultName(result.id, result.collection);
      const expected = cleanServerInstanceExceptions[name]?.status ?? cleanServerExceptions[id]?.status ?? 'pass';
      expect({ name, status: result.status, message: expected === 'pass' ? result.message : '' }).toEqual({ name, status: expected, message: '' });
    }
  });

  it('checks every configured collection, each in its own pagination style (cursor, offset, page number)', () => {
    expect(target.profile.collections.map((c) => [c.name, c.pagination.style])).toEqual([['projects', 'cursor'], ['members', 'offset'], ['events', 'page']]);
    const named = (id: string) => run.results.filter((r) => r.id === id).map((r) => [r.collection, r.status]);
    expect(named('END-get-collection-200')).toEqual(expect.arrayContaining([['projects', 'pass'], ['members', 'pass'], ['events', 'pass']]));
    expect(named('LIM-limit-capped')).toEqual(expect.arrayContaining([['projects', 'pass'], ['members', 'pass'], ['events', 'pass']]));
    // The events collection takes no DELETE: no check that creates runs on it (its bad-input probes are refused).
    expect(run.results.filter((r) => r.collection === 'events').map((r) => r.id)).not.toContain('END-get-item-200');
  });

  it.each(['/v2/projects', '/v2/members', '/v2/events'])('is left as it was found: every check cleaned up what it created in %s', async (path) => {
    const res = await target.client.send({
      method: 'GET',
      // Within every listing's cap (the test server caps projects at testProjectsMaxLimit).
      url: `${target.server.url}${path}?limit=${testProjectsMaxLimit}`,
      headers: { 'x-api-key': target.server.secrets.RESTPROBE_API_KEY },
    });
    expect(JSON.parse(res.body.toString()).data).toEqual([]);
  });
});
