/**
 * The JUnit XML report for CI dashboards: one `<testsuite>` per conventions section, one
 * `<testcase>` per check. Warnings pass (with a `WARN:` line in system-out) unless the
 * run is strict, where they are failures too. The checks an interrupted run never
 * started are skipped testcases saying so, so a dashboard never counts them as passed.
 */
import { sections, type Section } from '../model/section.js';
import { resultName, type CheckResult } from '../model/result.js';
import { capped, evidenceText } from './evidence-text.js';
import { isFailing, type Report } from './model.js';
import { cleanupNote, leftoverLines, notRunResults, skipReason } from './wording.js';
import { xmlAttr, xmlText } from './xml-escape.js';

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

/** `name="value"` pairs, escaped. */
const attrs = (pairs: Record<string, string | number>): string =>
  Object.entries(pairs)
    .map(([k, v]) => `${k}="${xmlAttr(String(v))}"`)
    .join(' ');

/** The children of a testcase for its outcome; empty for a plain pass. */
function outcomeElements(result: CheckResult, strict: boolean): string[] {
  const message = capped(result.message);
  switch (result.status) {
    case 'pass':
      return [];
    case 'skip':
      return [`<skipped ${attrs({ message: skipReason(result) })}/>`];
    case 'error':
      return [`<error ${attrs({ message, type: 'error' })}>${xmlText(evidenceText(result))}</error>`];
    case 'fail':
      return [`<failure ${attrs({ message, type: result.severity })}>${xmlText(evidenceText(result))}</failure>`];
    case 'warn': {
      const out = [`<system-out>${xmlText(`WARN: ${message}\n${evidenceText(result)}`)}</system-out>`];
      if (isFailing(result, strict)) {
        out.unshift(`<failure ${attrs({ message: `WARN: ${message}`, type: result.severity })}>${xmlText(evidenceText(result))}</failure>`);
      }
      return out;
    }
  }
}

function testcase(result: CheckResult, strict: boolean): string {
  const head = attrs({ classname: `restprobe.${result.section}`, name: `${resultName(result.id, result.collection)}: ${result.title}`, time: seconds(result.durationMs) });
  const children = outcomeElements(result, strict);
  if (children.length === 0) return `    <testcase ${head}/>`;
  return [`    <testcase ${head}>`, ...children.map((c) => `      ${c}`), '    </testcase>'].join('\n');
}

/** JUnit's counters for a set of results. */
function counts(results: readonly CheckResult[], strict: boolean): Record<string, number> {
  return {
    tests: results.length,
    failures: results.filter((r) => isFailing(r, strict)).length,
    errors: results.filter((r) => r.status === 'error').length,
    skipped: results.filter((r) => r.status === 'skip').length,
  };
}

const totalTime = (results: readonly CheckResult[]): string => seconds(results.reduce((sum, r) => sum + r.durationMs, 0));

/** A section's results, with the checks an interrupted run never started (skipped, saying so). */
function testsuite(report: Report, section: Section, results: readonly CheckResult[]): string {
  const head = attrs({
    name: `${section} ${sections[section]}`,
    ...counts(results, report.strict),
    time: totalTime(results),
    timestamp: report.startedAt,
  });
  const properties = [
    '    <properties>',
    `      <property ${attrs({ name: 'target', value: report.target.baseUrl })}/>`,
    `      <property ${attrs({ name: 'seed', value: report.seed })}/>`,
    `      <property ${attrs({ name: 'strict', value: String(report.strict) })}/>`,
    `      <property ${attrs({ name: 'requests', value: report.requests })}/>`,
    ...(report.waits !== undefined && report.waits.count > 0 ? [`      <property ${attrs({ name: 'waitedMs', value: report.waits.wallMs })}/>`] : []),
    ...(report.interrupted ? [`      <property ${attrs({ name: 'interrupted', value: report.interrupted.signal })}/>`] : []),
    '    </properties>',
  ];
  return [`  <testsuite ${head}>`, ...properties, ...results.map((r) => testcase(r, report.strict)), '  </testsuite>'].join('\n');
}

/** Items left on the target: an error a dashboard shows, not hidden in a log. */
function cleanupSuite(report: Report): string[] {
  const note = cleanupNote(report);
  if (note === undefined) return [];
  const head = attrs({ name: 'restprobe cleanup', tests: 1, failures: 0, errors: 1, skipped: 0, time: '0.000', timestamp: report.startedAt });
  return [
    `  <testsuite ${head}>`,
    `    <testcase ${attrs({ classname: 'restprobe.cleanup', name: 'the run leaves the target as it found it', time: '0.000' })}>`,
    `      <error ${attrs({ message: note, type: 'leftovers' })}>${xmlText(leftoverLines(report).join('\n'))}</error>`,
    '    </testcase>',
    '  </testsuite>',
  ];
}

/**
 * @example
 * ```ts
 * await writeFile('restprobe-junit.xml', renderJunit(report));
 * ```
 */
export function renderJunit(report: Report): string {
  // Every selected check is a testcase: those an interrupted run never started are skipped, with the reason.
  const all = [...report.checks, ...notRunResults(report)];
  const head = attrs({ name: 'restprobe', ...counts(all, report.strict), time: seconds(report.durationMs), timestamp: report.startedAt });
  const inOrder = (Object.keys(sections) as Section[]).filter((section) => all.some((r) => r.section === section));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites ${head}>`,
    ...inOrder.map((section) => testsuite(report, section, all.filter((r) => r.section === section))),
    ...cleanupSuite(report),
    '</testsuites>',
    '',
  ].join('\n');
}
