/**
 * Probes several checks share: requests that provoke known errors, the choice of a
 * method a path does not allow, and an item the reading checks share.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { CheckContext, CreatedResource, FixtureMaker, HttpResponse, RequestSpec } from '../model/context.js';
import type { CollectionProfile } from '../model/profile.js';
import type { Resolved, WritableCollection } from '../model/needs.js';
import { splitList } from './http-grammar.js';
import { withKey } from './auth.js';
import { isUnavailable } from '../http/polite.js';
import { isRestprobeError } from '../errors.js';
import { CheckFailure } from '../model/check.js';
import { createdItemUrl, createdUrlNote } from '../http/created-url.js';
import { freshMark } from './fresh-mark.js';
import { describe } from './expect.js';
import { problemMediaType } from './problem.js';

/** A path no API has: unknown-path probes. */
function unknownPath(): string {
  return `/restprobe-no-such-path-${randomUUID().slice(0, 8)}`;
}

/** An id no item has (a fresh UUID). */
export function unknownId(): string {
  return randomUUID();
}

/** The characters an id's characters are replaced with, by kind. */
const idAlphabets = ['0123456789', 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];

/**
 * An id shaped like `known` that names nothing else: each digit, letter and hex digit
 * replaced with a random one of its kind, the rest (a `cus_` prefix's underscore, a UUID's
 * dashes) kept. A Mongo ObjectId gives 24 hex digits, which Mongoose casts where a UUID
 * is refused with 400.
 *
 * @example
 * ```ts
 * lookalikeId('64f0c2a1b3d4e5f6a7b8c9d0'); // e.g. '1a9e07cc4b2d8f3e6a0b5c71'
 * ```
 */
export function lookalikeId(known: string): string {
  const head = /^[a-z]+_/i.exec(known)?.[0] ?? '';
  const body = known.slice(head.length);
  // A ULID: Crockford's base32 (no I, L, O, U), its first character 0 to 7, kept.
  if (/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(body)) return head + body[0] + Array.from({ length: 25 }, () => crockford[randomInt(crockford.length)]).join('');
  // All hex (an ObjectId): hex digits stay hex digits.
  const sets = /^[0-9a-f]+$/.test(body) ? ['0123456789abcdef'] : /^[0-9A-F]+$/.test(body) ? ['0123456789ABCDEF'] : idAlphabets;
  return head + [...body].map((ch) => {
    const set = sets.find((s) => s.includes(ch));
    return set === undefined ? ch : set[randomInt(set.length)]!;
  }).join('');
}

/** Crockford's base32, a ULID's alphabet. */
const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The path of an item that does not exist, with an id of the collection's own kind: a UUID,
 * or for integer ids a large int32 (an API may rightly refuse a malformed id with 400).
 */
export function unknownItemPath(collection: CollectionProfile): string {
  const id = collection.idType === 'integer' ? String(2_000_000_000 + randomInt(100_000_000)) : unknownId();
  return itemPath(collection, id);
}

/**
 * An item that checks only read (GET, HEAD, OPTIONS, conditional GETs), one per collection
 * for the run, made by the first check that asks: a safe method changes nothing, so one item
 * serves them all (END-safe-methods-no-change judges that). A check that writes to its item
 * or deletes it makes its own; one that judges the create's answer takes this item's
 * ({@link sharedItemWithCreate}).
 */
export function sharedItem(ctx: CheckContext, c: WritableCollection): Promise<CreatedResource> {
  return ctx.runFixture(sharedItemKey(c), (maker) => maker.create(c));
}

const sharedItemKey = (c: WritableCollection): string => `${c.name}: an item to read`;

/**
 * An item that writes a target should refuse are sent to (a stale If-Match, a body that fails
 * validation, an unsupported Content-Type; ERR-bad-input-no-5xx's PUT and PATCH, which may
 * also succeed), one per collection for the run, made by the first check that asks. Those
 * checks judge the answers only, never the item after them, so none needs it as created: a
 * write a faulty target applies all the same leaves it changed for the next, whose answer
 * may then differ (two faults at once). Not {@link sharedItem}, which must stay as created.
 */
export function refusedWritesItem(ctx: CheckContext, c: WritableCollection): Promise<CreatedResource> {
  return ctx.runFixture(`${c.name}: an item for writes that must be refused`, (maker) => maker.create(c));
}

