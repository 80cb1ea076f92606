/**
 * `restprobe merge-reports DIR…`: reads the restprobe-report.json of each shard (a report
 * directory, or the file itself), merges them into the whole run's report, writes it in
 * every format asked for (and compares it with `--baseline`), prints the summary, and
 * exits as the whole run would have. The shards' reports were scrubbed when written.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { catalogue } from '../../suites/catalogue.js';
import { readBaseline, withBaseline } from '../report/baseline.js';
import { mergeReports } from '../report/merge.js';
import { readReport } from '../report/read.js';
import { shapeBaselineOf } from '../report/shape-baseline.js';
import { judgeRecorded } from '../engine/rejudge.js';
import { renderSummary } from '../report/terminal.js';
import { prepareReportDir } from '../report/write.js';
import { exitCodeOfReport } from './exit-code.js';
import { parseFormats } from './formats.js';
import { publishReports } from './publish.js';

export interface MergeOptions {
  readonly reportDir: string;
  readonly format: string;
  readonly baseline?: string;
}

/** A report directory's restprobe-report.json, or the path itself when it is a file. */
async function reportFile(path: string): Promise<string> {
  const isDir = await stat(path).then((s) => s.isDirectory(), () => false);
  return isDir ? join(path, 'restprobe-report.json') : path;
}

/**
 * Merges and reports; returns the exit code. Throws RestprobeError for reports that are
 * unreadable, invalid, or not the shards of one run.
 *
 * @example
 * ```ts
 * await mergeCommand(['shard-1', 'shard-2'], { reportDir: 'reports', format: 'json,junit,md,html' });
 * ```
 */
export async function mergeCommand(inputs: readonly string[], opts: MergeOptions, out: NodeJS.WriteStream = process.stdout): Promise<number> {
  const formats = parseFormats(opts.format);
  const files = await Promise.all(inputs.map(reportFile));
  const shards = await Promise.all(files.map((f) => readReport(f, 'merge-reports:')));
  const previous = opts.baseline === undefined ? undefined : await readBaseline(opts.baseline);
  // Shards run without --baseline recorded what they could not judge (response shapes): the checks' own code judges it now, as a run with it would have.
  const given = previous === undefined ? undefined : { baseline: shapeBaselineOf(previous) };
  const judged = given === undefined ? shards : shards.map((s) => (s.baseline !== undefined ? s : { ...s, checks: judgeRecorded(s.checks, catalogue, given, 'merge-reports --baseline') }));
  const report = withBaseline(mergeReports(judged, files), previous, new Set(catalogue.map((c) => c.id)));
  // Only now: the output directory may be one of the inputs.
  await prepareReportDir(opts.reportDir);
  const paths = await publishReports(report, { dir: opts.reportDir, formats, secrets: [] }, out);
  const color = out.isTTY === true && !process.env['NO_COLOR'];
  out.write(`restprobe: merged ${shards.length} shards\n\n${renderSummary(report, { color, reportPaths: paths })}\n`);
  return exitCodeOfReport(report);
}
