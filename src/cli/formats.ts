/** List-valued flags as the CLI takes them: repeatable, or comma-separated, or both. */
import { RestprobeError } from '../errors.js';
import { isReportFormat, reportFormats, type ReportFormat } from '../report/write.js';

/**
 * The non-empty, trimmed items of repeated and comma-separated values.
 *
 * @example
 * ```ts
 * splitList(['ERR,END', ' LIM ']); // ['ERR', 'END', 'LIM']
 * ```
 */
export function splitList(values: readonly string[]): string[] {
  return values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v.length > 0);
}

/**
 * `--format`'s value as formats; ERR_USAGE naming any unknown one.
 *
 * @example
 * ```ts
 * parseFormats('json,html'); // ['json', 'html']
 * ```
 */
export function parseFormats(value: string): ReportFormat[] {
  const names = splitList([value]);
  const bad = names.filter((n) => !isReportFormat(n));
  if (bad.length > 0) throw new RestprobeError('ERR_USAGE', `--format: unknown format ${bad.map((b) => `"${b}"`).join(', ')}; expected a comma-separated list of ${reportFormats.join(', ')}`);
  return names.filter(isReportFormat);
}
