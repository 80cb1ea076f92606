/**
 * The EVT- sender checks against the reference server (short retry schedule): all pass on
 * the clean server within seconds; the listener binds 127.0.0.1 only and is closed when
 * the run ends; the signing secret never reaches a result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
