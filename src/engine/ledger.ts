/**
 * The ledger of everything a run created on the target: each item's URL, the check that
 * owns it, whether it certainly exists, and what became of it. Cleanup deletes only what
 * the run still owns, inside the base URL's path, and counts an item gone only when the
 * target proves it absent; whatever is left is listed in every report. Every change is
 * also told to a journal (the report directory's `restprobe-ledger.jsonl`), so what a run
 * created outlives the process, however it ends.
 */
import type { Certainty, Leftover } from '../model/run-outcome.js';
import { randomUUID } from 'node:crypto';
import type { TargetProfile } from '../model/profile.js';
import { targetOrigins } from '../http/session.js';

export type { Certainty, Leftover };

/**
 * `owned`: restprobe's to delete. `deleted-unverified`: the check's own DELETE answered
 * success (or 404): cleanup looks whether it is really gone, and never deletes a URL it
 * cannot show is still restprobe's. `deleted`: proven gone, never created, or not
 * restprobe's any more. `left`: could not be removed (listed in the reports).
 */
export type LedgerState = 'owned' | 'deleted-unverified' | 'deleted' | 'left';


/** A field and the value restprobe gave it: finds an item, and shows it is still restprobe's. */
export interface Mark {
  readonly field: string;
  readonly value: string;
}

export interface LedgerEntry {
  /** The run that created it (the journal's run id) and its number there: the journal's name for it. */
  readonly run: string;
  readonly n: number;
  /** The item's URL; for a create that got no answer, the collection's, with {@link lookFor}. */
  readonly url: string;
  /** The check that created it. */
  readonly owner: string;
  state: LedgerState;
  exists: Certainty;
  /** For a leftover: the last answer cleanup got, or why it did not try. */
  lastAnswer?: string;
  /** What the check's own DELETE answered, when it sent one. */
  ownDeleteStatus?: number;
  /** A field and the value restprobe gave it on create: shows the item at the URL is still restprobe's. */
  proof?: Mark;
  /** For a create that got no answer: the mark the item would carry, to search the collection by. */
  lookFor?: Mark;
  /** Registered before the write that may create it, which has not been sent yet: if it never is, nothing was created. */
  unsent?: boolean;
  /** A create that got no answer in this process: it may still reach the target (a gateway may be inserting yet), so a search that finds nothing now proves nothing. */
  mayStillArrive?: boolean;
  /** Cleaned up before its owner's other items (a webhook subscription: their deletes send it no events). */
  first?: boolean;
  /** Looked for by its mark in this process, and not found: not looked for again until `restprobe cleanup`. */
  searched?: boolean;
}


/** One change to the ledger, as the journal records it: entries are named by run and number. */
export type LedgerEvent =
  /** Written before a create is sent: a process killed before the answer still leaves the mark to search by. */
  | { readonly e: 'creating'; readonly run: string; readonly n: number; readonly url: string; readonly owner: string; readonly mark?: Mark }
  | { readonly e: 'created'; readonly run: string; readonly n: number; readonly url: string; readonly owner: string; readonly certainty: Certainty; readonly proof?: Mark }
  | { readonly e: 'certain' | 'not-created' | 'proof-lost' | 'gone'; readonly run: string; readonly n: number }
  | { readonly e: 'proof-moved'; readonly run: string; readonly n: number; readonly proof: Mark }
  /** A create that named no item: no answer came (possible), or a 2xx without a Location or id (certain). */
  | { readonly e: 'unlocated'; readonly run: string; readonly n: number; readonly certainty: Certainty; readonly why: string }
  | { readonly e: 'own-delete'; readonly run: string; readonly n: number; readonly status: number }
  | { readonly e: 'left'; readonly run: string; readonly n: number; readonly certainty: Certainty; readonly why: string };

/** Where the ledger tells each change as it happens (a file in the report directory). */
export interface LedgerJournal {
  /** The run's id: entries are named by it, and the run's marks start `restprobe-<run>`. */
  readonly run: string;
  write(event: LedgerEvent): void;
}

/** The value every mark of a run starts with: items in a collection with a mark field are found by it. */
export const runMark = (run: string): string => `restprobe-${run}`;

/** Whether `value` is one of the marks a run made (`newMark`: `<run mark>-…`); `mark` is the run's ({@link runMark}). */
export const isMarkOf = (mark: string, value: unknown): value is string => typeof value === 'string' && value.startsWith(`${mark}-`);

