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
function againstBaseline(report: Report): string[] {
  const byName = new Map(report.checks.map((r) => [resultName(r.id, r.collection), r]));
  const about = (c: BaselineChange, level: Level, lead: string): string => {
    const result = byName.get(c.name);
    return command(level, `restprobe ${c.name}`, result ? detail(result, lead) : `${lead}judged ${c.was ?? '?'} in the baseline, not run now`);
  };
  const { newFailures, vanished, nowSkipped, stillFailing } = report.baseline!;
  return [
    ...newFailures.map((c) => about(c, 'error', `new failure (was ${c.was ?? 'not in the baseline'}): `)),
    ...[...vanished, ...nowSkipped].map((c) => about(c, 'error', 'coverage lost: ')),
    ...stillFailing.map((c) => about(c, 'warning', 'known failure (in the baseline too): ')),
  ];
}

/**
 * One workflow command per result a reader must look at (failures, errors, warnings), each
 * on its own line.
 *
 * @example
 * ```ts
 * renderGithubAnnotations(report);
 * // '::error title=restprobe ERR-unknown-path-404::found status 200, expected 404%0ARule: …\n'
 * ```
 */
export function renderGithubAnnotations(report: Report): string {
  const interrupted = interruptionLine(report);
  const lines = [
    ...(interrupted ? [command('error', 'restprobe interrupted', `${interrupted}: the run is incomplete`)] : []),
    ...(report.baseline !== undefined
      ? againstBaseline(report)
      : [
          ...needsAttention(report).map((r) => command('error', `restprobe ${resultName(r.id, r.collection)}`, detail(r, r.status === 'error' ? 'could not run: ' : ''))),
          ...nonFailingWarnings(report).map((r) => command('warning', `restprobe ${resultName(r.id, r.collection)}`, detail(r))),
        ]),
  ];
  return lines.map((l) => `${l}\n`).join('');
}
