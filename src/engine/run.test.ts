/**
 * The engine's scheduler and a check's lifecycle: a seeded order that nothing else moves,
 * scheduling classes that hold, dependencies that block only what would repeat their finding, fixtures
 * that fail as setup errors, read-only enforced in the transport, and a deadline after
 * which nothing is sent and nothing is left behind.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { CheckFailure, CheckSkipped, defineCheck, type Check, type Schedule } from '../model/check.js';
import type { CheckContext } from '../model/context.js';
import { clientForProfile, type HttpClient } from '../http/client.js';
import { startItemsServer, type ItemsServer } from '../../test/support/items-server.js';
import { testProfile } from '../../test/support/profile.js';
import { executeCheck } from './execute.js';
import { RestprobeError } from '../errors.js';
import { randomUUID } from 'node:crypto';
import { expectStatus } from '../check-kit/expect.js';
import { runChecks } from './run.js';
import { healthPhase } from './health.js';
import { planOrder } from './schedule.js';
import { resultName } from '../model/result.js';
import { instancesOf } from './instances.js';
import { rootCauses } from '../report/model.js';

const fast = { timeout: 10_000 };

/** A fake check; one that returns says it judged its (made-up) subject, as a pass must rest on something. */
function check(id: `CON-${string}`, run: (ctx: CheckContext) => Promise<void> = async () => {}, extra: { schedule?: Schedule; dependsOn?: Check['dependsOn']; assumes?: Check['assumes'] } = {}): Check {
  const judged = async (ctx: CheckContext): Promise<void> => {
    await run(ctx);
    ctx.observed(`${id}'s made-up subject`);
  };
  return defineCheck({ id, title: id, rule: 'The target MUST do the thing.', severity: 'must', needs: [], run: judged, ...extra });
}

/** Fake checks that record when they start and end and how many ran beside them. */
function tracker() {
  let inFlight = 0;
  const running = new Set<string>();
  const events: string[] = [];
  const widest: Record<string, number> = {};
  const make = (id: `CON-${string}`, ms: number, extra: { schedule?: Schedule; dependsOn?: Check['dependsOn'] } = {}, outcome: 'pass' | 'fail' = 'pass') =>
    check(id, async () => {
      inFlight++;
      running.add(id);
      events.push(`start ${id}`);
      // The most checks in flight at once while this one ran, as seen by every check running now.
      for (const k of running) widest[k] = Math.max(widest[k] ?? 0, inFlight);
      await sleep(ms);
      running.delete(id);
      inFlight--;
      events.push(`end ${id}`);
      if (outcome === 'fail') throw new CheckFailure(`${id} found the thing broken, expected it whole`);
    }, extra);
  return { make, events, widest };
}

const profile = { ...testProfile('http://127.0.0.1:9'), http: { timeoutMs: 300, maxBodyBytes: 1 << 20, concurrency: 4, maxRetryWaitMs: 60_000 } };
const ids = (n: number) => Array.from({ length: n }, (_, i) => `CON-c${i}` as const);

describe('planOrder', () => {
  it('is the same for the same seed, and moves with the seed', () => {
    const checks = ids(30).map((id) => check(id));
    const order = (seed: number) => planOrder(instancesOf(checks, profile), seed).map((i) => i.key);
    expect(order(42)).toEqual(order(42));
    expect(order(42)).not.toEqual(order(43));
    expect([...order(42)].sort()).toEqual([...checks.map((c) => c.id)].sort());
  });

  it('puts dependencies first and last-class checks at the end, for every seed', () => {
    const checks = [check('CON-late', undefined, { schedule: 'last' }), check('CON-b', undefined, { dependsOn: ['CON-a'] }), check('CON-a'), ...ids(8).map((id) => check(id))];
    for (let seed = 0; seed < 50; seed++) {
      const order = planOrder(instancesOf(checks, profile), seed).map((i) => i.key);
      expect(order.indexOf('CON-a')).toBeLessThan(order.indexOf('CON-b'));
      expect(order.at(-1)).toBe('CON-late');
    }
  });
});

