/**
 * The CheckContext a check runs with: a recording session behind the run's guards,
 * fixtures that create the check's own resources, and cleanup of everything it created.
 */
import { randomUUID } from 'node:crypto';
import { CheckFailure } from '../model/check.js';
import type { PropertyEvidence } from '../model/result.js';
import type { ShapeSnapshot } from '../model/shape.js';
import type { CheckContext, CreatedResource, Lease } from '../model/context.js';
import type { CollectionProfile, TargetProfile } from '../model/profile.js';
import { clientForProfile, type HttpClient } from '../http/client.js';
import { abortOn, guard, refuseWhenClosed, refuseWrites, type Guard } from '../http/guards.js';
import { RecordingSession, credentialHeaders, parseJson, unversionedUrl, versionedUrl, type Transport } from '../http/session.js';
import { createdItemUrl } from '../check-kit/created-url.js';
import { scrubSecrets } from '../secrets-scrub.js';
import { RestprobeError } from '../errors.js';
import { Pacer, politely, politeDefaults, type PoliteOptions } from '../http/polite.js';
import { Ledger, type LedgerEntry } from './ledger.js';
import { setupError } from '../check-kit/setup.js';
import { SharedFixtures } from './fixtures.js';
import type { WebhookListener } from '../webhooks/listener.js';
import { isObject } from '../model/json.js';

/** What every check of a run shares: the record of created items, and the run's pace. */
export interface RunShared {
  /** Every configured collection. */
  readonly collections: readonly CollectionProfile[];
  readonly ledger: Ledger;
  readonly pacer: Pacer;
  readonly polite: PoliteOptions;
  /** Fixtures with the run's lifetime (the webhook listener), closed when the run ends. */
  readonly fixtures: SharedFixtures;
}

/** A run's shared state with the profile's settings. */
export function runShared(profile: TargetProfile): RunShared {
  return { collections: profile.collections, ledger: new Ledger(profile), pacer: new Pacer(profile.http.maxRequestsPerSecond), polite: { ...politeDefaults, maxWaitMs: profile.http.maxRetryWaitMs }, fixtures: new SharedFixtures() };
}

export class RunContext implements CheckContext {
  readonly http: RecordingSession;
  readonly notes: string[] = [];
  propertyEvidence: PropertyEvidence | undefined;
  shapes: ShapeSnapshot | undefined;
  private readonly dedicated: HttpClient[] = [];
  private raw: RecordingSession | undefined;
  /** Closed once cleanup has run: the guards then refuse every request. */
  private readonly state = { closed: false };
  private readonly guards: readonly Guard[];
  private readonly ledger: Ledger;
  readonly collections: readonly CollectionProfile[];

  constructor(
    readonly profile: TargetProfile,
    private readonly client: HttpClient,
    readonly seed: number,
    readonly signal: AbortSignal,
    /** The check this context runs: the owner of what it creates. */
    private readonly owner: string,
    private readonly shared: RunShared,
  ) {
    this.ledger = shared.ledger;
    this.collections = shared.collections;
    // Outermost first: refusals before anything waits; the polite client innermost, so each retry is one request.
    this.guards = [refuseWhenClosed(this.state), refuseWrites(profile.safety.readOnly), abortOn(signal), this.observeOwnWrites, politely(shared.pacer, shared.polite, (line) => this.note(line))];
    this.http = new RecordingSession(this.guarded(client), profile);
  }

