/**
 * `restprobe cleanup <report-dir>`: deletes what the runs that wrote the directory's ledger
 * (`restprobe-ledger.jsonl`) still own on the target, whatever ended them (a third
 * Ctrl-C, SIGKILL, a crash), by the rules a run's own cleanup follows; prints what it
 * deleted and what remains, and appends the outcome to the ledger.
 */
import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { loadProfile } from '../config/load.js';
import { countOutstanding, ledgerFileName, LedgerFile, lineNumbers, readLedger } from '../engine/ledger-file.js';
import { cleanUpLedger } from '../engine/ledger-cleanup.js';
import { ExitCode, RestprobeError } from '../errors.js';
import { clientForProfile } from '../http/client.js';
import { scrubSecrets } from '../secrets-scrub.js';
import { oneLine } from '../report/wording.js';

export interface CleanupOptions {
  readonly config?: string;
  readonly proxy?: string;
  readonly ca?: string;
}

/** The report directory a path names: the directory itself, or the ledger file's. */
async function reportDirOf(path: string): Promise<string> {
  const isFile = await stat(path).then((s) => s.isFile(), () => false);
  return isFile && basename(path) === ledgerFileName ? dirname(path) : path;
}

/**
 * Cleans up and returns the exit code: 0 when the ledger owns nothing more on the target,
 * 1 when something remains (listed) or some of its lines could not be read (what they
 * recorded is not known). Throws RestprobeError for a directory without a ledger, a file
 * none of whose lines is a ledger entry, a bad config, or a target that cannot be reached.
 *
 * @example
 * ```ts
 * process.exitCode = await cleanupCommand('reports', undefined, { config: 'restprobe.config.json' });
 * ```
 */
export async function cleanupCommand(path: string, baseUrl: string | undefined, opts: CleanupOptions, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const dir = await reportDirOf(path);
  const file = join(dir, ledgerFileName);
  const exists = await stat(file).then(() => true, () => false);
  if (!exists) throw new RestprobeError('ERR_USAGE', `no ledger in ${dir} (${ledgerFileName}): give the --report-dir of the run to clean up after`);
  const { runs, unreadableLines } = await readLedger(file);
  if (runs.length === 0 && unreadableLines.length > 0) throw new RestprobeError('ERR_USAGE', `${file} is not a restprobe ledger: ${lineNumbers(unreadableLines)} ${unreadableLines.length === 1 ? 'is' : 'are'} no ledger entry; give the --report-dir of the run to clean up after`);
  // A line the ledger cannot read may have recorded an item: never reported as all clean.
  const unread = unreadableLines.length > 0 ? `; ${lineNumbers(unreadableLines)} of ${file} ${unreadableLines.length === 1 ? 'is' : 'are'} no ledger entry: what ${unreadableLines.length === 1 ? 'it' : 'they'} recorded, if anything, is not known and not cleaned up` : '';
  const count = countOutstanding(runs);
  if (count.total === 0) {
    out.write(`restprobe cleanup: nothing to delete: the runs in ${file} own nothing on the target${unread}\n`);
    return unread === '' ? ExitCode.ok : ExitCode.failures;
  }
  // The target the runs were against, unless the command line names one: the ledger's, when its runs agree.
  const targets = [...new Set(runs.filter((r) => r.outstanding.length > 0).map((r) => r.baseUrl))];
  const target = baseUrl ?? (targets.length === 1 ? targets[0] : undefined);
  const profile = await loadProfile({ configPath: opts.config, ...(target !== undefined && { baseUrl: target }), ...(opts.proxy !== undefined && { proxy: opts.proxy }), ...(opts.ca !== undefined && { ca: opts.ca }) });
  if (profile.safety.readOnly) throw new RestprobeError('ERR_USAGE', 'the config is read-only (safety.readOnly): cleanup sends DELETE; give a config that lets restprobe write');
  out.write(`restprobe cleanup: ${count.total} ${count.total === 1 ? 'item' : 'items'} in ${file} (${count.certain} certain, ${count.possible} possible) on ${profile.baseUrl}\n`);
  const client = clientForProfile(profile);
  const journal = LedgerFile.resume(dir, profile.secrets);
  const say = (line: string): void => void out.write(`${scrubSecrets(line, profile.secrets)}\n`);
  try {
    const outcome = await cleanUpLedger(profile, runs, client, journal, () => {});
    for (const url of outcome.deleted) say(`deleted  ${url}`);
    for (const l of outcome.left) say(`left     ${l.certainty ?? 'certain'}: ${l.url} (${l.owner}): ${oneLine(l.lastAnswer)}`);
    const certain = outcome.left.filter((l) => l.certainty !== 'possible').length;
    say(`restprobe cleanup: deleted ${outcome.deleted.length}, ${outcome.gone} already gone or never created; ${outcome.left.length} left on the target (${certain} certain, ${outcome.left.length - certain} possible)${unread}`);
    return outcome.left.length === 0 && unread === '' ? ExitCode.ok : ExitCode.failures;
  } finally {
    journal.close();
    await client.close();
  }
}