describe('runChecks scheduling', () => {
  it('runs parallel checks side by side, up to http.concurrency', fast, async () => {
    const t = tracker();
    await runChecks({ profile, checks: ids(8).map((id) => t.make(id, 40)), seed: 1 });
    expect(Math.max(...Object.values(t.widest))).toBe(4);
  });

  it('runs an exclusive check with nothing else in flight, and last checks after every other, alone', fast, async () => {
    const t = tracker();
    const checks = [...ids(6).map((id) => t.make(id, 30)), t.make('CON-burst', 30, { schedule: 'exclusive' }), t.make('CON-damage', 10, { schedule: 'last' }), t.make('CON-damage2', 10, { schedule: 'last' })];
    const { results, order } = await runChecks({ profile, checks, seed: 7 });
    expect(results.map((r) => r.status)).toEqual(Array(9).fill('pass'));
    expect(t.widest['CON-burst']).toBe(1);
    expect(t.widest['CON-damage']).toBe(1);
    expect(t.widest['CON-damage2']).toBe(1);
    // Every other check ended before the first last-class check started.
    const firstLast = t.events.indexOf(`start ${order.find((id) => id.startsWith('CON-damage'))}`);
    expect(t.events.slice(firstLast).filter((e) => e.startsWith('start') && !e.includes('damage'))).toEqual([]);
    expect(results.map((r) => r.id)).toEqual(order);
  });

  it('blocks a dependent that could not make its fixture beside a failed dependency, and whatever depends on that', fast, async () => {
    const t = tracker();
    const noFixture = (id: `CON-${string}`, on: Check['dependsOn']) =>
      check(id, async () => {
        await t.make(id, 10).run({} as CheckContext, {} as never).catch(() => {});
        throw new RestprobeError('ERR_SETUP', `setup: ${id} could not make its item`, [], { rootCause: 'no item' });
      }, { dependsOn: on });
    const checks = [t.make('CON-base', 10, {}, 'fail'), noFixture('CON-mid', ['CON-base']), noFixture('CON-top', ['CON-mid']), t.make('CON-free', 10)];
    const { results } = await runChecks({ profile, checks, seed: 3 });
    const byId = Object.fromEntries(results.map((r) => [r.id, r]));
    expect(byId['CON-base']!.status).toBe('fail');
    expect(byId['CON-mid']).toMatchObject({ status: 'error', errorCode: 'ERR_BLOCKED', rootCause: 'CON-base failed', message: 'not judged: it depends on CON-base failed' });
    expect(byId['CON-top']).toMatchObject({ status: 'error', errorCode: 'ERR_BLOCKED', rootCause: 'CON-mid could not run' });
    expect(byId['CON-free']!.status).toBe('pass');
    // They ran beside the failing check (a chain costs no more time than its slowest link).
    expect(t.events.indexOf('start CON-mid')).toBeLessThan(t.events.indexOf('end CON-base'));
  });

  it('a dependent that judged its own subject keeps its verdict beside a failed dependency; one failing for the same cause is blocked', fast, async () => {
    const cause = 'GET /things answers no page of results';
    const base = check('CON-base', async () => {
      throw new CheckFailure('the page is a bare array, expected {"data": [...]}', undefined, undefined, undefined, cause);
    });
    const passes = check('CON-passes', async () => {}, { dependsOn: ['CON-base'] });
    const ownFinding = check('CON-own', async () => {
      throw new CheckFailure('found 3 items for limit=2, expected at most 2', undefined, undefined, undefined, 'GET /things ignores limit');
    }, { dependsOn: ['CON-base'] });
    const sameCause = check('CON-same', async () => {
      throw new CheckFailure('the second page is a bare array too', undefined, undefined, undefined, cause);
    }, { dependsOn: ['CON-base'] });
    const { results } = await runChecks({ profile, checks: [base, passes, ownFinding, sameCause], seed: 1 });
    const byId = Object.fromEntries(results.map((r) => [r.id, r]));
    expect(byId['CON-base']).toMatchObject({ status: 'fail', rootCause: cause });
    expect(byId['CON-passes']!.status).toBe('pass');
    expect(byId['CON-own']).toMatchObject({ status: 'fail', rootCause: 'GET /things ignores limit' });
    expect(byId['CON-same']).toMatchObject({ status: 'error', errorCode: 'ERR_BLOCKED', rootCause: 'CON-base failed', message: `not judged: it depends on CON-base failed, and found the same: ${cause}` });
  });

  it('a check that assumes a dependency\'s rule is blocked whatever it found when that one fails', fast, async () => {
    const base = check('CON-base', async () => {
      throw new CheckFailure('a GET changed the item, expected it unchanged');
    });
    const assuming = check('CON-compares', async () => {
      throw new CheckFailure('the item changed between two reads, expected it the same');
    }, { assumes: ['CON-base'] as never });
    const { results } = await runChecks({ profile, checks: [base, assuming], seed: 1 });
    expect(results.map((r) => [r.id, r.status, r.errorCode])).toEqual([['CON-base', 'fail', undefined], ['CON-compares', 'error', 'ERR_BLOCKED']]);
    expect(assuming.dependsOn).toEqual(['CON-base']);
  });

  it('under assumes too, a skip stays a skip; and a failure is never hidden behind a warning', fast, async () => {
    const warns = defineCheck({ id: 'CON-warns', title: 'w', rule: 'The target SHOULD do the thing.', severity: 'should', needs: [], async run(ctx) {
      ctx.observed('a made-up subject');
      throw new CheckFailure('found it half done, expected it whole', undefined, undefined, undefined, 'one cause');
    } });
    const base = check('CON-base', async () => {
      throw new CheckFailure('a GET changed the item, expected it unchanged');
    });
    const skips = check('CON-skips', async () => {
      throw new CheckSkipped('no sort field is configured', 'collections[].sorts');
    }, { assumes: ['CON-base'] as never });
    const failsSame = check('CON-fails-same', async () => {
      throw new CheckFailure('found it broken, expected it whole', undefined, undefined, undefined, 'one cause');
    }, { dependsOn: ['CON-warns'] as never });
    const { results } = await runChecks({ profile, checks: [warns, base, skips, failsSame], seed: 1 });
    const byId = Object.fromEntries(results.map((r) => [r.id, r]));
    expect(byId['CON-skips']).toMatchObject({ status: 'skip', configKey: 'collections[].sorts' });
    expect(byId['CON-fails-same']).toMatchObject({ status: 'fail', rootCause: 'one cause' });
  });

  it('a finding is passed down a chain: a check repeating it two links down is blocked, though the link between failed for its own reason', fast, async () => {
    const cause = 'GET /things answers no page of results';
    const a = check('CON-a', async () => {
      throw new CheckFailure('the page is a bare array', undefined, undefined, undefined, cause);
    });
    const b = check('CON-b', async () => {
      throw new CheckFailure('found 3 items for limit=2, expected at most 2', undefined, undefined, undefined, 'limit ignored');
    }, { dependsOn: ['CON-a'] as never });
    const c = check('CON-c', async () => {
      throw new CheckFailure('the second page is a bare array too', undefined, undefined, undefined, cause);
    }, { dependsOn: ['CON-b'] as never });
    const { results } = await runChecks({ profile, checks: [a, b, c], seed: 1 });
    expect(results.map((r) => [r.id, r.status, r.errorCode])).toEqual([['CON-a', 'fail', undefined], ['CON-b', 'fail', undefined], ['CON-c', 'error', 'ERR_BLOCKED']]);
  });

  it('a dependent that skips stays a skip, whatever its dependency found (the key that enables it is still worth saying)', fast, async () => {
    const failing = check('CON-fails', async () => {
      throw new CheckFailure('found it broken, expected it whole');
    });
    const skipping = check('CON-skips', async () => {
      throw new CheckSkipped('nothing to observe here', 'nodes');
    }, { dependsOn: ['CON-fails'] });
    const { results } = await runChecks({ profile, checks: [failing, skipping], seed: 1 });
    expect(results.map((r) => [r.id, r.status, r.configKey])).toEqual([['CON-fails', 'fail', undefined], ['CON-skips', 'skip', 'nodes']]);
  });

  it('a dependency that could not run blocks nothing: the dependent judges for itself', fast, async () => {
    const broken = check('CON-broken', async () => {
      throw new Error('fixture went wrong');
    });
    const { results } = await runChecks({ profile, checks: [broken, check('CON-after', async () => {}, { dependsOn: ['CON-broken'] })], seed: 1 });
    expect(results.map((r) => [r.id, r.status])).toEqual([['CON-broken', 'error'], ['CON-after', 'pass']]);
  });

  it('a dependency cycle does not hang the run', fast, async () => {
    const checks = [check('CON-x', async () => {}, { dependsOn: ['CON-y'] }), check('CON-y', async () => {}, { dependsOn: ['CON-x'] })];
    const { results } = await runChecks({ profile, checks, seed: 1 });
    expect(results).toHaveLength(2);
  });

  it('a cancelled run starts no new check, lets running ones finish, and says it was interrupted', fast, async () => {
    const t = tracker();
    const stop = new AbortController();
    const checks = ids(8).map((id) => t.make(id, 50));
    const run = runChecks({ profile, checks, seed: 1, signal: stop.signal });
    await sleep(20);
    stop.abort();
    const { results, interrupted } = await run;
    expect(interrupted).toBe(true);
    expect(results).toHaveLength(4);
    expect(results.every((r) => r.status === 'pass')).toBe(true);
  });
});

