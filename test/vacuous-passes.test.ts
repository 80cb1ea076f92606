/**
 * A check passes only when it observed what its rule is about (issue 23, item 8). The
 * whole catalogue runs against stand-ins that give it nothing to judge: a target answering
 * 503 (or 500) to everything, one that redirects every request to itself, and one whose
 * responses carry no Cache-Control. Before the engine's floor, 10, 10 and 8 checks passed
 * on the first three, and the Cache-Control grammar checks passed on the last.
 */
import { describe, expect, it } from 'vitest';
import { runChecks } from '../src/engine/run.js';
import type { CheckResult } from '../src/model/result.js';
import { resultName } from '../src/model/result.js';
import { catalogue } from '../suites/catalogue.js';
import { startVariant } from './support/target.js';
import type { Rewrites } from './support/rewriting-proxy.js';

/** Every result of the whole catalogue on the reference server behind `rewrites` (its first collection declared personalised). */
async function catalogueOn(rewrites: Rewrites): Promise<CheckResult[]> {
  const target = await startVariant(rewrites);
  try {
    const profile = { ...target.profile, collections: target.profile.collections.map((c, i) => (i === 0 ? { ...c, personalised: true } : c)) };
    return (await runChecks({ profile, checks: catalogue, seed: 1, client: target.client })).results;
  } finally {
    await target.close();
  }
}

const passed = (results: readonly CheckResult[]): string[] => results.filter((r) => r.status === 'pass').map((r) => `${resultName(r.id, r.collection)}: passed`);

describe('no check passes on a target that gives it nothing to judge', () => {
  it.each([503, 500])('every request answered %i', async (status) => {
    const results = await catalogueOn({ request: () => ({ status, headers: { 'content-type': 'text/plain' }, body: 'unavailable' }) });
    expect(passed(results)).toEqual([]);
    // The vacuous passes of old are errors that say why, under one root cause.
    const keyInQuery = results.filter((r) => r.id === 'AUT-key-not-in-query');
    expect(keyInQuery.length).toBeGreaterThan(0);
    for (const r of keyInQuery) expect(r).toMatchObject({ status: 'error', errorCode: 'ERR_SETUP', rootCause: `no response to judge: the target answered ${status}` });
  }, 180_000);

  it('every request redirected to itself', async () => {
    const results = await catalogueOn({ request: (req) => ({ status: 302, headers: { location: req.path, 'content-type': 'text/plain' }, body: 'Found' }) });
    expect(passed(results)).toEqual([]);
    const noStack = results.find((r) => r.id === 'ERR-no-stack-trace-or-html')!;
    expect(noStack.status).toBe('error');
    expect(noStack.message).toMatch(/answered 302 \(a redirect to itself: a loop\)/);
  }, 120_000);
});

it('the Cache-Control grammar checks skip, not pass, when no response carries Cache-Control', async () => {
  const results = await catalogueOn({
    response: (res) => ({ ...res, headers: Object.fromEntries(Object.entries(res.headers).filter(([name]) => name !== 'cache-control')) }),
  });
  const cache = results.filter((r) => r.id === 'LIM-cache-control-well-formed' || r.id === 'LIM-credentialed-not-public');
  expect(cache.map((r) => r.id)).toContain('LIM-credentialed-not-public');
  for (const r of cache) expect({ name: resultName(r.id, r.collection), status: r.status, message: r.message }).toMatchObject({ status: 'skip', message: expect.stringMatching(/^no response carried Cache-Control .*nothing to judge/) });
  // The missing header itself is LIM-cache-control-present's finding.
  expect(results.filter((r) => r.id === 'LIM-cache-control-present').map((r) => r.status)).toContain('fail');
}, 120_000);
