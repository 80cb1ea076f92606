/**
 * A dead or throttling target ends the run early, with one root cause, instead of making
 * it last for ages (issue 23, item 9): a target that stops answering mid-run took a run 25
 * minutes, and a `Retry-After: 86400` held LIM-retry-after-truthful to its deadline
 * (30 × http.timeoutMs: 5 minutes by default).
 */
import { createServer } from 'node:http';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runChecks, type RunOutcome } from '../src/engine/run.js';
import type { TargetProfile } from '../src/model/profile.js';
import { catalogue } from '../suites/catalogue.js';
import { startVariant } from './support/target.js';
import type { ProxiedResponse, Rewrites } from './support/rewriting-proxy.js';
import { runInProcess } from './support/run-in-process.js';
import { listenOnLoopback, type Listening } from './support/loopback.js';

/** The whole catalogue on the reference server behind `rewrites`, timed, with a client of the profile's own timeout. */
async function timedRun(rewrites: Rewrites, adjust: (p: TargetProfile) => TargetProfile = (p) => p): Promise<RunOutcome & { ms: number }> {
  const target = await startVariant(rewrites);
  try {
    const started = performance.now();
    const outcome = await runChecks({ profile: adjust(target.profile), checks: catalogue, seed: 1 });
    return { ...outcome, ms: performance.now() - started };
  } finally {
    await target.close();
  }
}

/** A response that never comes: the proxy accepts the request and stays silent. */
const never = (): Promise<ProxiedResponse> => new Promise(() => {});

describe('the run stops early', () => {
  it('when the target stops answering mid-run: the breaker names its state, the checks not done share that root cause', async () => {
    let requests = 0;
    const run = await timedRun({ response: (res) => (++requests > 150 ? never() : res) }, (p) => ({ ...p, http: { ...p.http, timeoutMs: 500 } }));
    expect(run.stopped).toMatch(/^the target stopped answering: 10 consecutive requests timed out, since \S+/);
    const stopped = run.results.filter((r) => r.rootCause === run.stopped);
    expect(stopped.length).toBeGreaterThan(run.results.length / 2);
    for (const r of stopped) expect(r).toMatchObject({ status: 'error', errorCode: 'ERR_TARGET_UNREACHABLE' });
    // Before the breaker every remaining check timed out request by request: minutes, not seconds.
    expect(run.ms).toBeLessThan(25_000);
  }, 120_000);

  it('when a 429 states a wait past http.maxRetryWaitMs: the run says so, rather than wait it out check by check', async () => {
    const limited = { status: 429, headers: { 'retry-after': '86400', 'content-type': 'application/problem+json' }, body: '{"status":429,"title":"Too Many Requests"}' };
    // The default timeout: the rate-limit check that once waited to its deadline held the run for 5 minutes.
    const run = await timedRun({ request: () => limited });
    expect(run.stopped).toMatch(/^the target asked restprobe to wait 86400 s \(429 to GET \S+, Retry-After: 86400\), longer than http\.maxRetryWaitMs allows \(60000 ms\): the run stopped rather than wait it out$/);
    expect(run.results.filter((r) => r.rootCause === run.stopped).length).toBeGreaterThan(run.results.length / 2);
    const truthful = run.results.find((r) => r.id === 'LIM-retry-after-truthful')!;
    expect(truthful.status).toBe('error');
    expect(run.ms).toBeLessThan(30_000);
  }, 120_000);
});

/** A stand-in API with one collection that answers its first `answering` requests, then accepts and never replies. */
function fallsSilent(answering: number): Promise<Listening> {
  let seen = 0;
  return listenOnLoopback(
    createServer((req, res) => {
      if (++seen > answering) return; // silence: the socket stays open until close()
      const listing = req.method === 'GET' && req.url?.split('?')[0] === '/things';
      res.writeHead(listing ? 200 : 404, { 'content-type': listing ? 'application/json' : 'application/problem+json', 'cache-control': 'no-store' });
      res.end(listing ? '{"data":[],"next_cursor":null}' : '{"status":404,"title":"Not Found"}');
    }),
  );
}

it("the CLI's summary says the target stopped answering, and the run exits 3 within seconds", async () => {
  // Only the health phase's two requests are answered: any later answer could be a finding (exit 1), whichever checks the seed puts first.
  const target = await fallsSilent(2);
  try {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-silent-'));
    const config = join(dir, 'silent.json');
    await writeFile(config, JSON.stringify({ collections: [{ name: 'things', path: '/things', pagination: { style: 'cursor' } }], http: { timeoutMs: 300 } }));
    const started = performance.now();
    const ran = await runInProcess(target.url, { config, reportDir: dir, format: 'json' });
    expect(ran.code, ran.out).toBe(3);
    expect(ran.out).toMatch(/the target stopped answering: 10 consecutive requests timed out, since \S+.*: \d+ checks could not run/);
    expect(performance.now() - started).toBeLessThan(15_000);
  } finally {
    await target.close();
  }
}, 60_000);
