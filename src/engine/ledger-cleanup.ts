/**
 * Cleaning up after runs that ended before their cleanup did (killed, or stopped at
 * once): what a ledger file still owns is deleted by the rules a run's own cleanup
 * follows ({@link cleanUpOwned}), the creates that named no item looked for by their marks
 * first. Each outcome is appended to the same file, so the next reader sees what is left.
 */
import type { TargetProfile } from '../model/profile.js';
import type { HttpClient } from '../http/client.js';
import { guard, type Send } from '../http/guards.js';
import { conditionalWhenRequired } from '../http/precondition-required.js';
import { Pacer, politely, politeDefaults } from '../http/polite.js';
import { scrubSecrets } from '../secrets-scrub.js';
import { unversionedUrl } from '../http/session.js';
import { cleanUpOwned } from './cleanup.js';
import { Ledger, type LedgerEntry, type LedgerJournal, type Leftover } from './ledger.js';
import type { RecordedRun } from './ledger-file.js';

export interface LedgerCleanupOutcome {
  /** URLs a DELETE removed. */
  readonly deleted: readonly string[];
  /** Entries shown to be gone already, or never created (a search by mark found nothing). */
  readonly gone: number;
  /** What is still there, certain or possible, with why. */
  readonly left: readonly Leftover[];
}

/** The base URL as the ledger writes it: without a user or password. */
function bare(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString().replace(/\/$/, '');
}

/**
 * Deletes what `runs` still own on the profile's target; entries of runs against another
 * base URL are left alone and listed.
 *
 * @example
 * ```ts
 * const runs = await readLedgerFile('reports/restprobe-ledger.jsonl');
 * const { deleted, left } = await cleanUpLedger(profile, runs, client, LedgerFile.resume('reports', profile.secrets), console.log);
 * ```
 */
export async function cleanUpLedger(profile: TargetProfile, runs: readonly RecordedRun[], client: HttpClient, journal: LedgerJournal, note: (line: string) => void): Promise<LedgerCleanupOutcome> {
  const ledger = new Ledger(profile, journal);
  const deleted: string[] = [];
  const polite = guard((req) => client.send(req), [conditionalWhenRequired(() => true, note), politely(new Pacer(profile.http.maxRequestsPerSecond), { ...politeDefaults, maxWaitMs: profile.http.maxRetryWaitMs }, note)]);
  const send: Send = async (req) => {
    const res = await polite(req);
    if (req.method === 'DELETE' && res.status >= 200 && res.status < 300) deleted.push(unversionedUrl(profile, req.url));
    return res;
  };
  const elsewhere: Leftover[] = [];
  const adopted: LedgerEntry[] = [];
  for (const run of runs) {
    for (const entry of run.outstanding) {
      if (bare(run.baseUrl) !== bare(profile.baseUrl)) {
        elsewhere.push({ url: entry.url, owner: entry.owner, certainty: entry.exists, lastAnswer: `not touched: the run (marks ${run.mark}) was against ${run.baseUrl}, not ${bare(profile.baseUrl)}` });
        continue;
      }
      ledger.adopt(entry);
      adopted.push(entry);
    }
  }
  await cleanUpOwned(undefined, { profile, send, ledger, note, scrub: (text) => scrubSecrets(text, profile.secrets) });
  const here = ledger.leftovers();
  // A DELETE that answered 2xx to an item a GET then still found removed nothing.
  const removed = [...new Set(deleted)].filter((url) => !here.some((l) => l.url === url));
  return { deleted: removed, gone: adopted.length - here.length - removed.length, left: [...here, ...elsewhere] };
}
