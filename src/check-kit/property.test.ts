/** A property failure that does not repeat keeps the failing case's exchanges as its evidence. */
import { createServer, type Server } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { executeCheck } from '../engine/execute.js';
import { HttpClient } from '../http/client.js';
import { CheckFailure, defineCheck } from '../model/check.js';
import { testProfile } from '../../test/support/profile.js';
import type { CheckContext } from '../model/context.js';
import { checkProperty, type PropertyOptions } from './property.js';

let server: Server;
let url: string;
let served = 0;
beforeAll(async () => {
  // Fails the 5th request only: a target that is not deterministic.
  server = createServer((_req, res) => res.writeHead(++served === 5 ? 500 : 200).end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

/** Runs `check` against the test server, with `numRuns` as properties.numRuns when given. */
async function execute(check: Parameters<typeof executeCheck>[0], numRuns?: number): ReturnType<typeof executeCheck> {
  const client = new HttpClient({ timeoutMs: 2_000, maxBodyBytes: 1 << 20, connections: 1, maxRequests: 1_000 });
  try {
    return await executeCheck(check, { profile: { ...testProfile(url), properties: numRuns === undefined ? {} : { numRuns } }, client, seed: 7 });
  } finally {
    await client.close();
  }
}

/** A check of one property over numbers, its options built from the check's context. */
function numberCheck(id: 'ERR-flaky' | 'ERR-bounded' | 'ERR-counting', rule: string, options: (ctx: CheckContext) => PropertyOptions<number>) {
  return defineCheck({ id, title: id, rule, severity: 'must', needs: [], run: (ctx) => checkProperty(ctx, options(ctx)) });
}

it('a failure that passes when replayed: the evidence is the failing exchange, and the message says so', async () => {
  const flaky = numberCheck('ERR-flaky', 'The target MUST answer 200.', (ctx) => ({
    arbitrary: fc.nat({ max: 100 }),
    randomCases: 10,
    predicate: async (n) => {
      const res = await ctx.http.send({ method: 'GET', path: `/x?n=${n}` });
      if (res.status !== 200) throw new CheckFailure(`GET /x?n=${n} answered ${res.status}, expected 200`, '200', String(res.status), res.exchangeIndex);
    },
  }));
  const result = await execute(flaky);
  expect(result.status).toBe('fail');
  expect(result.message).toMatch(/answered 500, expected 200 — but the same case passed when replayed: the target is not deterministic/);
  expect(result.evidence.exchanges).toHaveLength(1);
  expect(result.evidence.exchanges[result.evidence.focus!]!.response?.status).toBe(500);
});

it('maxShrinks bounds what shrinking sends: the smallest failing input found by then is the counterexample, and a note says so', async () => {
  let sent = 0;
  const bounded = numberCheck('ERR-bounded', 'Every n MUST be below 10.', (ctx) => ({
    arbitrary: fc.nat({ max: 1_000_000 }),
    examples: [987_654],
    randomCases: 1,
    maxShrinks: 3,
    predicate: async (n) => {
      sent++;
      ctx.observed(`n = ${n}`);
      if (n >= 10) throw new CheckFailure(`n is ${n}, expected below 10`, 'below 10', String(n));
    },
  }));
  const result = await execute(bounded);
  expect(result.status).toBe('fail');
  // The example, at most three shrinks, and the replay of the counterexample.
  expect(sent).toBeLessThanOrEqual(1 + 3 + 1);
  expect(result.evidence.notes).toContain('shrinking stopped after 3 tries: a smaller counterexample may exist');
});

it('properties.numRuns, when set, is how many random cases follow the examples; unset, the check says how many', async () => {
  const tried = async (numRuns?: number): Promise<number[]> => {
    const inputs: number[] = [];
    const counting = numberCheck('ERR-counting', 'Every n MUST be a number.', (ctx) => ({
      arbitrary: fc.nat({ max: 1_000 }),
      examples: [5_000, 6_000],
      randomCases: 2,
      predicate: async (n) => {
        inputs.push(n);
        ctx.observed(`n = ${n}`);
      },
    }));
    expect((await execute(counting, numRuns)).status).toBe('pass');
    return inputs;
  };
  const byCheck = await tried();
  expect(byCheck.slice(0, 2)).toEqual([5_000, 6_000]);
  expect(byCheck).toHaveLength(2 + 2);
  expect(await tried(30)).toHaveLength(2 + 30);
});
