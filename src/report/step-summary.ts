/**
 * GitHub Actions' job summary: when `GITHUB_STEP_SUMMARY` names a file, the run appends
 * its Markdown report there (scrubbed), and the summary page of the workflow run shows it.
 */
import { appendFile } from 'node:fs/promises';
import type { Secret } from '../model/profile.js';
import { scrubReport } from './scrub.js';
import { renderMarkdown } from './markdown.js';
import type { Report } from './model.js';

/**
 * Appends the Markdown report to `$GITHUB_STEP_SUMMARY`; returns the file, or undefined
 * when the variable is unset or empty (not on GitHub Actions).
 *
 * @example
 * ```ts
 * await appendStepSummary(report, profile.secrets); // '/home/runner/work/_temp/_runner_file_commands/step_summary_…'
 * ```
 */
export async function appendStepSummary(report: Report, secrets: readonly Secret[], env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const file = env['GITHUB_STEP_SUMMARY'];
  if (file === undefined || file === '') return undefined;
  await appendFile(file, `${renderMarkdown(scrubReport(report, secrets))}\n`);
  return file;
}
