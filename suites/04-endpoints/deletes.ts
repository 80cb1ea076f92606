/** §4 method contract: DELETE. */
import { CheckSkipped, defineCheck } from '../../src/model/check.js';
import type { CheckContext, HttpResponse } from '../../src/model/context.js';
import type { WritableCollection } from '../../src/model/needs.js';
import { describe, ensure, expectStatus } from '../../src/check-kit/expect.js';
import { expectNoContent, sendExpectingNoContent, type NoContentExchange } from '../../src/check-kit/connection.js';

/** What a DELETE of an item answered, and a GET of the item after it (absent when the DELETE failed). */
interface Deletion {
  /** The DELETE, and whether bytes followed its header section on its connection. */
  readonly deleted: NoContentExchange;
  readonly after?: HttpResponse;
}

const deletedStatuses = [200, 202, 204];

/**
 * An item made, deleted and looked for: END-delete-204 and END-delete-then-404 judge these
 * answers, sent once per collection for the run, each check holding them in its own
 * evidence. Only a deletion that succeeded is shared: a check that met a failed one keeps it
 * as its own, and the other deletes an item of its own. (END-delete-idempotent deletes its
 * own item twice in a row, so no other check's new item can take a reused id between.)
 */
function deletion(ctx: CheckContext, writable: WritableCollection): Promise<Deletion> {
  return ctx.sharedAnswers(
    `a deletion in ${writable.name}`,
    (sender) => deleteAndLook(sender, writable),
    (d, take) => ({ deleted: { ...d.deleted, res: take(d.deleted.res) }, ...(d.after && { after: take(d.after) }) }),
    (d) => d.after !== undefined,
  );
}

async function deleteAndLook(ctx: CheckContext, writable: WritableCollection): Promise<Deletion> {
  const item = await ctx.create(writable);
  const deleted = await sendExpectingNoContent(ctx, { method: 'DELETE', url: item.url }, { method: 'GET', url: item.url });
  if (!deletedStatuses.includes(deleted.res.status)) return { deleted };
  return { deleted, after: await ctx.http.send({ method: 'GET', url: item.url }) };
}

export const delete204 = defineCheck({
  id: 'END-delete-204',
  title: 'DELETE answers 204, or 200 with a body',
  rule: 'DELETE of an existing item MUST answer 204 with no content (not even bytes after its header section, RFC 9110 §15.3.5), or 200 with a body.',
  severity: 'must',
  // Between a DELETE and the GET that follows (the deletion it shares with END-delete-then-404),
  // a target that reuses ids could hand the id to another check's new item: nothing else runs meanwhile.
  schedule: 'exclusive',
  needs: ['writable'],
  async run(ctx, { writable }) {
    const { deleted } = await deletion(ctx, writable);
    const res = deleted.res;
    expectStatus(res, [200, 204], 'DELETE');
    if (res.status === 204) expectNoContent(deleted, 'the 204');
    else ensure(res.text.length > 0, `${describe(res)} has an empty body, expected 204 for an empty answer or 200 with a body`, '204, or 200 with a body', '200 with no body');
  },
});

export const deleteThen404 = defineCheck({
  id: 'END-delete-then-404',
  title: 'A deleted item is gone',
  rule: 'After a successful DELETE, GET on the item MUST answer 404 (or 410 Gone); after a 202, which queues the deletion, an item still there is not judged.',
  severity: 'must',
  // As END-delete-204, whose deletion it shares: nothing else runs between the DELETE and the GET.
  schedule: 'exclusive',
  needs: ['writable'],
  async run(ctx, { writable }) {
    const { deleted, after } = await deletion(ctx, writable);
    expectStatus(deleted.res, deletedStatuses, 'DELETE');
    // 202: the deletion is queued (END-delete-204 judges that answer); the item may well be there a moment longer.
    if (deleted.res.status === 202 && after!.status === 200) throw new CheckSkipped(`${describe(deleted.res)}: the deletion was accepted for later, and ${describe(after!)} right after it shows the item still there, as it may be until the deletion runs`);
    expectStatus(after!, [404, 410], 'GET after DELETE');
  },
});

export const deleteIdempotent = defineCheck({
  id: 'END-delete-idempotent',
  title: 'A repeated DELETE ends in the same state',
  rule: 'DELETE MUST be idempotent: repeating it answers 404 (or 204) without a server error, and the item stays gone.',
  severity: 'must',
  // Between its DELETE and the GET that follows, a target that reuses ids could hand the id
  // to another check's new item: nothing else runs meanwhile.
  schedule: 'exclusive',
  needs: ['writable'],
  dependsOn: ['END-delete-then-404'],
  async run(ctx, { writable }) {
    const item = await ctx.create(writable);
    expectStatus(await ctx.http.send({ method: 'DELETE', url: item.url }), deletedStatuses, 'first DELETE');
    expectStatus(await ctx.http.send({ method: 'DELETE', url: item.url }), [404, 410, 204, 200], 'repeated DELETE');
    expectStatus(await ctx.http.send({ method: 'GET', url: item.url }), [404, 410], 'GET after the repeated DELETE');
  },
});

export const deleteChecks = [delete204, deleteThen404, deleteIdempotent];