describe('a check against a stand-in target', () => {
  let server: ItemsServer;
  let client: HttpClient;
  afterEach(async () => {
    await client.close();
    await server.close();
  });
  const start = async (options: Parameters<typeof startItemsServer>[0] = {}, readOnly = false) => {
    server = await startItemsServer(options);
    const p = server.profile({ readOnly });
    client = clientForProfile(p);
    return p;
  };

  it('a fixture that cannot be made is a setup error naming the exchange, not the rule\'s failure', fast, async () => {
    const p = await start({ createStatus: 500 });
    const uses = defineCheck({
      id: 'END-uses-an-item',
      title: 'uses an item',
      rule: 'An item MUST do the thing.',
      severity: 'must',
      needs: ['writable'],
      async run(ctx, { writable }) {
        await ctx.create(writable);
      },
    });
    const result = await executeCheck(uses, { profile: p, client, seed: 1 });
    expect(result).toMatchObject({ status: 'error', errorCode: 'ERR_SETUP', rootCause: 'POST /things answered 500' });
    expect(result.message).toMatch(/^setup: creating an item in things for this check failed: POST \/things answered 500/);
    expect(result.evidence.exchanges[result.evidence.focus!]!.response?.status).toBe(500);
  });

  it('a target whose POST redirects: every check that needed an item could not run, one root cause, no failure', fast, async () => {
    const p = await start({ createStatus: 307 });
    const needsItem = (id: `END-${string}`) =>
      defineCheck({ id, title: id, rule: 'An item MUST do the thing.', severity: 'must', needs: ['writable'], async run(ctx, { writable }) {
        await ctx.create(writable);
      } });
    const { results } = await runChecks({ profile: p, checks: [needsItem('END-one'), needsItem('END-two'), needsItem('END-three')], seed: 1, client });
    expect(results.map((r) => r.status)).toEqual(['error', 'error', 'error']);
    expect(rootCauses(results)).toEqual([{ cause: 'POST /things answered 307', checks: results.map((r) => resultName(r.id, r.collection)) }]);
  });

  it('a dependent failing on the answer its dependency failed on (GET …/{} → 404, expected 200) is blocked; one failing on another keeps its failure', fast, async () => {
    const p = await start();
    // Each GETs an item that is not there and expects 200: the same finding, on any item.
    const getsMissing = (id: `END-${string}`, extra: { dependsOn?: Check['dependsOn'] } = {}) =>
      check(id as `CON-${string}`, async (ctx) => expectStatus(await ctx.http.send({ method: 'GET', path: `/things/${randomUUID()}` }), 200, 'GET of an item'), extra);
    const other = check('CON-own-finding', async (ctx) => expectStatus(await ctx.http.send({ method: 'GET', path: '/things' }), 404, 'GET of the listing'), { dependsOn: ['END-base'] as never });
    const { results } = await runChecks({ profile: p, checks: [getsMissing('END-base'), getsMissing('END-same', { dependsOn: ['END-base'] as never }), other], seed: 1, client });
    const byId = Object.fromEntries(results.map((r) => [r.id, r]));
    expect(byId['END-base']!.status).toBe('fail');
    expect(byId['END-same']).toMatchObject({ status: 'error', errorCode: 'ERR_BLOCKED', message: 'not judged: it depends on END-base failed, and found the same: GET …/{} → 404 · expected 200' });
    // Its own evidence is kept, with the verdict it would have given.
    expect(byId['END-same']!.evidence.exchanges.length).toBeGreaterThan(0);
    expect(byId['END-same']!.evidence.notes.at(-1)).toMatch(/^its own result, not reported: fail: GET of an item: found GET \/things\//);
    expect(byId['CON-own-finding']!.status).toBe('fail');
  });

  it('a write reaching the transport on a read-only run is a harness error, and is never sent', fast, async () => {
    const p = await start({}, true);
    const writes = check('CON-sneaky-write', async (ctx) => {
      await ctx.http.send({ method: 'GET', path: '/things' });
      await ctx.http.send({ method: 'POST', path: '/things', json: {} });
    });
    const result = await executeCheck(writes, { profile: p, client, seed: 1 });
    expect(result).toMatchObject({ status: 'error', errorCode: 'ERR_HARNESS' });
    expect(result.message).toMatch(/read-only run: restprobe tried to send POST .*\/things \(a harness bug\); it was not sent/);
    expect(server.requests).toEqual(['GET /things']);
  });

  it('a check that overruns its deadline is stopped, cleans up, and can create nothing after', fast, async () => {
    const p = await start({ slowMs: 1_500 });
    let createdLate: unknown = 'not tried';
    const overruns = defineCheck({
      id: 'END-overruns',
      title: 'overruns',
      rule: 'The target MUST answer in time.',
      severity: 'must',
      needs: ['writable'],
      async run(ctx, { writable }) {
        await ctx.create(writable);
        await ctx.http.send({ method: 'GET', path: '/slow' }).catch(() => undefined);
        // Past its deadline a check may still try: the guards refuse.
        createdLate = await ctx.create(writable).then(
          () => 'created',
          (err: Error) => err.message,
        );
      },
    });
    const started = performance.now();
    const result = await executeCheck(overruns, { profile: { ...p, http: { ...p.http, timeoutMs: 5_000 } }, client, seed: 1, deadlineMs: 300 });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(result).toMatchObject({ status: 'error', errorCode: 'ERR_TIMEOUT' });
    expect(result.message).toContain('did not finish within 300 ms');
    // Give the abandoned check every chance to do more.
    await sleep(100);
    expect(createdLate).not.toBe('created');
    expect(server.requests.filter((r) => r.startsWith('POST'))).toHaveLength(1);
    expect(server.items()).toEqual([]);
  });
});

describe('determinism', () => {
  let server: ItemsServer;
  beforeEach(async () => {
    server = await startItemsServer();
  });
  afterEach(async () => server.close());

  it('the same checks and seed give the same order and verdicts twice', fast, async () => {
    const p = server.profile();
    const checks = ids(12).map((id, i) => check(id, async (ctx) => {
      const res = await ctx.http.send({ method: 'GET', path: i % 3 === 0 ? '/nope' : '/things' });
      if (res.status !== 200) throw new CheckFailure(`found ${res.status}, expected 200`);
    }));
    const once = await runChecks({ profile: p, checks, seed: 99 });
    const twice = await runChecks({ profile: p, checks, seed: 99 });
    expect(twice.order).toEqual(once.order);
    expect(twice.results.map((r) => [r.id, r.status])).toEqual(once.results.map((r) => [r.id, r.status]));
  });
});

describe('one health phase', () => {
  let server: ItemsServer;
  beforeEach(async () => {
    server = await startItemsServer();
  });
  afterEach(async () => server.close());

  it("sends the probe once before the run: the health phase's answers are the damage check's baseline", fast, async () => {
    const p = server.profile();
    const client = clientForProfile(p);
    try {
      const health = await healthPhase(p, (req) => client.send(req));
      expect(health).toEqual(['GET / → 404', 'GET /things → 200']);
      const before = server.requests.length;
      await runChecks({ profile: p, checks: [check('CON-damage', async () => {}, { schedule: 'last' })], seed: 1, client, health });
      // Only the probe after the last-class check, one request: the baseline is not fetched again.
      expect(server.requests.slice(before)).toEqual(['GET /things']);
    } finally {
      await client.close();
    }
  });

  it('probes the base URL after a last-class check where the listing failed from the start: a 500 that became a proxy\'s 502 is no change of class', fast, async () => {
    let down = false;
    const { createServer } = await import('node:http');
    const target = createServer((req, res) => res.writeHead(down ? 502 : req.url === '/' ? 404 : 500).end());
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const p = { ...server.profile(), baseUrl: `http://127.0.0.1:${(target.address() as { port: number }).port}` };
    const client = clientForProfile(p);
    try {
      const health = await healthPhase(p, (req) => client.send(req));
      expect(health).toEqual(['GET / → 404', 'GET /things → 500']);
      const outcome = await runChecks({ profile: p, checks: [check('CON-damage', async () => void (down = true), { schedule: 'last' })], seed: 1, client, health });
      expect(outcome.damage).toMatchObject({ after: 'CON-damage', now: ['GET / → 502'], before: ['GET / → 404'] });
    } finally {
      await client.close();
      await new Promise((resolve) => target.close(resolve));
    }
  });

  it('ends the run before any check when the target cannot be reached, naming it', fast, async () => {
    const p = { ...server.profile(), baseUrl: 'http://127.0.0.1:9' };
    const client = clientForProfile(p);
    try {
      await expect(healthPhase(p, (req) => client.send(req))).rejects.toMatchObject({ code: 'ERR_TARGET_UNREACHABLE', message: expect.stringContaining('cannot reach http://127.0.0.1:9') });
    } finally {
      await client.close();
    }
  });
});

describe('exact request counts', () => {
  let server: ItemsServer;
  beforeEach(async () => {
    server = await startItemsServer();
  });
  afterEach(async () => server.close());

  it("counts what the target saw: a check's retries and cleanup are its own, the health probe the run's", fast, async () => {
    const p = server.profile();
    const writes = defineCheck({
      id: 'CON-writes', title: 'writes', rule: 'The target MUST do the thing.', severity: 'must', needs: ['writable'],
      async run(ctx, { writable }) {
        await ctx.create(writable);
        expect((await ctx.http.send({ method: 'GET', path: '/busy-once' })).status).toBe(200);
      },
    });
    const { results, requests } = await runChecks({ profile: p, checks: [writes, check('CON-reads', async (ctx) => void (await ctx.http.send({ method: 'GET', path: '/things' }))), check('CON-damage', async () => {}, { schedule: 'last' })], seed: 1 });
    const sent = (id: string) => results.find((r) => r.id === id)!.evidence.requestCount;
    // POST, the 503 and its retry, and the cleanup's DELETE; its evidence kept three exchanges.
    expect(sent('CON-writes')).toBe(4);
    expect(sent('CON-reads')).toBe(1);
    // The health probe before (two requests) and after (one) the last-class check.
    expect(requests).toEqual({ total: server.requests.length, run: 3 });
    expect(requests.total).toBe(sent('CON-writes') + sent('CON-reads') + sent('CON-damage') + requests.run);
  });
});