/**
 * A run fixture (`ctx.runFixture`) whose makers' answers `adopt` hands to each asking check
 * too, in its own evidence: for checks that judge what the fixture's creates answered.
 */
export function adoptedFixture<T>(ctx: CheckContext, key: string, make: (maker: FixtureMaker) => Promise<T>, adopt: (made: T, take: (res: HttpResponse) => HttpResponse) => T): Promise<T> {
  return ctx.sharedAnswers(`${key}, its answers`, (sender) => sender.runFixture(key, make), adopt);
}

/**
 * The {@link sharedItem} with its create's answer in this check's evidence: for a check that
 * judges that answer (its status and Location, what it returned, a version snapshot of its shape).
 */
export function sharedItemWithCreate(ctx: CheckContext, c: WritableCollection): Promise<CreatedResource> {
  return adoptedFixture(ctx, sharedItemKey(c), (maker) => maker.create(c), (item, take) => {
    const response = take(item.response);
    // How the item's URL was read from that answer goes where the answer is judged too (the maker noted it already).
    const note = response === item.response ? undefined : createdUrlNote(c, createdItemUrl(ctx.profile, item.response, c));
    if (note !== undefined) ctx.note(note);
    return { ...item, response };
  });
}

/**
 * A plain GET with the run's credentials, sent once for the run: of a collection's listing,
 * whose status, headers and shape stay while its items come and go, or of the
 * {@link sharedItem}, which no check changes. The checks that judge only those (Content-Type,
 * ETag, Vary, Cache-Control, a control for the credential checks, a page's shape) share one
 * 200, each holding it in its own evidence; a check that reads the items a listing holds
 * sends its own. Only a 200 is shared: another answer is the check's that met it, and each
 * later check sends for itself.
 */
export function sharedGet(ctx: CheckContext, target: { readonly path: string } | { readonly url: string }): Promise<HttpResponse> {
  const where = 'url' in target ? target.url : ctx.http.url(target.path);
  return sharedResponse(ctx, `GET ${where}`, (sender) => sender.http.send({ method: 'GET', ...target }), (res) => res.status === 200);
}

/**
 * One answer sent once for the run under `key` (`ctx.sharedAnswers`) and handed to each
 * asking check in its own evidence, when `keep` accepts it; otherwise it stays the sender's,
 * and each later check sends its own.
 */
export function sharedResponse(ctx: CheckContext, key: string, send: (sender: CheckContext) => Promise<HttpResponse>, keep: (res: HttpResponse) => boolean): Promise<HttpResponse> {
  return ctx.sharedAnswers(key, send, (res, take) => take(res), keep);
}

/** An Accept value no JSON API produces. */
export const unsupportedAccept = 'application/x-restprobe-unsupported';

/**
 * What a client that reads other formats sends: a browsable API's HTML (DRF), XML (Spring,
 * ASP.NET with an XML formatter), a CSV export. An API with one representation refuses it
 * (406) or serves JSON anyway; one with another serves that (END-vary-accept).
 */
export const otherFormatsAccept = 'text/html, application/xml;q=0.9, text/csv;q=0.8';

/**
 * What the 406 probe sends: {@link unsupportedAccept}, and problem+json at a low weight, as a
 * client that reads problem details does, so the 406 may carry one. ASP.NET Core writes no
 * body when Accept admits no JSON, which RFC 9457 allows and the problem checks would fault.
 */
const unsupportedAcceptHeader = `${unsupportedAccept}, ${problemMediaType};q=0.1`;

/**
 * A media type no API consumes: made up, so a 415 is owed for it whatever else an API reads
 * (many consume forms beside JSON; `collections[].notConsumed` names what one refuses).
 */
export const unsupportedContentType = unsupportedAccept;

/** The media types a collection's writes must refuse with 415: the made-up one, and those the config says it does not consume. */
export function unconsumedTypes(collection: CollectionProfile): string[] {
  return [unsupportedContentType, ...(collection.notConsumed ?? []).filter((t) => t.toLowerCase() !== unsupportedContentType)];
}

/** A body that is not valid JSON. */
export const malformedJson = '{"restprobe": "malformed",';

export function itemPath(collection: CollectionProfile, id: string): string {
  return collection.itemPath.replace('{id}', encodeURIComponent(id));
}

