/**
 * `--format github`: GitHub Actions workflow commands (`::error title=…::message`) that
 * the runner turns into annotations on the run and the pull request. Compared with a
 * baseline, only what got worse is an error; known failures are warnings.
 */
import { resultName, type CheckResult } from '../model/result.js';
import { capped, reproducingCurl } from './evidence-text.js';
import type { BaselineChange, Report } from './model.js';
import { interruptionLine, needsAttention, nonFailingWarnings, oneLine } from './wording.js';
import { stripControlChars } from './control-chars.js';

type Level = 'error' | 'warning';

/** A command's message: `%`, CR and LF escaped as the runner expects (so it stays one command). */
const escapeData = (text: string): string => stripControlChars(text).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/** A command's property value: its data escaping, plus `:` and `,`, which end a property. */
const escapeProperty = (text: string): string => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

const command = (level: Level, title: string, message: string): string => `::${level} title=${escapeProperty(oneLine(title))}::${escapeData(message)}`;

/** The annotation's text: what was found, the rule, and the curl that reproduces it. */
function detail(result: CheckResult, lead = ''): string {
  const curl = reproducingCurl(result);
  return [`${lead}${capped(result.message)}`, `Rule: ${result.rule}`, ...(curl ? [`Reproduce: ${capped(oneLine(curl))}`] : [])].join('\n');
}

/** Annotations for a run compared with a baseline: regressions are errors, known failures warnings. */
function againstBaseline(report: Report): Annotation[] {
  const byName = new Map(report.checks.map((r) => [resultName(r.id, r.collection), r]));
  const about = (c: BaselineChange, level: Level, lead: string): Annotation => {
    const result = byName.get(c.name);
    return { level, title: `restprobe ${c.name}`, message: result ? detail(result, lead) : `${lead}judged ${c.was ?? '?'} in the baseline, not run now` };
  };
  const { newFailures, vanished, nowSkipped, stillFailing } = report.baseline!;
  return [
    ...newFailures.map((c) => about(c, 'error', `new failure (was ${c.was ?? 'not in the baseline'}): `)),
    ...[...vanished, ...nowSkipped].map((c) => about(c, 'error', 'coverage lost: ')),
    ...stillFailing.map((c) => about(c, 'warning', 'known failure (in the baseline too): ')),
  ];
}

/** GitHub shows ten annotations of each level per step: past them, one line says where the rest are. */
export const annotationsShown = 10;

interface Annotation {
  readonly level: Level;
  readonly title: string;
  readonly message: string;
}

/**
 * Failures (and warnings) that share a cause at the target: one annotation for each cause,
 * the largest first, naming its checks and showing the first one's finding; then each
 * other finding on its own.
 */
function findingsByCause(report: Report, results: readonly CheckResult[], level: Level): Annotation[] {
  const byName = new Map(results.map((r) => [resultName(r.id, r.collection), r]));
  const causes = report.failureCauses.filter((c) => c.checks.some((name) => byName.has(name)));
  const grouped = new Set(causes.flatMap((c) => c.checks));
  return [
    ...causes.map((c) => ({ level, title: `restprobe: one cause, ${c.checks.length} findings`, message: `${capped(c.cause)}\nChecks: ${capped(c.checks.join(', '))}\nFirst: ${detail(byName.get(c.checks.find((name) => byName.has(name))!)!)}` })),
    ...[...byName].filter(([name]) => !grouped.has(name)).map(([name, r]) => ({ level, title: `restprobe ${name}`, message: detail(r) })),
  ];
}

/** Whether a result is in a cause group with one of `others`. */
function sharesCauseWith(report: Report, result: CheckResult, others: readonly CheckResult[]): boolean {
  const names = new Set(others.map((r) => resultName(r.id, r.collection)));
  return report.failureCauses.some((c) => c.checks.includes(resultName(result.id, result.collection)) && c.checks.some((name) => names.has(name)));
}

/** The checks that could not run, one annotation per root cause (largest first), naming the checks. */
function causes(report: Report): Annotation[] {
  return report.rootCauses.map((c) => ({
    level: 'error' as const,
    title: `restprobe: ${c.checks.length} ${c.checks.length === 1 ? 'check' : 'checks'} could not run`,
    message: `${capped(c.cause)}\nChecks: ${capped(c.checks.join(', '))}`,
  }));
}

/** Ten of a level at most: the first nine, then one saying how many more the job summary and the reports list. */
function withinLimit(annotations: readonly Annotation[], level: Level): Annotation[] {
  const of = annotations.filter((a) => a.level === level);
  if (of.length <= annotationsShown) return of;
  const more = of.length - (annotationsShown - 1);
  return [...of.slice(0, annotationsShown - 1), { level, title: `restprobe: ${more} more`, message: `${more} more ${level === 'error' ? 'findings' : 'warnings'} (${capped(of.slice(annotationsShown - 1).map((a) => a.title.replace(/^restprobe:? /, '')).join('; '))}) are in the job summary and the reports` }];
}

/**
 * The workflow commands a reader must look at, the largest cause first: failures (with a
 * baseline, new failures and lost coverage first), then one per root cause of the checks
 * that could not run, then warnings; ten of each level at most (GitHub shows no more), the
 * last saying how many more the job summary lists.
 *
 * @example
 * ```ts
 * renderGithubAnnotations(report);
 * // '::error title=restprobe ERR-unknown-path-404::found status 200, expected 404%0ARule: …\n'
 * ```
 */
export function renderGithubAnnotations(report: Report): string {
  const interrupted = interruptionLine(report);
  const failing = needsAttention(report).filter((r) => r.status !== 'error');
  const findings: Annotation[] = [
    ...(interrupted ? [{ level: 'error' as const, title: 'restprobe interrupted', message: `${interrupted}: the run is incomplete` }] : []),
    ...(report.baseline !== undefined
      ? againstBaseline(report)
      : [
          ...findingsByCause(report, failing, 'error'),
          ...causes(report),
          // A warning whose cause a failure shares is in that failure's annotation already.
          ...findingsByCause(report, nonFailingWarnings(report).filter((r) => !sharesCauseWith(report, r, failing)), 'warning'),
        ]),
  ];
  return [...withinLimit(findings, 'error'), ...withinLimit(findings, 'warning')].map((a) => `${command(a.level, a.title, a.message)}\n`).join('');
}
