/**
 * The EVT- sender checks against the reference server (short retry schedule): all pass on
 * the clean server within seconds; the listener binds 127.0.0.1 only and is closed when
 * the run ends; the signing secret never reaches a result; a sender that gives every event
 * one id, or one item's events one id, fails EVT-event-id alone; an update is sent as JSON, which a JSON-only target takes.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runChecks, type RunOutcome } from '../src/engine/run.js';
import { catalogue } from '../suites/catalogue.js';
import { startTarget, startVariant, targetAt, testProbeRateLimit, type Target } from './support/target.js';
import type { Rewrites } from './support/rewriting-proxy.js';
import { startReferenceServer } from '../reference-server/src/index.js';
import type { TargetProfile } from '../src/model/profile.js';
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

  it('judge one delivery for its form, signature and timestamp: one subscription and one create for the three, in each one\'s evidence', () => {
    const form = ['EVT-delivery-post-json', 'EVT-signature-valid', 'EVT-timestamp-fresh'].map((id) => run.results.find((r) => r.id === id)!);
    const sent = (r: (typeof form)[number]) => r.evidence.exchanges.map((x) => `${x.request.method} ${new URL(x.request.url).pathname}`);
    for (const r of form) expect(sent(r), r.id).toEqual(['POST /v2/webhook-subscriptions', 'POST /v2/projects']);
    // One of them sent them; the others were handed them, and note the delivery the sender's channel received.
    const [sender, ...handed] = [...form].sort((a, b) => b.evidence.requestCount - a.evidence.requestCount);
    expect(handed.map((r) => r.evidence.requestCount)).toEqual([0, 0]);
    const received = sender!.evidence.notes.filter((n) => n.startsWith('delivery: POST'));
    for (const r of handed) {
      const shared = r.evidence.notes.filter((n) => n.startsWith("the run's first delivery about a created item: "));
      expect(shared, r.id).toHaveLength(1);
      expect(received, r.id).toContain(shared[0]!.replace("the run's first delivery about a created item: ", 'delivery: '));
    }
  });

  it('never write the signing secret into a result', () => {
    const text = JSON.stringify(run.results);
    expect(text).not.toMatch(/whsec_[A-Za-z0-9+/=]{8,}/);
  });
});

describe('the webhook listener', () => {
  it('binds 127.0.0.1 only, and stops listening once closed', async () => {
    const listener = await WebhookListener.start();
    const url = new URL(listener.origin);
    expect(url.hostname).toBe('127.0.0.1');
    expect(listener.listening).toBe(true);
    await listener.close();
    // Asked of the listener itself: a connection to its old port may reach another test's server, which port 0 can hand the same number.
    expect(listener.listening).toBe(false);
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
      expect(listener.listening).toBe(false);
    } finally {
      started.mockRestore();
      await target.close();
    }
  }, 30_000);
});

describe('a target that signs in GitHub\'s style (serve --webhook-scheme github)', () => {
  /** Each EVT check's verdict on the GitHub-signing server, with the scheme the profile declares. */
  async function verdicts(scheme: NonNullable<TargetProfile['webhooks']>['scheme']): Promise<Record<string, string>> {
    const server = await startReferenceServer({ port: 0, probeRateLimit: testProbeRateLimit, webhookSchedule: 'short', webhookScheme: 'github' });
    const target = await targetAt(server, server.url, []);
    try {
      const profile = { ...target.profile, webhooks: { ...target.profile.webhooks!, scheme } };
      const { results } = await runChecks({ profile, checks: evt, seed: 1, client: target.client });
      return Object.fromEntries(results.map((r) => [r.id, r.status]));
    } finally {
      await target.close();
    }
  }

  const expected = { ...Object.fromEntries(evt.map((c) => [c.id, 'pass'])), 'EVT-timestamp-fresh': 'fail' };

  it('passes every check declared as github, and fails the timestamp check (GitHub signs none: a replay cannot be refused)', async () => {
    expect(await verdicts('github')).toEqual(expected);
  }, 30_000);

  it('judges the same with a custom scheme that describes GitHub\'s', async () => {
    expect(await verdicts({ header: 'X-Hub-Signature-256', prefix: 'sha256=', encoding: 'hex', signed: 'body', idHeader: 'X-GitHub-Delivery' })).toEqual(expected);
  }, 30_000);

  it('fails the signature check when the profile declares the standard scheme the target does not use', async () => {
    expect((await verdicts('standard'))['EVT-signature-valid']).toBe('fail');
  }, 30_000);
});


