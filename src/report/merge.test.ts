import { describe, expect, it } from 'vitest';
import { sampleReport, sampleResults } from '../../test/support/report-samples.js';
import { mergeReports } from './merge.js';
import type { Report } from './model.js';

const part = (index: number, total: number, ids: string[], over: Partial<Report> = {}): Report => {
  const base = sampleReport(false, sampleResults.filter((r) => ids.includes(r.id)));
  return { ...base, shard: { index, total }, ...over };
};
const a = ['CON-accept-406', 'ERR-unknown-path-404', 'AUT-missing-credentials-401'];
const b = ['CON-https-hsts', 'END-get-item-200', 'VER-deprecation-header'];

describe('mergeReports', () => {
  it('makes one report of the shards: every result, counted and sorted again, the whole time span, no shard', () => {
    const first = part(1, 2, a, { startedAt: '2025-01-02T03:04:05.000Z', durationMs: 1000, leftovers: [{ url: 'u1', owner: 'o', lastAnswer: 'x' }], cleanupBeyondCap: 1 });
    const second = part(2, 2, b, { startedAt: '2025-01-02T03:04:04.000Z', durationMs: 500, cleanupBeyondCap: 2 });
    const merged = mergeReports([second, first]);
    const whole = sampleReport();
    expect(merged.checks).toEqual(whole.checks);
    expect(merged.summary).toEqual(whole.summary);
    expect(merged.sections).toEqual(whole.sections);
    expect(merged.rootCauses).toEqual(whole.rootCauses);
    expect(merged.shard).toBeUndefined();
    expect(merged.startedAt).toBe('2025-01-02T03:04:04.000Z');
    expect(merged.durationMs).toBe(2000);
    expect(merged.runOrder).toEqual([...first.runOrder, ...second.runOrder]);
    expect(merged.leftovers).toHaveLength(1);
    expect(merged.cleanupBeyondCap).toBe(3);
  });

  it('refuses reports that are not the shards of one run, naming what does not match', () => {
    const labels = ['s1.json', 's2.json'];
    expect(() => mergeReports([part(1, 2, a)], ['s1.json'])).toThrow('merge-reports: shard 2 of 2 is missing');
    expect(() => mergeReports([part(1, 2, a), part(1, 2, b)], labels)).toThrow('shard 1 of 2 is given twice (s1.json, s2.json)');
    expect(() => mergeReports([part(1, 2, a), part(2, 3, b)], labels)).toThrow('s1.json and s2.json differ in the number of shards (2 and 3)');
    expect(() => mergeReports([part(1, 2, a), part(2, 2, b, { seed: 7 })], labels)).toThrow('differ in seed (42 and 7)');
    expect(() => mergeReports([part(1, 2, a), part(2, 2, b, { strict: true })], labels)).toThrow('differ in --strict');
    expect(() => mergeReports([part(1, 2, a), part(2, 2, b, { target: { baseUrl: 'http://other.test' } })], labels)).toThrow('differ in target');
    expect(() => mergeReports([part(1, 2, a), part(2, 2, a)], labels)).toThrow('CON-accept-406 is in shard 1 and shard 2: the shards overlap');
    expect(() => mergeReports([sampleReport(), part(2, 2, b)], labels)).toThrow("s1.json is not a shard's report");
    expect(() => mergeReports([])).toThrow('no report given');
  });
});
