/**
 * `--baseline previous.json`: what got worse since an earlier report. Results are matched
 * by name (id and collection: `END-get-item-200 [projects]`), since a check runs once per
 * collection. A run compared with a baseline fails only on what got worse: a new failure,
 * or lost coverage (a judged result that vanished or became a skip); failures the
 * baseline already had are listed as known, and fixed ones are listed too.
 */
import { resultName, type CheckResult, type Status } from '../model/result.js';
import { RestprobeError } from '../errors.js';
import { isFailing, type BaselineChange, type BaselineComparison, type Report } from './model.js';
import { readReport } from './read.js';

/** Outcomes that judged the target. */
const judged = (status: Status): boolean => status === 'pass' || status === 'fail' || status === 'warn';

const nameOf = (r: CheckResult): string => resultName(r.id, r.collection);

/** The check id in a result name (`END-get-item-200 [projects]` → `END-get-item-200`): ids hold no space. */
const idOf = (name: string): string => name.split(' ', 1)[0]!;

const change = (name: string, was: CheckResult | undefined, now: CheckResult | undefined): BaselineChange => ({
  name,
  ...(was !== undefined && { was: was.status }),
  ...(now !== undefined && { now: now.status }),
});

/**
 * Compares a run's report with an earlier one. Failing means {@link isFailing} under the
 * current run's `--strict`, on both sides. A check that no collection met runs once,
 * named without one: its skip stands for the per-collection results it replaced (they
 * are `nowSkipped`). A baseline result missing from the run is
 * `vanished` when its check was selected this time (its id is in the run's order) or is
 * no longer in `catalogueIds`; a check the selection (`--only`, `--skip`, `--shard`) left
 * out is not.
 *
 * @example
 * ```ts
 * const comparison = compareWithBaseline(report, previous, new Set(catalogue.map((c) => c.id)));
 * comparison.newFailures; // [{ name: 'END-etag-present [projects]', was: 'pass', now: 'fail' }]
 * ```
 */
export function compareWithBaseline(current: Report, baseline: Report, catalogueIds: ReadonlySet<string>): BaselineComparison {
  const failing = (r: CheckResult | undefined): boolean => r !== undefined && isFailing(r, current.strict);
  const before = new Map(baseline.checks.map((r) => [nameOf(r), r]));
  const now = new Map(current.checks.map((r) => [nameOf(r), r]));
  const selectedIds = new Set([...current.runOrder.map(idOf), ...current.checks.map((r) => r.id)]);
  const out = { newFailures: [] as BaselineChange[], fixed: [] as BaselineChange[], stillFailing: [] as BaselineChange[], vanished: [] as BaselineChange[], nowSkipped: [] as BaselineChange[] };
  for (const result of current.checks) {
    const name = nameOf(result);
    // A check no collection met runs once, unnamed: it stands for its per-collection runs on the other side.
    const was = before.get(name) ?? before.get(result.id);
    if (failing(result)) out[failing(was) ? 'stillFailing' : 'newFailures'].push(change(name, was, result));
    else if (failing(was) && judged(result.status)) out.fixed.push(change(name, was, result));
    if (result.status === 'skip' && was !== undefined && judged(was.status)) out.nowSkipped.push(change(name, was, result));
  }
  for (const [name, was] of before) {
    if (now.has(name) || !judged(was.status)) continue;
    const whole = now.get(was.id);
    if (whole?.status === 'skip') out.nowSkipped.push(change(name, was, whole));
    else if (selectedIds.has(was.id) || !catalogueIds.has(was.id)) out.vanished.push(change(name, was, undefined));
  }
  return { against: { startedAt: baseline.startedAt, toolVersion: baseline.tool.version, baseUrl: baseline.target.baseUrl }, ...out };
}

/**
 * The report, compared with `previous` when there is one (`--baseline`), as `run` and
 * `merge-reports` both attach it.
 *
 * @example
 * ```ts
 * const final = withBaseline(report, previous, new Set(catalogue.map((c) => c.id)));
 * final.baseline?.newFailures; // []
 * ```
 */
export function withBaseline(report: Report, previous: Report | undefined, catalogueIds: ReadonlySet<string>): Report {
  return previous === undefined ? report : { ...report, baseline: compareWithBaseline(report, previous, catalogueIds) };
}

/**
 * The report at `path`, read and validated as {@link readReport} does, and refused as a
 * baseline when it is no whole run's: an interrupted run's checks not run would count as
 * lost coverage, and what it did judge is a part of a run (ERR_REPORT_INVALID, exit 2).
 *
 * @example
 * ```ts
 * const previous = await readBaseline('reports/main.json'); // throws for an interrupted run's report
 * ```
 */
export async function readBaseline(path: string): Promise<Report> {
  const previous = await readReport(path, '--baseline');
  const stopped = previous.interrupted;
  if (stopped !== undefined) {
    throw new RestprobeError('ERR_REPORT_INVALID', `--baseline ${path}: the run that wrote it was interrupted by ${stopped.signal} (${stopped.notRun.length} of ${previous.checks.length + stopped.notRun.length} checks not run), expected a whole run's report; give the report of a run that ended`);
  }
  return previous;
}
