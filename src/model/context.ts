/**
 * What a check's `run(ctx)` gets: the profile, an HTTP session that records every
 * exchange, fixtures that create (and later delete) the check's own resources, and a
 * place for notes and property-test replay data.
 */
import type { CollectionProfile, TargetProfile } from './profile.js';
import type { PropertyEvidence } from './result.js';
import type { WebhookInbox } from './webhook-inbox.js';
import type { RawRequest, RawResponse } from './raw-exchange.js';

/** A request as a check describes it. `path` is relative to the base URL unless `url` is given. */
export interface RequestSpec {
  readonly method: string;
  /** Path (and query) relative to the base URL: `/v2/projects?limit=5`. */
  readonly path?: string;
  /** An absolute URL; wins over `path` (for Location headers). */
  readonly url?: string;
  readonly headers?: Record<string, string>;
  /** A JSON value: serialised, and Content-Type defaults to application/json. */
  readonly json?: unknown;
  /** Form fields: sent `application/x-www-form-urlencoded` (an OAuth token request, a login form). */
  readonly form?: Readonly<Record<string, string>>;
  /** Raw body bytes or text, sent as they are (for malformed input). */
  readonly body?: string | Uint8Array;
  /** Send the configured credentials (default true). */
  readonly auth?: boolean;
  /** Send the current version's own header (`version.header` under the header scheme, not Accept; default true). */
  readonly version?: boolean;
}

/** A response as a check sees it: the whole (capped) body, parsed JSON when it parses. */
export interface HttpResponse {
  readonly status: number;
  /** Lower-case names; repeated headers joined with ", " except set-cookie. */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** The parsed body, or `undefined` when the body is empty or not JSON. */
  readonly json: unknown;
  /** The media type of Content-Type, lower-case, without parameters ('' when absent). */
  readonly mediaType: string;
  /** Index of this exchange in the check's evidence, for messages. */
  readonly exchangeIndex: number;
  /** The URL that was requested. */
  readonly url: string;
  readonly method: string;
}

export interface HttpSession {
  /** Sends one request, records it, returns the response. Throws RestprobeError on transport errors. */
  send(spec: RequestSpec): Promise<HttpResponse>;
  /** Resolves a path against the base URL. */
  url(path: string): string;
  /** Forgets the exchanges recorded so far. */
  clearRecording(): void;
  /** How many exchanges are recorded so far: a position for {@link HttpSession.keepRecording}. */
  recordingMark(): number;
  /** Keeps only the exchanges recorded between two marks (a property check keeps its failing case's). */
  keepRecording(from: number, to: number): void;
}

/**
 * An answer the target gave during the run, to whichever check sent the request: what a
 * `review` check judges. The request's headers are as sent (credentials included); they
 * leave the run only through a check's evidence, redacted ({@link CheckContext.cite}).
 */
export interface ReceivedExchange {
  readonly method: string;
  readonly url: string;
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly requestBody: string | undefined;
  readonly response: { readonly status: number; readonly rawHeaders: Record<string, string | string[]>; readonly text: string };
  readonly durationMs: number;
  /** The check instance that sent it (`END-get-item-200 [projects]`). */
  readonly sentBy: string;
}

/** A resource the check created; deleted when the check ends. */
export interface CreatedResource {
  readonly collection: CollectionProfile;
  readonly id: string;
  /** Absolute URL of the item. */
  readonly url: string;
  /** The fields sent to make the item: the create body, its mark and any overrides (for an item a check took over, the fields that moved it). */
  readonly sent: Readonly<Record<string, unknown>>;
  /** The representation the create returned. */
  readonly body: Record<string, unknown>;
  /** The create exchange's response. */
  readonly response: HttpResponse;
}

/** How an item registered with {@link CheckContext.track} is cleaned up. */
export interface TrackOptions {
  readonly beforeCreate?: boolean;
  readonly first?: boolean;
}

