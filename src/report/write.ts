/**
 * Writes the report files. Every writer renders the report after {@link scrubReport}: what
 * the run found is scrubbed of secrets, and what names the checks is left whole.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { RestprobeError } from '../errors.js';
import { dirname, join } from 'node:path';
import type { Secret } from '../model/profile.js';
import { renderJson } from './json.js';
import { renderHtml } from './html.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import type { Report } from './model.js';
import { scrubReport } from './scrub.js';
import { makeDir } from './make-dir.js';

/** One file a format writes, relative to the report directory. */
export interface ReportFile {
  readonly path: string;
  readonly content: string;
}

/** A format written to the report directory: what it renders, and the file or folder it owns there. */
interface FileWriter {
  /** The file, or the folder of files, this format writes; an earlier run's is removed before a run. */
  readonly output: string;
  readonly render: (report: Report) => readonly ReportFile[] | Promise<readonly ReportFile[]>;
}

const single = (file: string, render: (report: Report) => string): FileWriter => ({ output: file, render: (report) => [{ path: file, content: render(report) }] });

const writers = {
  json: single('restprobe-report.json', renderJson),
  junit: single('restprobe-junit.xml', renderJunit),
  md: single('restprobe-report.md', renderMarkdown),
  html: single('restprobe-report.html', renderHtml),
  // Loaded only when asked for: allure-js-commons costs start-up time every other run would pay.
  allure: { output: 'allure-results', render: async (report) => (await import('./allure.js')).renderAllure(report) },
} satisfies Record<string, FileWriter>;

/** Formats written as files, in the order they are written. */
export type FileFormat = keyof typeof writers;

/**
 * Every `--format` value: the file formats, and `github` (annotations printed for GitHub
 * Actions, no file).
 */
export const reportFormats = ['json', 'junit', 'md', 'html', 'allure', 'github'] as const;
export type ReportFormat = (typeof reportFormats)[number];

const isFileFormat = (format: ReportFormat): format is FileFormat => format in writers;

/**
 * Whether a `--format` value names a format restprobe writes.
 *
 * @example
 * ```ts
 * 'json,md'.split(',').filter(isReportFormat); // ['json', 'md']
 * ```
 */
export function isReportFormat(name: string): name is ReportFormat {
  return (reportFormats as readonly string[]).includes(name);
}

export interface WriteReportsOptions {
  /** Directory to write into; created when missing. */
  readonly dir: string;
  readonly formats: readonly ReportFormat[];
  /** Values to scrub from every file. */
  readonly secrets: readonly Secret[];
}

/**
 * Before a run: makes the report directory, proves it writable, and removes the reports an
 * earlier run left there (of every format), so CI can never publish a stale green report.
 * Throws ERR_USAGE, naming the directory, when it cannot be written.
 *
 * @example
 * ```ts
 * await prepareReportDir('reports'); // reports/restprobe-*.{json,xml,md,html} and allure-results/ of earlier runs are gone
 * ```
 */
export async function prepareReportDir(dir: string): Promise<void> {
  // An empty one (an unset variable) would pass the probe below in the working directory, then fail to be made after the run.
  if (dir.trim() === '') throw new RestprobeError('ERR_USAGE', '--report-dir: no directory given; name one (default reports)');
  const probe = join(dir, `.restprobe-write-test.${process.pid}`);
  try {
    // Not mkdir -p: it never returns for a path under /proc (see make-dir.ts).
    await makeDir(dir);
    await writeFile(probe, '');
    await rm(probe);
    await Promise.all(Object.values(writers).map(({ output }) => rm(join(dir, output), { recursive: true, force: true })));
  } catch (err) {
    const code = (err as { code?: string }).code;
    throw new RestprobeError('ERR_USAGE', `cannot write reports to ${dir}${code ? ` (${code})` : ''}: choose another --report-dir`, [], { cause: err });
  }
}

/**
 * Writes each file format's output (each at most once) and returns their paths (a
 * folder's path for a format that writes several files). Each file is written under a
 * temporary name and renamed, so a reader never sees half a report; every writer renders
 * the report scrubbed of the secrets.
 *
 * @example
 * ```ts
 * await writeReports(report, { dir: 'reports', formats: ['json', 'junit'], secrets: profile.secrets });
 * // ['reports/restprobe-report.json', 'reports/restprobe-junit.xml']
 * ```
 */
export async function writeReports(report: Report, options: WriteReportsOptions): Promise<string[]> {
  await mkdir(options.dir, { recursive: true });
  const paths: string[] = [];
  const safe = scrubReport(report, options.secrets);
  for (const format of reportFormats.filter((f) => options.formats.includes(f)).filter(isFileFormat)) {
    const { output, render } = writers[format];
    for (const file of await render(safe)) {
      const path = join(options.dir, file.path);
      const temporary = `${path}.${process.pid}.tmp`;
      await mkdir(dirname(path), { recursive: true });
      await writeFile(temporary, file.content);
      await rename(temporary, path);
    }
    paths.push(join(options.dir, output));
  }
  return paths;
}
