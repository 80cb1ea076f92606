/**
 * Issue 27's "counted exactly": behind a counting proxy and a rate limiter, `restprobe run`
 * reports the requests the target saw (retries, cleanup and the health phase included),
 * each check's share is what it sent, the rest is the run's, and the waits are counted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startReferenceServer, type ReferenceServer } from '../reference-server/src/index.js';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy.js';
import { runInProcess } from './support/run-in-process.js';
import { referenceConfig, testProbeRateLimit } from './support/target.js';

interface CountedReport {
  readonly requests: number;
  readonly runRequests: number;
  readonly waits?: { readonly count: number; readonly wallMs: number };
  readonly checks: readonly { readonly evidence: { readonly requestCount: number } }[];
}

let server: ReferenceServer;
let proxy: RecordingProxy;
beforeAll(async () => {
  // 30 requests a second for the run's key: a run's pace meets it, so 429s are waited out and retried.
  server = await startReferenceServer({ port: 0, rateLimit: { limit: 30, windowMs: 1_000 }, probeRateLimit: testProbeRateLimit, webhookSchedule: 'short' });
  proxy = await startRecordingProxy(server.url);
  // The CLI reads the config's secrets from the environment; they are taken back afterwards (a fork runs other files next).
  Object.assign(process.env, server.secrets);
});
afterAll(async () => {
  for (const name of Object.keys(server.secrets)) delete process.env[name];
  await proxy.close();
  await server.close();
});

describe('restprobe run counts exactly', () => {
  it('reports the requests a counting proxy saw, each check its share and the run the rest, and the waits', { timeout: 120_000 }, async () => {
    const ran = await runInProcess(proxy.url, { config: referenceConfig, only: ['ERR'], seed: '1', format: 'json' });
    expect(ran.error?.message).toBeUndefined();
    const report = JSON.parse(await readFile(join(ran.dir, 'restprobe-report.json'), 'utf8')) as CountedReport;
    expect(report.requests).toBe(proxy.requests.length);
    expect(report.checks.reduce((n, c) => n + c.evidence.requestCount, 0) + report.runRequests).toBe(report.requests);
    // The health phase's two requests at least are the run's own.
    expect(report.runRequests).toBeGreaterThanOrEqual(2);
    expect(report.waits?.count).toBeGreaterThan(0);
    expect(ran.out).toMatch(new RegExp(`${report.requests} requests, waited [\\d.]+ (ms|s) in ${report.waits!.count} retr`));
  });
});