export class Ledger {
  private readonly entries: LedgerEntry[] = [];
  private readonly origins: Set<string>;
  private readonly basePath: string;
  /** This run's id (the journal's, or a fresh one). */
  readonly run: string;
  private next = 0;

  constructor(
    profile: TargetProfile,
    private readonly journal?: LedgerJournal,
  ) {
    this.origins = targetOrigins(profile);
    this.basePath = new URL(profile.baseUrl).pathname.replace(/\/+$/, '');
    this.run = journal?.run ?? randomUUID().slice(0, 8);
  }

  /** The prefix of every mark this run gives its items. */
  get mark(): string {
    return runMark(this.run);
  }

  /** Before a create is sent to `collectionUrl`: returns its number, for {@link record} (`of`), {@link notCreated} or {@link unlocated}. */
  creating(collectionUrl: string, owner: string, mark?: Mark): number {
    const n = this.next++;
    this.journal?.write({ e: 'creating', run: this.run, n, url: collectionUrl, owner, ...(mark && { mark }) });
    return n;
  }

  /**
   * Records an item: `certain` the moment a create answered (the default), `possible` when
   * registered before the write that may create it (a PUT to a fresh id). A URL recorded
   * twice by its owner is one entry. `of` names the {@link creating} it resolves: the entry
   * takes its number, so the journal's intent and item are one.
   */
  record(url: string, owner: string, options: { certainty?: Certainty; proof?: Mark; of?: number; unsent?: boolean; first?: boolean } = {}): LedgerEntry {
    const certainty = options.certainty ?? 'certain';
    const known = this.entries.find((e) => e.url === url && e.owner === owner && e.state === 'owned');
    if (known) {
      if (certainty === 'certain' && known.exists === 'possible') this.confirm(known);
      // The create named an item the ledger knows already: the intent made nothing of its own.
      if (options.of !== undefined) this.journal?.write({ e: 'not-created', run: this.run, n: options.of });
      return known;
    }
    const entry: LedgerEntry = { run: this.run, n: options.of ?? this.next++, url, owner, state: 'owned', exists: certainty, ...(options.proof && { proof: options.proof }), ...(options.unsent && { unsent: true }), ...(options.first && { first: true }) };
    this.entries.push(entry);
    this.journal?.write({ e: 'created', run: this.run, n: entry.n, url, owner, certainty, ...(options.proof && { proof: options.proof }) });
    return entry;
  }

  /** A create answered with a refusal: nothing was made. */
  notCreated(intent: number): void {
    this.journal?.write({ e: 'not-created', run: this.run, n: intent });
  }

  /**
   * A create that named no item to delete: no answer came (an item may exist), or a 2xx
   * without a Location or id (one does). Listed, with the collection's URL and the mark
   * to find it by; `restprobe cleanup` searches the collection for the mark.
   */
  unlocated(intent: number, where: string, owner: string, why: string, certainty: Certainty, lookFor?: Mark): void {
    // A possible one got no answer in this process: it may still reach the target.
    this.entries.push({ run: this.run, n: intent, url: where, owner, state: 'left', exists: certainty, lastAnswer: why, ...(lookFor && { lookFor }), ...(certainty === 'possible' && { mayStillArrive: true }) });
    this.journal?.write({ e: 'unlocated', run: this.run, n: intent, certainty, why });
  }

  /** The owner's write to an item registered before it is about to be sent: from now on it may have created it. */
  sending(url: string, owner: string): void {
    for (const e of this.entries) if (e.url === url && e.owner === owner && e.unsent) delete e.unsent;
  }

  /**
   * The owner's own write to an item it registered as possible answered: a 2xx made it
   * certain; a 4xx (a 429 too) refused it, so nothing was created and nothing is listed.
   * Anything else leaves it possible.
   */
  answered(url: string, owner: string, status: number): void {
    for (const e of this.entries) {
      if (e.url !== url || e.owner !== owner || e.state !== 'owned' || e.exists !== 'possible') continue;
      if (status >= 200 && status < 300) this.confirm(e);
      else if (status >= 400 && status < 500) this.gone(e, 'not-created');
    }
  }

  /** An answer showed the item exists. */
  confirm(entry: LedgerEntry): void {
    entry.exists = 'certain';
    this.journal?.write({ e: 'certain', run: entry.run, n: entry.n });
  }

  /** The creates of `owner` (every owner's without one) that named no item and carry a mark to find it by. */
  toLocate(owner?: string): LedgerEntry[] {
    return this.entries.filter((e) => (owner === undefined || e.owner === owner) && e.state === 'left' && e.lookFor !== undefined && e.searched !== true);
  }

