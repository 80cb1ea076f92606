/**
 * What `restprobe run` prints: one line per check as results arrive, then a summary with
 * a per-section table, what failed (with a curl command to reproduce it), and where the
 * reports are.
 */
import { resultName, type CheckResult, type Status } from '../model/result.js';
import type { Secret } from '../model/profile.js';
import { paint, type Style } from './ansi.js';
import { capped, reproducingCurl } from './evidence-text.js';
import { statuses, type Report } from './model.js';
import { scrubReport, scrubResult } from './scrub.js';
import { baselineGroups, baselineLine, baselineVerdict, cleanupNote, damageLine, formatDuration, interruptionLine, leftoverLines, notRunResults, skipGroupLines, needsAttention, nonFailingWarnings, oneLine, requestsSent, rootCauseLines, failureCauseLines, skipReason, totalsLine, verdict } from './wording.js';

export interface TerminalOptions {
  /** Emit ANSI colour codes (a TTY without NO_COLOR). */
  readonly color: boolean;
  /** Secrets to scrub: CI logs are kept as long as report files. */
  readonly secrets?: readonly Secret[];
}

export interface SummaryOptions extends TerminalOptions {
  /** Report files written, listed at the end. */
  readonly reportPaths?: readonly string[];
}

const tags: Record<Status, { text: string; style: readonly Style[] }> = {
  pass: { text: '✔ pass ', style: ['green'] },
  fail: { text: '✘ FAIL ', style: ['bold', 'red'] },
  warn: { text: '⚠ warn ', style: ['yellow'] },
  skip: { text: '↷ skip ', style: ['gray'] },
  error: { text: '‼ ERROR', style: ['bold', 'magenta'] },
};

/** Colour for a non-zero count in the summary table. */
const countStyle: Record<Status, readonly Style[]> = {
  pass: ['green'],
  fail: ['bold', 'red'],
  warn: ['yellow'],
  skip: ['gray'],
  error: ['bold', 'magenta'],
};

/** The line for a result already scrubbed. */
function checkLine(result: CheckResult, color: boolean): string {
  const tag = tags[result.status];
  const head = `${paint(tag.text, tag.style, color)} ${resultName(result.id, result.collection)}`;
  if (result.status === 'pass') return head;
  const detail = capped(oneLine(result.status === 'skip' ? skipReason(result) : result.message));
  return `${head} ${paint(`— ${detail}`, result.status === 'skip' ? 'gray' : [], color)}`;
}

/**
 * One line for one result: status tag, id, and for anything but a pass, why.
 *
 * @example
 * ```ts
 * renderCheckLine(result, { color: false });
 * // '✘ FAIL  ERR-unknown-path-404 — found status 200, expected 404'
 * // '↷ skip  END-get-item-200 — no collection configured (enable with: collections)'
 * ```
 */
export function renderCheckLine(result: CheckResult, options: TerminalOptions): string {
  return checkLine(scrubResult(result, options.secrets ?? []), options.color);
}

function sectionTable(report: Report, color: boolean): string[] {
  const labels = [...report.sections.map((s) => `${s.section} ${s.name}`), 'Total'];
  const labelWidth = Math.max('Section'.length, ...labels.map((l) => l.length));
  const cell = (s: Status, n: number): string => {
    const text = String(n).padStart(Math.max(s.length, 4));
    return n > 0 ? paint(text, countStyle[s], color) : text;
  };
  const row = (label: string, summary: Record<Status, number>): string =>
    [label.padEnd(labelWidth), ...statuses.map((s) => cell(s, summary[s]))].join('  ');
  const header = ['Section'.padEnd(labelWidth), ...statuses.map((s) => s.padStart(Math.max(s.length, 4)))].join('  ');
  return [
    paint(header, 'bold', color),
    ...report.sections.map((s) => row(`${s.section} ${s.name}`, s.summary)),
    paint(row('Total', report.summary), 'bold', color),
  ];
}

function attentionList(report: Report, color: boolean): string[] {
  const results = needsAttention(report);
  if (results.length === 0) return [];
  const entry = (r: CheckResult): string[] => {
    const curl = reproducingCurl(r);
    return [`  ${checkLine(r, color)}`, `      rule: ${oneLine(r.rule)}`, ...(curl ? [`      $ ${capped(oneLine(curl))}`] : [])];
  };
  return ['', paint(`Failures (${results.length})`, 'bold', color), ...results.flatMap(entry)];
}

