/** List-valued flags as the CLI takes them: repeatable, or comma-separated, or both. */
import { RestprobeError } from '../errors.js';
import { splitList } from '../engine/select.js';
import { isReportFormat, reportFormats, type ReportFormat } from '../report/write.js';

/** The CLI's list flags split as the engine splits selectors. */
export { splitList };

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
  // An empty list (an unset variable in a CI job) would write no report and exit 0.
  if (names.length === 0) throw new RestprobeError('ERR_USAGE', `--format: no format given; expected a comma-separated list of ${reportFormats.join(', ')}`);
  const bad = names.filter((n) => !isReportFormat(n));
  if (bad.length > 0) throw new RestprobeError('ERR_USAGE', `--format: unknown format ${bad.map((b) => `"${b}"`).join(', ')}; expected a comma-separated list of ${reportFormats.join(', ')}`);
  return names.filter(isReportFormat);
}
