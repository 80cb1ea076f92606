/**
 * The writes the update checks (§4) judge, each sent once per collection for the run and
 * judged by every check whose rule is about it: a PATCH to a fresh item between two GETs, and
 * the same PUT twice to another fresh item, a GET before and after each. One check would
 * otherwise make an item for each rule (PUT replaces, PUT is idempotent, PATCH keeps what it
 * does not send, an update returns the resource, the ETag changes on a write). The PATCH has
 * an item of its own: after a PUT reset the fields it omits, a PATCH that resets them too
 * would change nothing to see.
 */
import type { CheckContext, CreatedResource, HttpResponse } from '../model/context.js';
import type { WritableCollection } from '../model/needs.js';
import { isUnavailable } from '../http/polite.js';

/** A write and the GET of its item right after it. */
export interface WriteThenRead {
  readonly write: HttpResponse;
  readonly after: HttpResponse;
}

/** A fresh item, its GET before any write, and the writes sent to it in order. */
export interface UpdateSequence {
  readonly item: CreatedResource;
  readonly before: HttpResponse;
  readonly writes: readonly WriteThenRead[];
}

type Method = 'PUT' | 'PATCH';

/** Whether any answer of a sequence says the target was unavailable for a moment: such a sequence is its sender's alone, and every other check sends its own. */
const kept = (s: UpdateSequence): boolean => ![s.item.response, s.before, ...s.writes.flatMap((w) => [w.write, w.after])].some((res) => isUnavailable(res.status));

function sequence(ctx: CheckContext, c: WritableCollection, method: Method, times: number): Promise<UpdateSequence> {
  const body = method === 'PUT' ? c.replaceBody : c.patchBody;
  return ctx.sharedAnswers(
    `${method} ×${times} to a fresh item of ${c.name}`,
    async (sender) => {
      const item = await sender.create(c);
      const read = () => sender.http.send({ method: 'GET', url: item.url });
      const before = await read();
      const writes: WriteThenRead[] = [];
      // Sent whatever each answers: every check judges the step its rule is about.
      for (let i = 0; i < times; i++) writes.push({ write: await sender.http.send({ method, url: item.url, json: body }), after: await read() });
      return { item, before, writes };
    },
    (s, take) => ({ item: { ...s.item, response: take(s.item.response) }, before: take(s.before), writes: s.writes.map((w) => ({ write: take(w.write), after: take(w.after) })) }),
    kept,
  );
}

/**
 * `collections[].patch.body` PATCHed once to a fresh item, with a GET before and after.
 *
 * @example
 * ```ts
 * const { before, writes: [patch] } = await patchSequence(ctx, patchable);
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
 * const { writes: [first, second] } = await putSequence(ctx, replaceable);
 * ```
 */
export function putSequence(ctx: CheckContext, c: WritableCollection): Promise<UpdateSequence> {
  return sequence(ctx, c, 'PUT', 2);
}
