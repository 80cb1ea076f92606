/**
 * The exit code a finished report gives `run` and `merge-reports` alike: 130 when a signal
 * interrupted the run (whatever it found before), 1 when it failed (or regressed against
 * its baseline), 3 when a check could not run, 0 otherwise; a report in which nothing was
 * judged is a usage error (exit 2), never green.
 */
import { ExitCode, RestprobeError } from '../errors.js';
import { reportFailed, type Report } from '../report/model.js';
import { judgedCount, skipGroupLines } from '../report/wording.js';

/**
 * @example
 * ```ts
 * process.exitCode = exitCodeOfReport(report); // 1
 * ```
 */
export function exitCodeOfReport(report: Report): number {
  if (report.interrupted !== undefined) return ExitCode.interrupted;
  if (reportFailed(report)) return ExitCode.failures;
  if (judgedCount(report) === 0 && report.summary.error === 0) {
    // A run that judged nothing is not green: say what would let it judge.
    throw new RestprobeError('ERR_USAGE', `no check judged the target: all ${report.summary.skip} selected checks were skipped; give a config that enables them (see docs/config.md)`, skipGroupLines(report));
  }
  return report.summary.error > 0 ? ExitCode.notJudged : ExitCode.ok;
}
