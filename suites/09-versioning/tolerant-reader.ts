/** §9.5 tolerant reader: the server accepts unknown optional input. */
import { defineCheck } from '../../src/model/check.js';
import { brief, describe, ensure, expectJsonObject, expectStatus } from '../../src/check-kit/expect.js';
import { createdItemUrl } from '../../src/check-kit/created-url.js';

/** A field no API has: a real client from a later version might send one like it. */
const unknownField = 'restprobe_unknown_optional_field';

export const tolerantReader = defineCheck({
  id: 'VER-tolerant-reader',
  title: 'A create with an unknown optional field is accepted',
  rule: 'The server MUST accept unknown optional input (tolerant reader): a create with an extra field it does not know answers 2xx, not 400 or 422 (§9.5). Whether the field is then kept is the server\'s choice: the conventions ask only that it be accepted, so a stored field is noted, not judged.',
  severity: 'must',
  needs: ['writable'],
  // Creating and reading at all are those checks' to judge.
  dependsOn: ['END-post-201-location', 'END-create-returns-resource', 'END-get-item-200'],
  async run(ctx, { writable: c }) {
    const value = 'restprobe: a field from a newer client';
    const res = await ctx.sendCreating(c, { method: 'POST', path: c.path, json: { ...c.createBody, [unknownField]: value } });
    ensure(res.status < 400 || res.status >= 500, `a create with the unknown field "${unknownField}": ${describe(res)}, expected the create to succeed, the field accepted`, '2xx', String(res.status));
    expectStatus(res, [200, 201], `a create with the unknown field "${unknownField}"`);
    const { url } = createdItemUrl(ctx.profile, res, c);
    ensure(url !== undefined, `${describe(res)}: neither a Location nor an id, so the item cannot be read back`, 'a Location or an id', 'neither');
    const got = await ctx.http.send({ method: 'GET', url });
    expectStatus(got, 200, 'GET of the item created with an unknown field');
    const body = expectJsonObject(got);
    ctx.note(Object.hasOwn(body, unknownField) ? `the server stored the unknown field ("${unknownField}": ${brief(body[unknownField])}); the conventions ask only that it be accepted` : `the server dropped the unknown field "${unknownField}"`);
  },
});
