import { describe, expect, it } from 'vitest';
import { sampleReport, sampleResult } from '../../test/support/report-samples.js';
import type { CheckResult, Status } from '../model/result.js';
import type { Severity } from '../model/section.js';
import { compareWithBaseline } from './baseline.js';
import { renderMarkdown } from './markdown.js';
import { reportFailed, type Report } from './model.js';
import { renderSummary } from './terminal.js';
import { baselineVerdict } from './wording.js';

const r = (id: string, status: Status, collection?: string, severity: Severity = 'must'): CheckResult =>
  sampleResult({ id, section: 'END', status, severity, ...(collection !== undefined && { collection }) });

const report = (results: CheckResult[], strict = false, runOrder?: string[]): Report => ({ ...sampleReport(strict, results), ...(runOrder && { runOrder }) });

const catalogue = new Set(['END-a', 'END-b', 'END-c', 'END-d', 'END-e', 'END-f']);

const names = (changes: readonly { name: string }[]): string[] => changes.map((c) => c.name);

describe('compareWithBaseline', () => {
  const before = report([r('END-a', 'pass', 'projects'), r('END-a', 'pass', 'members'), r('END-b', 'fail'), r('END-c', 'fail'), r('END-d', 'pass'), r('END-e', 'skip')]);

  it('matches results by id and collection: a failure on one collection is new though the other still passes', () => {
    const after = report([r('END-a', 'pass', 'projects'), r('END-a', 'fail', 'members'), r('END-b', 'fail'), r('END-c', 'pass'), r('END-d', 'pass'), r('END-e', 'skip')]);
    const comparison = compareWithBaseline(after, before, catalogue);
    expect(comparison.newFailures).toEqual([{ name: 'END-a [members]', was: 'pass', now: 'fail' }]);
    expect(comparison.stillFailing).toEqual([{ name: 'END-b', was: 'fail', now: 'fail' }]);
    expect(comparison.fixed).toEqual([{ name: 'END-c', was: 'fail', now: 'pass' }]);
    expect([comparison.vanished, comparison.nowSkipped]).toEqual([[], []]);
    expect(comparison.against).toEqual({ startedAt: before.startedAt, toolVersion: '0.1.0', baseUrl: 'http://127.0.0.1:8080' });
    expect(reportFailed({ ...after, baseline: comparison })).toBe(true);
    expect(baselineVerdict({ ...after, baseline: comparison })).toBe('1 regression against the baseline');
  });

  it('known failures alone do not fail the run, and the verdict says so', () => {
    const same = compareWithBaseline(before, before, catalogue);
    expect(names(same.stillFailing)).toEqual(['END-b', 'END-c']);
    expect(reportFailed(before)).toBe(true);
    expect(reportFailed({ ...before, baseline: same })).toBe(false);
    expect(baselineVerdict({ ...before, baseline: same })).toBe('no regression against the baseline (2 known failures)');
    expect(renderSummary({ ...before, baseline: same }, { color: false }).split('\n').at(-1)).toMatch(/^PASSED .*: no regression against the baseline \(2 known failures\)$/);
    expect(renderMarkdown({ ...before, baseline: same })).toMatch(/^# restprobe: ✅ passed — no regression against the baseline \(2 known failures\)/);
  });

  it('a check new since the baseline that fails is a new failure', () => {
    const comparison = compareWithBaseline(report([...before.checks, r('END-f', 'fail')]), before, catalogue);
    expect(comparison.newFailures).toEqual([{ name: 'END-f', now: 'fail' }]);
  });

  it('flags lost coverage: judged then, skipped now or gone though selected; a skip that stays a skip is no loss', () => {
    const after = report([r('END-a', 'pass', 'projects'), r('END-b', 'fail'), r('END-c', 'fail'), r('END-d', 'skip'), r('END-e', 'skip')]);
    const comparison = compareWithBaseline(after, before, catalogue);
    expect(comparison.nowSkipped).toEqual([{ name: 'END-d', was: 'pass', now: 'skip' }]);
    expect(comparison.vanished).toEqual([{ name: 'END-a [members]', was: 'pass' }]);
    expect(reportFailed({ ...after, baseline: comparison })).toBe(true);
  });

  it('a check that ran per collection and now skips as a whole (no collection meets it) is now skipped on each', () => {
    const after = report([r('END-a', 'skip'), r('END-b', 'fail'), r('END-c', 'fail'), r('END-d', 'pass'), r('END-e', 'skip')]);
    const comparison = compareWithBaseline(after, before, catalogue);
    expect(comparison.nowSkipped).toEqual([{ name: 'END-a [members]', was: 'pass', now: 'skip' }, { name: 'END-a [projects]', was: 'pass', now: 'skip' }]);
    expect(comparison.vanished).toEqual([]);
    // And back: a whole skip then, a failure on one collection now.
    const back = compareWithBaseline(before, { ...after, checks: [...after.checks] }, catalogue);
    expect(back.newFailures).toEqual([]);
    const failsNow = compareWithBaseline(report([r('END-a', 'fail', 'projects')], false), after, catalogue);
    expect(failsNow.newFailures).toEqual([{ name: 'END-a [projects]', was: 'skip', now: 'fail' }]);
  });

  it('a check the selection left out has not vanished; one that left the catalogue has', () => {
    const only = report([r('END-b', 'fail'), r('END-c', 'fail')], false, ['END-b', 'END-c']);
    expect(compareWithBaseline(only, before, catalogue).vanished).toEqual([]);
    const dropped = compareWithBaseline(only, before, new Set(['END-b', 'END-c', 'END-e']));
    expect(names(dropped.vanished)).toEqual(['END-a [members]', 'END-a [projects]', 'END-d']);
  });

  it('judges warnings by the current run: a should-warning is a new failure under --strict only', () => {
    const warned = [r('END-a', 'pass', 'projects'), r('END-a', 'pass', 'members'), r('END-b', 'fail'), r('END-c', 'fail'), r('END-d', 'warn', undefined, 'should'), r('END-e', 'skip')];
    expect(compareWithBaseline(report(warned), before, catalogue).newFailures).toEqual([]);
    expect(compareWithBaseline(report(warned, true), before, catalogue).newFailures).toEqual([{ name: 'END-d', was: 'pass', now: 'warn' }]);
  });
});
