/**
 * What earlier runs left in a report directory's ledger: `restprobe run` says so before it
 * starts (and keeps that ledger, appending its own run), so nothing an earlier run
 * created, and a killed run could not delete, goes unmentioned.
 */
import { join } from 'node:path';
import { countOutstanding, ledgerFileName, lineNumbers, readLedger } from '../engine/ledger-file.js';
import { RestprobeError } from '../errors.js';

/** An argument as a POSIX shell reads it back (quoted only when it must be). */
const shellWord = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * The command that deletes what runs in `dir` left, as a user would type it.
 *
 * @example
 * ```ts
 * cleanupCommandLine('reports', 'restprobe.config.json'); // 'restprobe cleanup reports -c restprobe.config.json'
 * ```
 */
export function cleanupCommandLine(dir: string, config?: string, baseUrl?: string): string {
  return ['restprobe cleanup', shellWord(dir), ...(baseUrl === undefined ? [] : [shellWord(baseUrl)]), ...(config === undefined ? [] : ['-c', shellWord(config)])].join(' ');
}

/**
 * A line about what earlier runs in `dir` left (none when they left nothing), one about the
 * ledger's lines that are no ledger entry (none when every line is one), and whether the
 * ledger may start afresh: only when every earlier run ended and left nothing, and every
 * line was read (a line it cannot read may record an item: the file is kept).
 *
 * @example
 * ```ts
 * await earlierLeftovers('reports');
 * // { fresh: false, line: 'an earlier run in reports (started 2025-…, marks restprobe-1a2b3c4d) left 3 items on http://… (1 certain, 2 possible), listed in reports/restprobe-ledger.jsonl' }
 * ```
 */
export async function earlierLeftovers(dir: string): Promise<{ readonly fresh: boolean; readonly line?: string; readonly unreadable?: string }> {
  const path = join(dir, ledgerFileName);
  const { runs, unreadableLines } = await readLedger(path).catch((err: unknown) => {
    throw new RestprobeError('ERR_USAGE', `cannot read ${path} (${(err as { code?: string }).code ?? String(err)}), the ledger of earlier runs: choose another --report-dir`, [], { cause: err });
  });
  const one = unreadableLines.length === 1;
  const unreadable = unreadableLines.length === 0 ? undefined : `${lineNumbers(unreadableLines)} of ${path} ${one ? 'is' : 'are'} no ledger entry: kept as ${one ? 'it is' : 'they are'}, this run's entries appended after ${one ? 'it' : 'them'}`;
  const count = countOutstanding(runs);
  if (count.total === 0) return { fresh: unreadable === undefined && runs.every((r) => r.ended), ...(unreadable !== undefined && { unreadable }) };
  const leaving = runs.filter((r) => r.outstanding.length > 0);
  const which = leaving.map((r) => `started ${r.startedAt}${r.ended ? '' : ', killed before its cleanup ended'}, marks ${r.mark}`).join('; ');
  const targets = [...new Set(leaving.map((r) => r.baseUrl))].join(' and ');
  const runsWord = leaving.length === 1 ? 'an earlier run' : `${leaving.length} earlier runs`;
  return { fresh: false, line: `${runsWord} in ${dir} (${which}) left ${count.total} ${count.total === 1 ? 'item' : 'items'} on ${targets} (${count.certain} certain, ${count.possible} possible), listed in ${path}`, ...(unreadable !== undefined && { unreadable }) };
}
