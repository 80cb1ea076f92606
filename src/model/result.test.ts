import { describe, expect, it } from 'vitest';
import { ranks, worstFinding, worstOf } from './result.js';

describe('worstOf', () => {
  const runs = [{ status: 'pass', on: 'a' }, { status: 'error', on: 'b' }, { status: 'warn', on: 'c' }, { status: 'skip', on: 'd' }] as const;

  it('puts findings first: a warning on one collection outranks an error on another', () => {
    expect(worstFinding(runs)?.on).toBe('c');
  });

  it('puts outcomes first for the vitest adapter: an error fails the test, so it outranks a warning', () => {
    expect(worstOf(runs, ranks.outcome)?.on).toBe('b');
  });

  it('keeps the first of equals, and has none for no runs', () => {
    expect(worstFinding([{ status: 'fail', on: 1 }, { status: 'fail', on: 2 }])?.on).toBe(1);
    expect(worstFinding([])).toBeUndefined();
  });
});