export interface CheckContext {
  /** The target's profile; where the check runs once per collection, it holds only that collection. */
  readonly profile: TargetProfile;
  /** Every configured collection, also those this run of the check is not about (a foreign cursor's target). */
  readonly collections: readonly CollectionProfile[];
  readonly http: HttpSession;
  /** Seed for property checks (from --seed, or random per run). */
  readonly seed: number;
  /** Aborted when the check's deadline passes or the run is cancelled: a long wait should listen. */
  readonly signal: AbortSignal;
  /**
   * A fixture: POSTs `collection.createBody` (merged with `overrides`) and registers the
   * item for cleanup. A create that fails is not the rule's verdict: the check ends as
   * `error` (ERR_SETUP) naming the exchange. A check whose rule is the create itself sends
   * the POST and judges it (see `sendCreating`).
   */
  create(collection: CollectionProfile, overrides?: Record<string, unknown>): Promise<CreatedResource>;
  /**
   * Registers an item URL the check made some other way for cleanup. With `beforeCreate`
   * (a PUT to a fresh id, registered before it is sent) the item only possibly exists
   * until the check's PUT there answers: a 2xx makes it certain, a 4xx (a 429 too) drops
   * it, since nothing was created, as does a PUT never sent (the check stopped first).
   * With `first`, it is cleaned up before the check's other items, newest first as ever: a
   * webhook subscription, so that their deletes send it no events.
   *
   * @example
   * ```ts
   * ctx.track(url, { beforeCreate: true });
   * await ctx.http.send({ method: 'PUT', url, json: body });
   * ```
   */
  track(url: string, options?: TrackOptions): void;
  /**
   * Sends a request that may create an item in `collection` by mistake or by design (a POST
   * the target should refuse, a body of the check's own) and registers what a 2xx created for
   * cleanup. A POST has its intent written to the ledger first, as `create` does, so a run killed
   * before the answer leaves the mark to find the item by: a JSON body without a mark of the
   * run in the collection's mark field is given a fresh one; a body sent as text carries one
   * it was built with (`freshMark`), or none. With `unmarked`, the body is the point (a body
   * that must fail validation) and is sent as it is, written ahead without a mark.
   *
   * @example
   * ```ts
   * const res = await ctx.sendCreating(c, { method: 'POST', path: c.path, json: { ...c.createBody, extra: 1 } }); // sent with a fresh mark
   * ```
   */
  sendCreating(collection: CollectionProfile, spec: RequestSpec, options?: { readonly unmarked?: boolean }): Promise<HttpResponse>;
  /**
   * A fresh value for a collection's mark field: it starts with the run's mark
   * (`restprobe-<run id>-`), so every item a run marked can be found by it.
   *
   * @example
   * ```ts
   * ctx.newMark(); // 'restprobe-1a2b3c4d-5e6f7a8b'
   * ```
   */
  newMark(): string;
  /** Deletes what the check created so far (a property check does after each run); failures become notes. */
  cleanup(): Promise<void>;
  /**
   * A credential the check obtained from the target (a refresh token), revoked when the check
   * ends, after its cleanup; one that cannot be revoked is listed among the run's leftovers,
   * by what it is, never its value.
   *
   * @example
   * ```ts
   * ctx.revokeWhenDone({ what: 'a refresh token from the code flow', issuer: tokenEndpoint, revoke: (send) => revokeAt(send, endpoint, token) });
   * ```
   */
  revokeWhenDone(credential: IssuedCredential): void;
  /** Scrubs this value from everything the check reports, like a configured secret (a key the target minted). */
  treatAsSecret(value: string, label?: string): void;
  /** Adds a line of evidence that holds on pass and fail alike. */
  note(line: string): void;
  /**
   * Says what the check judged when its subject is no answer of the target's (a delivery
   * the webhook listener received): a pass then stands on it, noted in the evidence as
   * `judged: <what>`. A check whose subject is an answer declares the answers it judges
   * (`judges`) instead; without either, a pass needs a 2xx or 4xx answer.
   *
   * @example
   * ```ts
   * ctx.observed('the delivery of item.created at the listener');
   * ```
   */
  observed(what: string): void;
  /**
   * Every answer the target gave the run's other checks so far, in the order they came.
   * Kept only for a run with a `review` check selected (the others end before it starts);
   * empty otherwise.
   */
  received(): readonly ReceivedExchange[];
  /**
   * Puts an answer another check received into this check's evidence (redacted, with a curl
   * command), and returns its index there, for a {@link CheckFailure}.
   *
   * @example
   * ```ts
   * throw new CheckFailure(message, expected, found, ctx.cite(exchange));
   * ```
   */
  cite(exchange: ReceivedExchange): number;
  /** Attaches property-test replay data. */
  property(data: PropertyEvidence): void;
  /**
   * Attaches data to the result, whatever the verdict, under a name the check declares in
   * its `records` (with its JSON Schema): the report carries it in `checks[].data`.
   *
   * @example
   * ```ts
   * ctx.record('shapes', snapshot); // a later run's --baseline compares with it
   * ```
   */
  record(name: string, value: unknown): void;
  /**
   * A session over its own single keep-alive connection, recording into this check's
   * evidence: for checks that must see what a server sends between responses.
   */
  dedicatedHttp(): DedicatedSession;
  /**
   * The check's session without the retry policy: no pace, no waits, no retries, and a 429
   * or 503 handed to the check as it came. For rate-limit checks, which must see the
   * limiter; still timed, capped, budgeted, recorded and redacted, into the same evidence.
   */
  rawHttp(): HttpSession;
  /** The run's webhook listener on 127.0.0.1 (a fixture shared by every check, closed when the run ends). */
  webhookListener(): Promise<WebhookInbox>;
  /**
   * A value shared by the run's checks (an access token), made by the first check that asks
   * with `acquire` and made again once it expires. A check that uses a shared secret value
   * still registers it with {@link CheckContext.treatAsSecret}: its evidence is its own.
   */
  leased<T>(key: string, acquire: () => Promise<Lease<T>>): Promise<T>;
  /**
   * Items shared by the run's checks until the run ends (a collection filled past its page
   * cap): made once, by the first check that asks, through `make`'s `create`, which sends with
   * that check's session (the exchanges are its evidence) but gives the items to the run, so
   * the check's cleanup leaves them for the next check; the run deletes them when it ends. A
   * failed `make` is not kept (what it created is still deleted): the next check tries again.
   *
   * @example
   * ```ts
   * const { filters } = await ctx.runFixture(`fill ${c.name}`, (maker) => createMarked(maker, c, 11));
   * ```
   */
  runFixture<T>(key: string, make: (maker: FixtureMaker) => Promise<T>): Promise<T>;
  /**
   * Answers several checks judge by different rules (the error probes, a burst's first 429):
   * sent once for the run, by the first check that asks (`send` gets that check's context),
   * and handed to each asking check in its own evidence, indexed there, so a verdict on one
   * cites it with a curl command as if the check had sent it. `send` may return answers in a
   * structure of its own (a burst with its timings): `adopt` rebuilds it for each check from
   * the answers `take` gives it. A failed `send` is not kept: the next check sends for itself.
   * Neither are answers `keep` refuses (a refusal where an acceptance is shared): the check that
   * sent them gets them back as its own, and each later check sends for itself.
   * Only answers `send` received through its context's sessions can be shared. Whatever
   * the sender holds as secret (a code, a token it was issued) is each adopter's secret too.
   *
   * @example
   * ```ts
   * const answers = await ctx.sharedAnswers(`error probes [${c.name}]`, (sender) => provoke(sender, c), (sent, take) => sent.map(take));
   * ```
   */
  sharedAnswers<T>(key: string, send: (sender: CheckContext) => Promise<T>, adopt: (sent: T, take: (res: HttpResponse) => HttpResponse) => T, keep?: (sent: T) => boolean): Promise<T>;
}

