/**
 * The writes the update checks (§4) judge, each sent once per collection for the run and
 * judged by every check whose rule is about it: a PATCH to a fresh item between two GETs, and
 * the same PUT twice to another fresh item, a GET before and after each. One check would
 * otherwise make an item for each rule (PUT replaces, PUT is idempotent, PATCH keeps what it
 * does not send, an update returns the resource, the ETag changes on a write). The PATCH has
 * an item of its own: after a PUT reset the fields it omits, a PATCH that resets them too
 * would change nothing to see. And one item's writes with a stale If-Match, which the two
 * If-Match checks judge ({@link StaleIfMatch}).
 */
import type { CheckContext, CreatedResource, HttpResponse, RequestSpec } from '../model/context.js';
import type { WritableCollection } from '../model/needs.js';
import { anyUnavailable } from '../http/polite.js';
import { RestprobeError } from '../errors.js';
import { isEntityTag } from './http-grammar.js';
import { staleTag } from './probes.js';

/** A write and the GET of its item right after it. */
export interface WriteThenRead {
  readonly write: HttpResponse;
  readonly after: HttpResponse;
}

/**
 * What a sequence ends with when a request of it threw (a timeout, a dropped connection):
 * the steps before it were answered and are judged; a check whose step is missing gets the
 * error, as if it had sent the request itself.
 */
export interface CutShort {
  readonly failure?: unknown;
}

/** A fresh item, its GET before any write, and the writes sent to it in order. */
export interface UpdateSequence extends CutShort {
  readonly item: CreatedResource;
  readonly before?: HttpResponse;
  readonly writes: readonly WriteThenRead[];
  /** A write answered whose GET after it threw: the sequence's end, for a check that judges the write's answer alone. */
  readonly unread?: HttpResponse;
}

/** The answer to write `i` of `s`, whether or not the GET after it was answered; the error that cut `s` short before it, else. */
export const writeOf = (s: UpdateSequence, i: number): HttpResponse => s.writes[i]?.write ?? answered(s, i === s.writes.length ? s.unread : undefined);

type Method = 'PUT' | 'PATCH';

/**
 * Whether a sequence may serve every check: it ran to its end, and no answer says the target
 * was unavailable for a moment. Otherwise it is its sender's alone, and each other check sends its own.
 */
export const servesAll = (s: CutShort, answers: readonly HttpResponse[]): boolean => s.failure === undefined && !anyUnavailable(answers);

/** `take` for a step: both its answers into the adopting check's evidence. */
const takeStep = (take: (res: HttpResponse) => HttpResponse) => (w: WriteThenRead): WriteThenRead => ({ write: take(w.write), after: take(w.after) });

/**
 * `step`, which a check needs answered, or the error that cut `s` short before it was: the
 * check meets the error as if it had sent the request itself.
 *
 * @example
 * ```ts
 * const [neverIssued] = sequence.updates;
 * judge(answered(sequence, neverIssued));
 * ```
 */
export function answered<T>(s: CutShort, step: T | undefined): T {
  if (step !== undefined) return step;
  throw s.failure ?? new RestprobeError('ERR_HARNESS', 'a shared write sequence ended before the step a check needs, with no error');
}

/** Step `i` of `s`, or the error that cut it short before that step was answered. */
export const stepOf = (s: UpdateSequence, i: number): WriteThenRead => answered(s, s.writes[i]);

/** The GET of `s`'s item before its writes, or the error that cut it short before. */
export const beforeOf = (s: UpdateSequence): HttpResponse => answered(s, s.before);

