/**
 * Deleting what the ledger owns, with the ownership rules a run's checks and
 * `restprobe cleanup` share: never outside the base URL's path or the target's origins; an
 * item counted gone only when a GET agrees; where an id is short or numeric (a target may
 * reuse it) nothing deleted without a GET that shows restprobe's mark; an item whose
 * existence is only possible looked at before it is deleted.
 */
import type { TargetProfile } from '../model/profile.js';
import type { Send } from '../http/guards.js';
import { runRequestHeaders, parseJson, versionedUrl } from '../http/session.js';
import { isObject } from '../model/json.js';
import { findMarked } from './find-marked.js';
import { isMarkOf, runMark, type Certainty, type Ledger, type LedgerEntry } from './ledger.js';

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
 * Deletes `entries` (newest first, as {@link Ledger.toCleanUp} gives them), `concurrency`
 * at once (one by default), but never an item while one under its URL (a child, made after
 * it) is still being deleted. An item is gone when a DELETE
 * succeeds, or when the target proves it absent (404 or 410 to a GET); anything else leaves
 * it in the ledger as a leftover, certain or possible. Failures become notes, never errors.
 *
 * @example
 * ```ts
 * await cleanUp(ledger.toCleanUp('END-get-item-200 [projects]'), { profile, send, ledger, note, scrub });
 * ```
 */
export async function cleanUp(entries: readonly LedgerEntry[], env: CleanupEnv, concurrency = 1): Promise<void> {
  const limit = Math.max(1, concurrency);
  const inFlight = new Set<{ readonly url: string; readonly done: Promise<void> }>();
  for (const entry of entries) {
    // The same URL twice (an id handed out again) is one item: one at a time too.
    const under = [...inFlight].filter(({ url }) => url === entry.url || url.startsWith(`${entry.url.replace(/\/+$/, '')}/`));
    await Promise.all(under.map(({ done }) => done));
    while (inFlight.size >= limit) await Promise.race([...inFlight].map(({ done }) => done));
    // A failure (the ledger's journal not written) is a note, as one entry's: the others are still deleted.
    const done = cleanUpOne(entry, env).catch((err: unknown) => env.note(`cleanup of ${entry.url} failed: ${env.scrub(err instanceof Error ? err.message : String(err))}`));
    const job = { url: entry.url, done: done.finally(() => inFlight.delete(job)) };
    inFlight.add(job);
  }
  await Promise.all([...inFlight].map(({ done }) => done));
}

/**
 * Cleans up after `owner` (every owner, without one): its creates that named no item are
 * looked for by their marks first, so what they made is deleted by the same rules.
 *
 * @example
 * ```ts
 * await cleanUpOwned('VER-tolerant-reader [projects]', { profile, send, ledger, note, scrub });
 * ```
 */
export async function cleanUpOwned(owner: string | undefined, env: CleanupEnv, concurrency = 1): Promise<void> {
  await locateMarked(env.ledger.toLocate(owner), env);
  await cleanUp(env.ledger.toCleanUp(owner), env, concurrency);
}

/**
 * The creates that named no item, looked for by their marks: each found item becomes its
 * create's entry (to delete by the usual rules). A filtered listing that shows none proves
 * nothing was created only for a create that got no answer in an earlier process (what
 * `restprobe cleanup` reads): one that answered 2xx made an item all the same, and one this
 * process got no answer to may be created yet, so both stay listed, not looked for again
 * here. A value that is no mark of its run is never searched by: anyone's item may carry it.
 * Several creates may share a mark (a check's marked set): one listing serves them, each
 * taking one item the ledger does not name already.
 */