/**
 * What a run fixture is made with: creates whose items belong to the run, marks, and the
 * making check's session, with `track` giving what it creates otherwise (a sub-collection's
 * item) to the run too. Only creates: the ledger books a DELETE, PUT or PATCH sent through
 * `http` to the making check, not to the fixture.
 */
export type FixtureMaker = Pick<CheckContext, 'create' | 'newMark' | 'http' | 'track'>;

/** A credential a check obtained that outlives it unless revoked ({@link CheckContext.revokeWhenDone}). */
export interface IssuedCredential {
  /** What it is, for notes and the leftovers list; never its value: 'a refresh token from the code flow'. */
  readonly what: string;
  /** Where it was issued (the token endpoint's URL): the leftover's URL when it stays. */
  readonly issuer: string;
  /**
   * Revokes it, sending through `send` (the check's cleanup transport: polite, budgeted, not
   * recorded); resolves to why it could not be revoked, or undefined when it was.
   */
  revoke(send: (req: RawRequest) => Promise<RawResponse>): Promise<string | undefined>;
}

/** A value shared by a run's checks until it expires (an access token). */
export interface Lease<T> {
  readonly value: T;
  /** Epoch milliseconds after which the value is made again. */
  readonly expiresAt: number;
}

export interface DedicatedSession extends HttpSession {
  /** Connection-level parser errors: bytes the server sent that were not HTTP. */
  readonly protocolErrors: readonly string[];
}
