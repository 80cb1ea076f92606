/** The JSON report: the {@link Report} model as it is, for machines and `--baseline`. */
import type { Report } from './model.js';

/**
 * @example
 * ```ts
 * JSON.parse(renderJson(report)).summary.fail; // 2
 * ```
 */
export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
