/**
 * The report model: what every writer renders. Built once from the run's check results;
 * the JSON report is this object as it is.
 */
import { sections, type Section } from '../model/section.js';
import { resultName, type CheckResult, type Status } from '../model/result.js';
import type { Damage, Leftover, NotRun, RequestCounts } from '../model/run-outcome.js';

/** Outcomes in the order reports show them. */
export const statuses: readonly Status[] = ['pass', 'fail', 'warn', 'skip', 'error'];

export interface SectionSummary {
  readonly section: Section;
  /** The section's name in the conventions (`7 Errors`). */
  readonly name: string;
  readonly summary: Record<Status, number>;
}

/**
 * The report's format version. 2 added `shard` and `baseline` (both optional), 3 a
 * result's optional `shapes`, 4 `interrupted` and a leftover's `certainty` (both
 * optional), 5 a result's optional `data` (what its check recorded) in place of `shapes`
 * (now `data.shapes`), 6 `failureCauses` and a failing result's optional `rootCause`, so
 * an earlier report reads as a version-6 one (read.ts;
 * fixtures/schema/restprobe.report.schema.json).
 */
export const reportSchemaVersion = 7;

/** A run a signal stopped: the report holds only what ran, and says what did not. */
export interface Interruption {
  /** The first signal the run got (Ctrl-C is SIGINT; a cancelled CI job sends SIGTERM). */
  readonly signal: 'SIGINT' | 'SIGTERM';
  /** Selected check instances never started, in plan order. */
  readonly notRun: readonly NotRun[];
  /** The value every mark the run gave an item starts with (`restprobe-<run id>`): its items are found by it. */
  readonly mark: string;
}

/** Which part of a sharded run a report holds (`--shard 2/3`). */
export interface ShardInfo {
  /** 1-based. */
  readonly index: number;
  readonly total: number;
}

/** One result named in a baseline comparison, with its status then and now. */
export interface BaselineChange {
  /** The result's name (`END-get-item-200 [projects]`): id and collection. */
  readonly name: string;
  /** Its status in the baseline; absent when it was not there. */
  readonly was?: Status;
  /** Its status now; absent when it did not run. */
  readonly now?: Status;
}

/** What changed since an earlier report (`--baseline previous.json`). */
export interface BaselineComparison {
  /** The earlier report, as it describes itself. */
  readonly against: { readonly startedAt: string; readonly toolVersion: string; readonly baseUrl: string };
  /** Failing now, not failing (or not there) then: each one fails the run. */
  readonly newFailures: readonly BaselineChange[];
  /** Failing then, passing now. */
  readonly fixed: readonly BaselineChange[];
  /** Failing then and now: known, so they do not fail the run. */
  readonly stillFailing: readonly BaselineChange[];
  /** Judged then, not run now though selected (a collection left the config, a check left the catalogue): lost coverage fails the run. */
  readonly vanished: readonly BaselineChange[];
  /** Judged then, skipped now: lost coverage fails the run. */
  readonly nowSkipped: readonly BaselineChange[];
}

