/**
 * Writes the report files. Every file's text passes through {@link scrubSecrets} on the
 * way out, whatever the writer did before.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
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
