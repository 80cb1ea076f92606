/**
 * The rate-limit checks (LIM-, §8.1–8.3) beyond the fault matrix: on the reference server
 * with one node and with its other algorithm and date format; on stand-in limiters that
 * conform differently (a sliding log, draft-07 fields, keyed by address, Retry-After
 * alone, express-rate-limit's three drafts of RateLimit fields) and that break rules no
 * reference fault breaks; skips that name their key; and the raw session they send through. Short windows throughout: waits of milliseconds.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProfile } from '../src/config/load.js';
import { executeCheck } from '../src/engine/execute.js';
import { runChecks } from '../src/engine/run.js';
import { clientForProfile } from '../src/http/client.js';
import { CheckFailure, defineCheck, type Check } from '../src/model/check.js';
import { needs, Unmet } from '../src/model/needs.js';
import type { RateLimitProfile, TargetProfile } from '../src/model/profile.js';
import type { CheckResult } from '../src/model/result.js';
import { startReferenceServer, type ReferenceServerOptions } from '../reference-server/src/index.js';
import { catalogue } from '../suites/catalogue.js';
import { startExpressLimiter } from './support/express-limiter.js';
import { startLimiterServer, type LimiterServer, type LimiterServerOptions } from './support/limiter-server.js';
import { testProfile } from './support/profile.js';
import { targetAt, testProbeRateLimit, type Target } from './support/target.js';

/** The rate-limit checks: the exclusive checks of §8. */
const rateLimitChecks = catalogue.filter((c) => c.section === 'LIM' && c.schedule === 'exclusive');
const ids = rateLimitChecks.map((c) => c.id);

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

async function run(profile: TargetProfile, checks: readonly Check[] = rateLimitChecks): Promise<Record<string, CheckResult>> {
  const { results } = await runChecks({ profile, checks, seed: 1 });
  return Object.fromEntries(results.map((r) => [r.id, r]));
}

/** Each check's status, and for anything but a pass its message. */
const verdicts = (results: Record<string, CheckResult>): Record<string, string> =>
  Object.fromEntries(Object.values(results).map((r) => [r.id, r.status === 'pass' ? 'pass' : `${r.status}: ${r.message}`]));

const statuses = (results: Record<string, CheckResult>): Record<string, string> => Object.fromEntries(Object.values(results).map((r) => [r.id, r.status]));

async function referenceTarget(options: Omit<ReferenceServerOptions, 'port'>): Promise<Target> {
  const server = await startReferenceServer({ port: 0, probeRateLimit: testProbeRateLimit, ...options });
  const target = await targetAt(server, server.url, server.urls.slice(1));
  open.push(target);
  return target;
}


/**
 * Whether LIM-rate-limit-shared-across-nodes skipped because its rounds were too slow to tell
 * (a loaded machine): a node served about a fresh quota in a time in which a shared counter
 * gives back as much, as the check measured and its message says. Tests that expect a pass or a
 * failure take that skip instead, and only that one.
 */
const tooSlowToTell = (r: CheckResult): boolean => r.status === 'skip' && r.configKey === undefined && /^\S+ served (\d+) requests while .* the rounds took \d+ ms, in which a counter of \d+ per \d+ ms shared by every node gives back (\d+): too slow to tell a shared counter from counters of their own$/.test(r.message);

describe('the rate-limit checks on the reference server', () => {
  it('all pass on one node, but the cross-node check, which skips naming nodes', async () => {
    const { profile } = await referenceTarget({});
    const results = await run(profile);
    // The server sheds a client refused more often than its limit within one 250 ms window: on a
    // loaded machine the check's waves may straddle windows and see no 503, an honest skip, never a failure.
    const shed = results['LIM-503-retry-after']!;
    if (shed.status === 'skip') expect(shed.message).toMatch(/^no 503 in \d+ requests as \$RESTPROBE_LIMIT_KEY past the first 429/);
    expect(verdicts(results)).toEqual({ ...Object.fromEntries(ids.map((id) => [id, 'pass'])), 'LIM-rate-limit-shared-across-nodes': 'skip: no other nodes of the deployment configured', 'LIM-503-retry-after': shed.status === 'skip' ? verdicts(results)['LIM-503-retry-after'] : 'pass' });
    expect(results['LIM-rate-limit-shared-across-nodes']!.configKey).toBe('nodes');
    // The characterisation is in the evidence of a pass.
    expect(results['LIM-rate-limit-enforced']!.evidence.notes[0]).toMatch(/^observed: \d+ requests served in \d+ ms, then 429 \(retry-after-ms: \d+\); declared: 5 per 250 ms; advertised: "probe" 5$/);
  });

  it('all pass with a fixed window, HTTP-date Retry-After and two nodes', async () => {
    const { profile } = await referenceTarget({ nodes: 2, rateLimitAlgorithm: 'fixed-window', retryAfter: 'http-date' });
    expect(verdicts(await run(profile))).toEqual(Object.fromEntries(ids.map((id) => [id, 'pass'])));
  });

  it('all skip, naming the key, when the config has no rateLimit section; the limiter is not touched', async () => {
    const { profile } = await referenceTarget({});
    const { rateLimit: _, ...without } = profile;
    const results = await run(without);
    expect(new Set(Object.values(results).map((r) => `${r.status} ${r.configKey}`))).toEqual(new Set(['skip rateLimit']));
    expect(Object.values(results).every((r) => r.evidence.requestCount === 0)).toBe(true);
  });
});

