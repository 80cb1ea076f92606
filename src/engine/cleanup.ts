/**
 * Deleting what the ledger owns, with the ownership rules a run's checks and
 * `restprobe cleanup` share: never outside the base URL's path or the target's origins; an
 * item counted gone only when a GET agrees; where an id is short or numeric (a target may
 * reuse it) nothing deleted without a GET that shows restprobe's mark; an item whose
 * existence is only possible looked at before it is deleted.
 */
import type { TargetProfile } from '../model/profile.js';
import type { Send } from '../http/guards.js';
import { credentialHeaders, parseJson, versionedUrl } from '../http/session.js';
import { isObject } from '../model/json.js';
import type { Certainty, Ledger, LedgerEntry } from './ledger.js';

export interface CleanupEnv {
  readonly profile: TargetProfile;
  /** Sends a cleanup request, through whatever guards the caller keeps (closed, read-only, polite). */
  readonly send: Send;
  readonly ledger: Ledger;
  /** A line about what cleanup did (a check's evidence, the cleanup command's output). */
  readonly note: (line: string) => void;
  /** Scrubs secrets from a reason before it is kept. */
  readonly scrub: (text: string) => string;
}

const gone = (status: number): boolean => status === 404 || status === 410;

/** An id a target might hand out again: numeric, or too short to be random (a UUID never is). */
export function mayBeReused(url: string): boolean {
  const id = decodeURIComponent(new URL(url).pathname.split('/').filter(Boolean).at(-1) ?? '');
  return /^\d+$/.test(id) || id.length < 16;
}

/**
 * Deletes `entries` (newest first, as {@link Ledger.toCleanUp} gives them). An item is
 * gone when a DELETE succeeds, or when the target proves it absent (404 or 410 to a GET);
 * anything else leaves it in the ledger as a leftover, certain or possible. Failures
 * become notes, never errors.
 *
 * @example
 * ```ts
 * await cleanUp(ledger.toCleanUp('END-get-item-200 [projects]'), { profile, send, ledger, note, scrub });
 * ```
 */
export async function cleanUp(entries: readonly LedgerEntry[], env: CleanupEnv): Promise<void> {
  for (const entry of entries) await cleanUpOne(entry, env);
}

async function cleanUpOne(entry: LedgerEntry, env: CleanupEnv): Promise<void> {
  const { ledger, profile } = env;
  const headers = { accept: 'application/json', ...credentialHeaders(profile) };
  const unverified = entry.state === 'deleted-unverified';
  // What the item is, as far as anything has shown: certain until a DELETE it may not have survived.
  const known: Certainty = unverified ? 'possible' : entry.exists;
  const leave = (why: string, certainty: Certainty = known): void => {
    ledger.leave(entry, env.scrub(why), certainty);
    env.note(`left ${entry.url}: ${why}`);
  };
  // The write that might have created it was never sent (the check or the run stopped first).
  if (entry.unsent) return ledger.gone(entry, 'not-created');
  const outside = ledger.outOfBounds(entry.url);
  if (outside) return leave(`not deleted: ${outside}`);
  const request = (method: string) => env.send({ method, url: versionedUrl(profile, entry.url), headers, outsideBudget: true });
  const reusable = mayBeReused(entry.url);
  try {
    if (unverified || (reusable && entry.proof) || entry.exists === 'possible') {
      // Look before deleting: the check's own DELETE may not have removed it, a write that
      // may have created it may not have, and a short or numeric id may have been given to
      // someone else's item since.
      const now = await request('GET');
      if (gone(now.status)) return ledger.gone(entry);
      if (now.status !== 200) return leave(`GET answered ${now.status}${unverified ? " after the check's own DELETE" : ''}; not deleted without seeing the item`);
      const shown = parseJson(now.body.toString('utf8'));
      const held = entry.proof && isObject(shown) ? shown[entry.proof.field] : undefined;
      if (entry.proof && held !== entry.proof.value) {
        env.note(`not deleting ${entry.url}: it now holds an item restprobe did not create (${entry.proof.field} ${JSON.stringify(held)}, not ${JSON.stringify(entry.proof.value)}); the target reused the id`);
        return ledger.gone(entry);
      }
      if (!entry.proof && reusable) {
        // The target said the check's own DELETE worked: what answers now under a reusable id
        // is not taken for restprobe's.
        if (entry.ownDeleteStatus !== undefined && entry.ownDeleteStatus < 300) return ledger.gone(entry);
        const after = entry.ownDeleteStatus === undefined ? '' : ` after the check's own DELETE answered ${entry.ownDeleteStatus}`;
        return leave(`GET answers 200${after}, and nothing shows whether the item there is restprobe's (its id may have been reused); not deleted`, 'possible');
      }
      if (entry.exists === 'possible' && !unverified) ledger.confirm(entry);
    }
    const res = await request('DELETE');
    if (res.status >= 200 && res.status < 300 && !unverified) return ledger.gone(entry);
    if (res.status >= 300 && !gone(res.status)) return leave(`DELETE answered ${res.status}`);
    // A 404 may be a gateway's answer for a path it does not route, and a DELETE the item
    // survived once may be survived again: only a GET that finds nothing proves it gone.
    const check = await request('GET');
    if (gone(check.status)) return ledger.gone(entry);
    leave(`DELETE answered ${res.status} but GET answered ${check.status}${unverified ? " (the item survived the check's own DELETE too: a soft delete?)" : ''}`, check.status === 200 ? 'certain' : known);
  } catch (err) {
    leave(`DELETE failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