function sequence(ctx: CheckContext, c: WritableCollection, method: Method, times: number): Promise<UpdateSequence> {
  const body = method === 'PUT' ? c.replaceBody : c.patchBody;
  return ctx.sharedAnswers(
    `${method} ×${times} to a fresh item of ${c.name}`,
    async (sender): Promise<UpdateSequence> => {
      const item = await sender.create(c);
      const read = () => sender.http.send({ method: 'GET', url: item.url });
      let before: HttpResponse | undefined;
      let unread: HttpResponse | undefined;
      const writes: WriteThenRead[] = [];
      try {
        before = await read();
        // Sent whatever each answers: every check judges the step its rule is about.
        for (let i = 0; i < times; i++) {
          unread = await sender.http.send({ method, url: item.url, json: body });
          writes.push({ write: unread, after: await read() });
          unread = undefined;
        }
      } catch (failure) {
        return { item, ...(before && { before }), writes, ...(unread && { unread }), failure };
      }
      return { item, before, writes };
    },
    (s, take) => ({ ...s, item: { ...s.item, response: take(s.item.response) }, ...(s.before && { before: take(s.before) }), writes: s.writes.map(takeStep(take)), ...(s.unread && { unread: take(s.unread) }) }),
    (s) => servesAll(s, [s.item.response, ...(s.before ? [s.before] : []), ...s.writes.flatMap((w) => [w.write, w.after])]),
  );
}

/**
 * `collections[].patch.body` PATCHed once to a fresh item, with a GET before and after.
 *
 * @example
 * ```ts
 * const patched = await patchSequence(ctx, patchable);
 * const { write, after } = stepOf(patched, 0);
 * ```
 */
export function patchSequence(ctx: CheckContext, c: WritableCollection): Promise<UpdateSequence> {
  return sequence(ctx, c, 'PATCH', 1);
}

/**
 * `collections[].replace.body` PUT twice to a fresh item, with a GET before and after each.
 *
 * @example
 * ```ts
 * const put = await putSequence(ctx, replaceable);
 * const [first, second] = [stepOf(put, 0), stepOf(put, 1)];
 * ```
 */
export function putSequence(ctx: CheckContext, c: WritableCollection): Promise<UpdateSequence> {
  return sequence(ctx, c, 'PUT', 2);
}

/** One of a collection's update sequences, with the method and the configured body it sends. */
export interface SentUpdate {
  readonly method: Method;
  readonly body: Readonly<Record<string, unknown>>;
  readonly sequence: UpdateSequence;
}

/**
 * The sequences of the writes a collection is configured for: the PUT one (replace body), then
 * the PATCH one (patch body), for a check that judges each configured write.
 *
 * @example
 * ```ts
 * for (const { method, sequence } of await updateSequences(ctx, updatable)) judge(method, stepOf(sequence, 0));
 * ```
 */
export async function updateSequences(ctx: CheckContext, c: WritableCollection): Promise<SentUpdate[]> {
  return [
    ...(c.replaceBody ? [{ method: 'PUT' as const, body: c.replaceBody, sequence: await putSequence(ctx, c) }] : []),
    ...(c.patchBody ? [{ method: 'PATCH' as const, body: c.patchBody, sequence: await patchSequence(ctx, c) }] : []),
  ];
}

/** The writes a check can make on an item of an updatable collection: PUT with the replace body, PATCH with the patch body. */
export function updateWrites(item: CreatedResource): [RequestSpec, ...RequestSpec[]] {
  const c = item.collection;
  const out: RequestSpec[] = [];
  if (c.replaceBody) out.push({ method: 'PUT', url: item.url, json: c.replaceBody });
  if (c.patchBody) out.push({ method: 'PATCH', url: item.url, json: c.patchBody });
  const [first, ...rest] = out;
  if (!first) throw new RestprobeError('ERR_HARNESS', `no replace or patch body for ${c.name}, though the check needs an updatable collection`);
  return [first, ...rest];
}

/** Writes sent with one stale If-Match, the GET before them and the GET right after. */
export interface RefusedWrites {
  /** Which tag: `a tag the server never issued`, `the previous ETag "…"`. */
  readonly which: string;
  readonly sent: readonly HttpResponse[];
  readonly before: HttpResponse;
  readonly after: HttpResponse;
}

/**
 * One item's writes with a stale If-Match, which END-if-match-412 and END-if-match-delete-412
 * judge: first PUT and PATCH with a tag the server never issued, to the item as created (a
 * configured write changes it: its values are not the create body's, so a write applied
 * anyway although answered 412 shows); then the configured writes in turn until one changes
 * the ETag; then PUT and PATCH with the item's previous ETag, which the server really issued
 * (a server that accepts any tag it ever had loses updates); then DELETE with each tag. A GET
 * follows each batch: a DELETE applied shows as a 404, a PUT or PATCH as changed values.
 * The tags stay stale while every write is refused, so one write to make them serves every
 * write after it.
 */
