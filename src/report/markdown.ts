/**
 * The Markdown report, sized for a PR comment: verdict, totals, a per-section table, then
 * what needs attention with one curl command each.
 */
import { resultName, type CheckResult, type Status } from '../model/result.js';
import { capped, reproducingCurl } from './evidence-text.js';
import { mdCell, mdCode, mdCodeBlock, mdText } from './markdown-escape.js';
import { statuses, type Report } from './model.js';
import { baselineGroups, baselineLine, baselineVerdict, cleanupNote, damageLine, formatDuration, interruptionLine, leftoverLines, notRunResults, skipGroupLines, needsAttention, nonFailingWarnings, requestsSent, rootCauseLines, failureCauseLines, totalsLine, verdict } from './wording.js';

/** Failures shown in full; the rest are counted (a GitHub comment holds 65,536 characters). */
const maxDetailed = 50;

const verdictTitle = { interrupted: '⏹️ interrupted', failed: '❌ failed', incomplete: '⚠️ incomplete', passed: '✅ passed' } as const;

function tableRow(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

function sectionTable(report: Report): string[] {
  const row = (label: string, summary: Record<Status, number>): string =>
    tableRow([label, ...statuses.map((s) => String(summary[s]))]);
  return [
    tableRow(['Section', ...statuses]),
    tableRow(['---', ...statuses.map(() => '---:')]),
    ...report.sections.map((s) => row(mdCell(`${s.section} ${s.name}`), s.summary)),
    row('**Total**', report.summary),
  ];
}

function failureEntry(result: CheckResult): string[] {
  const { expected, found } = result.evidence;
  const lines = [`### ${result.status.toUpperCase()} ${mdCode(resultName(result.id, result.collection))} — ${mdText(result.title)}`, ''];
  lines.push(`- **Rule:** ${mdText(result.rule)}`);
  lines.push(`- **Message:** ${mdText(capped(result.message))}`);
  if (expected !== undefined) lines.push(`- **Expected:** ${mdCode(capped(expected))}`);
  if (found !== undefined) lines.push(`- **Found:** ${mdCode(capped(found))}`);
  const property = result.evidence.property;
  if (property) {
    const path = property.path !== undefined ? `, path ${mdCode(property.path)}` : '';
    const example = property.counterexample !== undefined ? `; counterexample ${mdCode(capped(property.counterexample))}` : '';
    lines.push(`- **Replay:** ${mdCode(`--seed ${property.seed}`)}${path}${example}`);
  }
  const curl = reproducingCurl(result);
  if (curl !== undefined) lines.push('', mdCodeBlock(capped(curl), 'sh'));
  return [...lines, ''];
}

function failuresSection(report: Report): string[] {
  // Failures before the checks that could not run: a finding first, then what kept a check from judging.
  const attention = needsAttention(report);
  const failures = [...attention.filter((r) => r.status !== 'error'), ...attention.filter((r) => r.status === 'error')];
  if (failures.length === 0) return [];
  const more = failures.length - maxDetailed;
  return [
    `## Failures (${failures.length})`,
    '',
    ...failures.slice(0, maxDetailed).flatMap(failureEntry),
    ...(more > 0 ? [`…and ${more} more: see restprobe-report.json.`, ''] : []),
  ];
}

function skippedSection(report: Report): string[] {
  if (report.summary.skip === 0) return [];
  return [`## Skipped (${report.summary.skip} of ${report.checks.length})`, '', ...skipGroupLines(report).map((l) => `- ${mdText(l)}`), ''];
}

function notRunSection(report: Report): string[] {
  const notRun = notRunResults(report);
  if (notRun.length === 0) return [];
  const more = notRun.length - maxDetailed;
  return [
    `## Not run (${notRun.length}): the run was interrupted`,
    '',
    ...notRun.slice(0, maxDetailed).map((r) => `- ${mdCode(resultName(r.id, r.collection))} ${mdText(r.title)}`),
    ...(more > 0 ? [`- …and ${more} more: see restprobe-report.json.`] : []),
    '',
  ];
}

function leftoverSection(report: Report): string[] {
  if (report.leftovers.length === 0 && report.cleanupBeyondCap === 0) return [];
  return [
    `## Left on the target (${report.leftovers.length})`,
    '',
    ...leftoverLines(report).map((l) => `- ${mdText(l)}`),
    ...(cleanupNote(report) ? ['', `**${mdText(cleanupNote(report)!)}**`] : []),
    '',
  ];
}

function failureCauseSection(report: Report): string[] {
  if (report.failureCauses.length === 0) return [];
  return ['## Findings, by root cause', '', ...failureCauseLines(report).map((l) => `- ${mdText(l)}`), ''];
}

function rootCauseSection(report: Report): string[] {
  if (report.rootCauses.length === 0) return [];
  return ['## Could not run, by root cause', '', ...rootCauseLines(report).map((l) => `- ${mdText(l)}`), ''];
}

function baselineSection(report: Report): string[] {
  if (report.baseline === undefined) return [];
  const groups = baselineGroups(report.baseline).flatMap((g) => [`### ${mdText(g.title)} (${g.lines.length})`, '', ...g.lines.map((l) => `- ${mdText(l)}`), '']);
  return ['## Compared with the baseline', '', mdText(baselineLine(report.baseline)), '', ...groups];
}

function warningsSection(report: Report): string[] {
  const warnings = nonFailingWarnings(report);
  if (warnings.length === 0) return [];
  return [`## Warnings (${warnings.length})`, '', ...warnings.map((r) => `- ${mdCode(resultName(r.id, r.collection))} ${mdText(capped(r.message))}`), ''];
}

/**
 * @example
 * ```ts
 * await writeFile('restprobe-report.md', renderMarkdown(report));
 * ```
 */
export function renderMarkdown(report: Report): string {
  const facts = [
    `**Target:** ${mdCode(report.target.baseUrl)}`,
    `**Started:** ${report.startedAt}`,
    `**Duration:** ${formatDuration(report.durationMs)}`,
    `**Sent:** ${requestsSent(report)}`,
    `**Seed:** ${report.seed}`,
    `**Strict:** ${report.strict ? 'yes' : 'no'}`,
    `restprobe ${mdText(report.tool.version)}`,
  ];
  const notRun = report.interrupted === undefined ? '' : ` (${report.interrupted.notRun.length} of ${report.checks.length + report.interrupted.notRun.length} checks not run)`;
  const skipped = report.summary.skip > 0 ? ` (${report.summary.skip} of ${report.checks.length} checks skipped)` : '';
  return [
    `# restprobe: ${verdictTitle[verdict(report)]}${notRun}${baselineVerdict(report) ? ` — ${baselineVerdict(report)}` : ''}${skipped}`,
    '',
    facts.join(' · '),
    '',
    `**Totals:** ${totalsLine(report.summary)}`,
    '',
    ...sectionTable(report),
    '',
    ...(interruptionLine(report) ? [`> **${mdText(interruptionLine(report)!)}**`, ''] : []),
    ...(damageLine(report) ? [`> **${mdText(damageLine(report)!)}**`, ''] : []),
    // What was left on the target is the reader's to act on first; then findings, the largest first.
    ...leftoverSection(report),
    ...baselineSection(report),
    ...failureCauseSection(report),
    ...failuresSection(report),
    ...rootCauseSection(report),
    ...warningsSection(report),
    ...skippedSection(report),
    ...notRunSection(report),
  ].join('\n');
}
