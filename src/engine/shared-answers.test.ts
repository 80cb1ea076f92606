/**
 * Shared answers (`ctx.sharedAnswers`): requests several checks judge by different rules are
 * sent once for the run, and each check gets them in its own evidence, indexed there.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckFailure, defineCheck } from '../model/check.js';
import type { CheckContext, HttpResponse } from '../model/context.js';
import { testProfile } from '../../test/support/profile.js';
import { runChecks } from './run.js';

const hits = new Map<string, number>();
/** When set, the first check to send the shared request fails before it has an answer. */
let failFirst = false;
const server = createServer((req, res) => {
  hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
  res.writeHead(404, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ status: 404, path: req.url }));
});
let profile: ReturnType<typeof testProfile>;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  profile = { ...testProfile(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), http: { ...testProfile('http://127.0.0.1').http, maxConsecutiveFailures: 100 } };
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** A check that judges a shared answer as `run` says. */
const judging = (id: `CON-${string}`, run: (ctx: CheckContext) => Promise<void>) => defineCheck({ id, title: id, rule: 'Judges the shared answer.', severity: 'must', needs: [], judges: ['4xx'], run });

/** Sends its own request first (so the shared one lands at another index), then judges the shared answer: fails when `fails`. */
const judge = (id: `CON-${string}`, fails: boolean) =>
  judging(id, async (ctx) => {
    if (fails) await ctx.http.send({ method: 'GET', path: `/own-${id}` });
    const [res] = await ctx.sharedAnswers<HttpResponse[]>('the probe', async (sender) => {
      const answers = await Promise.all([sender.http.send({ method: 'GET', path: '/shared' })]);
      if (failFirst && hits.get('/shared') === 1) throw new Error('the sender broke off');
      return answers;
    }, (sent, take) => sent.map(take));
    if (fails) throw new CheckFailure(`${res!.status} at index ${res!.exchangeIndex}`, 'something else', String(res!.status), res!.exchangeIndex);
  });

describe('shared answers', () => {
  it('are sent once, and each check cites them in its own evidence (a pass counts them, a failure points at them)', async () => {
    hits.clear();
    const { results } = await runChecks({ profile, checks: [judge('CON-a', false), judge('CON-b', true), judge('CON-c', false)], seed: 1 });
    expect(hits.get('/shared')).toBe(1);
    const byId = Object.fromEntries(results.map((r) => [r.id, r]));
    // Checks that sent nothing themselves still pass on the answer they were handed.
    expect(results.filter((r) => r.id !== 'CON-b').map((r) => r.status)).toEqual(['pass', 'pass']);
    const b = byId['CON-b']!;
    expect(b.status).toBe('fail');
    // Its own request is exchange 0; the shared answer comes after it, whoever sent it.
    expect(b.message).toBe('404 at index 1');
    expect(b.evidence.exchanges.map((x) => new URL(x.request.url).pathname)).toEqual(['/own-CON-b', '/shared']);
    expect(b.evidence.exchanges[1]!.curl).toMatch(/^curl .*\/shared/);
  });

  it('taken twice by one check (the GET after one step is the GET before the next), are in its evidence once', async () => {
    const twice = (id: `CON-${string}`) =>
      judging(id, async (ctx) => {
        const [first, again] = await ctx.sharedAnswers<HttpResponse[]>('one answer, read twice', async (sender) => {
          const res = await sender.http.send({ method: 'GET', path: '/twice' });
          return [res, res];
        }, (sent, take) => sent.map(take));
        if (first !== again) throw new CheckFailure('two copies of one answer', 'one', 'two');
      });
    const { results } = await runChecks({ profile, checks: [twice('CON-x'), twice('CON-y')], seed: 1 });
    expect(results.map((r) => r.status)).toEqual(['pass', 'pass']);
    for (const r of results) expect(r.evidence.exchanges.map((x) => new URL(x.request.url).pathname)).toEqual(['/twice']);
  });

  it('carry what the sender holds secret to every check they are handed to: no evidence shows it', async () => {
    // A code the sender was handed and sends on (as a code flow's redemption does): the server echoes the URL.
    const secret = `restprobe-code-${Math.random().toString(36).slice(2)}`;
    const judgeSecret = (id: `CON-${string}`) =>
      judging(id, async (ctx) => {
        const res = await ctx.sharedAnswers('the redemption', async (sender) => {
          sender.treatAsSecret(secret, 'OAUTH_CODE');
          return sender.http.send({ method: 'GET', path: `/redeem?code=${secret}` });
        }, (sent, take) => take(sent));
        // A failure keeps its exchanges whole: URL, and the body that echoes it.
        throw new CheckFailure(`${res.status} for ${res.url}`, 'something else', String(res.status), res.exchangeIndex);
      });
    const { results } = await runChecks({ profile, checks: [judgeSecret('CON-x'), judgeSecret('CON-y'), judgeSecret('CON-z')], seed: 1 });
    expect(hits.get(`/redeem?code=${secret}`)).toBe(1);
    expect(results.map((r) => r.status)).toEqual(['fail', 'fail', 'fail']);
    for (const r of results) {
      const shown = JSON.stringify(r);
      expect(shown, r.id).toContain('$OAUTH_CODE');
      expect(shown, r.id).not.toContain(secret);
    }
  });

  it('are not kept when the sending check got no answer: the next check sends for itself', async () => {
    hits.clear();
    failFirst = true;
    try {
      const { results } = await runChecks({ profile, checks: [judge('CON-a', false), judge('CON-c', false)], seed: 1 });
      expect(hits.get('/shared')).toBe(2);
      expect(results.map((r) => r.status).sort()).toEqual(['error', 'pass']);
    } finally {
      failFirst = false;
    }
  });
});
