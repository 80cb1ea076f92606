import { describe, expect, it } from 'vitest';
import { catalogue } from '../../suites/catalogue.js';
import { isRestprobeError } from '../errors.js';
import { parseShard, shardChecks } from './shard.js';

const ids = (total: number): string[][] => Array.from({ length: total }, (_, i) => shardChecks(catalogue, { index: i + 1, total }).map((c) => c.id));

describe('shardChecks', () => {
  it.each([1, 2, 3, 4])('splits the catalogue into %i disjoint parts that cover it, the same way every time', (total) => {
    const parts = ids(total);
    expect(parts.flat().sort()).toEqual(catalogue.map((c) => c.id).sort());
    expect(new Set(parts.flat()).size).toBe(catalogue.length);
    expect(ids(total)).toEqual(parts);
    // Each part keeps the catalogue's order.
    for (const part of parts) expect(part).toEqual(catalogue.map((c) => c.id).filter((id) => part.includes(id)));
  });

  it('keeps a check in the shard of the checks it depends on, and all exclusive and last checks in one shard', () => {
    const parts = ids(3);
    const shardOf = (id: string): number => parts.findIndex((p) => p.includes(id));
    const withDeps = catalogue.filter((c) => c.dependsOn.length > 0);
    expect(withDeps.length).toBeGreaterThan(0);
    for (const c of withDeps) for (const dep of c.dependsOn) expect([c.id, shardOf(c.id)]).toEqual([c.id, shardOf(dep)]);
    const whole = catalogue.filter((c) => c.schedule !== 'parallel');
    expect(whole.length).toBeGreaterThan(0);
    expect(new Set(whole.map((c) => shardOf(c.id))).size).toBe(1);
  });

  it('balances: no shard of 2 holds more than two thirds of the catalogue', () => {
    for (const part of ids(2)) expect(part.length).toBeLessThan((catalogue.length * 2) / 3);
  });

  it('refuses a shard that would get nothing, and malformed shards', () => {
    const two = catalogue.filter((c) => c.dependsOn.length === 0 && c.schedule === 'parallel').slice(0, 2);
    expect(shardChecks(two, { index: 2, total: 2 })).toHaveLength(1);
    const err = (() => {
      try {
        shardChecks(two, { index: 3, total: 3 });
      } catch (e) {
        return e;
      }
    })();
    expect(isRestprobeError(err, 'ERR_USAGE') && err.message).toMatch(/--shard 3\/3: no check falls to this shard \(the selection splits into 2 parts\)/);
    expect(parseShard(' 2/3 ')).toEqual({ index: 2, total: 3 });
    for (const bad of ['0/2', '3/2', '1/0', '1', 'a/b', '1/2/3']) expect(() => parseShard(bad), bad).toThrow(/is not i\/n/);
  });
});