/** The methods an Allow header lists, upper-case; undefined when there is no Allow. */
export function parseAllow(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return splitList(value).map((m) => m.toUpperCase());
}

/**
 * The method restprobe sends where a path must refuse one: TRACE, which the conventions
 * leave unused and RFC 9110 §9.3.8 defines as safe, so a server that serves it changes
 * nothing. PATCH, PUT or DELETE on a collection may be a bulk write (LoopBack serves
 * `PATCH /todos` as "update every todo"), whatever OPTIONS says: never a probe.
 */
export const unsupportedMethod = 'TRACE';

/** Sends {@link unsupportedMethod} to `url`, without a body (RFC 9110 §9.3.8). */
export function unsupportedMethodProbe(ctx: CheckContext, url: string): Promise<HttpResponse> {
  return ctx.http.send({ method: unsupportedMethod, url });
}

/**
 * A body that breaks validation: the configured one, or createBody with each value's type
 * changed. A string becomes an object, not a number: DRF's CharField, pydantic v1 and
 * Mongoose turn 42 into "42" and rightly accept it, but no string field takes an object.
 */
export function invalidBody(collection: CollectionProfile): Record<string, unknown> {
  return collection.invalidBody ?? wrongTyped(collection.createBody ?? {});
}

/**
 * The fields an invalid body offends with: those it sends, and those of the create body it
 * leaves out (a configured `{}` or `{"price": 5}` is invalid for the required fields it lacks).
 */
export function offendingFields(collection: CollectionProfile): string[] {
  const sent = Object.keys(invalidBody(collection));
  return [...sent, ...Object.keys(collection.createBody ?? {}).filter((k) => !sent.includes(k))];
}

/** `body` with each value's type changed: a string becomes an object, anything else a string. */
function wrongTyped(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? {} : 'restprobe-wrong-type']));
}

/** The update body with the configured invalid body's values for the fields both send; undefined where they share none. */
function invalidValueUpdateBody(u: CollectionProfile, method: 'PATCH' | 'PUT'): Record<string, unknown> | undefined {
  const body = updateBody(u, method);
  const configured = Object.fromEntries(Object.entries(u.invalidBody ?? {}).filter(([k]) => k in body));
  return Object.keys(configured).length > 0 ? { ...body, ...configured } : undefined;
}

/** The write a probe sends to an item of an updatable collection: PATCH where it takes one (a writable collection holds a patch body only then: asWritable), else PUT. */
export const updateMethod = (u: CollectionProfile): 'PATCH' | 'PUT' => (u.patchBody !== undefined ? 'PATCH' : 'PUT');

/** The body of that write: the patch body, else the replace body (else the create body). */
export const updateBody = (u: CollectionProfile, method: 'PATCH' | 'PUT'): Record<string, unknown> => (method === 'PATCH' ? u.patchBody! : (u.replaceBody ?? u.createBody ?? {}));

/** A strong entity-tag no server issues: an If-Match that names it fails (RFC 9110 §13.1.1). */
export const staleTag = '"restprobe-stale-etag"';

/** What {@link provokeErrors} uses when the config has it: a check declares these as `uses`. */
export const errorProbeUses = ['collection', 'writable', 'updatable', 'credentials', 'limitedCredential'] as const;
export type ErrorProbeNeeds = Partial<Resolved<(typeof errorProbeUses)[number]>>;

/**
 * An error probe, sent once for the run per key by the first check that asks, and handed to
 * each check that judges its answer (in its own evidence). Only an error answer (4xx or 5xx)
 * is shared: a success, which may have created something, is the sender's, and each later
 * check sends its own; so is a 502, 503 or 504 (a write is not retried), which would otherwise
 * fail every check that judges the probe for one unavailable moment.
 */
function errorProbe(ctx: CheckContext, key: string, send: (sender: CheckContext) => Promise<HttpResponse>): Promise<HttpResponse> {
  return sharedResponse(ctx, `error probe: ${key}`, send, (res) => res.status >= 400 && !isUnavailable(res.status));
}

/**
 * The requests that must each be answered with an error, one function each: a check that
 * judges one of them calls it, and {@link provokeErrors} sends as many as the config allows.
 *
 * @example
 * ```ts
 * const res = await errorProbes.malformedJson(ctx, writable); // POST with malformed JSON, sent once for the run
 * ```
 */
