/**
 * Writes the report files. Every file's text passes through {@link scrubSecrets} on the
 * way out, whatever the writer did before.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { RestprobeError } from '../errors.js';
import { join } from 'node:path';
import type { Secret } from '../model/profile.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import type { Report } from './model.js';
import { scrubSecrets } from '../secrets-scrub.js';

/** Formats this module writes, in the order they are written. */
export const reportFormats = ['json', 'junit', 'md'] as const;
export type ReportFormat = (typeof reportFormats)[number];

const writers: Record<ReportFormat, { file: string; render: (report: Report) => string }> = {
  json: { file: 'restprobe-report.json', render: renderJson },
  junit: { file: 'restprobe-junit.xml', render: renderJunit },
  md: { file: 'restprobe-report.md', render: renderMarkdown },
};

/**
 * Whether a `--format` value names a format this module writes.
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
 * await prepareReportDir('reports'); // reports/restprobe-*.{json,xml,md} of earlier runs are gone
 * ```
 */
export async function prepareReportDir(dir: string): Promise<void> {
  const probe = join(dir, `.restprobe-write-test.${process.pid}`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(probe, '');
    await rm(probe);
    await Promise.all(Object.values(writers).map(({ file }) => rm(join(dir, file), { force: true })));
  } catch (err) {
    const code = (err as { code?: string }).code;
    throw new RestprobeError('ERR_USAGE', `cannot write reports to ${dir}${code ? ` (${code})` : ''}: choose another --report-dir`, [], { cause: err });
  }
}

/**
 * Writes one file per format (each at most once) and returns their paths.
 * Each file is written under a temporary name and renamed, so a reader never sees half a report.
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
  for (const format of reportFormats.filter((f) => options.formats.includes(f))) {
    const { file, render } = writers[format];
    const path = join(options.dir, file);
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, scrubSecrets(render(report), options.secrets));
    await rename(temporary, path);
    paths.push(path);
  }
  return paths;
}
