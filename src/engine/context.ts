/**
 * The CheckContext a check runs with: a recording session behind the run's guards,
 * fixtures that create the check's own resources, and cleanup of everything it created.
 */
import { runPace } from './pace.js';
import { RequestTally } from '../http/tally.js';
import { randomUUID } from 'node:crypto';
import { CheckFailure, SetupFailure } from '../model/check.js';
import type { PropertyEvidence } from '../model/result.js';
import type { CheckContext, CreatedResource, FixtureMaker, HttpResponse, IssuedCredential, Lease, ReceivedExchange, RequestSpec, TrackOptions } from '../model/context.js';
import { profileDefaults, type CollectionProfile, type Secret, type TargetProfile } from '../model/profile.js';
import { clientForProfile, type HttpClient } from '../http/client.js';
import { abortOn, guard, refuseWhenClosed, refuseWrites, type Guard, type Send } from '../http/guards.js';
import { RecordingSession, parseJson, unversionedUrl, type Transport } from '../http/session.js';
import { createdItemUrl, createdUrlNote, idFromItemUrl } from '../http/created-url.js';
import { scrubSecrets } from '../secrets-scrub.js';
import { RestprobeError, isRestprobeError } from '../errors.js';
import { Pacer, politely, politeDefaults, type PoliteOptions } from '../http/polite.js';
import { conditionalWhenRequired } from '../http/precondition-required.js';
import { isMarkOf, Ledger, type LedgerJournal, type Leftover, type Mark } from './ledger.js';
import { cleanUpOwned } from './cleanup.js';
import { SharedFixtures } from './fixtures.js';
import type { WebhookListener } from '../webhooks/listener.js';
import { isObject } from '../model/json.js';
import { AnswerTally } from './answers.js';
import { CircuitBreaker } from '../http/breaker.js';
import { ReceivedLog } from './received.js';

/** What every check of a run shares: the record of created items, and the run's pace. */
export interface RunShared {
  /** Every configured collection. */
  readonly collections: readonly CollectionProfile[];
  readonly ledger: Ledger;
  readonly pacer: Pacer;
  readonly polite: PoliteOptions;
  /** Fixtures with the run's lifetime (the webhook listener), closed when the run ends. */
  readonly fixtures: SharedFixtures;
  /** Trips when the target stops answering, or asks for a wait the run cannot afford: every later request is refused. */
  readonly breaker: CircuitBreaker;
  /** Credentials checks obtained and could not revoke (refresh tokens), by what they are: listed with the run's leftovers. */
  readonly unrevoked: Leftover[];
  /** Requests sent, by check instance (retries and cleanup included) and by the run itself. */
  readonly tally: RequestTally;
  /** Every answer the checks' requests got, kept when a `review` check will judge them. */
  readonly received?: ReceivedLog;
  /** Secrets checks found (a minted key, a PKCE verifier): scrubbed from a review check's evidence, which cites other checks' answers. */
  readonly found: Secret[];
}

/**
 * A run's shared state with the profile's settings; `journal` keeps the ledger's changes on
 * disk as they happen; `review` keeps every answer for the checks that judge them at the end.
 */
export function runShared(profile: TargetProfile, journal?: LedgerJournal, review = false): RunShared {
  const breaker = new CircuitBreaker(profile.http.maxConsecutiveFailures ?? profileDefaults.maxConsecutiveFailures);
  const polite = { ...politeDefaults, maxWaitMs: profile.http.maxRetryWaitMs, stopRun: (why: RestprobeError) => breaker.trip(why) };
  return { collections: profile.collections, ledger: new Ledger(profile, journal), pacer: new Pacer(runPace(profile)?.perSecond), polite, fixtures: new SharedFixtures(), breaker, unrevoked: [], tally: new RequestTally(), found: [], ...(review && { received: new ReceivedLog() }) };
}

/** Thrown by a shared send whose answers `keep` refused, so the run keeps none of them. */
const notKept = new Error('answers not kept for other checks');