export const errorProbes = {
  unknownPath: (ctx: CheckContext) => errorProbe(ctx, 'GET of an unknown path', (s) => s.http.send({ method: 'GET', path: unknownPath() })),
  // By the collection's name, not its path: two collections may share a path, with other item paths, ids and bodies.
  unknownItem: (ctx: CheckContext, c: CollectionProfile) => errorProbe(ctx, `GET of an unknown item of ${c.name}`, (s) => s.http.send({ method: 'GET', path: unknownItemPath(c) })),
  unsupportedAccept: (ctx: CheckContext, c: CollectionProfile) => errorProbe(ctx, `GET ${c.name} with Accept: ${unsupportedAcceptHeader}`, (s) => s.http.send({ method: 'GET', path: c.path, headers: { accept: unsupportedAcceptHeader } })),
  unsupportedMethod: (ctx: CheckContext, c: CollectionProfile) => errorProbe(ctx, `${unsupportedMethod} ${c.name}`, (s) => unsupportedMethodProbe(s, s.http.url(c.path))),
  withoutCredentials: (ctx: CheckContext, c: CollectionProfile) => errorProbe(ctx, `GET ${c.name} without credentials`, (s) => s.http.send({ method: 'GET', path: c.path, auth: false })),
  malformedJson: (ctx: CheckContext, w: WritableCollection) => errorProbe(ctx, `POST ${w.name} with malformed JSON`, (s) => post(s, w, { body: malformedJson, headers: { 'content-type': 'application/json' } })),
  // Sent as it is: a mark added to it might be the very field it leaves out.
  invalidBody: (ctx: CheckContext, w: WritableCollection) => errorProbe(ctx, `POST ${w.name} with a body that fails validation`, (s) => s.sendCreating(w, { method: 'POST', path: w.path, json: invalidBody(w) }, { unmarked: true })),
  unsupportedContentType: (ctx: CheckContext, w: WritableCollection) => errorProbe(ctx, `POST ${w.name} as ${unsupportedContentType}`, (s) => post(s, w, { body: JSON.stringify({ ...w.createBody, ...freshMark(s, w) }), headers: { 'content-type': unsupportedContentType } })),
  /**
   * A write with an If-Match no server issued, to the {@link refusedWritesItem}: the 412, which a
   * framework's precondition helper (Django's @condition, a hand-written check before the
   * handler) often answers outside the error handler, with no problem body. A success is
   * shared too (a server that ignores If-Match): it wrote only to an item no check reads.
   */
  staleWrite: (ctx: CheckContext, u: WritableCollection) =>
    sharedResponse(ctx, `error probe: a write to an item of ${u.name} with a stale If-Match`, async (s) => {
      const item = await refusedWritesItem(s, u);
      const method = updateMethod(u);
      return s.http.send({ method, url: item.url, json: updateBody(u, method), headers: { 'if-match': staleTag } });
    }, (res) => !isUnavailable(res.status)),
  /**
   * A write with a body that fails validation to the {@link refusedWritesItem}: a PATCH where the
   * collection takes one, else a PUT, with its patch (or replace) body's values of another
   * type. Not the configured invalid body: one that only leaves out a required field is a
   * valid partial update. An update often skips the create's validation (Mongoose's
   * findByIdAndUpdate without runValidators). A success is shared too: it wrote only to an
   * item no check reads.
   */
  invalidUpdate: (ctx: CheckContext, u: WritableCollection) =>
    sharedResponse(ctx, `error probe: a write to an item of ${u.name} with a body that fails validation`, async (s) => {
      const item = await refusedWritesItem(s, u);
      const method = updateMethod(u);
      return s.http.send({ method, url: item.url, json: wrongTyped(updateBody(u, method)) });
    }, (res) => !isUnavailable(res.status)),
  /**
   * The same write with the configured invalid body's values for the fields both send (a bad
   * value, where the probe above sends a wrong type), or undefined where the config gives none
   * of them: an API may answer a wrong type 400 and a bad value 422, as the conventions' table
   * parts bad input from validation.
   */
  invalidValueUpdate: async (ctx: CheckContext, u: WritableCollection): Promise<HttpResponse | undefined> => {
    const method = updateMethod(u);
    const body = invalidValueUpdateBody(u, method);
    if (body === undefined) return undefined;
    return sharedResponse(ctx, `error probe: a write to an item of ${u.name} with the configured invalid values`, async (s) => s.http.send({ method, url: (await refusedWritesItem(s, u)).url, json: body }), (res) => !isUnavailable(res.status));
  },
  /** A valid credential without the write scope: the 403 (AUT-scope-403 judges its status). */
  withoutScope: (ctx: CheckContext, w: WritableCollection, limited: NonNullable<ErrorProbeNeeds['limitedCredential']>) =>
    errorProbe(ctx, `POST ${w.name} with a credential without the write scope`, (s) => post(s, w, { json: w.createBody, ...withKey(limited, limited.value.value) })),
};

