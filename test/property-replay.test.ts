/**
 * A failing property prints its shrunk counterexample and the seed that replays it, and a
 * second run with that seed finds the same counterexample.
 */
import { describe, expect, it } from 'vitest';
import { executeCheck } from '../src/engine/execute.js';
import { catalogue } from '../suites/catalogue.js';
import { startTarget } from './support/target.js';

const cases = [
  ['offset-cursor', 'END-pagination-stable-under-writes', /next|delete|insert/],
  ['wrong-type-500', 'ERR-bad-input-no-5xx', /wrong-type/],
] as const;

describe.each(cases)('fault %s', (fault, id, shape) => {
  it(`fails ${id} with a replayable counterexample`, async () => {
    const target = await startTarget([fault]);
    try {
      const check = catalogue.find((c) => c.id === id)!;
      const run = () => executeCheck(check, { profile: target.profile, client: target.client, seed: 4242 });
      const first = await run();
      expect(first.status).toBe('fail');
      expect(first.message).toContain('replay with --seed 4242');
      expect(first.evidence.property).toMatchObject({ seed: 4242 });
      expect(first.evidence.property?.counterexample).toMatch(shape);
      // The evidence holds the replayed counterexample's exchanges, each with a curl.
      expect(first.evidence.exchanges.length).toBeGreaterThan(0);
      expect(first.evidence.exchanges.every((x) => x.curl.startsWith('curl '))).toBe(true);
      const second = await run();
      expect(second.evidence.property?.counterexample).toBe(first.evidence.property?.counterexample);
      expect(second.evidence.property?.path).toBe(first.evidence.property?.path);
    } finally {
      await target.close();
    }
  });
});
