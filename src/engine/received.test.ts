/**
 * The review class: checks that run at the end and judge the answers every other check
 * received (`ctx.received()`), citing them in their own evidence (`ctx.cite()`).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckFailure, defineCheck, type Schedule } from '../model/check.js';
import type { CheckContext } from '../model/context.js';
import { testProfile } from '../../test/support/profile.js';
import { runChecks } from './run.js';

/** Answers every request with its own path and a value only this test knows, in a member no name marks secret. */
let flaky = 0;
const server = createServer((req, res) => {
  // The first request to /CON-flaky meets an overloaded server; the polite client retries it.
  if (req.url === '/CON-flaky' && flaky++ === 0) return res.writeHead(503, { 'retry-after': '0', 'content-type': 'text/html' }).end('<h1>busy</h1>');
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url, note: 'minted-7Qx2vT9kLm4pZr8w' }));
});
let profile: ReturnType<typeof testProfile>;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  profile = testProfile(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const sender = (id: `CON-${string}`, schedule: Schedule, run?: (ctx: CheckContext) => void) =>
  defineCheck({ id, title: id, rule: 'Sends.', severity: 'must', needs: [], schedule, async run(ctx) {
    run?.(ctx);
    await ctx.http.send({ method: 'GET', path: `/${id}` });
  } });

/** Fails citing every answer it saw, so its evidence holds them; notes what it saw, in order. */
const reviewer = defineCheck({
  id: 'CON-review',
  title: 'review',
  rule: 'Judges what the others received.',
  severity: 'must',
  needs: [],
  schedule: 'review',
  async run(ctx) {
    const seen = ctx.received();
    ctx.note(`saw ${seen.map((x) => `${x.sentBy}:${new URL(x.url).pathname}`).sort().join(' ')}`);
    const cited = seen.map((x) => ctx.cite(x));
    throw new CheckFailure('every answer cited', 'nothing', 'everything', cited[0]);
  },
});

describe('review checks', () => {
  it('run after every other check, the last class included, and see each answer with who sent it', async () => {
    const { results, order } = await runChecks({ profile, checks: [reviewer, sender('CON-late', 'last'), sender('CON-a', 'parallel'), sender('CON-burst', 'exclusive')], seed: 3 });
    expect(order.at(-1)).toBe('CON-review');
    const review = results.find((r) => r.id === 'CON-review')!;
    expect(review.evidence.notes).toContain('saw CON-a:/CON-a CON-burst:/CON-burst CON-late:/CON-late');
    expect(review.evidence.exchanges.map((x) => new URL(x.request.url).pathname).sort()).toEqual(['/CON-a', '/CON-burst', '/CON-late']);
  });

  it("scrub from a cited answer what the check that got it found secret", async () => {
    const minter = sender('CON-mints', 'parallel', (ctx) => ctx.treatAsSecret('minted-7Qx2vT9kLm4pZr8w', 'MINTED_KEY'));
    const { results } = await runChecks({ profile, checks: [minter, reviewer], seed: 1 });
    const review = results.find((r) => r.id === 'CON-review')!;
    expect(review.evidence.exchanges).toHaveLength(1);
    expect(JSON.stringify(review)).not.toContain('minted-7Qx2vT9kLm4pZr8w');
  });

  it('see the answer a check got, not an attempt the polite client retried', async () => {
    const { results } = await runChecks({ profile, checks: [sender('CON-flaky', 'parallel'), reviewer], seed: 1 });
    const review = results.find((r) => r.id === 'CON-review')!;
    expect(flaky).toBe(2);
    expect(review.evidence.exchanges.map((x) => x.response?.status)).toEqual([200]);
  });

  it('keep nothing when no review check is selected', async () => {
    let seen = -1;
    const looks = defineCheck({ id: 'CON-looks', title: 'looks', rule: 'Looks.', severity: 'must', needs: [], schedule: 'last', async run(ctx) {
      seen = ctx.received().length;
      ctx.observed('what was received');
    } });
    await runChecks({ profile, checks: [sender('CON-a', 'parallel'), looks], seed: 1 });
    expect(seen).toBe(0);
  });
});
