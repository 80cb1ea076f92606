/**
 * Leftover lists name only what may exist, and say which items certainly do and which
 * possibly: a write the target refused created nothing, and an item nothing has shown
 * exists is listed as possible, never as certain. Shown on the reference server behind a
 * gateway that answers some requests itself.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadProfile } from '../src/config/load.js';
import { runChecks } from '../src/engine/run.js';
import { catalogue } from '../suites/catalogue.js';
import { startReferenceServer, type ReferenceServer } from '../reference-server/src/index.js';
import { startRecordingProxy, type RecordingProxy, type RecordingProxyOptions } from './support/recording-proxy.js';
import { referenceConfig } from './support/target.js';

let server: ReferenceServer;
let gateway: RecordingProxy;

afterEach(async () => {
  await gateway.close();
  await server.close();
});

/** A run of END-put-creates-missing through a gateway that answers some requests itself. */
async function putCreateThrough(options: RecordingProxyOptions) {
  server = await startReferenceServer({ port: 0 });
  gateway = await startRecordingProxy(server.url, { headers: (status): Record<string, string> => (status === 429 ? { 'retry-after': '3600' } : {}), ...options });
  const profile = await loadProfile({ configPath: referenceConfig, baseUrl: gateway.url, env: { ...server.secrets } });
  return runChecks({ profile, checks: catalogue.filter((c) => c.id === 'END-put-creates-missing'), seed: 5 });
}

/** A PUT or a cleanup request to one item (not a listing). */
const toItem = (method: string, url: string | undefined): boolean => /^\/v2\/[a-z-]+\/[^/?]+/.test(url ?? '') && ['PUT', 'GET', 'DELETE'].includes(method);

describe('leftovers are what may exist, marked certain or possible', () => {
  it('a PUT-create answered 429 created nothing: no leftover, though cleanup is rate limited too', async () => {
    // Retry-After: 0, so the polite client retries at once until it gives up (a longer wait would stop the run).
    const outcome = await putCreateThrough({ intercept: (req) => (toItem(req.method ?? '', req.url) ? 429 : undefined), headers: (): Record<string, string> => ({ 'retry-after': '0' }) });
    expect(outcome.results.length).toBe(2);
    for (const r of outcome.results) expect(r, r.message).toMatchObject({ status: 'error', errorCode: 'ERR_RATE_LIMITED' });
    expect(outcome.leftovers).toEqual([]);
  });

  it('a PUT-create that got no answer, with cleanup rate limited: listed as possible, never certain', async () => {
    const outcome = await putCreateThrough({ intercept: (req) => (req.method === 'PUT' ? 'reset' : toItem(req.method ?? '', req.url) ? 429 : undefined) });
    expect(outcome.leftovers.length).toBe(outcome.results.length);
    for (const l of outcome.leftovers) expect(l).toMatchObject({ certainty: 'possible', lastAnswer: expect.stringContaining('429') });
  });
});
