/** §4 method contract: DELETE. */
import type { Check } from '../../src/model/check.js';
import { describe, ensure, expectStatus } from '../../src/checks/expect.js';

export const delete204: Check = {
  id: 'END-delete-204',
  section: 'END',
  title: 'DELETE answers 204, or 200 with a body',
  rule: 'DELETE of an existing item MUST answer 204 with no content, or 200 with a body.',
  severity: 'must',
  requires: ['write'],
  async run(ctx) {
    const item = await ctx.create(ctx.writableCollection());
    const res = await ctx.http.send({ method: 'DELETE', url: item.url });
    expectStatus(res, [200, 204], 'DELETE');
    if (res.status === 204) ensure(res.text.length === 0, `${describe(res)} carried ${res.text.length} bytes, expected no content`, 'no content', `${res.text.length} bytes`);
    else ensure(res.text.length > 0, `${describe(res)} has an empty body, expected 204 for an empty answer or 200 with a body`, '204, or 200 with a body', '200 with no body');
  },
};

export const deleteThen404: Check = {
  id: 'END-delete-then-404',
  section: 'END',
  title: 'A deleted item is gone',
  rule: 'After a successful DELETE, GET on the item MUST answer 404 (or 410 Gone).',
  severity: 'must',
  requires: ['write'],
  async run(ctx) {
    const item = await ctx.create(ctx.writableCollection());
    expectStatus(await ctx.http.send({ method: 'DELETE', url: item.url }), [200, 202, 204], 'DELETE');
    expectStatus(await ctx.http.send({ method: 'GET', url: item.url }), [404, 410], 'GET after DELETE');
  },
};

export const deleteIdempotent: Check = {
  id: 'END-delete-idempotent',
  section: 'END',
  title: 'A repeated DELETE ends in the same state',
  rule: 'DELETE MUST be idempotent: repeating it answers 404 (or 204) without a server error, and the item stays gone.',
  severity: 'must',
  requires: ['write'],
  async run(ctx) {
    const item = await ctx.create(ctx.writableCollection());
    expectStatus(await ctx.http.send({ method: 'DELETE', url: item.url }), [200, 202, 204], 'first DELETE');
    expectStatus(await ctx.http.send({ method: 'DELETE', url: item.url }), [404, 410, 204, 200], 'repeated DELETE');
    expectStatus(await ctx.http.send({ method: 'GET', url: item.url }), [404, 410], 'GET after the repeated DELETE');
  },
};

export const deleteChecks: readonly Check[] = [delete204, deleteThen404, deleteIdempotent];