export interface Report {
  readonly schemaVersion: typeof reportSchemaVersion;
  readonly tool: { readonly name: 'restprobe'; readonly version: string };
  readonly target: { readonly baseUrl: string };
  /** ISO 8601. */
  readonly startedAt: string;
  readonly durationMs: number;
  /** Every request the run sent, as the target saw them (retries, cleanup and the health phase included): the run's cost behind a rate limiter. Each check's share is its `evidence.requestCount`. */
  readonly requests: number;
  /** Of `requests`, those no check sent: the health phase and probes, cleanup of the run's own fixtures. */
  readonly runRequests?: number;
  /** The waits (a 429's Retry-After, a backoff, a hold until a spent quota's reset): how many, and the wall-clock time the run spent in at least one. */
  readonly waits?: { readonly count: number; readonly wallMs: number };
  readonly seed: number;
  /** Whether warnings fail the run (`--strict`). */
  readonly strict: boolean;
  readonly summary: Record<Status, number>;
  /** One entry per section that has checks, in section order. */
  readonly sections: readonly SectionSummary[];
  /** Sorted by section order, then id. */
  readonly checks: readonly CheckResult[];
  /** The order the run started the checks in: the same for the same checks and seed. */
  readonly runOrder: readonly string[];
  /** Checks that could not run, grouped by what stopped them, largest group first. */
  readonly rootCauses: readonly RootCause[];
  /** Failures and warnings that share one cause at the target (one fix mends them all), two or more a group, largest first. */
  readonly failureCauses: readonly RootCause[];
  /** What the run created on the target and could not remove. */
  readonly leftovers: readonly Leftover[];
  /** Set when a check that may hurt the target left it answering worse than before. */
  readonly damage?: Damage;
  /** Cleanup requests sent after `safety.maxRequests` was reached, only to delete what the run created. */
  readonly cleanupBeyondCap: number;
  /** Set on one shard's report (`--shard i/n`); a merged report has none. */
  readonly shard?: ShardInfo;
  /** Set when the run was compared with an earlier report (`--baseline`). */
  readonly baseline?: BaselineComparison;
  /** Set when a signal interrupted the run: such a report is no whole run's (no baseline, never green). */
  readonly interrupted?: Interruption;
}

/** One reason several checks could not run ("POST /v2/projects answered 500"). */
export interface RootCause {
  readonly cause: string;
  readonly checks: readonly string[];
}

export interface BuildReportInput {
  readonly baseUrl: string;
  readonly startedAt: Date;
  readonly durationMs: number;
  readonly seed: number;
  readonly strict: boolean;
  /** restprobe's version (package.json). */
  readonly version: string;
  readonly results: readonly CheckResult[];
  /** The run's start order; default: the results' order. */
  readonly order?: readonly string[];
  readonly leftovers?: readonly Leftover[];
  readonly cleanupBeyondCap?: number;
  readonly damage?: Damage;
  readonly shard?: ShardInfo;
  /** Set when a signal interrupted the run (the report's `interrupted`). */
  readonly interruption?: Interruption;
  /** What the run sent in all, and outside any check; default: the checks' counts summed. */
  readonly requests?: RequestCounts;
  readonly waits?: { readonly count: number; readonly wallMs: number };
}

const sectionOrder = Object.keys(sections) as Section[];

/** A count of zero for every status. */
function emptyCounts(): Record<Status, number> {
  return { pass: 0, fail: 0, warn: 0, skip: 0, error: 0 };
}

function count(results: readonly CheckResult[]): Record<Status, number> {
  const counts = emptyCounts();
  for (const r of results) counts[r.status] += 1;
  return counts;
}