  async create(collection: CollectionProfile, overrides: Record<string, unknown> = {}): Promise<CreatedResource> {
    // Every item carries a mark of its own where the collection has a mark field: cleanup
    // can then prove an item is still restprobe's before deleting it (ids can be reused).
    const mark = collection.markField;
    const own = mark !== undefined && overrides[mark] === undefined ? { [mark]: `restprobe-${randomUUID().slice(0, 13)}` } : {};
    const sent = { ...collection.createBody, ...own, ...overrides };
    const res = await this.http.send({ method: 'POST', path: collection.path, json: sent }).catch((err: unknown) => {
      // No answer came: the item may exist all the same. It is listed, with its mark to find it by.
      if (err instanceof RestprobeError && ['ERR_TIMEOUT', 'ERR_PROTOCOL', 'ERR_INTERRUPTED'].includes(err.code)) {
        const marked = mark !== undefined && typeof sent[mark] === 'string' ? `; look for ${mark} = ${sent[mark]}` : '';
        this.ledger.possiblyCreated(this.http.url(collection.path), this.owner, `POST got no answer (${err.code}): an item may have been created${marked}`);
      }
      throw err;
    });
    if (res.status < 200 || res.status > 299) {
      throw setupError(res, `creating an item in ${collection.name} for this check failed: POST ${collection.path} answered ${res.status}`);
    }
    const body = isObject(res.json) ? res.json : {};
    const id = body[collection.idField];
    const { url, reason } = createdItemUrl(this.profile, res, collection);
    if (reason) this.note(`POST ${collection.path}: ${reason}${url ? `; using ${url}` : ''}`);
    if (url === undefined) {
      // The item exists but cannot be found: a finding about the create, not a setup problem.
      throw new CheckFailure(`POST ${collection.path} answered ${res.status} with neither a usable Location nor "${collection.idField}": the item cannot be found or cleaned up`, 'a Location header or an id field', reason ?? 'neither', res.exchangeIndex);
    }
    const entry = this.ledger.record(this.ledgerUrl(url), this.owner);
    // A mark is proof only where the target shows it back.
    if (mark !== undefined && typeof sent[mark] === 'string' && body[mark] === sent[mark]) entry.proof = { field: mark, value: sent[mark] };
    return { collection, id: id === undefined ? '' : String(id), url, body, response: res };
  }

  track(url: string): void {
    this.ledger.record(this.ledgerUrl(url), this.owner);
  }

  /**
   * The URL the ledger knows an item by: without the version the query scheme names, which
   * the session adds to a request (and a Location may carry), so that the item's create, its
   * owner's own DELETE and cleanup name one entry.
   */
  private ledgerUrl(url: string): string {
    return unversionedUrl(this.profile, url);
  }

  dedicatedHttp(): RecordingSession {
    const client = clientForProfile(this.profile, { connections: 1, budget: this.client.budget });
    this.dedicated.push(client);
    return new RecordingSession(this.guarded(client), this.profile, this.http.exchanges, this.http.secrets);
  }

  rawHttp(): RecordingSession {
    // Every guard of `http` but the polite one: a refusal (closed, read-only, aborted) still holds.
    this.raw ??= new RecordingSession(
      { send: guard((req) => this.client.send(req), [refuseWhenClosed(this.state), refuseWrites(this.profile.safety.readOnly), abortOn(this.signal), this.observeOwnWrites]), protocolErrors: this.client.protocolErrors },
      this.profile,
      this.http.exchanges,
      this.http.secrets,
    );
    return this.raw;
  }

  webhookListener(): Promise<WebhookListener> {
    return this.shared.fixtures.webhookListener(this.profile.webhooks?.publicUrl);
  }

  leased<T>(key: string, acquire: () => Promise<Lease<T>>): Promise<T> {
    return this.shared.fixtures.lease(key, acquire);
  }

  treatAsSecret(value: string, label = 'MINTED_SECRET'): void {
    if (value.length > 0 && !this.http.secrets.some((s) => s.value === value)) this.http.secrets.push({ envName: label, value });
  }

  note(line: string): void {
    this.notes.push(line);
  }

  property(data: PropertyEvidence): void {
    this.propertyEvidence = data;
  }

  recordShapes(snapshot: ShapeSnapshot): void {
    this.shapes = snapshot;
  }

