/** §4 method contract: DELETE. */
import { defineCheck } from '../../src/model/check.js';
import { describe, ensure, expectStatus } from '../../src/check-kit/expect.js';
import { expectNoContent, sendExpectingNoContent } from '../../src/check-kit/connection.js';

export const delete204 = defineCheck({
  id: 'END-delete-204',
  title: 'DELETE answers 204, or 200 with a body',
  rule: 'DELETE of an existing item MUST answer 204 with no content (not even bytes after its header section, RFC 9110 §15.3.5), or 200 with a body.',
  severity: 'must',
  needs: ['writable'],
  async run(ctx, { writable }) {
    const item = await ctx.create(writable);
    const deleted = await sendExpectingNoContent(ctx, { method: 'DELETE', url: item.url }, { method: 'GET', url: item.url });
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
  // Between its DELETE and the GET that follows, a target that reuses ids could hand the id
  // to another check's new item: nothing else runs meanwhile.
  schedule: 'exclusive',
  needs: ['writable'],
  async run(ctx, { writable }) {
    const item = await ctx.create(writable);
    expectStatus(await ctx.http.send({ method: 'DELETE', url: item.url }), [200, 202, 204], 'DELETE');
    expectStatus(await ctx.http.send({ method: 'GET', url: item.url }), [404, 410], 'GET after DELETE');
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
    expectStatus(await ctx.http.send({ method: 'DELETE', url: item.url }), [200, 202, 204], 'first DELETE');
    expectStatus(await ctx.http.send({ method: 'DELETE', url: item.url }), [404, 410, 204, 200], 'repeated DELETE');
    expectStatus(await ctx.http.send({ method: 'GET', url: item.url }), [404, 410], 'GET after the repeated DELETE');
  },
});

export const deleteChecks = [delete204, deleteThen404, deleteIdempotent];