async function locateMarked(entries: readonly LedgerEntry[], env: CleanupEnv): Promise<void> {
  const groups = new Map<string, LedgerEntry[]>();
  for (const e of entries) {
    e.searched = true;
    if (!isMarkOf(runMark(e.run), e.lookFor!.value)) continue;
    const key = JSON.stringify([e.url, e.lookFor!.field, e.lookFor!.value]);
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  for (const creates of groups.values()) {
    const { url, lookFor } = creates[0]!;
    const result = await findMarked(env.profile, env.send, url, lookFor!).catch((err: unknown) => ({ unknown: `the search failed: ${err instanceof Error ? err.message : String(err)}` }));
    if ('unknown' in result) {
      for (const e of creates) env.ledger.leave(e, env.scrub(result.unknown), e.exists);
      continue;
    }
    const unnamed = result.found.filter((u) => !env.ledger.names(u));
    creates.forEach((e, i) => {
      const item = unnamed[i];
      if (item !== undefined) env.ledger.located(e, item, lookFor!);
      else if (e.exists === 'possible' && e.mayStillArrive !== true) env.ledger.gone(e, 'not-created');
    });
  }
}

/** What cleanup concluded about one entry; the ledger changes in one place ({@link settle}). */
type Outcome =
  | { readonly kind: 'gone'; readonly why?: 'not-created' }
  /** A different item holds the id now: not restprobe's to delete, and restprobe's own is gone. */
  | { readonly kind: 'reused'; readonly note: string }
  | { readonly kind: 'leave'; readonly why: string; readonly certainty: Certainty };

/** What looking first allows: an outcome already, or to delete (`confirmed`: a GET just showed an item whose existence was only possible). */
type Look = Outcome | { readonly kind: 'delete'; readonly confirmed: boolean };

async function cleanUpOne(entry: LedgerEntry, env: CleanupEnv): Promise<void> {
  const unverified = entry.state === 'deleted-unverified';
  // What the item is, as far as anything has shown: certain until a DELETE it may not have survived.
  const known: Certainty = unverified ? 'possible' : entry.exists;
  const request = async (method: string) => env.send({ method, url: versionedUrl(env.profile, entry.url), headers: await runRequestHeaders(env.profile), outsideBudget: true });
  let outcome: Outcome;
  try {
    const look = await lookBeforeDeleting(entry, env, request, known);
    if (look.kind === 'delete' && look.confirmed) env.ledger.confirm(entry);
    outcome = look.kind === 'delete' ? await deleteAndConfirm(entry, request, known) : look;
  } catch (err) {
    outcome = { kind: 'leave', why: `DELETE failed: ${err instanceof Error ? err.message : String(err)}`, certainty: known };
  }
  settle(entry, outcome, env);
}

type Request = (method: string) => ReturnType<Send>;

/**
 * Whether the item may be deleted. It is looked at first when the check's own DELETE may
 * not have removed it, when a write that may have created it may not have, and when a
 * short or numeric id may have been given to someone else's item since.
 */
async function lookBeforeDeleting(entry: LedgerEntry, env: CleanupEnv, request: Request, known: Certainty): Promise<Look> {
  // The write that might have created it was never sent (the check or the run stopped first).
  if (entry.unsent) return { kind: 'gone', why: 'not-created' };
  const outside = env.ledger.outOfBounds(entry.url);
  if (outside) return { kind: 'leave', why: `not deleted: ${outside}`, certainty: known };
  const unverified = entry.state === 'deleted-unverified';
  const reusable = mayBeReused(entry.url);
  if (!(unverified || (reusable && entry.proof) || entry.exists === 'possible')) return { kind: 'delete', confirmed: false };
  const now = await request('GET');
  if (gone(now.status)) return { kind: 'gone' };
  if (now.status !== 200) return { kind: 'leave', why: `GET answered ${now.status}${unverified ? " after the check's own DELETE" : ''}; not deleted without seeing the item`, certainty: known };
  const shown = parseJson(now.body.toString('utf8'));
  const held = entry.proof && isObject(shown) ? shown[entry.proof.field] : undefined;
  if (entry.proof && held !== entry.proof.value) {
    return { kind: 'reused', note: `not deleting ${entry.url}: it now holds an item restprobe did not create (${entry.proof.field} ${JSON.stringify(held)}, not ${JSON.stringify(entry.proof.value)}); the target reused the id` };
  }
  if (!entry.proof && reusable) {
    // The target said the check's own DELETE worked: what answers now under a reusable id is not taken for restprobe's.
    if (entry.ownDeleteStatus !== undefined && entry.ownDeleteStatus < 300) return { kind: 'gone' };
    const after = entry.ownDeleteStatus === undefined ? '' : ` after the check's own DELETE answered ${entry.ownDeleteStatus}`;
    return { kind: 'leave', why: `GET answers 200${after}, and nothing shows whether the item there is restprobe's (its id may have been reused); not deleted`, certainty: 'possible' };
  }
  return { kind: 'delete', confirmed: entry.exists === 'possible' && !unverified };
}

/** Deletes the item, and counts it gone only when the target agrees. */
async function deleteAndConfirm(entry: LedgerEntry, request: Request, known: Certainty): Promise<Outcome> {
  const unverified = entry.state === 'deleted-unverified';
  const res = await request('DELETE');
  if (res.status >= 200 && res.status < 300 && !unverified) return { kind: 'gone' };
  if (res.status >= 300 && !gone(res.status)) return { kind: 'leave', why: `DELETE answered ${res.status}`, certainty: known };
  // A 404 may be a gateway's answer for a path it does not route, and a DELETE the item
  // survived once may be survived again: only a GET that finds nothing proves it gone.
  const check = await request('GET');
  if (gone(check.status)) return { kind: 'gone' };
  return { kind: 'leave', why: `DELETE answered ${res.status} but GET answered ${check.status}${unverified ? " (the item survived the check's own DELETE too: a soft delete?)" : ''}`, certainty: check.status === 200 ? 'certain' : known };
}

/** The ledger's state change for an outcome, and the line it leaves in the notes. */
function settle(entry: LedgerEntry, outcome: Outcome, env: CleanupEnv): void {
  switch (outcome.kind) {
    case 'gone':
      return outcome.why === undefined ? env.ledger.gone(entry) : env.ledger.gone(entry, outcome.why);
    case 'reused':
      env.note(outcome.note);
      return env.ledger.gone(entry);
    case 'leave':
      env.ledger.leave(entry, env.scrub(outcome.why), outcome.certainty);
      return env.note(`left ${entry.url}: ${outcome.why}`);
  }
}