  /**
   * Deletes what the check still owns, newest first, and checks on what its own DELETEs
   * removed. An item is gone when a DELETE succeeds, or when the target proves it absent
   * (404 or 410 to a GET); anything else leaves it in the ledger as a leftover. Where an id
   * may have been reused, nothing is deleted without proof that the item is restprobe's.
   * Failures become notes, never verdicts.
   */
  async cleanup(): Promise<void> {
    const headers = { accept: 'application/json', ...credentialHeaders(this.profile) };
    // Cleanup is not the check's to cancel: it goes past the check's signal, never past a
    // closed session or a read-only run, and past a spent budget only to delete (counted apart).
    const send = guard((req) => this.client.send(req), [
      refuseWhenClosed(this.state),
      refuseWrites(this.profile.safety.readOnly),
      politely(this.shared.pacer, this.shared.polite, (line) => this.notes.push(`cleanup: ${line}`)),
    ]);
    const leave = (entry: LedgerEntry, why: string): void => {
      entry.state = 'left';
      entry.lastAnswer = scrubSecrets(why, this.http.secrets);
      this.notes.push(`cleanup: left ${entry.url}: ${why}`);
    };
    const gone = (status: number): boolean => status === 404 || status === 410;
    for (const entry of this.ledger.toCleanUp(this.owner)) {
      const outside = this.ledger.outOfBounds(entry.url);
      if (outside) {
        leave(entry, `not deleted: ${outside}`);
        continue;
      }
      const request = (method: string) => send({ method, url: versionedUrl(this.profile, entry.url), headers, outsideBudget: true });
      const unverified = entry.state === 'deleted-unverified';
      const reusable = mayBeReused(entry.url);
      try {
        if (unverified || (reusable && entry.proof)) {
          // Look before deleting: the check's own DELETE may not have removed it, and a short
          // or numeric id may have been given to someone else's item since.
          const now = await request('GET');
          if (gone(now.status)) {
            entry.state = 'deleted';
            continue;
          }
          if (now.status !== 200) {
            leave(entry, `GET answered ${now.status}${unverified ? " after the check's own DELETE" : ''}; not deleted without seeing the item`);
            continue;
          }
          const shown = parseJson(now.body.toString('utf8'));
          const held = entry.proof && isObject(shown) ? shown[entry.proof.field] : undefined;
          if (entry.proof && held !== entry.proof.value) {
            entry.state = 'deleted';
            this.notes.push(`cleanup: not deleting ${entry.url}: it now holds an item restprobe did not create (${entry.proof.field} ${JSON.stringify(held)}, not ${JSON.stringify(entry.proof.value)}); the target reused the id`);
            continue;
          }
          if (!entry.proof && reusable) {
            // Only the check's own DELETE brings an unproven entry here. The target said it worked:
            // what answers now under a reusable id is not taken for restprobe's.
            if (entry.ownDeleteStatus !== undefined && entry.ownDeleteStatus < 300) {
              entry.state = 'deleted';
              continue;
            }
            leave(entry, `GET answers 200 after the check's own DELETE answered ${entry.ownDeleteStatus}, and nothing shows whether the item there is restprobe's (its id may have been reused); not deleted`);
            continue;
          }
        }
        const res = await request('DELETE');
        if (res.status >= 200 && res.status < 300 && !unverified) {
          entry.state = 'deleted';
          continue;
        }
        if (res.status >= 300 && !gone(res.status)) {
          leave(entry, `DELETE answered ${res.status}`);
          continue;
        }
        // A 404 may be a gateway's answer for a path it does not route, and a DELETE the item
        // survived once may be survived again: only a GET that finds nothing proves it gone.
        const check = await request('GET');
        if (gone(check.status)) entry.state = 'deleted';
        else leave(entry, `DELETE answered ${res.status} but GET answered ${check.status}${unverified ? " (the item survived the check's own DELETE too: a soft delete?)" : ''}`);
      } catch (err) {
        leave(entry, `DELETE failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  /**
   * What the check's own writes do to its items: a DELETE that succeeded (or found it gone)
   * ends ownership, so cleanup never deletes that URL again; a PUT or PATCH may change the
   * mark that proves ownership, so the proof follows the item's new representation.
   */
  private readonly observeOwnWrites: Guard = (next) => (req) => {
    // Reads pass straight through: no promise of its own on the hot path.
    if (req.method !== 'DELETE' && req.method !== 'PUT' && req.method !== 'PATCH') return next(req);
    return next(req).then((res) => {
      const ok = res.status >= 200 && res.status < 300;
      const url = this.ledgerUrl(req.url);
      if (req.method === 'DELETE' && (ok || res.status === 404 || res.status === 410)) this.ledger.deletedByOwner(url, this.owner, res.status);
      else if (req.method !== 'DELETE' && ok) this.ledger.rewritten(url, this.owner, parseJson(res.body.toString('utf8')));
      return res;
    });
  };

  /** Ends the check: cleanup, then the session closes (nothing more is sent), then dedicated connections close. */
  async finish(): Promise<void> {
    await this.cleanup();
    this.state.closed = true;
    await Promise.all(this.dedicated.splice(0).map((c) => c.close()));
  }

  private guarded(client: HttpClient): Transport {
    return { send: guard((req) => client.send(req), this.guards), protocolErrors: client.protocolErrors };
  }
}

/** An id a target might hand out again: numeric, or too short to be random (a UUID never is). */
function mayBeReused(url: string): boolean {
  const id = decodeURIComponent(new URL(url).pathname.split('/').filter(Boolean).at(-1) ?? '');
  return /^\d+$/.test(id) || id.length < 16;
}

