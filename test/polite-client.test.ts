/**
 * The polite client (§7.3): a conforming rate limiter slows a run down and never turns
 * into verdicts; transient failures are retried only where a retry cannot apply a
 * request twice; a 429 that outlasts the waits is an error of the run, not a finding.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadProfile } from '../src/config/load.js';
import { runChecks } from '../src/engine/run.js';
import { HttpClient } from '../src/http/client.js';
import { guard } from '../src/http/guards.js';
import { Pacer, politely, politeDefaults, retryAfterMs } from '../src/http/polite.js';
import { catalogue } from '../suites/catalogue.js';
import { startReferenceServer, type ReferenceServer } from '../reference-server/src/index.js';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy.js';
import { referenceConfig } from './support/target.js';

describe('Retry-After', () => {
  it('reads delta-seconds and HTTP-dates, and nothing else', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('Wed, 21 Oct 2026 07:28:00 GMT', Date.parse('Wed, 21 Oct 2026 07:27:58 GMT'))).toBe(2000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs('-1')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});

describe('the run\'s pace', () => {
  it('http.maxRequestsPerSecond spaces every request of the run, whichever check sends it', async () => {
    const pacer = new Pacer(50);
    const started = performance.now();
    await Promise.all(Array.from({ length: 10 }, async () => pacer.wait()));
    // Ten requests at 50 a second: the last leaves 9 × 20 ms after the first.
    expect(performance.now() - started).toBeGreaterThanOrEqual(170);
    expect(pacer.waitedMs).toBeGreaterThan(0);
  });
});

describe('a quota the target says is spent', () => {
  it('holds the run until the stated reset instead of meeting a 429: one wait, counted and told', async () => {
    // 3 requests a window of 1 s; draft-8 fields on every answer; a request past the quota gets 429.
    const quota = 3;
    let windowStart = Date.now();
    let used = 0;
    let refused = 0;
    const limiter = createServer((_req, res) => {
      if (Date.now() - windowStart >= 1000) [windowStart, used] = [Date.now(), 0];
      const reset = Math.max(1, Math.ceil((windowStart + 1000 - Date.now()) / 1000));
      if (used >= quota) {
        refused++;
        res.writeHead(429, { 'retry-after': String(reset) }).end();
        return;
      }
      used++;
      res.writeHead(200, { ratelimit: `"default";r=${quota - used};t=${reset}` }).end();
    });
    await new Promise<void>((resolve) => limiter.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(limiter.address() as { port: number }).port}/x`;
    const client = new HttpClient({ timeoutMs: 5_000, maxBodyBytes: 1 << 20, connections: 1, maxRequests: 100 });
    try {
      const pacer = new Pacer();
      const heard: string[] = [];
      pacer.onWait((w) => heard.push(w.why));
      const notes: string[] = [];
      const send = guard((r) => client.send(r), [politely(pacer, politeDefaults, (l) => notes.push(l))]);
      // Into the second window: the third answer says none is left.
      for (let i = 0; i < quota + 2; i++) expect((await send({ method: 'GET', url: at, headers: {} })).status).toBe(200);
      expect(refused).toBe(0);
      expect(pacer.waits.count).toBe(1);
      expect(heard).toEqual(['GET /x answered 200 with RateLimit: "default";r=0;t=1: the quota is spent']);
      expect(notes).toEqual([expect.stringMatching(/^GET \/x answered 200 with RateLimit: "default";r=0;t=1: the run holds its requests \d+ ms, until the reset$/)]);
    } finally {
      await client.close();
      await new Promise<void>((resolve) => limiter.close(() => resolve()));
    }
  });
});

describe('the polite guard', () => {
  let server: Server;
  let url: string;
  let answers: number[] = [];
  let hits: string[] = [];
  let retryAfter = '0';
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(`${req.method}`);
      const status = answers.shift() ?? 200;
      res.writeHead(status, status === 429 ? { 'retry-after': retryAfter } : {}).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/x`;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  const client = new HttpClient({ timeoutMs: 2_000, maxBodyBytes: 1 << 20, connections: 2, maxRequests: 1_000 });
  afterAll(async () => client.close());
  const send = (notes: string[], options = { ...politeDefaults, baseDelayMs: 1 }) => guard((r) => client.send(r), [politely(new Pacer(), options, (l) => notes.push(l))]);

  it('waits out a 429 and a 503, retries a GET after a 502, and says so in the evidence', async () => {
    answers = [429, 502, 200];
    hits = [];
    const notes: string[] = [];
    const res = await send(notes)({ method: 'GET', url, headers: {} });
    expect(res.status).toBe(200);
    expect(hits).toHaveLength(3);
    expect(notes).toEqual([expect.stringMatching(/^GET \/x answered 429 \(Retry-After: 0\); waited 0 ms and retried \(attempt 2\)$/), expect.stringMatching(/^GET \/x answered 502; waited \d+ ms and retried \(attempt 3\)$/)]);
  });

  it('never repeats a POST that may have been applied (502), but does after a 429', async () => {
    answers = [502];
    hits = [];
    expect((await send([])({ method: 'POST', url, headers: {} })).status).toBe(502);
    expect(hits).toHaveLength(1);
    answers = [429, 201];
    hits = [];
    expect((await send([])({ method: 'POST', url, headers: {} })).status).toBe(201);
    expect(hits).toHaveLength(2);
  });

  it('never retries 500, 501 or other 4xx', async () => {
    for (const status of [500, 501, 400, 404]) {
      answers = [status];
      hits = [];
      expect((await send([])({ method: 'GET', url, headers: {} })).status).toBe(status);
      expect(hits).toHaveLength(1);
    }
  });

  it('a retry after a wait longer than http.timeoutMs gets a timeout of its own (it is not sent already expired)', async () => {
    answers = [429, 201];
    hits = [];
    const quick = new HttpClient({ timeoutMs: 200, maxBodyBytes: 1 << 20, connections: 1, maxRequests: 100 });
    try {
      const slowWait = guard((r) => quick.send(r), [politely(new Pacer(), { ...politeDefaults, baseDelayMs: 1 }, () => {})]);
      // A one-second Retry-After: five times the client's timeout.
      retryAfter = '1';
      const res = await slowWait({ method: 'POST', url, headers: {}, startedAt: performance.now() });
      expect(res.status).toBe(201);
      expect(hits).toEqual(['POST', 'POST']);
    } finally {
      retryAfter = '0';
      await quick.close();
    }
  });

  it('a 429 that outlasts the attempts is ERR_RATE_LIMITED, never a response a check could judge', async () => {
    answers = [429, 429, 429];
    await expect(send([], { ...politeDefaults, baseDelayMs: 1, rateLimitAttempts: 3 })({ method: 'GET', url, headers: {} })).rejects.toMatchObject({ code: 'ERR_RATE_LIMITED', rootCause: 'the target rate-limited restprobe (429, Retry-After: 0)' });
  });
});

describe('the reference server with --rate-limit, well below a run\'s pace', () => {
  it('a full run ends with no failure and no error (slower, not wrong), and the report shows the waits', async () => {
    const { startTarget } = await import('./support/target.js');
    // The two nodes share one counter: 30 requests a second in all, below a run's pace on a
    // loaded CI machine too (at 50, one run in a loaded suite never met the limiter, and showed
    // no wait); the window is a whole second, as RateLimit's reset is in whole seconds.
    // The projects collection alone keeps the run short.
    const target = await startTarget([], { rateLimit: { limit: 30, windowMs: 1_000 } });
    try {
      const profile = { ...target.profile, collections: target.profile.collections.filter((c) => c.name === 'projects') };
      const outcome = await runChecks({ profile, checks: catalogue, seed: 4, client: target.client });
      const notOk = outcome.results.filter((r) => r.status === 'fail' || r.status === 'error').map((r) => `${r.id} ${r.status}: ${r.message}`);
      expect(notOk).toEqual([]);
      // Paced by the limiter: a 429 waited out, or (the server's RateLimit fields saying the quota is spent) a hold until the reset that met no 429.
      expect(outcome.results.flatMap((r) => r.evidence.notes).filter((n) => /answered 429 \(Retry-After: 1\); waited|the run holds its requests \d+ ms, until the reset/.test(n)).length).toBeGreaterThan(0);
      expect(outcome.waitedMs).toBeGreaterThan(0);
      expect(outcome.leftovers).toEqual([]);
    } finally {
      await target.close();
    }
  }, 90_000);
});

describe('a full run against a rate-limited target', () => {
  let server: ReferenceServer;
  let limiter: RecordingProxy;
  afterEach(async () => {
    await limiter.close();
    await server.close();
  });

  it('ends with no failure and no error, slower not wrong, and the evidence shows the waits', async () => {
    server = await startReferenceServer({ port: 0 });
    // A fixed window of 40 requests a second, as §8 allows: 429 + Retry-After, problem+json.
    let window = 0;
    let count = 0;
    limiter = await startRecordingProxy(server.url, {
      intercept: () => {
        const now = Math.floor(Date.now() / 1000);
        if (now !== window) [window, count] = [now, 0];
        return ++count > 40 ? 429 : undefined;
      },
      headers: (status): Record<string, string> => (status === 429 ? { 'retry-after': '1' } : {}),
    });
    const profile = await loadProfile({ configPath: referenceConfig, baseUrl: limiter.url, env: { ...server.secrets } });
    const checks = catalogue.filter((c) => ['ERR-problem-json-content-type', 'ERR-validation-422', 'LIM-cache-control-present', 'END-get-item-200', 'END-put-idempotent', 'END-pagination-complete-walk', 'END-if-match-412', 'END-etag-stable'].includes(c.id));
    const outcome = await runChecks({ profile, checks, seed: 2 });
    const notOk = outcome.results.filter((r) => r.status !== 'pass' && r.status !== 'skip').map((r) => `${r.id} ${r.status}: ${r.message}`);
    expect(notOk).toEqual([]);
    expect(limiter.requests.length).toBeGreaterThan(40);
    const waits = outcome.results.flatMap((r) => r.evidence.notes).filter((n) => /answered 429 \(Retry-After: 1\); waited \d+ ms/.test(n));
    expect(waits.length).toBeGreaterThan(0);
    expect(outcome.waitedMs).toBeGreaterThan(0);
    expect(outcome.leftovers).toEqual([]);
  }, 30_000);
});
