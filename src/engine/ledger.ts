/**
 * The ledger of everything a run created on the target: each item's URL, the check that
 * owns it, and what became of it. Cleanup deletes only what the run still owns, inside
 * the base URL's path, and counts an item gone only when the target proves it absent;
 * whatever is left is listed in every report.
 */
import type { TargetProfile } from '../model/profile.js';
import { targetOrigins } from '../http/session.js';

/**
 * `owned`: restprobe's to delete. `deleted-unverified`: the check's own DELETE answered
 * success (or 404): cleanup looks whether it is really gone, and never deletes a URL it
 * cannot show is still restprobe's. `deleted`: proven gone, or not restprobe's any more.
 * `left`: could not be removed (listed in the reports).
 */
export type LedgerState = 'owned' | 'deleted-unverified' | 'deleted' | 'left';

export interface LedgerEntry {
  readonly url: string;
  /** The check that created it. */
  readonly owner: string;
  state: LedgerState;
  /** For a leftover: the last answer cleanup got, or why it did not try. */
  lastAnswer?: string;
  /** What the check's own DELETE answered, when it sent one. */
  ownDeleteStatus?: number;
  /** A field and the value restprobe gave it on create: shows the item at the URL is still restprobe's. */
  proof?: { readonly field: string; readonly value: string };
}

/** An item the run created and could not remove, for the reports. */
export interface Leftover {
  readonly url: string;
  readonly owner: string;
  readonly lastAnswer: string;
}

export class Ledger {
  private readonly entries: LedgerEntry[] = [];
  private readonly origins: Set<string>;
  private readonly basePath: string;

  constructor(profile: TargetProfile) {
    this.origins = targetOrigins(profile);
    this.basePath = new URL(profile.baseUrl).pathname.replace(/\/+$/, '');
  }

  /** Records an item the moment it exists; a URL recorded twice (by its owner) is one entry. */
  record(url: string, owner: string): LedgerEntry {
    const known = this.entries.find((e) => e.url === url && e.owner === owner && e.state === 'owned');
    if (known) return known;
    const entry: LedgerEntry = { url, owner, state: 'owned' };
    this.entries.push(entry);
    return entry;
  }

  /** The items `owner` still owns, or removed itself unverified, newest first (the order to clean them up in). */
  toCleanUp(owner: string): LedgerEntry[] {
    return this.entries.filter((e) => e.owner === owner && (e.state === 'owned' || e.state === 'deleted-unverified')).reverse();
  }

  /** The check's own DELETE answered success or 404: cleanup checks it is gone, and deletes again only with proof. */
  deletedByOwner(url: string, owner: string, status: number): void {
    for (const e of this.entries) {
      if (e.url !== url || e.owner !== owner || e.state !== 'owned') continue;
      e.state = 'deleted-unverified';
      e.ownDeleteStatus = status;
    }
  }

  /** A create whose outcome is unknown (no answer came): an item may exist; listed unless cleanup proves otherwise. */
  possiblyCreated(where: string, owner: string, why: string): void {
    this.entries.push({ url: where, owner, state: 'left', lastAnswer: why });
  }

  /** The owner rewrote its item: keep the proof only if the new representation still shows the same mark. */
  rewritten(url: string, owner: string, representation: unknown): void {
    for (const e of this.entries) {
      if (e.url !== url || e.owner !== owner || e.state !== 'owned' || e.proof === undefined) continue;
      const now = typeof representation === 'object' && representation !== null ? (representation as Record<string, unknown>)[e.proof.field] : undefined;
      if (now !== e.proof.value) delete e.proof;
    }
  }

  /** Why restprobe may not send a DELETE to `url`, or undefined when it may. */
  outOfBounds(url: string): string | undefined {
    const parsed = new URL(url);
    if (!this.origins.has(parsed.origin)) return `not on the target's origins`;
    if (this.basePath !== '' && parsed.pathname !== this.basePath && !parsed.pathname.startsWith(`${this.basePath}/`)) return `outside the base URL's path ${this.basePath}`;
    return undefined;
  }

  /** Everything the run could not remove. */
  leftovers(): Leftover[] {
    return this.entries.filter((e) => e.state === 'left' || e.state === 'owned' || e.state === 'deleted-unverified').map((e) => ({ url: e.url, owner: e.owner, lastAnswer: e.lastAnswer ?? 'cleanup never ran' }));
  }
}
