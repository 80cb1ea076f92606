/**
 * Where a finished report goes, for `run` and `merge-reports` alike: the report files,
 * GitHub annotations on stdout (`--format github`), and the job summary when
 * `GITHUB_STEP_SUMMARY` is set. Everything passes the secret scrub.
 */
import { appendStepSummary } from '../report/step-summary.js';
import { renderGithubAnnotations } from '../report/github.js';
import type { Report } from '../report/model.js';
import { writeReports, type WriteReportsOptions } from '../report/write.js';
import { scrubReport } from '../report/scrub.js';

/**
 * Writes and prints the report; returns the paths written (the job summary last, when written).
 *
 * @example
 * ```ts
 * const paths = await publishReports(report, { dir: 'reports', formats: ['json', 'github'], secrets }, process.stdout);
 * ```
 */
export async function publishReports(report: Report, options: WriteReportsOptions, out: NodeJS.WritableStream, env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const paths = await writeReports(report, options);
  if (options.formats.includes('github')) out.write(renderGithubAnnotations(scrubReport(report, options.secrets)));
  const summary = await appendStepSummary(report, options.secrets, env);
  return summary === undefined ? paths : [...paths, `${summary} (GitHub job summary)`];
}