describe('a target that delivers nothing to the URL subscribed', () => {
  it('fails the three checks of a delivery\'s form on one wait, each on its own subject', async () => {
    const target = await startTarget();
    try {
      const webhooks = target.profile.webhooks!;
      // Its events go to a port nothing listens on, never to the channel restprobe subscribed.
      const profile = { ...target.profile, webhooks: { ...webhooks, subscribeBody: { ...webhooks.subscribeBody, url: 'http://127.0.0.1:9/restprobe-nowhere' }, deliveryWithinMs: 300 } };
      const form = evt.filter((c) => ['EVT-delivery-post-json', 'EVT-signature-valid', 'EVT-timestamp-fresh'].includes(c.id));
      const { results } = await runChecks({ profile, checks: form, seed: 1, client: target.client });
      expect(results.map((r) => [r.id, r.status, r.message]).sort()).toEqual(form.map((c) => [c.id, 'fail', 'no webhook delivery about the item came within 300 ms of the create']).sort());
      // One subscription, one create, one wait: the others were handed the answers, and each failure cites the create in its own evidence.
      expect(results.map((r) => r.evidence.requestCount).filter((n) => n > 0)).toHaveLength(1);
      for (const r of results) expect(r.evidence.exchanges[r.evidence.focus!]?.request.url, r.id).toMatch(/\/v2\/projects$/);
    } finally {
      await target.close();
    }
  }, 30_000);
});

describe('a sender whose event ids repeat', () => {
  it.each([
    // One id for every event to the subscription.
    ['webhook-same-id', 'the create and the second create'],
    // An id made from the item's: the create and the delete of one item share it.
    ['webhook-id-per-item', 'the create and the DELETE of the first item'],
  ])('%s fails EVT-event-id, naming the two events and the id they share, and no other EVT check', async (fault, events) => {
    const target = await startTarget([fault]);
    try {
      const { results } = await runChecks({ profile: target.profile, checks: evt, seed: 1, client: target.client });
      expect(results.filter((r) => r.status !== 'pass').map((r) => [r.id, r.status])).toEqual([['EVT-event-id', 'fail']]);
      expect(results.find((r) => r.id === 'EVT-event-id')!.message).toMatch(new RegExp(`^the events of ${events} both carry the id msg_[\\w-]+: a receiver that skips ids it has seen, as the conventions tell it to, drops the second event$`));
    } finally {
      await target.close();
    }
  }, 30_000);
});

describe('EVT-events-for-actions sends its update as the other checks do (application/json)', () => {
  /** A target that takes JSON writes only: a PATCH of any other media type gets 415. */
  const jsonOnly: Rewrites = {
    request: (req) =>
      req.method === 'PATCH' && !/^application\/json\b/.test(req.headers['content-type'] ?? '')
        ? { status: 415, headers: { 'content-type': 'application/problem+json', 'accept-patch': 'application/json' }, body: JSON.stringify({ type: 'about:blank', title: 'Unsupported Media Type', status: 415 }) }
        : req,
  };
  const eventsForActions = evt.filter((c) => c.id === 'EVT-events-for-actions');

  it.each([
    [[], 'pass'],
    [['webhook-no-event-on-delete'], 'fail'],
  ] as const)('on a target that answers 415 to merge-patch+json, with faults %j: %s', async (faults, status) => {
    const target = await startVariant(jsonOnly, faults);
    try {
      const { results } = await runChecks({ profile: target.profile, checks: eventsForActions, seed: 1, client: target.client });
      expect(results.map((r) => [r.status, r.message])).toEqual([[status, status === 'pass' ? '' : expect.stringMatching(/^no webhook delivery about the item came within \d+ ms of the DELETE/)]]);
      expect(results[0]!.evidence.exchanges.find((x) => x.request.method === 'PATCH')?.response?.status).toBe(200);
    } finally {
      await target.close();
    }
  }, 30_000);
});