/** Section order first, then name (id and collection) by code point, so reports diff cleanly between runs. */
function compareResults(a: CheckResult, b: CheckResult): number {
  const bySection = sectionOrder.indexOf(a.section) - sectionOrder.indexOf(b.section);
  if (bySection !== 0) return bySection;
  const [x, y] = [resultName(a.id, a.collection), resultName(b.id, b.collection)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The report for one run: checks sorted, counted overall and per section.
 *
 * @example
 * ```ts
 * const report = buildReport({ baseUrl: profile.baseUrl, startedAt, durationMs: 1234, seed: 42,
 *                              strict: false, version: '0.1.0', results });
 * report.summary; // { pass: 40, fail: 2, warn: 1, skip: 7, error: 0 }
 * ```
 */
export function buildReport(input: BuildReportInput): Report {
  const checks = [...input.results].sort(compareResults);
  const perSection = sectionOrder
    .map((section) => ({ section, results: checks.filter((r) => r.section === section) }))
    .filter(({ results }) => results.length > 0)
    .map(({ section, results }) => ({ section, name: sections[section], summary: count(results) }));
  return {
    schemaVersion: reportSchemaVersion,
    tool: { name: 'restprobe', version: input.version },
    target: { baseUrl: input.baseUrl },
    startedAt: input.startedAt.toISOString(),
    durationMs: input.durationMs,
    // Without the run's counts (a merged or rebuilt report), what the checks sent.
    requests: input.requests?.total ?? checks.reduce((n, r) => n + r.evidence.requestCount, 0),
    ...(input.requests !== undefined && { runRequests: input.requests.run }),
    ...(input.waits !== undefined && { waits: { count: input.waits.count, wallMs: Math.round(input.waits.wallMs) } }),
    seed: input.seed,
    strict: input.strict,
    summary: count(checks),
    sections: perSection,
    checks,
    runOrder: input.order ?? input.results.map((r) => resultName(r.id, r.collection)),
    rootCauses: rootCauses(checks),
    failureCauses: failureCauses(checks),
    ...(input.damage !== undefined && { damage: input.damage }),
    leftovers: input.leftovers ?? [],
    cleanupBeyondCap: input.cleanupBeyondCap ?? 0,
    ...(input.shard !== undefined && { shard: input.shard }),
    ...(input.interruption !== undefined && { interrupted: input.interruption }),
  };
}

/**
 * Errors grouped by their root cause, largest group first (then by cause, so the order is
 * stable): "POST /books answered 500: 25 checks could not run".
 */
export function rootCauses(results: readonly CheckResult[]): RootCause[] {
  return byCause(results.filter((r) => r.status === 'error').map((r) => [r.rootCause ?? r.message, r]));
}

/**
 * Failures and warnings grouped by the cause they share at the target, when two or more
 * do: "error responses are not labelled application/problem+json" fails five ERR checks,
 * and one fix mends them all. A failure with no stated cause stands alone.
 *
 * @example
 * ```ts
 * failureCauses(report.checks); // [{ cause: 'error responses are not labelled application/problem+json', checks: ['ERR-unknown-path-404', …] }]
 * ```
 */
export function failureCauses(results: readonly CheckResult[]): RootCause[] {
  const findings = results.filter((r): r is CheckResult & { rootCause: string } => (r.status === 'fail' || r.status === 'warn') && r.rootCause !== undefined);
  return byCause(findings.map((r) => [r.rootCause, r])).filter((g) => g.checks.length > 1);
}

/** Results grouped by cause, largest group first (then by cause, so the order is stable). */
function byCause(entries: readonly (readonly [string, CheckResult])[]): RootCause[] {
  const groups = new Map<string, string[]>();
  for (const [cause, r] of entries) groups.set(cause, [...(groups.get(cause) ?? []), resultName(r.id, r.collection)]);
  return [...groups].map(([cause, checks]) => ({ cause, checks })).sort((a, b) => b.checks.length - a.checks.length || (a.cause < b.cause ? -1 : a.cause > b.cause ? 1 : 0));
}

/**
 * Whether a result breaks the run: a `fail`, or under `--strict` a `warn` of a `should`
 * rule (an `info` warning never fails). An `error` is not a failure of the target; the
 * CLI gives it its own exit code.
 *
 * @example
 * ```ts
 * report.checks.filter((r) => isFailing(r, report.strict));
 * ```
 */
export function isFailing(result: CheckResult, strict: boolean): boolean {
  return result.status === 'fail' || (strict && result.status === 'warn' && result.severity !== 'info');
}

/**
 * Whether a baseline comparison found something worse: a new failure, or lost coverage
 * (a judged check that vanished or became a skip).
 *
 * @example
 * ```ts
 * regressed(report.baseline!); // true
 * ```
 */
export function regressed(comparison: BaselineComparison): boolean {
  return comparison.newFailures.length + comparison.vanished.length + comparison.nowSkipped.length > 0;
}

/**
 * Whether the run failed: any result {@link isFailing}; compared with a baseline, only
 * what got worse ({@link regressed}).
 *
 * @example
 * ```ts
 * process.exitCode = reportFailed(report) ? ExitCode.failures : ExitCode.ok;
 * ```
 */
export function reportFailed(report: Report): boolean {
  if (report.baseline !== undefined) return regressed(report.baseline);
  return report.checks.some((r) => isFailing(r, report.strict));
}