export interface StaleIfMatch extends CutShort {
  readonly created: HttpResponse;
  /** PUT and PATCH with the never-issued tag, then (when a write changed the ETag) with the previous one. */
  readonly updates: readonly RefusedWrites[];
  /** The configured writes sent to make the ETag stale, each with the GET after it, until one changed it. */
  readonly staleMaking: readonly WriteThenRead[];
  /** DELETE with the same tags. */
  readonly deletes: readonly RefusedWrites[];
}

/** Sent once per collection for the run ({@link StaleIfMatch}); a sequence cut short or that met a 502, 503 or 504 is its sender's alone. */
export function staleIfMatch(ctx: CheckContext, u: WritableCollection): Promise<StaleIfMatch> {
  const all = (s: StaleIfMatch): HttpResponse[] => [s.created, ...[...s.updates, ...s.deletes].flatMap((r) => [...r.sent, r.before, r.after]), ...s.staleMaking.flatMap((w) => [w.write, w.after])];
  return ctx.sharedAnswers(
    `writes to an item of ${u.name} with a stale If-Match`,
    (sender) => sendStaleIfMatch(sender, u),
    (s, take) => {
      // Taken in the order they were sent, so the evidence reads as the exchange went.
      const refused = (r: RefusedWrites): RefusedWrites => ({ ...r, before: take(r.before), sent: r.sent.map(take), after: take(r.after) });
      const created = take(s.created);
      const [first, ...rest] = s.updates;
      const neverIssued = first === undefined ? [] : [refused(first)];
      const staleMaking = s.staleMaking.map(takeStep(take));
      return { ...s, created, updates: [...neverIssued, ...rest.map(refused)], staleMaking, deletes: s.deletes.map(refused) };
    },
    (s) => servesAll(s, all(s)),
  );
}

async function sendStaleIfMatch(ctx: CheckContext, u: WritableCollection): Promise<StaleIfMatch> {
  const item = await ctx.create(u);
  const get = () => ctx.http.send({ method: 'GET', url: item.url });
  const created = await get();
  const etag = created.status === 200 ? created.headers['etag'] : undefined;
  const updates: RefusedWrites[] = [];
  const staleMaking: WriteThenRead[] = [];
  const deletes: RefusedWrites[] = [];
  const sequence = (failure?: unknown): StaleIfMatch => ({ created, updates, staleMaking, deletes, ...(failure !== undefined && { failure }) });
  // Without a validator there is no stale one to send: the checks fail on the GET.
  if (typeof etag !== 'string' || !isEntityTag(etag)) return sequence();
  let last = created;
  const refuse = async (specs: readonly RequestSpec[], [which, tag]: readonly [string, string]): Promise<RefusedWrites> => {
    const before = last;
    const sent: HttpResponse[] = [];
    for (const spec of specs) sent.push(await ctx.http.send({ ...spec, headers: { 'if-match': tag } }));
    last = await get();
    return { which, sent, before, after: last };
  };
  try {
    const neverIssued = ['a tag the server never issued', staleTag] as const;
    const tags: (readonly [string, string])[] = [neverIssued];
    updates.push(await refuse(updateWrites(item), neverIssued));
    // Sent whatever each answers: each check judges the steps its rule is about.
    for (const spec of updateWrites(item)) {
      const write = await ctx.http.send(spec);
      last = await get();
      staleMaking.push({ write, after: last });
      if (last.headers['etag'] === etag) continue;
      const previous = [`the previous ETag ${etag}`, etag] as const;
      tags.push(previous);
      updates.push(await refuse(updateWrites(item), previous));
      break;
    }
    for (const tag of tags) deletes.push(await refuse([{ method: 'DELETE', url: item.url }], tag));
  } catch (failure) {
    return sequence(failure);
  }
  return sequence();
}
