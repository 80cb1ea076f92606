/**
 * Probes several checks share: requests that provoke known errors, the choice of a
 * method a path does not allow, and an item the reading checks share.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { CheckContext, CreatedResource, HttpResponse, RequestSpec } from '../model/context.js';
import type { CollectionProfile } from '../model/profile.js';
import type { Resolved, WritableCollection } from '../model/needs.js';
import { splitList } from './http-grammar.js';
import { withKey } from './auth.js';

/** A path no API has: unknown-path probes. */
export function unknownPath(): string {
  return `/restprobe-no-such-path-${randomUUID().slice(0, 8)}`;
}

/** An id no item has (a fresh UUID). */
export function unknownId(): string {
  return randomUUID();
}

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
 * serves them all (END-safe-methods-no-change judges that). A check that writes to its item,
 * deletes it, or judges its create makes its own.
 */
export function sharedItem(ctx: CheckContext, c: WritableCollection): Promise<CreatedResource> {
  return ctx.runFixture(`${c.name}: an item to read`, (maker) => maker.create(c));
}

/**
 * A plain GET with the run's credentials of what no check changes (a collection's listing, the
 * {@link sharedItem}), sent once for the run: the checks that judge only its status and
 * headers (Content-Type, ETag, Vary, Cache-Control, a control for the credential checks)
 * share one 200, each holding it in its own evidence. Only a 200 is shared: another answer is
 * the check's that met it, and each later check sends for itself.
 */
export function sharedGet(ctx: CheckContext, target: { readonly path: string } | { readonly url: string }): Promise<HttpResponse> {
  const where = 'url' in target ? target.url : ctx.http.url(target.path);
  return ctx.sharedAnswers(`GET ${where}`, (sender) => sender.http.send({ method: 'GET', ...target }), (res, take) => take(res), (res) => res.status === 200);
}

/** An Accept value no JSON API produces. */
export const unsupportedAccept = 'application/x-restprobe-unsupported';

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

/** A body that breaks validation: the configured one, or createBody with each value's type changed. */
export function invalidBody(collection: CollectionProfile): Record<string, unknown> {
  if (collection.invalidBody) return collection.invalidBody;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(collection.createBody ?? {})) out[k] = typeof v === 'string' ? 42 : 'restprobe-wrong-type';
  return out;
}

/** What {@link provokeErrors} uses when the config has it: a check declares these as `uses`. */
export const errorProbeUses = ['collection', 'writable', 'credentials', 'limitedCredential'] as const;
export type ErrorProbeNeeds = Partial<Resolved<(typeof errorProbeUses)[number]>>;

/**
 * Requests that must each be answered with an error, as many as the config allows:
 * unknown path (always); unknown id, unsupported Accept and an unsupported method (with a
 * collection: the method is TRACE, safe even on a read-only run); malformed JSON,
 * validation failure and unsupported Content-Type (with a writable collection); missing
 * credentials (with credentials); a write without the scope (with a limited credential).
 * Only error answers are returned. The checks that judge these answers by their own rules
 * (content type, members, status, no internals) share one set for the run, per collection.
 */
export async function provokeErrors(ctx: CheckContext, needs: ErrorProbeNeeds): Promise<HttpResponse[]> {
  const given = [needs.collection?.name, needs.writable && `${needs.writable.name} writable`, needs.credentials && 'credentials', needs.limitedCredential && 'a limited credential'].filter(Boolean);
  // Every answer is handed over, errors or not: what a check was handed is what its pass rests on.
  const answers = await ctx.sharedAnswers(`error probes (${given.join(', ')})`, (sender) => sendErrorProbes(sender, needs), (sent, take) => sent.map(take));
  return answers.filter((r) => r.status >= 400);
}

async function sendErrorProbes(ctx: CheckContext, needs: ErrorProbeNeeds): Promise<HttpResponse[]> {
  const responses: HttpResponse[] = [await ctx.http.send({ method: 'GET', path: unknownPath() })];
  const { collection, writable } = needs;
  if (collection) {
    responses.push(await ctx.http.send({ method: 'GET', path: unknownItemPath(collection) }));
    responses.push(await ctx.http.send({ method: 'GET', path: collection.path, headers: { accept: unsupportedAccept } }));
    responses.push(await unsupportedMethodProbe(ctx, ctx.http.url(collection.path)));
    if (needs.credentials) responses.push(await ctx.http.send({ method: 'GET', path: collection.path, auth: false }));
  }
  if (writable) {
    const post = (spec: Omit<RequestSpec, 'method' | 'path'>) => ctx.sendCreating(writable, { method: 'POST', path: writable.path, ...spec });
    responses.push(await post({ body: malformedJson, headers: { 'content-type': 'application/json' } }));
    responses.push(await post({ json: invalidBody(writable) }));
    responses.push(await post({ body: JSON.stringify(writable.createBody), headers: { 'content-type': unsupportedContentType } }));
    // A valid credential without the write scope: the 403 (AUT-scope-403 judges its status).
    if (needs.limitedCredential) responses.push(await post({ json: writable.createBody, ...withKey(needs.limitedCredential, needs.limitedCredential.value.value) }));
  }
  return responses;
}