function warningList(report: Report, color: boolean): string[] {
  const warnings = nonFailingWarnings(report);
  if (warnings.length === 0) return [];
  return ['', paint(`Warnings (${warnings.length}, not failing the run)`, 'bold', color), ...warnings.map((r) => `  ${checkLine(r, color)}`)];
}

function baselineBlock(report: Report, color: boolean): string[] {
  if (report.baseline === undefined) return [];
  const groups = baselineGroups(report.baseline).flatMap((g) => [
    `  ${paint(`${g.title} (${g.lines.length})`, g.regression ? ['bold', 'red'] : 'bold', color)}`,
    ...g.lines.map((l) => `    ${l}`),
  ]);
  return ['', paint('Compared with the baseline', 'bold', color), `  ${baselineLine(report.baseline)}`, ...groups];
}

/** The checks an interrupted run never started: counted, a few named. */
function notRunBlock(report: Report, color: boolean, listAtMost = 5): string[] {
  const notRun = notRunResults(report);
  if (report.interrupted === undefined) return [];
  const names = notRun.map((r) => resultName(r.id, r.collection));
  const shown = names.slice(0, listAtMost).join(', ') + (names.length > listAtMost ? `, … ${names.length - listAtMost} more` : '');
  return ['', paint(interruptionLine(report)!, ['bold', 'magenta'], color), ...(names.length > 0 ? [`  not run: ${shown}`] : [])];
}

const verdictStyle = { interrupted: ['bold', 'magenta'], failed: ['bold', 'red'], incomplete: ['bold', 'magenta'], passed: ['bold', 'green'] } as const;

/**
 * The end-of-run summary.
 *
 * @example
 * ```ts
 * console.log(renderSummary(report, { color: process.stdout.isTTY, reportPaths, secrets: profile.secrets }));
 * // Section              pass  fail  warn  skip  error
 * // CON 1 Constraints        3     0     0     1      0
 * // …
 * // FAILED  40 pass · 2 fail · 1 warn · 7 skip · 0 error  in 12.3 s (seed 42)
 * ```
 */
export function renderSummary(unscrubbed: Report, options: SummaryOptions): string {
  const { color } = options;
  const report = scrubReport(unscrubbed, options.secrets ?? []);
  const paths = options.reportPaths ?? [];
  const outcome = verdict(report);
  const lines = [
    ...sectionTable(report, color),
    ...(report.failureCauses.length > 0 ? ['', paint('Findings, by root cause', 'bold', color), ...failureCauseLines(report).map((l) => `  ${l}`)] : []),
    ...attentionList(report, color),
    ...warningList(report, color),
    ...baselineBlock(report, color),
    ...(report.summary.skip > 0 ? ['', paint(`Skipped (${report.summary.skip})`, 'bold', color), ...skipGroupLines(report).map((l) => `  ${l}`)] : []),
    ...(damageLine(report) ? ['', paint(damageLine(report)!, ['bold', 'red'], color)] : []),
    ...notRunBlock(report, color),
    ...(report.rootCauses.length > 0 ? ['', paint('Could not run, by root cause', 'bold', color), ...rootCauseLines(report).map((l) => `  ${l}`)] : []),
    ...(paths.length > 0 ? ['', paint('Reports', 'bold', color), ...paths.map((p) => `  ${p}`)] : []),
    ...(report.leftovers.length > 0 ? ['', paint(`Left on the target (${report.leftovers.length}): delete these by hand`, ['bold', 'red'], color), ...leftoverLines(report).map((l) => `  ${l}`)] : []),
    '',
    `${paint(outcome.toUpperCase(), verdictStyle[outcome], color)}  ${totalsLine(report.summary)}${report.interrupted ? ` · ${report.interrupted.notRun.length} not run` : ''}  in ${formatDuration(report.durationMs)}, ${requestsSent(report)} (seed ${report.seed})${baselineVerdict(report) ? `: ${baselineVerdict(report)}` : ''}`,
    ...(cleanupNote(report) ? [paint(cleanupNote(report)!, ['bold', 'red'], color)] : []),
  ];
  return lines.join('\n');
}