  /** Whether an entry names the item at `url` already. */
  names(url: string): boolean {
    return this.entries.some((e) => e.url === url && e.lookFor === undefined && e.state !== 'deleted');
  }

  /** The items `owner` still owns, or removed itself unverified, newest first, those marked `first` ahead (the order to clean them up in); every owner's without one. */
  toCleanUp(owner?: string): LedgerEntry[] {
    const left = this.entries.filter((e) => (owner === undefined || e.owner === owner) && (e.state === 'owned' || e.state === 'deleted-unverified')).reverse();
    return [...left.filter((e) => e.first === true), ...left.filter((e) => e.first !== true)];
  }

  /** The check's own DELETE answered success or 404: cleanup checks it is gone, and deletes again only with proof. */
  deletedByOwner(url: string, owner: string, status: number): void {
    for (const e of this.entries) {
      if (e.url !== url || e.owner !== owner || e.state !== 'owned') continue;
      e.state = 'deleted-unverified';
      e.ownDeleteStatus = status;
      this.journal?.write({ e: 'own-delete', run: e.run, n: e.n, status });
    }
  }

  /**
   * The owner rewrote its item: the proof stays while the new representation shows the same
   * mark, moves to another mark of this run it now shows (a check that moves its items under a
   * new mark), and is lost otherwise.
   */
  rewritten(url: string, owner: string, representation: unknown): void {
    for (const e of this.entries) {
      if (e.url !== url || e.owner !== owner || e.state !== 'owned' || e.proof === undefined) continue;
      const now = typeof representation === 'object' && representation !== null ? (representation as Record<string, unknown>)[e.proof.field] : undefined;
      if (now === e.proof.value) continue;
      const field = e.proof.field;
      delete e.proof;
      // Lost first: a reader from before proof-moved then treats the item as one without proof, not as a reused id.
      this.journal?.write({ e: 'proof-lost', run: e.run, n: e.n });
      if (isMarkOf(this.mark, now)) {
        e.proof = { field, value: now };
        this.journal?.write({ e: 'proof-moved', run: e.run, n: e.n, proof: e.proof });
      }
    }
  }

  /** Proven gone (or never created, or no longer restprobe's): nothing more to do or list. */
  gone(entry: LedgerEntry, why: 'gone' | 'not-created' = 'gone'): void {
    entry.state = 'deleted';
    this.journal?.write({ e: why, run: entry.run, n: entry.n });
  }

  /** Could not be removed: listed in the reports with `why`, as certainly there or possibly. */
  leave(entry: LedgerEntry, why: string, certainty: Certainty): void {
    entry.state = 'left';
    entry.lastAnswer = why;
    entry.exists = certainty;
    this.journal?.write({ e: 'left', run: entry.run, n: entry.n, certainty, why });
  }

  /** An entry an earlier process recorded (`restprobe cleanup` reads them from the journal); its changes are journalled under its own run and number. */
  adopt(entry: LedgerEntry): void {
    this.entries.push(entry);
  }

  /**
   * A create that named no item, found since by its mark at `url`: the entry becomes the
   * item's, under the same run and number, owned and proven by the mark.
   */
  located(entry: LedgerEntry, url: string, proof: Mark): LedgerEntry {
    const item: LedgerEntry = { run: entry.run, n: entry.n, url, owner: entry.owner, state: 'owned', exists: 'certain', proof };
    this.entries.splice(this.entries.indexOf(entry), 1, item);
    this.journal?.write({ e: 'created', run: item.run, n: item.n, url, owner: item.owner, certainty: 'certain', proof });
    return item;
  }

  /** Why restprobe may not send a DELETE to `url`, or undefined when it may. */
  outOfBounds(url: string): string | undefined {
    const parsed = new URL(url);
    if (!this.origins.has(parsed.origin)) return `not on the target's origins`;
    if (this.basePath !== '' && parsed.pathname !== this.basePath && !parsed.pathname.startsWith(`${this.basePath}/`)) return `outside the base URL's path ${this.basePath}`;
    return undefined;
  }

  /** Everything the run could not remove, certain or possible. */
  leftovers(): Leftover[] {
    return this.entries
      .filter((e) => e.state === 'left' || e.state === 'owned' || e.state === 'deleted-unverified')
      .map((e) => ({ url: e.url, owner: e.owner, lastAnswer: e.lastAnswer ?? 'cleanup never ran', certainty: e.state === 'deleted-unverified' ? 'possible' : e.exists }));
  }
}
