/**
 * Phrases every report format shares, so a skip or a verdict reads the same in the
 * terminal, JUnit and Markdown.
 */
import { resultName, type CheckResult, type Status } from '../model/result.js';
import { stripControlChars } from './control-chars.js';
import { isFailing, reportFailed, statuses, type BaselineChange, type BaselineComparison, type Report } from './model.js';

/**
 * Why a check was skipped, and the config key (or flag) that would enable it.
 *
 * @example
 * ```ts
 * skipReason(result); // 'no collection configured (enable with: collections)'
 * ```
 */
export function skipReason(result: CheckResult): string {
  return result.configKey ? `${result.message} (enable with: ${result.configKey})` : result.message;
}

/**
 * The results a reader must look at: failures and errors, and warnings under `--strict`.
 *
 * @example
 * ```ts
 * for (const r of needsAttention(report)) console.log(r.id);
 * ```
 */
export function needsAttention(report: Report): CheckResult[] {
  return report.checks.filter((r) => isFailing(r, report.strict) || r.status === 'error');
}

/**
 * Warnings that do not fail the run (none under `--strict`, where they are failures).
 *
 * @example
 * ```ts
 * nonFailingWarnings(report).map((r) => r.id);
 * ```
 */
export function nonFailingWarnings(report: Report): CheckResult[] {
  return report.checks.filter((r) => r.status === 'warn' && !isFailing(r, report.strict));
}

/**
 * One line per root cause of the checks that could not run, largest group first.
 *
 * @example
 * ```ts
 * rootCauseLines(report); // ['POST /books answered 500: 25 checks could not run (END-get-item-200, …)']
 * ```
 */
export function rootCauseLines(report: Report, listAtMost = 5): string[] {
  return report.rootCauses.map(({ cause, checks }) => `${oneLine(cause)}: ${checks.length} ${checks.length === 1 ? 'check' : 'checks'} could not run (${namesShown(checks, listAtMost)})`);
}

/**
 * One line per cause that several failures (or warnings) share, largest group first.
 *
 * @example
 * ```ts
 * failureCauseLines(report); // ['error responses are not labelled application/problem+json: one fix, 5 findings (ERR-unknown-path-404, …)']
 * ```
 */
export function failureCauseLines(report: Report, listAtMost = 5): string[] {
  return report.failureCauses.map(({ cause, checks }) => `${oneLine(cause)}: one fix, ${checks.length} findings (${namesShown(checks, listAtMost)})`);
}

/** The first names of a group, and how many more. */
const namesShown = (names: readonly string[], listAtMost: number): string => names.slice(0, listAtMost).join(', ') + (names.length > listAtMost ? `, … ${names.length - listAtMost} more` : '');

/**
 * One line per item the run left on the target: whether it is certainly there or possibly
 * (a create that got no answer, a delete nothing could verify), its URL, the check that
 * made it, and the last answer cleanup got.
 *
 * @example
 * ```ts
 * leftoverLines(report); // ['certain: https://api.example.com/v2/projects/7 (END-get-item-200): DELETE answered 503']
 * ```
 */
export function leftoverLines(report: Report): string[] {
  return report.leftovers.map((l) => `${l.certainty ?? 'certain'}: ${l.url} (${l.owner}): ${oneLine(l.lastAnswer)}`);
}

/** The reason every report gives a check an interrupted run never started. */
export const notRunReason = 'not run: the run was interrupted';

/**
 * The run's one line about an interruption, when there was one: the signal, what was not
 * run, and the mark the run's items carry.
 *
 * @example
 * ```ts
 * interruptionLine(report); // 'interrupted by SIGINT: 64 of 76 checks not run; the items the run created carry marks starting restprobe-1a2b3c4d'
 * ```
 */
export function interruptionLine(report: Report): string | undefined {
  const i = report.interrupted;
  if (i === undefined) return undefined;
  const selected = report.checks.length + i.notRun.length;
  return `interrupted by ${i.signal}: ${i.notRun.length} of ${selected} checks not run; the items the run created carry marks starting ${i.mark}`;
}