describe('LIM-rate-limit-shared-across-nodes on a stand-in deployment: two nodes counting in one token bucket', () => {
  const shared = rateLimitChecks.filter((c) => c.id === 'LIM-rate-limit-shared-across-nodes');
  /** The first node as base URL, both listed; bursts eight wide, so a node answering 20 ms late is still spent faster than it refills. */
  function twoNodes(server: LimiterServer, windowMs: number): TargetProfile {
    const profile = standIn(server, { limit: 5, windowMs, budget: 60 });
    return { ...profile, http: { ...profile.http, concurrency: 8 }, nodes: server.urls };
  }

  it('does not take the other node winning every refill for a fresh quota: it asks first after each (the spent node answers 20 ms late), while the bucket gives back a token every 15 ms', async () => {
    // A round (the other node, then the spent one) takes longer than a refill, so the other node is served every round and the spent one seldom: served more, but never more than one bucket gives back.
    const server = await limiter({ limit: 5, windowMs: 75, algorithm: 'token-bucket', nodes: 2, nodeDelayMs: [20, 0] });
    const result = (await run(twoNodes(server, 75), shared))['LIM-rate-limit-shared-across-nodes']!;
    // Never a failure; the counter refills faster than the rounds go, so the other node may never refuse within the budget: an honest skip then.
    expect(result.status, result.message).not.toBe('fail');
    if (result.status === 'skip' && !tooSlowToTell(result)) expect(result).toMatchObject({ configKey: 'rateLimit.budget', message: expect.stringMatching(/neither refused \$LIMIT_KEY nor served a fresh quota within rateLimit\.budget/) });
    else if (result.status !== 'skip') expect(result.status).toBe('pass');
  });

  it('skips, never passes, when the other node served a fresh quota before it refused, in rounds so slow that a shared counter gives back as much', async () => {
    // Scripted nodes: the spent one serves the burst's 5, then refuses, 150 ms late; the other serves 4, then refuses.
    // Four rounds take 600 ms, in which a counter of 5 per 250 ms gives back 13: 4 served shows neither sharing nor a fresh quota.
    let spent = 0;
    let other = 0;
    const answer = (res: import('node:http').ServerResponse, ok: boolean) =>
      void (ok ? res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}') : res.writeHead(429, { 'content-type': 'application/problem+json', 'retry-after': '1' }).end('{"title":"Too Many Requests","status":429}'));
    const nodes = [
      createServer((req, res) => void (req.resume(), spent++ < 5 ? answer(res, true) : setTimeout(() => answer(res, false), 150))),
      createServer((req, res) => void (req.resume(), answer(res, other++ < 4))),
    ];
    for (const n of nodes) await new Promise<void>((resolve) => n.listen(0, '127.0.0.1', resolve));
    try {
      const urls = nodes.map((n) => `http://127.0.0.1:${(n.address() as AddressInfo).port}`);
      const profile = standIn({ url: urls[0]!, keys: { API_KEY: 'k-api', LIMIT_KEY: 'k-limit', LIMIT_KEY_2: 'k-limit-2' } } as LimiterServer, { limit: 5, windowMs: 250, budget: 60 });
      const result = (await run({ ...profile, nodes: urls }, shared))['LIM-rate-limit-shared-across-nodes']!;
      expect(other, 'the other node was asked past its four').toBeGreaterThan(4);
      expect(tooSlowToTell(result), `${result.status}: ${result.message}`).toBe(true);
    } finally {
      for (const n of nodes) {
        n.closeAllConnections();
        await new Promise((resolve) => n.close(resolve));
      }
    }
  });

  it('still fails counters of their own on the same stand-in (one bucket a node, a token every 50 ms): the other node serves its whole quota, more than any shared bucket gives back', async () => {
    // A token every 50 ms here: where the rounds outpace the refills (they cannot be told apart when refills come faster than a node is asked).
    const server = await limiter({ limit: 5, windowMs: 250, algorithm: 'token-bucket', nodes: 2, nodeDelayMs: [20, 0], perNode: true });
    const result = (await run(twoNodes(server, 250), shared))['LIM-rate-limit-shared-across-nodes']!;
    // Never a pass: where the machine is so loaded that a token comes back between every two requests, an honest skip.
    if (!tooSlowToTell(result)) expect(result).toMatchObject({ status: 'fail', message: expect.stringMatching(/served \d+ more requests while .*, \d+ in all in \d+ ms, more than the \d+ a counter of 5 per 250 ms shared by every node gives back\), expected it to refuse/) });
  });
});

describe('LIM-rate-limit-shared-across-nodes behind a load balancer (serve --balancer), the balancer as base URL and every node listed', () => {
  const shared = rateLimitChecks.filter((c) => c.id === 'LIM-rate-limit-shared-across-nodes');

  async function balanced(faults: string[], rl: Partial<RateLimitProfile> = {}, probeRateLimit = testProbeRateLimit): Promise<TargetProfile> {
    const server = await startReferenceServer({ port: 0, nodes: 2, balancer: true, probeRateLimit, faults });
    const target = await targetAt(server, server.balancerUrl!, server.urls);
    open.push(target);
    return { ...target.profile, rateLimit: { ...target.profile.rateLimit!, ...probeRateLimit, ...rl } };
  }

  it('passes with one counter store', async () => {
    const result = (await run(await balanced([]), shared))['LIM-rate-limit-shared-across-nodes']!;
    if (tooSlowToTell(result)) return;
    expect(result.status, result.message).toBe('pass');
    expect(result.evidence.notes[0]).toBe('waited a whole window (250 ms) first, so every node\'s quota is whole');
    expect(result.evidence.notes[1]).toMatch(/^observed: http:\/\/127\.0\.0\.1:\d+ served \d+ requests, then 429; then every other node refused too/);
  });

  it('fails per-node counters (fault rate-limit-per-node), which a burst through the balancer hides: it empties both nodes before its first 429', async () => {
    // A token every 200 ms, and a budget with room for a loaded machine, where tokens come back while the rounds go on.
    const slow = { limit: 5, windowMs: 1_000 };
    const profile = await balanced(['rate-limit-per-node'], { budget: 100 }, slow);
    // What the probe no longer does: through the balancer, about twice the limit is served, then every node refuses.
    let served = 0;
    for (let i = 0; i < 3 * slow.limit; i++) {
      const res = await fetch(new URL(profile.rateLimit!.path, profile.baseUrl), { headers: { 'x-api-key': profile.rateLimit!.credential!.value } });
      await res.arrayBuffer();
      if (res.status !== 200) break;
      served++;
    }
    expect(served).toBeGreaterThan(1.5 * slow.limit);
    await new Promise((r) => setTimeout(r, 2 * slow.windowMs));
    const result = (await run(profile, shared))['LIM-rate-limit-shared-across-nodes']!;
    expect(result).toMatchObject({ status: 'fail', message: expect.stringMatching(/^after http:\/\/127\.0\.0\.1:\d+ limited \$RESTPROBE_LIMIT_KEY \(\d+ served, then 429\), http:\/\/127\.0\.0\.1:\d+ served \d+ more requests while .* expected it to refuse as .* did: each node counts on its own/) });
    // The balancer routes to the listed nodes: asked beside them, it spent the judged node's own counter unseen, and a fresh quota refused early (a pass on a loaded machine).
    const balancer = new URL(profile.baseUrl).host;
    expect(result.evidence.exchanges.filter((e) => new URL(e.request.url).host === balancer)).toEqual([]);
  });

  it('does not count a node that answers what no limiter does (a 404: a node URL the gateway does not route) as one that refused: a setup error naming nodes', async () => {
    const profile = await balanced([]);
    const unrouted = createServer((_req, res) => void res.writeHead(404, { 'content-type': 'text/plain' }).end('no route'));
    await new Promise<void>((resolve) => unrouted.listen(0, '127.0.0.1', resolve));
    try {
      const elsewhere = `http://127.0.0.1:${(unrouted.address() as AddressInfo).port}`;
      const result = (await run({ ...profile, nodes: [profile.nodes[0]!, elsewhere] }, shared))['LIM-rate-limit-shared-across-nodes']!;
      expect(result).toMatchObject({ status: 'error', errorCode: 'ERR_SETUP', message: expect.stringMatching(new RegExp(`answered 404 before any was served.*\\(check nodes: ${elsewhere}\\)$`)) });
    } finally {
      await new Promise((resolve) => unrouted.close(resolve));
    }
  });

  it('skips, naming rateLimit.budget, when the budget is just above the limit: too few requests are left to ask the other nodes', async () => {
    const result = (await run(await balanced(['rate-limit-per-node'], { budget: testProbeRateLimit.limit + 2 }), shared))['LIM-rate-limit-shared-across-nodes']!;
    expect(result).toMatchObject({ status: 'skip', configKey: 'rateLimit.budget' });
  });
});

