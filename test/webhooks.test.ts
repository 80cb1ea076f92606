/**
 * The EVT- sender checks against the reference server (short retry schedule): all pass on
 * the clean server within seconds; the listener binds 127.0.0.1 only and is closed when
 * the run ends; the signing secret never reaches a result.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createConnection } from 'node:net';
import { runChecks, type RunOutcome } from '../src/engine/run.js';
import { catalogue } from '../suites/catalogue.js';
import { startTarget, type Target } from './support/target.js';
import { WebhookListener } from '../src/webhooks/listener.js';

const evt = catalogue.filter((c) => c.section === 'EVT');

describe('EVT checks on the clean reference server', () => {
  let target: Target;
  let run: RunOutcome;
  let took = 0;
  beforeAll(async () => {
    target = await startTarget();
    const t0 = performance.now();
    run = await runChecks({ profile: target.profile, checks: evt, seed: 1, client: target.client });
    took = performance.now() - t0;
  }, 30_000);
  afterAll(async () => target.close());

  it('pass, within a few seconds', () => {
    const byId = (a: string[], b: string[]) => a[0]!.localeCompare(b[0]!);
    expect(run.results.map((r) => [r.id, r.status, r.message]).sort(byId)).toEqual(evt.map((c) => [c.id, 'pass', '']).sort(byId));
    expect(run.results.find((r) => r.id === 'EVT-retry-after-timeout')?.evidence.notes.join('\n')).toMatch(/answered 204 after 600 ms/);
    expect(took).toBeLessThan(10_000);
  });

  it('never write the signing secret into a result', () => {
    const text = JSON.stringify(run.results);
    expect(text).not.toMatch(/whsec_[A-Za-z0-9+/=]{8,}/);
  });
});

describe('the webhook listener', () => {
  it('binds 127.0.0.1 only, and refuses connections once closed', async () => {
    const listener = await WebhookListener.start();
    const url = new URL(listener.origin);
    expect(url.hostname).toBe('127.0.0.1');
    await listener.close();
    await expect(new Promise((resolve, reject) => createConnection({ host: '127.0.0.1', port: Number(url.port) }).on('connect', resolve).on('error', reject))).rejects.toThrow(/ECONNREFUSED/);
  });

  it('is closed when a run is stopped part-way (what SIGINT does), not only when it ends', async () => {
    const target = await startTarget();
    const started = vi.spyOn(WebhookListener, 'start');
    const stop = new AbortController();
    try {
      const running = runChecks({ profile: target.profile, checks: evt, seed: 1, client: target.client, signal: stop.signal, stop: stop.signal });
      // Stop as soon as a check has the listener up.
      while (started.mock.results.length === 0) await new Promise((r) => setTimeout(r, 5));
      const listener = await (started.mock.results[0]!.value as Promise<WebhookListener>);
      stop.abort();
      const outcome = await running;
      expect(outcome.interrupted || outcome.results.some((r) => r.errorCode === 'ERR_INTERRUPTED')).toBe(true);
      const port = Number(new URL(listener.origin).port);
      await expect(new Promise((resolve, reject) => createConnection({ host: '127.0.0.1', port }).on('connect', resolve).on('error', reject))).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      started.mockRestore();
      await target.close();
    }
  }, 30_000);
});