/**
 * The checks an interrupted run never started, as skipped results with {@link notRunReason},
 * for formats that list every selected check (JUnit, Allure).
 *
 * @example
 * ```ts
 * notRunResults(report).map((r) => r.message); // ['not run: the run was interrupted', …]
 * ```
 */
export function notRunResults(report: Report): CheckResult[] {
  return (report.interrupted?.notRun ?? []).map((n) => ({ ...n, status: 'skip', message: notRunReason, durationMs: 0, evidence: { exchanges: [], requestCount: 0, notes: [] } }));
}

/**
 * The run's one line about a check that broke the target, when one did.
 *
 * @example
 * ```ts
 * damageLine(report); // 'the target stopped working after ERR-bad-input-no-5xx: GET /v2/projects → 500 (before: GET /v2/projects → 200)'
 * ```
 */
export function damageLine(report: Report): string | undefined {
  const d = report.damage;
  return d && `the target stopped working after ${d.after}: ${d.now.join('; ')} (before: ${d.before.join('; ')}); the checks after it were not run`;
}

/**
 * The run's footnote on the target's state: what it left there, and any cleanup past the cap.
 *
 * @example
 * ```ts
 * cleanupNote(report); // '2 items left on the target (listed above)'
 * ```
 */
export function cleanupNote(report: Report): string | undefined {
  const parts = [
    ...(report.leftovers.length > 0 ? [`${report.leftovers.length} ${report.leftovers.length === 1 ? 'item' : 'items'} left on the target (listed above)`] : []),
    ...(report.cleanupBeyondCap > 0 ? [`${report.cleanupBeyondCap} cleanup requests went past safety.maxRequests, only to delete what the run created`] : []),
  ];
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/**
 * The skipped checks grouped by what would enable them (a config key or flag), largest
 * group first; skips no config enables ("nothing to observe") come last.
 *
 * @example
 * ```ts
 * skipGroups(report); // [{ key: 'collections[].mark', checks: ['END-pagination-terminates', …] }, …]
 * ```
 */
export function skipGroups(report: Report): { key: string | undefined; checks: string[] }[] {
  const groups = new Map<string | undefined, string[]>();
  for (const r of report.checks) if (r.status === 'skip') groups.set(r.configKey, [...(groups.get(r.configKey) ?? []), resultName(r.id, r.collection)]);
  return [...groups].map(([key, checks]) => ({ key, checks })).sort((a, b) => Number(a.key === undefined) - Number(b.key === undefined) || b.checks.length - a.checks.length);
}

/** One line per skip group: `collections[].mark: 9 checks (END-…, …)`. */
export function skipGroupLines(report: Report, listAtMost = 4): string[] {
  return skipGroups(report).map(({ key, checks }) => {
    const shown = checks.slice(0, listAtMost).join(', ') + (checks.length > listAtMost ? `, … ${checks.length - listAtMost} more` : '');
    return `${key === undefined ? 'nothing to observe on this target' : `enable with ${key}`}: ${checks.length} ${checks.length === 1 ? 'check' : 'checks'} (${shown})`;
  });
}

/** Checks that judged the target: passed, failed or warned. A run with none proved nothing. */
export function judgedCount(report: Report): number {
  return report.summary.pass + report.summary.fail + report.summary.warn;
}

/**
 * What the run sent, counted, and how long it waited on the target.
 *
 * @example
 * ```ts
 * requestsSent(report); // '1604 requests', or '509 requests, waited 110.0 s (11 waits)'
 * ```
 */
export function requestsSent(report: Report): string {
  const sent = `${report.requests} ${report.requests === 1 ? 'request' : 'requests'}`;
  const waits = report.waits;
  return waits === undefined || waits.count === 0 ? sent : `${sent}, waited ${formatDuration(waits.wallMs)} (${waits.count} ${waits.count === 1 ? 'wait' : 'waits'})`;
}

/**
 * Counts in status order.
 *
 * @example
 * ```ts
 * totalsLine({ pass: 40, fail: 2, warn: 1, skip: 7, error: 0 }); // '40 pass · 2 fail · 1 warn · 7 skip · 0 error'
 * ```
 */
export function totalsLine(summary: Record<Status, number>): string {
  return statuses.map((s) => `${summary[s]} ${s}`).join(' · ');
}

/**
 * The run's outcome in one word: `interrupted` (a signal stopped it: whatever it found, it
 * is no whole run), `failed` (a failure, or a warning under --strict), `incomplete` (no
 * failure, but some checks could not run), or `passed`.
 *
 * @example
 * ```ts
 * verdict(report); // 'failed'
 * ```
 */
export function verdict(report: Report): 'interrupted' | 'failed' | 'incomplete' | 'passed' {
  if (report.interrupted !== undefined) return 'interrupted';
  if (reportFailed(report)) return 'failed';
  return report.summary.error > 0 ? 'incomplete' : 'passed';
}

/**
 * A duration for people: milliseconds under a second, else seconds.
 *
 * @example
 * ```ts
 * formatDuration(850);  // '850 ms'
 * formatDuration(12345); // '12.3 s'
 * ```
 */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * A message on one line, without control characters (reports' tables and terminal lines
 * have no room for more, and no use for escape sequences).
 *
 * @example
 * ```ts
 * oneLine('found 200\n  expected 404'); // 'found 200 expected 404'
 * ```
 */
export function oneLine(text: string): string {
  return stripControlChars(text).replace(/\s+/g, ' ').trim();
}

/** The groups of a baseline comparison, in the order reports show them, with what each means. */
const baselineGroupTitles = [
  ['newFailures', 'New failures'],
  ['vanished', 'Vanished (judged in the baseline, not run now)'],
  ['nowSkipped', 'Now skipped (judged in the baseline)'],
  ['fixed', 'Fixed'],
  ['stillFailing', 'Still failing (known from the baseline)'],
] as const;

/**
 * A baseline comparison's non-empty groups, worst first, each with one line per result.
 *
 * @example
 * ```ts
 * baselineGroups(report.baseline!);
 * // [{ title: 'New failures', regression: true, lines: ['END-etag-present [projects] (was pass, now fail)'] }, …]
 * ```
 */
export function baselineGroups(comparison: BaselineComparison): { title: string; regression: boolean; lines: string[] }[] {
  const describe = (c: BaselineChange): string => `${c.name} (${c.was === undefined ? 'not in the baseline' : `was ${c.was}`}, ${c.now === undefined ? 'not run now' : `now ${c.now}`})`;
  return baselineGroupTitles
    .map(([key, title]) => ({ title, regression: key === 'newFailures' || key === 'vanished' || key === 'nowSkipped', lines: comparison[key].map(describe) }))
    .filter((g) => g.lines.length > 0);
}

/**
 * A baseline comparison in one line.
 *
 * @example
 * ```ts
 * baselineLine(report.baseline!); // 'against the baseline of 2025-01-02T03:04:05.000Z: 1 new failure · 2 fixed · 3 still failing · 0 vanished · 0 now skipped'
 * ```
 */
export function baselineLine(comparison: BaselineComparison): string {
  const n = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;
  return `against the baseline of ${comparison.against.startedAt}: ${[
    n(comparison.newFailures.length, 'new failure', 'new failures'),
    `${comparison.fixed.length} fixed`,
    `${comparison.stillFailing.length} still failing`,
    `${comparison.vanished.length} vanished`,
    `${comparison.nowSkipped.length} now skipped`,
  ].join(' · ')}`;
}

/**
 * What the verdict means against a baseline, in a few words; undefined without one. A run
 * with known failures passes against its baseline, and says so.
 *
 * @example
 * ```ts
 * baselineVerdict(report); // 'no regression against the baseline (3 known failures)'
 * baselineVerdict(report); // '2 regressions against the baseline'
 * ```
 */
export function baselineVerdict(report: Report): string | undefined {
  const b = report.baseline;
  if (b === undefined) return undefined;
  const regressions = b.newFailures.length + b.vanished.length + b.nowSkipped.length;
  if (regressions > 0) return `${regressions} ${regressions === 1 ? 'regression' : 'regressions'} against the baseline`;
  const known = b.stillFailing.length;
  return `no regression against the baseline${known > 0 ? ` (${known} known ${known === 1 ? 'failure' : 'failures'})` : ''}`;
}