/** A profile for a stand-in: its keys as the run's own and the two probe credentials, GET /things. */
function standIn(server: LimiterServer, rl: Partial<RateLimitProfile> = {}): TargetProfile {
  const keyed = rl.keyedBy !== 'ip';
  const base = testProfile(server.url, keyed ? { apiKey: server.keys.API_KEY } : { keyHeader: null });
  const credential = { envName: 'LIMIT_KEY', value: server.keys.LIMIT_KEY };
  const other = { envName: 'LIMIT_KEY_2', value: server.keys.LIMIT_KEY_2 };
  return {
    ...base,
    http: { ...base.http, timeoutMs: 2_000 },
    secrets: keyed ? [...base.secrets, credential, other] : base.secrets,
    rateLimit: { keyedBy: 'apiKey', keyHeader: 'X-API-Key', ...(keyed && { credential, otherCredential: other }), budget: 50, path: '/things', ...rl },
  };
}

async function limiter(options: LimiterServerOptions): Promise<LimiterServer> {
  const server = await startLimiterServer(options);
  open.push(server);
  return server;
}

const allPass = (...skipped: string[]) => Object.fromEntries(ids.map((id) => [id, skipped.includes(id) ? 'skip' : 'pass']));

describe('stand-in limiters that conform differently', () => {
  it('an HTTP-date Retry-After from a server whose clock is 1.8 s behind, with no Date to tell (so read against restprobe\'s clock), is judged truthful', async () => {
    const server = await limiter({ limit: 5, windowMs: 3_000, algorithm: 'sliding-log', retryAfter: 'http-date', clockOffsetMs: -1_800 });
    const results = await run(standIn(server, { limit: 5, windowMs: 3_000 }), rateLimitChecks.filter((c) => c.id === 'LIM-retry-after-truthful'));
    expect(results['LIM-retry-after-truthful'], results['LIM-retry-after-truthful']?.message).toMatchObject({ status: 'pass' });
  });

  it('a sliding log with HTTP-date Retry-After and draft-07 RateLimit passes; the legacy fields are reported', async () => {
    const server = await limiter({ limit: 5, windowMs: 250, algorithm: 'sliding-log', retryAfter: 'http-date', msHint: true, fields: 'draft-07' });
    const results = await run(standIn(server, { limit: 5, windowMs: 250 }));
    // On a loaded machine the log's quota may come back between every two requests: the per-client check then cannot compare, and says so (the trickle test below).
    const perClient = results['LIM-rate-limit-per-client']!;
    if (perClient.status === 'skip') expect(perClient.message).toMatch(/\$LIMIT_KEY could not be kept limited/);
    expect(statuses(results)).toEqual({ ...allPass('LIM-rate-limit-shared-across-nodes', 'LIM-503-retry-after'), 'LIM-rate-limit-per-client': perClient.status === 'skip' ? 'skip' : 'pass' });
    expect(results['LIM-ratelimit-headers']!.evidence.notes).toContain('RateLimit fields in the syntax of draft-07 (one RateLimit Dictionary: limit, remaining, reset): read as such');
    expect(results['LIM-503-retry-after']!.message).toMatch(/^no 503 in 15 requests as \$LIMIT_KEY past the first 429 \(three times the limit of 5\)/);

    const legacy = await limiter({ limit: 5, windowMs: 250, msHint: true, fields: 'legacy' });
    const withLegacy = await run(standIn(legacy, { limit: 5 }), rateLimitChecks.filter((c) => c.id === 'LIM-ratelimit-headers'));
    expect(withLegacy['LIM-ratelimit-headers']).toMatchObject({ status: 'skip', message: expect.stringMatching(/^none of \d+ answers carries RateLimit fields/) });
    expect(withLegacy['LIM-ratelimit-headers']!.evidence.notes[0]).toMatch(/^legacy rate-limit fields on the 429 \(reported, not judged\): x-ratelimit-limit: 5; x-ratelimit-remaining: 0; x-ratelimit-reset: \d+$/);
  });

  it('a token bucket whose capacity is four times its rate (API Gateway rate 5, burst 20) passes LIM-rate-limit-enforced with rateLimit.burst declared; without it, the failure names the key; no limiter at all still fails', async () => {
    const enforced = rateLimitChecks.filter((c) => c.id === 'LIM-rate-limit-enforced');
    const bucket = await limiter({ limit: 5, windowMs: 1_000, algorithm: 'token-bucket', capacity: 20 });
    expect((await run(standIn(bucket, { limit: 5, windowMs: 1_000, burst: 20 }), enforced))['LIM-rate-limit-enforced']).toMatchObject({ status: 'pass' });
    const undeclared = await limiter({ limit: 5, windowMs: 1_000, algorithm: 'token-bucket', capacity: 20 });
    expect((await run(standIn(undeclared, { limit: 5, windowMs: 1_000 }), enforced))['LIM-rate-limit-enforced']).toMatchObject({ status: 'fail', message: expect.stringMatching(/declare its capacity in rateLimit\.burst\) was passed/) });
    const none = await limiter({ limit: 0, windowMs: 0 });
    expect((await run(standIn(none, { limit: 5, windowMs: 1_000, burst: 20 }), enforced))['LIM-rate-limit-enforced']).toMatchObject({ status: 'fail', message: expect.stringMatching(/^all 50 requests .* and the burst of 20 was passed/) });
  });

  it('a limit keyed by route (§8.1: one counter every client shares) is declared so: the per-client check skips naming rateLimit.keyedBy; keyed by user, it compares the two credentials as for API keys', async () => {
    const perClient = rateLimitChecks.filter((c) => c.id === 'LIM-rate-limit-per-client');
    const shared = await limiter({ limit: 5, windowMs: 250, keyedBy: 'ip' });
    const route = await run(standIn(shared, { limit: 5, windowMs: 250, keyedBy: 'route' }), perClient);
    expect(route['LIM-rate-limit-per-client']).toMatchObject({ status: 'skip', configKey: 'rateLimit.keyedBy', message: expect.stringMatching(/keyed by route: every client of the route shares one counter/) });
    const byUser = await limiter({ limit: 5, windowMs: 250 });
    expect((await run(standIn(byUser, { limit: 5, windowMs: 250, keyedBy: 'user' }), perClient))['LIM-rate-limit-per-client']).toMatchObject({ status: 'pass' });
  });

  it('a limit served three times over in a slow burst (15 in 3 s where 5 are declared, answers held 100 ms), with no window declared or advertised: not passed as 5 a second, a skip naming rateLimit.window; declared, it fails', async () => {
    // Before, the unknown window was taken as a second: a 1.6 s burst allowed 5 + 5 × 2 = 15, and 15 passed.
    const enforced = rateLimitChecks.filter((c) => c.id === 'LIM-rate-limit-enforced');
    const unknown = await limiter({ limit: 15, windowMs: 3_000, algorithm: 'sliding-log', nodeDelayMs: [100] });
    const skipped = (await run(standIn(unknown, { limit: 5 }), enforced))['LIM-rate-limit-enforced']!;
    expect(skipped).toMatchObject({ status: 'skip', configKey: 'rateLimit.window', message: expect.stringMatching(/^15 requests as \$LIMIT_KEY were served in \d+ ms before the 429: more than a limit of 5 allows in one window/) });
    const declared = await limiter({ limit: 15, windowMs: 3_000, algorithm: 'sliding-log', nodeDelayMs: [100] });
    const failed = (await run(standIn(declared, { limit: 5, windowMs: 3_000 }), enforced))['LIM-rate-limit-enforced']!;
    expect(failed).toMatchObject({ status: 'fail', message: expect.stringMatching(/^15 requests as \$LIMIT_KEY were served in \d+ ms before the 429, expected it once the limit of 5 per 3000 ms/) });
  });

  it('a gateway\'s passing 502 amid the burst is not taken for the limiter\'s answer: the burst is sent again and meets the 429; a limiter that answers 502 itself still fails', async () => {
    const enforced = rateLimitChecks.filter((c) => c.id === 'LIM-rate-limit-enforced');
    const glitch = await limiter({ limit: 5, windowMs: 250, gatewayErrorAt: 3 });
    const result = (await run(standIn(glitch, { limit: 5, windowMs: 250 }), enforced))['LIM-rate-limit-enforced']!;
    expect(result, result.message).toMatchObject({ status: 'pass', evidence: { notes: expect.arrayContaining([expect.stringMatching(/^GET \/things → 502 text\/html after 2 served requests, with no Retry-After and no RateLimit fields: taken for a passing gateway error/)]) } });
    const refuses502 = await limiter({ limit: 5, windowMs: 250, limitedStatus: 502 });
    expect((await run(standIn(refuses502, { limit: 5, windowMs: 250 }), enforced))['LIM-rate-limit-enforced']).toMatchObject({ status: 'fail' });
  });

  it('an honest Retry-After rounded up by most of a second, from a target whose answers take 400 ms to come back (a far region): the early request is sent that much sooner, and the wait is judged truthful', async () => {
    // Before, the early request went a resolution and 250 ms before the stated wait from when the 429 came, reached the target after the
    // rounded-up wait had ended, and the honest wait failed as overstated. A 2.5 s log met in one wave: the last refusal says 3 s, the real wait 2.1 s.
    const server = await limiter({ limit: 5, windowMs: 2_500, algorithm: 'sliding-log', nodeDelayMs: [400] });
    const profile = standIn(server, { limit: 5, windowMs: 2_500 });
    const truthful = rateLimitChecks.filter((c) => c.id === 'LIM-retry-after-truthful');
    const result = (await run({ ...profile, http: { ...profile.http, concurrency: 8 } }, truthful))['LIM-retry-after-truthful']!;
    expect(result, result.message).toMatchObject({ status: 'pass' });
    // Two seconds overstated, at the same distance: still served long before the stated wait less its resolution, and it fails.
    const liar = await limiter({ limit: 5, windowMs: 2_500, algorithm: 'sliding-log', nodeDelayMs: [400], overstateMs: 2_000 });
    const lying = standIn(liar, { limit: 5, windowMs: 2_500 });
    const overstated = (await run({ ...lying, http: { ...lying.http, concurrency: 8 } }, truthful))['LIM-retry-after-truthful']!;
    expect(overstated).toMatchObject({ status: 'fail', message: expect.stringMatching(/ms after the 429, though Retry-After: 5: expected the stated wait to be the real one/) });
  });

  it('an overstated Retry-After from a limiter that refuses at once where a served request takes 300 ms still fails; one of 2 s overstated by 1.5 s from a far target (answers 400 ms away) is still looked for early, and fails; an HTTP-date 8 s late fails', async () => {
    // Before, the early request was sent as if it came back as fast as the 429: the served one's 300 ms
    // made the lie look like an honest rounding, and the check skipped. Retry-After: 2 from a far target sent no early request, and passed.
    const truthful = rateLimitChecks.filter((c) => c.id === 'LIM-retry-after-truthful');
    const atOnce = (server: LimiterServer, windowMs: number, concurrency = 8): TargetProfile => {
      const profile = standIn(server, { limit: 5, windowMs });
      return { ...profile, http: { ...profile.http, concurrency } };
    };
    const slowServed = await limiter({ limit: 5, windowMs: 500, algorithm: 'sliding-log', delayMs: 300, overstateMs: 4_000 });
    const slow = (await run(atOnce(slowServed, 500), truthful))['LIM-retry-after-truthful']!;
    expect(slow, slow.message).toMatchObject({ status: 'fail', message: expect.stringMatching(/though Retry-After: 5: expected the stated wait to be the real one/) });
    const far = await limiter({ limit: 5, windowMs: 300, algorithm: 'sliding-log', nodeDelayMs: [400], overstateMs: 1_500 });
    // One wave of six: its last request is the 429 judged, its wait the window's 300 ms, stated as 2 s.
    const farResult = (await run(atOnce(far, 300, 6), truthful))['LIM-retry-after-truthful']!;
    expect(farResult, farResult.message).toMatchObject({ status: 'fail', message: expect.stringMatching(/though Retry-After: 2: expected the stated wait to be the real one/) });
    // An HTTP-date eight seconds late, read against restprobe's clock (known to 3 s, and 2 s of grace): the early request leaves the
    // grace too, and is served before the stated wait less both.
    const dated = await limiter({ limit: 5, windowMs: 500, algorithm: 'sliding-log', retryAfter: 'http-date', overstateMs: 8_000 });
    const datedResult = (await run(atOnce(dated, 500), truthful))['LIM-retry-after-truthful']!;
    expect(datedResult, datedResult.message).toMatchObject({ status: 'fail', message: expect.stringMatching(/though Retry-After: \w{3}, .* GMT: expected the stated wait to be the real one/) });
  });

  it('a Retry-After of 1 s where the wait is 2.2 s, met by a request a stalled machine sent 1.4 s late and served: not taken for a truthful wait, a skip that says why', async () => {
    // Before, the late request was served and the check passed, though one sent when the stated second was up would have been refused.
    let served = 0;
    let refusedUntil: number | undefined;
    const json = (res: import('node:http').ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => res.writeHead(status, { 'content-type': status === 429 ? 'application/problem+json' : 'application/json', ...headers }).end(JSON.stringify(body));
    const server = createServer((_req, res) => {
      const now = performance.now();
      if (refusedUntil === undefined && served < 3) return void (served++, json(res, 200, { data: [] }));
      if (refusedUntil === undefined) {
        refusedUntil = now + 2_200;
        // The machine stalls just before the stated second is up: the timer for it fires late.
        setTimeout(() => {
          const end = performance.now() + 1_500;
          while (performance.now() < end);
        }, 900);
      }
      if (now < refusedUntil) return void json(res, 429, { type: 'about:blank', title: 'Too Many Requests', status: 429 }, { 'retry-after': '1' });
      json(res, 200, { data: [] });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    open.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    const keys = { API_KEY: 'sk-stalled-api-1', LIMIT_KEY: 'sk-stalled-limit-1', LIMIT_KEY_2: 'sk-stalled-limit-2' };
    const truthful = rateLimitChecks.filter((c) => c.id === 'LIM-retry-after-truthful');
    const result = (await run(standIn({ url, urls: [url], keys, close: async () => undefined }, { limit: 3 }), truthful))['LIM-retry-after-truthful']!;
    expect(result).toMatchObject({ status: 'skip', message: expect.stringMatching(/^the request meant for \d+ ms after the 429 \(Retry-After: 1\) left \d+ ms after it, not until then \(a busy machine's late timer\)/) });
  });

  it('a Retry-After longer than http.maxRetryWaitMs (a 15-minute window) is not waited out: LIM-retry-after-truthful skips naming the key, at once', async () => {
    const server = await limiter({ limit: 3, windowMs: 900_000, algorithm: 'sliding-log' });
    const truthful = rateLimitChecks.filter((c) => c.id === 'LIM-retry-after-truthful');
    const profile = standIn(server, { limit: 3 });
    const started = performance.now();
    const result = (await run({ ...profile, http: { ...profile.http, maxRetryWaitMs: 2_000 } }, truthful))['LIM-retry-after-truthful']!;
    expect(result).toMatchObject({ status: 'skip', configKey: 'http.maxRetryWaitMs', message: expect.stringMatching(/says Retry-After: \d+, longer than http\.maxRetryWaitMs \(2000 ms\)/) });
    // Before, it slept towards the stated wait until the check's deadline ended it.
    expect(performance.now() - started).toBeLessThan(profile.http.timeoutMs);
  });

  it('a limited client whose quota comes back every other request (a sliding log met at its refill pace): the other client is sent fewer requests than its own limit in any window, so its own count never refuses it; a skip, not a failure', async () => {
    // Before, the check sent as the other client on every try and its sixth in the window met its own limit: "one client's burst limits another".
    const server = await limiter({ limit: 5, windowMs: 250, algorithm: 'trickle', retryAfter: 'fractional' });
    const perClient = rateLimitChecks.filter((c) => c.id === 'LIM-rate-limit-per-client');
    const result = (await run(standIn(server, { limit: 5, windowMs: 250 }), perClient))['LIM-rate-limit-per-client']!;
    expect(result).toMatchObject({ status: 'skip', message: expect.stringMatching(/\$LIMIT_KEY could not be kept limited .* in \d+ tries/) });
  });

  it('one token bucket for both keys (keyed by address where the config says per API key), refilling 10 a second, each answer held 50 ms: the refill a sequential round trip would give the other key is not taken for a quota of its own, and it fails; a bucket per key with the same pace passes', async () => {
    // Before, the other key's request went between two refusals sent one after another: half a refill interval apart, it was served the refill, and the check passed.
    const perClient = rateLimitChecks.filter((c) => c.id === 'LIM-rate-limit-per-client');
    // http.concurrency as by default (4): the three requests of a comparison go out at once.
    const atOnce = (server: LimiterServer): TargetProfile => {
      const profile = standIn(server, { limit: 10, windowMs: 1_000 });
      return { ...profile, http: { ...profile.http, concurrency: 4 } };
    };
    const shared = await limiter({ limit: 10, windowMs: 1_000, algorithm: 'token-bucket', keyedBy: 'ip', nodeDelayMs: [50] });
    const sharedResult = (await run(atOnce(shared), perClient))['LIM-rate-limit-per-client']!;
    expect(sharedResult, sharedResult.message).toMatchObject({ status: 'fail', message: expect.stringMatching(/as \$LIMIT_KEY_2 .*sent together with two requests as \$LIMIT_KEY that were both refused, expected it served/) });
    const perKey = await limiter({ limit: 10, windowMs: 1_000, algorithm: 'token-bucket', nodeDelayMs: [50] });
    const perKeyResult = (await run(atOnce(perKey), perClient))['LIM-rate-limit-per-client']!;
    expect(perKeyResult, perKeyResult.message).toMatchObject({ status: 'pass' });
    // One request at a time (http.concurrency 1), a comparison takes three answers, longer than a refill: not judged. Either the
    // quota came back before the second refusal, or both refusals came but too far apart, and that skip names the key.
    const oneAtATime = await limiter({ limit: 10, windowMs: 1_000, algorithm: 'token-bucket', keyedBy: 'ip', nodeDelayMs: [50] });
    const slow = (await run(standIn(oneAtATime, { limit: 10, windowMs: 1_000 }), perClient))['LIM-rate-limit-per-client']!;
    expect(slow.status, slow.message).toBe('skip');
    if (slow.configKey !== undefined) expect(slow).toMatchObject({ configKey: 'http.concurrency', message: expect.stringMatching(/went one after another \(http\.concurrency 1\) and took 100 ms or more/) });
    else expect(slow.message).toMatch(/\$LIMIT_KEY could not be kept limited/);
  });

  it('a token bucket keyed by client address passes; the per-client check skips naming rateLimit.keyedBy', async () => {
    const server = await limiter({ limit: 5, windowMs: 250, algorithm: 'token-bucket', keyedBy: 'ip', msHint: true, fields: 'draft-10' });
    const results = await run(standIn(server, { keyedBy: 'ip', limit: 5 }));
    expect(statuses(results)).toEqual(allPass('LIM-rate-limit-shared-across-nodes', 'LIM-503-retry-after', 'LIM-rate-limit-per-client'));
    expect(results['LIM-rate-limit-per-client']!.configKey).toBe('rateLimit.keyedBy');
  });

  it('Retry-After alone, in whole seconds, is judged truthful by waiting it out', async () => {
    const server = await limiter({ limit: 3, windowMs: 1_000 });
    const results = await run(standIn(server, { limit: 3 }), rateLimitChecks.filter((c) => c.id === 'LIM-retry-after-truthful'));
    expect(verdicts(results)).toEqual({ 'LIM-retry-after-truthful': 'pass' });
    expect(results['LIM-retry-after-truthful']!.evidence.notes[0]).toMatch(/^observed: served again \d+ ms after the 429 \(Retry-After: 1\)$/);
  });

  it('a penalty box (every request while blocked starts the block again) passes: the early request restarted the wait, and its own Retry-After is kept', async () => {
    const server = await limiter({ limit: 3, windowMs: 2_000, algorithm: 'penalty-box' });
    const result = (await run(standIn(server, { limit: 3 }), rateLimitChecks.filter((c) => c.id === 'LIM-retry-after-truthful')))['LIM-retry-after-truthful']!;
    // Before, the late request kept the burst's wait, and met the block the early one had restarted.
    expect(result, result.message).toMatchObject({ status: 'pass', evidence: { notes: expect.arrayContaining(["the early request's 429 restarted the wait (Retry-After: 2): the late request keeps that wait"]) } });
  });

  it('Retry-After in whole seconds rounded down (ASP.NET\'s documented sample) warns: served a second later, or when an honest millisecond field says; a millisecond field as short fails', async () => {
    const truthful = rateLimitChecks.filter((c) => c.id === 'LIM-retry-after-truthful');
    const down = await limiter({ limit: 3, windowMs: 1_600, algorithm: 'sliding-log', retryAfter: 'seconds-down' });
    const warned = (await run(standIn(down, { limit: 3 }), truthful))['LIM-retry-after-truthful']!;
    expect(warned).toMatchObject({ status: 'warn', message: expect.stringMatching(/^GET \/things → 429 .* though Retry-After: 1, then served \d+ ms after it: expected the stated wait rounded up, not down/) });
    const honestMs = await limiter({ limit: 3, windowMs: 1_600, algorithm: 'sliding-log', retryAfter: 'seconds-down', overstateMs: -1_000, msHint: true });
    expect((await run(standIn(honestMs, { limit: 3 }), truthful))['LIM-retry-after-truthful']).toMatchObject({ status: 'warn', message: expect.stringMatching(/though Retry-After: 0, then served/) });
    // Fault retry-after-too-short: both fields say 0 while the key stays limited.
    expect((await run((await referenceTarget({ faults: ['retry-after-too-short'] })).profile, truthful))['LIM-retry-after-truthful']).toMatchObject({ status: 'fail' });
  });

  it('Retry-After alone, 3 s longer than the real wait, fails: served more than a second before it ends (the check judged only a millisecond field before)', async () => {
    const server = await limiter({ limit: 3, windowMs: 250, algorithm: 'sliding-log', overstateMs: 3_000 });
    const results = await run(standIn(server, { limit: 3 }), rateLimitChecks.filter((c) => c.id === 'LIM-retry-after-truthful'));
    expect(results['LIM-retry-after-truthful']).toMatchObject({ status: 'fail', message: expect.stringMatching(/^GET \/things → 200 .* \d+ ms after the 429, though Retry-After: 4: expected the stated wait to be the real one/) });
  });
});

describe('express-rate-limit, each draft of RateLimit fields it sends (standardHeaders)', () => {
  const fieldsCheck = rateLimitChecks.filter((c) => c.id === 'LIM-ratelimit-headers');
  it.each([
    ['draft-6', 'draft-06 (RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset, an integer each)'],
    ['draft-7', 'draft-07 (one RateLimit Dictionary: limit, remaining, reset)'],
    ['draft-8', 'draft-10 (RateLimit and RateLimit-Policy, Lists of named policies)'],
  ] as const)('%s is read as the draft it is, and passes LIM-ratelimit-headers', async (standardHeaders, syntax) => {
    const server = await startExpressLimiter({ limit: 5, windowMs: 1_000, standardHeaders });
    open.push(server);
    const result = (await run(standIn(server, { limit: 5 }), fieldsCheck))['LIM-ratelimit-headers']!;
    expect(verdicts({ [result.id]: result })).toEqual({ 'LIM-ratelimit-headers': 'pass' });
    expect(result.evidence.notes).toContain(`RateLimit fields in the syntax of ${syntax}: read as such`);
  });

  it('draft-6 (standardHeaders: true) passes every rate-limit check it can observe', async () => {
    const server = await startExpressLimiter({ limit: 5, windowMs: 1_000, standardHeaders: 'draft-6' });
    open.push(server);
    const results = await run(standIn(server, { limit: 5, windowMs: 1_000 }));
    expect(statuses(results)).toEqual(allPass('LIM-rate-limit-shared-across-nodes', 'LIM-503-retry-after'));
  });
});

describe('stand-in limiters that break rules no reference fault breaks', () => {
  const only = (id: string) => rateLimitChecks.filter((c) => c.id === id);
  it.each([
    ['fractional seconds', { retryAfter: 'fractional' }, /has Retry-After "0\.\d{3}", which is neither delay-seconds \(digits\) nor an HTTP-date/],
    ['an RFC 850 date', { retryAfter: 'rfc850' }, /has Retry-After "\w+day, \d{2}-\w{3}-\d{2} [\d:]{8} GMT", which is an obsolete HTTP-date format/],
  ] as const)("a 429's Retry-After in %s fails LIM-retry-after-valid", async (_what, options, message) => {
    const server = await limiter({ limit: 5, windowMs: 250, msHint: true, ...options });
    const result = (await run(standIn(server, { limit: 5 }), only('LIM-retry-after-valid')))['LIM-retry-after-valid']!;
    expect(result).toMatchObject({ status: 'fail', message: expect.stringMatching(message) });
  });

  it('a limiter that answers 403 (as some APIs do) fails LIM-rate-limit-enforced', async () => {
    const server = await limiter({ limit: 5, windowMs: 250, msHint: true, limitedStatus: 403 });
    const results = await run(standIn(server, { limit: 5 }));
    expect(results['LIM-rate-limit-enforced']).toMatchObject({ status: 'fail', message: expect.stringMatching(/^after \d+ served requests, the answer of the limiter: found GET \/things → 403 application\/problem\+json, expected 429$/) });
  });

  it('a 429 with a plain JSON body fails LIM-429-problem-details', async () => {
    const server = await limiter({ limit: 5, windowMs: 250, msHint: true, body: 'json' });
    const result = (await run(standIn(server, { limit: 5 }), only('LIM-429-problem-details')))['LIM-429-problem-details']!;
    expect(result).toMatchObject({ status: 'fail', message: expect.stringContaining('Content-Type is application/json; expected application/problem+json') });
  });

  it('draft-06 fields that say the whole quota remains on a served request warn on LIM-ratelimit-headers', async () => {
    const server = await limiter({ limit: 5, windowMs: 250, msHint: true, fields: 'draft-06-whole' });
    const result = (await run(standIn(server, { limit: 5 }), only('LIM-ratelimit-headers')))['LIM-ratelimit-headers']!;
    expect(result).toMatchObject({ status: 'warn', message: expect.stringMatching(/^GET \/things → 200 application\/json says RateLimit-Remaining: 5, its whole quota, though the request was served: expected less than the quota remaining$/) });
  });

  it('RateLimit fields of draft-08 (policy names as tokens) warn on LIM-ratelimit-headers', async () => {
    const server = await limiter({ limit: 5, windowMs: 250, msHint: true, fields: 'draft-10-token-names' });
    const result = (await run(standIn(server, { limit: 5 }), only('LIM-ratelimit-headers')))['LIM-ratelimit-headers']!;
    expect(result).toMatchObject({ status: 'warn', message: expect.stringContaining('the policy name default is a token; draft-10 names policies with quoted strings') });
  });
});

describe('every rate-limit check leaves the quota as it found it, whatever its verdict', () => {
  const one = (id: string) => rateLimitChecks.filter((c) => c.id === id);
  /** The statuses of `n` requests in a row with `key`. */
  const statusesNow = async (server: LimiterServer, n: number, key: string): Promise<number[]> => {
    const got: number[] = [];
    for (let i = 0; i < n; i++) {
      const res = await fetch(`${server.url}/things`, { headers: { 'x-api-key': key } });
      await res.arrayBuffer();
      got.push(res.status);
    }
    return got;
  };
  const verdicts = [
    ['a skip: LIM-503-retry-after on a limiter that never sheds', 'LIM-503-retry-after', {}, 'skip'],
    ['a failure: LIM-429-problem-details on a 429 with a plain JSON body', 'LIM-429-problem-details', { body: 'json' }, 'fail'],
    ['a failure: LIM-rate-limit-enforced on a limiter that answers 403', 'LIM-rate-limit-enforced', { limitedStatus: 403 }, 'fail'],
  ] as const;

  it.each(verdicts)("%s, bursting with the run's own key, gives the whole quota back before it ends: the whole limit is served right after", async (_what, id, options, status) => {
    // A window of a second: a check that left without waiting would leave the key refused.
    const server = await limiter({ limit: 5, windowMs: 1_000, msHint: true, ...options });
    const { credential: _, otherCredential: __, ...rateLimit } = standIn(server, { limit: 5, windowMs: 1_000 }).rateLimit!;
    const result = (await run({ ...standIn(server), rateLimit }, one(id)))[id]!;
    expect(result.status, result.message).toBe(status);
    // A refusal it ended on is waited out until the key is served again. LIM-503-retry-after's
    // wave past the first 429 may outlast the one-second window on a loaded machine and end
    // served: then there is nothing to wait out, and only the whole window below is waited.
    const waitedOut = result.evidence.notes.filter((n) => /^(served again|still limited)/.test(n));
    const endedServed = id === 'LIM-503-retry-after' && waitedOut.length === 0;
    expect(waitedOut).toEqual(endedServed ? [] : [expect.stringMatching(/^served again \d+ ms after the (429|403) to the run's own key \(\$API_KEY\) \(retry-after-ms: \d+\)$/)]);
    expect(result.evidence.notes.at(-1)).toBe('waited a whole window (1000 ms) after the last request, so the next check finds the whole quota');
    expect(await statusesNow(server, 5, server.keys.API_KEY)).toEqual([200, 200, 200, 200, 200]);
  });

  it.each(verdicts)('%s, bursting with a key of its own (rateLimit.credential), leaves it no longer limited, without waiting for the whole quota', async (_what, id, options, status) => {
    const server = await limiter({ limit: 5, windowMs: 1_000, msHint: true, ...options });
    const result = (await run(standIn(server, { limit: 5, windowMs: 1_000 }), one(id)))[id]!;
    expect(result.status, result.message).toBe(status);
    expect(result.evidence.notes).toContainEqual(expect.stringMatching(/^served again \d+ ms after the (429|403) to \$LIMIT_KEY \(retry-after-ms: \d+\)$/));
    expect(result.evidence.notes.at(-1)).toBe('$LIMIT_KEY: a quota of its own, which no other check spends: no longer limited, and not waited on until whole');
    // Served at once (a check that left it limited would see a refusal here); the rest comes back with time.
    expect(await statusesNow(server, 1, server.keys.LIMIT_KEY)).toEqual([200]);
  });

  it('a probe key refused before anything was served (401: a wrong rateLimit.credential) is not backed off from: the limiter was never met', async () => {
    const server = await limiter({ limit: 5, windowMs: 250, msHint: true });
    const profile = standIn(server, { limit: 5, windowMs: 250 });
    const wrong = { envName: 'LIMIT_KEY', value: 'not-a-key-the-server-knows' };
    const results = await run({ ...profile, secrets: [...profile.secrets, wrong], rateLimit: { ...profile.rateLimit!, credential: wrong } }, one('LIM-rate-limit-enforced'));
    const result = results['LIM-rate-limit-enforced']!;
    expect(result.status, result.message).toBe('error');
    expect(result.message).toMatch(/answered 401 before any was served/);
    // Before, the 401 was backed off from five times (200 ms doubling: about 6 s a check).
    expect(result.evidence.requestCount).toBe(1);
    expect(result.evidence.notes).toEqual(['$LIMIT_KEY: a quota of its own, which no other check spends: no longer limited, and not waited on until whole']);
  });

  it('LIM-503-retry-after sends at most three times the limit past the first 429 to a target that never sheds, not the whole budget', async () => {
    const server = await limiter({ limit: 5, windowMs: 250, msHint: true });
    const result = (await run(standIn(server, { limit: 5, budget: 50 }), one('LIM-503-retry-after')))['LIM-503-retry-after']!;
    expect(result).toMatchObject({ status: 'skip', message: expect.stringMatching(/^no 503 in 15 requests as \$LIMIT_KEY past the first 429 \(three times the limit of 5\)/) });
    // The burst to the first 429 (the limit twice at most, across a window's end), fifteen
    // more, and the request that sees the quota back (none when a loaded machine took a whole
    // window over the fifteen); before, the whole budget of 50 and that one.
    expect(result.evidence.requestCount).toBeGreaterThanOrEqual(6 + 15);
    expect(result.evidence.requestCount).toBeLessThanOrEqual(11 + 15 + 1);
  });
});

describe('unmet needs are skips naming the config key, and nothing is sent', () => {
  const resolve = (profile: TargetProfile, need: 'rateLimit' | 'otherClient') => needs[need].resolve(profile, {});
  const profile = (rl: Partial<RateLimitProfile>): TargetProfile => ({
    ...testProfile('http://127.0.0.1:9'),
    rateLimit: { keyedBy: 'apiKey', keyHeader: 'X-API-Key', credential: { envName: 'LIMIT_KEY', value: 'k' }, budget: 50, path: '/things', ...rl },
  });

  it.each([
    ['its variable is unset', { credential: { envName: 'LIMIT_KEY', value: '' } }, 'rateLimit', 'rateLimit.credential', /^environment variable LIMIT_KEY \(rateLimit.credential\) is not set$/],
    ['the budget cannot pass the declared limit', { limit: 50 }, 'rateLimit', 'rateLimit.budget', /^a burst of rateLimit.budget = 50 requests cannot exceed the declared limit of 50$/],
    ['no second credential', {}, 'otherClient', 'rateLimit.otherCredential', /^no second credential/],
    ['a limit keyed by address', { keyedBy: 'ip' }, 'otherClient', 'rateLimit.keyedBy', /one address/],
  ] as const)('%s', (_what, rl, need, key, reason) => {
    const unmet = resolve(profile(rl), need);
    expect(unmet).toBeInstanceOf(Unmet);
    expect(unmet).toMatchObject({ configKey: key, reason: expect.stringMatching(reason) });
  });

  it('bursts with the run\'s own key when rateLimit.credential is not given', () => {
    const { credential: _, ...rl } = profile({}).rateLimit!;
    expect(resolve({ ...profile({}), rateLimit: rl }, 'rateLimit')).toMatchObject({ client: { label: "the run's own key ($API_KEY)", auth: true } });
  });

  it('no limiter and no declared limit: LIM-rate-limit-enforced skips naming rateLimit.limit; too small a budget names rateLimit.budget', async () => {
    const server = await limiter({ limit: 0, windowMs: 100 });
    const enforced = rateLimitChecks.filter((c) => c.id === 'LIM-rate-limit-enforced');
    expect((await run(standIn(server), enforced))['LIM-rate-limit-enforced']).toMatchObject({ status: 'skip', configKey: 'rateLimit.limit' });
    expect((await run(standIn(server, { limit: 10, budget: 15 }), enforced))['LIM-rate-limit-enforced']).toMatchObject({ status: 'skip', configKey: 'rateLimit.budget', message: expect.stringMatching(/^all 15 requests were served in \d+ ms, which a limit of 10 may allow \(up to 20\)/) });
    expect((await run(standIn(server, { limit: 10, budget: 21 }), enforced))['LIM-rate-limit-enforced']).toMatchObject({ status: 'fail' });
    // With no window known, one is taken to last a second at least: a slow endpoint's burst that outlasts it is not judged by twice the limit.
    const slow = await limiter({ limit: 0, windowMs: 0, delayMs: 300 });
    const slowProfile = standIn(slow, { limit: 2, budget: 5 });
    const slowResult = (await run({ ...slowProfile, http: { ...slowProfile.http, concurrency: 1 } }, enforced))['LIM-rate-limit-enforced'];
    expect(slowResult).toMatchObject({ status: 'skip', configKey: 'rateLimit.budget', message: expect.stringMatching(/^all 5 requests were served in \d+ ms, which a limit of 2 may allow \(up to [6-9]\)/) });
  });
});

describe('the config', () => {
  it('reads rateLimit: the window, the defaults, and credentials whose variables may be unset', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-rl-'));
    const path = join(dir, 'config.json');
    await writeFile(path, JSON.stringify({
      auth: { apiKey: { header: 'Authorization', value: { env: 'API_KEY' } } },
      collections: [{ name: 'things', path: '/things' }],
      rateLimit: { credential: { env: 'LIMIT_KEY' }, otherCredential: { env: 'LIMIT_KEY_2' }, limit: 10, window: '1m' },
    }));
    const profile = await loadProfile({ configPath: path, baseUrl: 'http://127.0.0.1:9', env: { API_KEY: 'a', LIMIT_KEY: 'l' } });
    expect(profile.rateLimit).toEqual({ keyedBy: 'apiKey', keyHeader: 'Authorization', credential: { envName: 'LIMIT_KEY', value: 'l' }, otherCredential: { envName: 'LIMIT_KEY_2', value: '' }, limit: 10, windowMs: 60_000, budget: 50, path: '/things' });
    expect(profile.secrets.map((s) => s.envName).sort()).toEqual(['API_KEY', 'LIMIT_KEY']);
    expect(needs.rateLimit.resolve(profile, {})).toMatchObject({ client: { headers: { authorization: 'Bearer l' } } });
    await writeFile(path, JSON.stringify({ rateLimit: { window: '10 seconds', budget: 1 } }));
    await expect(loadProfile({ configPath: path, baseUrl: 'http://127.0.0.1:9', env: {} })).rejects.toMatchObject({
      problems: ['rateLimit.window: must be a whole number and a unit: ms, s, m or h (e.g. 10s) (found string "10 seconds")', 'rateLimit.budget: must be >= 2 (found number 1)'],
    });
  });
});

describe('the raw session (ctx.rawHttp)', () => {
  it('hands the check each 429 as it came (no wait, no retry, no pause), recorded and redacted like the rest', async () => {
    const server = await limiter({ limit: 2, windowMs: 60_000 });
    const profile = standIn(server);
    const seen: number[] = [];
    const check = defineCheck({
      id: 'LIM-raw-probe',
      title: 'raw',
      rule: 'A raw request MUST see the 429.',
      severity: 'must',
      needs: ['rateLimit'],
      async run(ctx, { rateLimit: probe }) {
        for (let i = 0; i < 4; i++) seen.push((await ctx.rawHttp().send({ method: 'GET', path: probe.path, auth: false, headers: probe.client.headers })).status);
        throw new CheckFailure('done: show the evidence');
      },
    });
    const client = clientForProfile(profile);
    open.push(client);
    const started = performance.now();
    const result = await executeCheck(check, { profile, client, seed: 1 });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(seen).toEqual([200, 200, 429, 429]);
    expect(result.evidence.notes).toEqual([]);
    expect(result.evidence.exchanges.map((x) => x.response?.status)).toEqual([200, 200, 429, 429]);
    const shown = JSON.stringify(result.evidence);
    expect(shown).not.toContain(server.keys.LIMIT_KEY);
    expect(result.evidence.exchanges[2]!.curl).toContain('$LIMIT_KEY');
  });
});