/** A POST to `w`'s listing; what a lenient target created of it is the sender's to clean up. */
function post(ctx: CheckContext, w: WritableCollection, spec: Omit<RequestSpec, 'method' | 'path'>): Promise<HttpResponse> {
  return ctx.sendCreating(w, { method: 'POST', path: w.path, ...spec });
}

/**
 * Requests that must each be answered with an error, as many as the config allows:
 * unknown path (always); unknown id, unsupported Accept and an unsupported method (with a
 * collection: the method is TRACE, safe even on a read-only run); missing credentials (with
 * credentials); malformed JSON, validation failure and unsupported Content-Type (with a
 * writable collection); a write without the scope (with a limited credential); writes with
 * a stale If-Match and with a body that fails validation (with a replace or patch body). Only error
 * answers are returned. Each is an {@link errorProbes} probe, shared by every check that
 * judges it.
 */
/** An HTML page a proxy or web server wrote (nginx's `<center>nginx</center>`, Apache's address line), or one whose Server header names such a server. */
const proxyPage = (res: HttpResponse): boolean => /\b(?:nginx|apache|envoy|haproxy|traefik|cloudflare|microsoft-iis|openresty|caddy)\b/i.test(`${res.text} ${res.headers['server'] ?? ''}`);

export async function provokeErrors(ctx: CheckContext, needs: ErrorProbeNeeds): Promise<HttpResponse[]> {
  const { collection, writable, limitedCredential } = needs;
  const responses: HttpResponse[] = [await errorProbes.unknownPath(ctx)];
  if (collection) {
    responses.push(await errorProbes.unknownItem(ctx, collection), await errorProbes.unsupportedAccept(ctx, collection));
    const trace = await errorProbes.unsupportedMethod(ctx, collection);
    // nginx refuses TRACE itself, with an HTML page of its own, before the API sees it: no client's call, and no error body of
    // the API's. (A 405 with no body or plain text is the app's own: ASP.NET's endpoint routing, Go's ServeMux.)
    if (trace.status === 405 && trace.mediaType === 'text/html' && proxyPage(trace)) ctx.note(`${describe(trace)}: ${unsupportedMethod} refused with an HTML page, by something in front of the API it seems (nginx refuses TRACE itself); not judged as the API's error body`);
    else responses.push(trace);
    if (needs.credentials) responses.push(await errorProbes.withoutCredentials(ctx, collection));
  }
  if (writable) {
    responses.push(await errorProbes.malformedJson(ctx, writable), await errorProbes.invalidBody(ctx, writable), await errorProbes.unsupportedContentType(ctx, writable));
    if (limitedCredential) responses.push(await errorProbes.withoutScope(ctx, writable, limitedCredential));
  }
  if (needs.updatable) {
    for (const [probe, what] of [[errorProbes.staleWrite, 'a stale If-Match'], [errorProbes.invalidUpdate, 'a body that fails validation']] as const) {
      try {
        responses.push(await probe(ctx, needs.updatable));
      } catch (err) {
        // No item to send it to (its create failed, or answered without a usable Location): the other probes still judge.
        if (!isRestprobeError(err, 'ERR_SETUP') && !(err instanceof CheckFailure)) throw err;
        ctx.note(`no write with ${what} sent: ${err.message}`);
      }
    }
  }
  // A gateway's 502, 503 or 504 (an HTML page, a cold start) is no error body of the API's: one such moment would fail every problem check.
  const unavailable = responses.filter((r) => isUnavailable(r.status));
  if (unavailable.length > 0) ctx.note(`not judged as the API's error bodies: ${unavailable.map(describe).join('; ')} (the target, or a gateway before it, could not answer just then)`);
  return responses.filter((r) => r.status >= 400 && !isUnavailable(r.status));
}