export class RunContext implements CheckContext {
  readonly http: RecordingSession;
  readonly notes: string[] = [];
  propertyEvidence: PropertyEvidence | undefined;
  /** What the check attached to its result (`record`), by name. */
  readonly recorded: Record<string, unknown> = {};
  /** What the check's requests got back (not cleanup's): the engine's floor under a pass. */
  readonly answers = new AnswerTally();
  private readonly dedicated: HttpClient[] = [];
  /** What the check obtained and revokes when it ends (revokeWhenDone). */
  private readonly issued: IssuedCredential[] = [];
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
    // Outermost first: refusals before anything waits; the answers kept for review checks outside
    // the polite client, so a 429 or 503 it retried is not taken for the API's answer; the polite client next to last, so each retry is
    // one request; then the breaker, counting each attempt the target left unanswered; last, the
    // note that a PUT has left (a PUT-create the run stopped before it left created nothing). A
    // write to the run's own item refused 428 is sent again conditional inside the watch on own
    // writes and the tally under a pass (both take the last answer), each step through the guards after it.
    this.guards = [refuseWhenClosed(this.state), refuseWrites(profile.safety.readOnly), abortOn(signal), this.observeOwnWrites, this.answers.guard, conditionalWhenRequired((url) => this.ledger.names(this.ledgerUrl(url)), (line) => this.note(line)), ...this.keepReceived, politely(shared.pacer, shared.polite, (line) => this.note(line)), shared.breaker.guard(owner), shared.tally.guard(owner), this.observeSent];
    this.http = new RecordingSession(this.guarded(client), profile);
  }

  create(collection: CollectionProfile, overrides: Record<string, unknown> = {}): Promise<CreatedResource> {
    return this.createFor(this.owner, collection, overrides);
  }

  /** Creates an item through this check's session, owned by `owner` in the ledger (the check, or a run fixture). */
  private async createFor(owner: string, collection: CollectionProfile, overrides: Record<string, unknown>): Promise<CreatedResource> {
    // Every item carries a mark of its own where the collection has a mark field: cleanup
    // can then prove an item is still restprobe's before deleting it (ids can be reused).
    const mark = collection.markField;
    const own = mark !== undefined && overrides[mark] === undefined ? { [mark]: this.newMark() } : {};
    const sent = { ...collection.createBody, ...own, ...overrides };
    const marked = mark !== undefined && typeof sent[mark] === 'string' ? { field: mark, value: sent[mark] } : undefined;
    const where = this.ledgerUrl(this.http.url(collection.path));
    const { res, intent } = await this.sendAhead({ method: 'POST', path: collection.path, json: sent }, where, owner, marked);
    if (res.status < 200 || res.status > 299) {
      this.ledger.notCreated(intent);
      throw new SetupFailure(res, `creating an item in ${collection.name} for this check failed: POST ${collection.path} answered ${res.status}`);
    }
    const body = isObject(res.json) ? res.json : {};
    const id = body[collection.idField];
    const found = createdItemUrl(this.profile, res, collection);
    const { url, reason } = found;
    const note = createdUrlNote(collection, found);
    if (note !== undefined) this.note(note);
    if (url === undefined) {
      // The item exists but cannot be found: a finding about the create, not a setup problem.
      this.ledger.unlocated(intent, where, owner, `POST answered ${res.status} but named no item to delete${lookingFor(marked)}`, 'certain', marked);
      throw new CheckFailure(`POST ${collection.path} answered ${res.status} with neither a usable Location nor "${collection.idField}": the item cannot be found or cleaned up`, 'a Location header or an id field', reason ?? 'neither', res.exchangeIndex);
    }
    // A mark is proof only where the target shows it back.
    const proof = marked && body[marked.field] === marked.value ? marked : undefined;
    this.ledger.record(this.ledgerUrl(url), owner, { of: intent, ...(proof && { proof }) });
    // No id in the body (a Location alone): the item URL holds it.
    return { collection, id: id === undefined ? (idFromItemUrl(this.profile, collection, url) ?? '') : String(id), url, sent, body, response: res };
  }

  /**
   * Sends a create with its intent written ahead to the ledger (with its mark, when it has
   * one): a run killed before the answer still leaves the mark to find the item by. No answer
   * lists it as possibly made; any other error, as not made.
   */
  private async sendAhead(spec: RequestSpec, where: string, owner: string, marked: Mark | undefined): Promise<{ res: HttpResponse; intent: number }> {
    const intent = this.ledger.creating(where, owner, marked);
    const res = await this.http.send(spec).catch((err: unknown) => {
      // No answer came: the item may exist all the same. It is listed, with its mark to find it by.
      if (err instanceof RestprobeError && ['ERR_TIMEOUT', 'ERR_PROTOCOL', 'ERR_INTERRUPTED'].includes(err.code)) {
        this.ledger.unlocated(intent, where, owner, `POST got no answer (${err.code}): an item may have been created${lookingFor(marked)}`, 'possible', marked);
      } else this.ledger.notCreated(intent);
      throw err;
    });
    return { res, intent };
  }

  async sendCreating(collection: CollectionProfile, spec: RequestSpec, options: { readonly unmarked?: boolean } = {}): Promise<HttpResponse> {
    if (spec.method !== 'POST') return this.http.send(spec);
    // Every POST is written ahead, marked wherever it can be: a run killed between the
    // target's create and its answer then still leaves the item to be found by its mark.
    // A value of the mark field that is no mark of this run (the create body's own) is
    // replaced, as `create` does: only a run's mark tells its items from anyone else's.
    const field = options.unmarked ? undefined : collection.markField;
    const held = field !== undefined && isObject(spec.json) ? spec.json[field] : undefined;
    const marking = field !== undefined && isObject(spec.json) && (held === undefined || (typeof held === 'string' && !isMarkOf(this.ledger.mark, held)));
    const sent: RequestSpec = marking ? { ...spec, json: { ...(spec.json as Record<string, unknown>), [field]: this.newMark() } } : spec;
    const marked = field === undefined ? undefined : markIn(sent, field, this.ledger.mark);
    const where = this.ledgerUrl(this.http.url(collection.path));
    const { res, intent } = await this.sendAhead(sent, where, this.owner, marked);
    this.trackCreated(collection, sent, res, { intent, where, ...(marked && { marked }) });
    return res;
  }

  /** Registers what a 2xx to a POST created, settling its intent (written ahead at `where`); one it cannot name is listed, with its mark. */
  private trackCreated(collection: CollectionProfile, spec: RequestSpec, res: HttpResponse, ahead: { intent: number; marked?: Mark; where: string }): void {
    if (res.status < 200 || res.status > 299) {
      this.ledger.notCreated(ahead.intent);
      return;
    }
    const { url, reason } = createdItemUrl(this.profile, res, collection);
    if (url !== undefined) {
      this.ledger.record(this.ledgerUrl(url), this.owner, { of: ahead.intent });
      return;
    }
    const why = `${spec.method} ${spec.path ?? spec.url} answered ${res.status} and may have created something restprobe cannot clean up: ${reason}`;
    this.ledger.unlocated(ahead.intent, ahead.where, this.owner, `${why}${lookingFor(ahead.marked)}`, 'certain', ahead.marked);
  }

  track(url: string, options: TrackOptions = {}): void {
    this.trackFor(this.owner, url, options);
  }

  /** Records `url` for cleanup, owned by `owner` in the ledger (the check, or a run fixture). */
  private trackFor(owner: string, url: string, options: TrackOptions): void {
    this.ledger.record(this.ledgerUrl(url), owner, { ...(options.beforeCreate && { certainty: 'possible', unsent: true }), ...(options.first && { first: true }) });
  }

  newMark(): string {
    return `${this.ledger.mark}-${randomUUID().slice(0, 8)}`;
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
      { send: guard((req) => this.client.send(req), [refuseWhenClosed(this.state), refuseWrites(this.profile.safety.readOnly), abortOn(this.signal), this.observeOwnWrites, this.answers.guard, this.shared.breaker.guard(this.owner), this.shared.tally.guard(this.owner), this.observeSent, ...this.keepReceived]), protocolErrors: this.client.protocolErrors },
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

  runFixture<T>(key: string, make: (maker: FixtureMaker) => Promise<T>): Promise<T> {
    // The items belong to the run: the making check's cleanup leaves them, the run's end deletes them.
    const owner = `the run's fixture "${key}"`;
    const maker: FixtureMaker = {
      create: (collection, overrides = {}) => this.createFor(owner, collection, overrides),
      newMark: () => this.newMark(),
      http: this.http,
      track: (url, options = {}) => this.trackFor(owner, url, options),
    };
    const release = async () => {
      const notes: string[] = [];
      // At the run's end, when nothing else is sent: as many at once as the client keeps connections.
      await cleanUpOwned(owner, { profile: this.profile, send: this.cleanupSend({ closed: false }, notes, owner), ledger: this.ledger, note: (line) => notes.push(line), scrub: (text) => scrubSecrets(text, this.http.secrets) }, this.profile.http.concurrency);
    };
    return this.shared.fixtures.fixture(key, () => make(maker), release);
  }

  async sharedAnswers<T>(key: string, send: (sender: CheckContext) => Promise<T>, adopt: (sent: T, take: (res: HttpResponse) => HttpResponse) => T, keep?: (sent: T) => boolean): Promise<T> {
    // What this check sent and `keep` refused: its own answers, already in its evidence.
    let unkept: { sent: T } | undefined;
    const sending = async (): Promise<{ sent: T; secrets: readonly Secret[] }> => {
      const sent = await send(this);
      // What the sender learnt is secret (a code, a token, a cookie) is each adopter's to scrub too; the profile's each scrubs already.
      if (keep === undefined || keep(sent)) return { sent, secrets: this.http.secrets.filter((s) => !this.profile.secrets.some((p) => p.value === s.value)) };
      unkept = { sent };
      // A failed make is not kept: a check waiting on it sends for itself.
      throw notKept;
    };
    let shared: { sent: T; secrets: readonly Secret[] };
    try {
      shared = await this.shared.fixtures.fixture(`answers: ${key}`, sending, async () => undefined);
    } catch (err) {
      if (err === notKept && unkept !== undefined) return unkept.sent;
      throw err;
    }
    for (const secret of shared.secrets) this.scrubAlso(secret);
    // An answer `adopt` takes twice (the GET after one step is the GET before the next) is in the evidence once.
    const taken = new Map<HttpResponse, HttpResponse>();
    return adopt(shared.sent, (res) => {
      const known = taken.get(res);
      if (known !== undefined) return known;
      const own = this.http.adopt(res);
      // Handed to this check as if it had sent the request: the floor under its pass counts it.
      if (own !== res) this.answers.answered(res.url, res);
      taken.set(res, own);
      return own;
    });
  }

  /** Scrubs a secret another check learnt from this check's evidence too. */
  private scrubAlso(secret: Secret): void {
    if (!this.http.secrets.some((s) => s.value === secret.value)) this.http.secrets.push(secret);
  }

  treatAsSecret(value: string, label = 'MINTED_SECRET'): void {
    if (value.length === 0 || this.http.secrets.some((s) => s.value === value)) return;
    this.http.secrets.push({ envName: label, value });
    if (this.shared.received) this.shared.found.push({ envName: label, value });
  }

  note(line: string): void {
    this.notes.push(line);
  }

  observed(what: string): void {
    this.answers.observed();
    this.note(`judged: ${what}`);
  }

  property(data: PropertyEvidence): void {
    this.propertyEvidence = data;
  }

  record(name: string, value: unknown): void {
    this.recorded[name] = value;
  }

  received(): readonly ReceivedExchange[] {
    return this.shared.received?.exchanges ?? [];
  }

  cite(exchange: ReceivedExchange): number {
    // Another check's answer may hold what that check found secret: scrubbed here too.
    for (const secret of this.shared.found) this.scrubAlso(secret);
    this.http.exchanges.push(exchange);
    return this.http.exchanges.length - 1;
  }

  /** The guard that keeps this check's answers for the run's review checks, when there are any. */
  private get keepReceived(): Guard[] {
    return this.shared.received ? [this.shared.received.guard(this.owner)] : [];
  }

  /**
   * Deletes what the check still owns, newest first, and checks on what its own DELETEs
   * removed, by the rules of {@link cleanUpOwned} (its creates that named no item looked for by their marks first). Failures become notes, never verdicts.
   */
  async cleanup(): Promise<void> {
    const send = this.cleanupSend(this.state, this.notes, this.owner);
    await cleanUpOwned(this.owner, { profile: this.profile, send, ledger: this.ledger, note: (line) => this.notes.push(`cleanup: ${line}`), scrub: (text) => scrubSecrets(text, this.http.secrets) });
  }

  /**
   * What the check's own writes do to its items: a DELETE that succeeded (or found it gone)
   * ends ownership, so cleanup never deletes that URL again; a PUT or PATCH may change the
   * mark that proves ownership, so the proof follows the item's new representation.
   */
  private readonly observeOwnWrites: Guard = (next) => (req) => {
    // Reads pass straight through: no promise of its own on the hot path.
    if (req.method !== 'DELETE' && req.method !== 'PUT' && req.method !== 'PATCH') return next(req);
    const url = this.ledgerUrl(req.url);
    return next(req).then(
      (res) => {
        const ok = res.status >= 200 && res.status < 300;
        if (req.method === 'DELETE' && (ok || res.status === 404 || res.status === 410)) this.ledger.deletedByOwner(url, this.owner, res.status);
        else if (req.method !== 'DELETE' && ok) this.ledger.rewritten(url, this.owner, parseJson(res.body.toString('utf8')));
        // A PUT to an item registered before it existed: its answer says whether it does now.
        if (req.method === 'PUT') this.ledger.answered(url, this.owner, res.status);
        return res;
      },
      (err: unknown) => {
        // Still rate limited after the retries (429): the target refused the write, which created nothing.
        if (req.method === 'PUT' && isRestprobeError(err, 'ERR_RATE_LIMITED')) this.ledger.answered(url, this.owner, 429);
        throw err;
      },
    );
  };

  revokeWhenDone(credential: IssuedCredential): void {
    this.issued.push(credential);
  }

  /**
   * Revokes what the check obtained, through the cleanup's transport and past a spent budget
   * as cleanup goes; what stays is a leftover of the run, named by what it is.
   */
  private async revokeIssued(): Promise<void> {
    const send = this.cleanupSend(this.state, this.notes, this.owner);
    for (const credential of this.issued.splice(0)) {
      let why: string | undefined;
      try {
        why = await credential.revoke((req) => send({ ...req, outsideBudget: true }));
      } catch (err) {
        why = err instanceof Error ? err.message : String(err);
      }
      const line = scrubSecrets(why === undefined ? `revoked ${credential.what}` : `${credential.what} (its value is not shown) was not revoked: ${why}`, this.http.secrets);
      this.notes.push(`cleanup: ${line}`);
      if (why !== undefined) this.shared.unrevoked.push({ url: credential.issuer, owner: this.owner, lastAnswer: line });
    }
  }

  /**
   * How cleanup sends: not the check's to cancel, it goes past the check's signal, never past
   * a closed session (`state`: the check's, or a run fixture's own) or a read-only run, and past
   * a spent budget only where a request says so; waits are noted in `notes`.
   */
  private cleanupSend(state: { readonly closed: boolean }, notes: string[], owner: string): Send {
    return guard((req) => this.client.send(req), [
      refuseWhenClosed(state),
      refuseWrites(this.profile.safety.readOnly),
      // Cleanup sends only to what the run owns.
      conditionalWhenRequired(() => true, (line) => notes.push(`cleanup: ${line}`)),
      politely(this.shared.pacer, this.shared.polite, (line) => notes.push(`cleanup: ${line}`)),
      // A target that stopped answering is not waited on item by item: what is left is listed.
      this.shared.breaker.guard(`the cleanup of ${owner}`),
      this.shared.tally.guard(owner),
    ]);
  }

  /** Innermost, as a request leaves for the target: a PUT sent may create the item registered before it (one never sent did not). */
  private readonly observeSent: Guard = (next) => (req) => {
    if (req.method === 'PUT') this.ledger.sending(this.ledgerUrl(req.url), this.owner);
    return next(req);
  };

  /** Ends the check: cleanup and revocations, then the session closes (nothing more is sent), then dedicated connections close. */
  async finish(): Promise<void> {
    await this.cleanup();
    await this.revokeIssued();
    this.state.closed = true;
    await Promise.all(this.dedicated.splice(0).map((c) => c.close()));
  }

  private guarded(client: HttpClient): Transport {
    return { send: guard((req) => client.send(req), this.guards), protocolErrors: client.protocolErrors };
  }
}

/**
 * The mark of this run a create carries in `field`, in a JSON body or in one sent as text
 * (bad input, another media type: `"label":"restprobe-…"`).
 */
function markIn(spec: RequestSpec, field: string, runMark: string): Mark | undefined {
  if (isObject(spec.json)) {
    const value = spec.json[field];
    return isMarkOf(runMark, value) ? { field, value } : undefined;
  }
  if (typeof spec.body !== 'string') return undefined;
  // As JSON.stringify writes it: the checks build their text bodies with it.
  const at = spec.body.indexOf(`${JSON.stringify(field)}:"${runMark}-`);
  if (at < 0) return undefined;
  const start = at + JSON.stringify(field).length + 2;
  return { field, value: spec.body.slice(start, spec.body.indexOf('"', start)) };
}

/** How a leftover's reason names the mark to find it by: `; look for label = restprobe-…`, or nothing. */
const lookingFor = (marked: Mark | undefined): string => (marked ? `; look for ${marked.field} = ${marked.value}` : '');
