/** §4 method contract: DELETE. */
import { defineCheck } from '../../src/model/check.js';
import type { CheckContext, HttpResponse } from '../../src/model/context.js';
import type { WritableCollection } from '../../src/model/needs.js';
import { describe, ensure, expectStatus } from '../../src/check-kit/expect.js';
import { expectNoContent, sendExpectingNoContent, type NoContentExchange } from '../../src/check-kit/connection.js';

/** What a DELETE of an item answered, and what followed it; the later answers are absent when the DELETE failed. */
interface Deletion {
  /** The DELETE, and whether bytes followed its header section on its connection. */
  readonly deleted: NoContentExchange;
  /** A GET of the item after the DELETE. */
  readonly after?: HttpResponse;
  /** The DELETE repeated. */
  readonly again?: HttpResponse;
  /** A GET of the item after the repeated DELETE. */
  readonly afterAgain?: HttpResponse;
}

const deletedStatuses = [200, 202, 204];

/**
 * An item made and deleted, looked for, deleted again and looked for again: the DELETE checks
 * judge these answers, sent once per collection for the run, each check holding them in its
 * own evidence. Only a sequence whose DELETE succeeded is shared: a check that met a failed
 * one keeps it as its own, and each later check deletes an item of its own.
 */
function deletion(ctx: CheckContext, writable: WritableCollection): Promise<Deletion> {
  return ctx.sharedAnswers(
    `a deletion in ${writable.name}`,
    (sender) => deleteTwice(sender, writable),
    (d, take) => ({ deleted: { ...d.deleted, res: take(d.deleted.res) }, ...(d.after && { after: take(d.after) }), ...(d.again && { again: take(d.again) }), ...(d.afterAgain && { afterAgain: take(d.afterAgain) }) }),
    (d) => d.after !== undefined,
  );
}

async function deleteTwice(ctx: CheckContext, writable: WritableCollection): Promise<Deletion> {
  const item = await ctx.create(writable);
  const deleted = await sendExpectingNoContent(ctx, { method: 'DELETE', url: item.url }, { method: 'GET', url: item.url });
  if (!deletedStatuses.includes(deleted.res.status)) return { deleted };
  const after = await ctx.http.send({ method: 'GET', url: item.url });
  const again = await ctx.http.send({ method: 'DELETE', url: item.url });
  const afterAgain = await ctx.http.send({ method: 'GET', url: item.url });
  return { deleted, after, again, afterAgain };
}

export const delete204 = defineCheck({
  id: 'END-delete-204',
  title: 'DELETE answers 204, or 200 with a body',
  rule: 'DELETE of an existing item MUST answer 204 with no content (not even bytes after its header section, RFC 9110 §15.3.5), or 200 with a body.',
  severity: 'must',
  // Between a DELETE and the GET that follows (the deletion the DELETE checks share), a target
  // that reuses ids could hand the id to another check's new item: nothing else runs meanwhile.
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
  rule: 'After a successful DELETE, GET on the item MUST answer 404 (or 410 Gone).',
  severity: 'must',
  schedule: 'exclusive',
  needs: ['writable'],
  async run(ctx, { writable }) {
    const { deleted, after } = await deletion(ctx, writable);
    expectStatus(deleted.res, deletedStatuses, 'DELETE');
    expectStatus(after!, [404, 410], 'GET after DELETE');
  },
});

export const deleteIdempotent = defineCheck({
  id: 'END-delete-idempotent',
  title: 'A repeated DELETE ends in the same state',
  rule: 'DELETE MUST be idempotent: repeating it answers 404 (or 204) without a server error, and the item stays gone.',
  severity: 'must',
  schedule: 'exclusive',
  needs: ['writable'],
  dependsOn: ['END-delete-then-404'],
  async run(ctx, { writable }) {
    const { deleted, again, afterAgain } = await deletion(ctx, writable);
    expectStatus(deleted.res, deletedStatuses, 'first DELETE');
    expectStatus(again!, [404, 410, 204, 200], 'repeated DELETE');
    expectStatus(afterAgain!, [404, 410], 'GET after the repeated DELETE');
  },
});

export const deleteChecks = [delete204, deleteThen404, deleteIdempotent];
