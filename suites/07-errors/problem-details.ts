/** §7 errors: every error body is problem+json of one shape (RFC 9457). */
import { defineCheck } from '../../src/model/check.js';
import { describe, ensure, expectJsonObject, brief } from '../../src/check-kit/expect.js';
import { expectProblems, looksLikeErrorBody } from '../../src/check-kit/problem.js';
import { errorProbeUses, invalidBody, itemPath, malformedJson, provokeErrors, sendTracked, unknownId } from '../../src/check-kit/probes.js';

export const problemJsonContentType = defineCheck({
  id: 'ERR-problem-json-content-type',
  title: 'Error responses are application/problem+json',
  rule: 'Every 4xx and 5xx response MUST carry `Content-Type: application/problem+json` (RFC 9457 §3).',
  severity: 'must',
  needs: [],
  uses: errorProbeUses,
  async run(ctx, needs) {
    expectProblems(await provokeErrors(ctx, needs), 'content-type', 'application/problem+json');
  },
});

export const problemMembers = defineCheck({
  id: 'ERR-problem-members',
  title: 'Error bodies have type, title, status and detail',
  rule: 'Every error body MUST be a JSON object with `type`, `title` and `detail` strings and an integer `status`, the same shape every time.',
  severity: 'must',
  needs: [],
  uses: errorProbeUses,
  async run(ctx, needs) {
    expectProblems(await provokeErrors(ctx, needs), 'members', 'type, title, detail (strings) and status (integer)');
  },
});

export const problemStatusMatches = defineCheck({
  id: 'ERR-problem-status-matches',
  title: "The problem's status equals the HTTP status",
  rule: 'The `status` member of an error body MUST equal the HTTP status code of the response (RFC 9457 §3.1.2).',
  severity: 'must',
  needs: [],
  uses: errorProbeUses,
  async run(ctx, needs) {
    expectProblems(await provokeErrors(ctx, needs), 'status', 'status equal to the HTTP status');
  },
});

export const validationErrorsField = defineCheck({
  id: 'ERR-validation-errors-field',
  title: 'Validation errors name the offending fields',
  rule: 'An error for an invalid body MUST carry `errors`, an array of objects each with a `field` string naming an offending field.',
  severity: 'must',
  needs: ['writable'],
  async run(ctx, { writable: collection }) {
    const sent = invalidBody(collection);
    const res = await sendTracked(ctx, collection, { method: 'POST', path: collection.path, json: sent });
    const body = expectJsonObject(res, 'the answer to an invalid body');
    const errors = body['errors'];
    ensure(Array.isArray(errors) && errors.length > 0, `${describe(res)}: "errors" is ${brief(errors)}, expected a non-empty array`, 'errors: [{ field }]', brief(errors));
    const withoutField = errors.filter((e) => typeof (e as Record<string, unknown> | null)?.['field'] !== 'string');
    ensure(withoutField.length === 0, `${describe(res)}: ${withoutField.length} of ${errors.length} errors have no "field" string (${brief(withoutField[0])}), expected each to name its field`, 'field: string', brief(withoutField[0]));
    const named = errors.map((e) => String((e as Record<string, unknown>)['field']));
    const offending = Object.keys(sent);
    ensure(named.some((f) => offending.some((o) => f === o || f.endsWith(`.${o}`) || f.endsWith(`/${o}`))), `${describe(res)}: errors name ${brief(named)}, expected at least one of the invalid fields ${brief(offending)}`, brief(offending), brief(named));
  },
});

export const noErrorBodyOn2xx = defineCheck({
  id: 'ERR-no-error-body-on-2xx',
  title: 'No 2xx carries an error body',
  rule: 'The status code MUST carry the result: a 2xx response never carries an error body.',
  severity: 'must',
  needs: ['collection'],
  uses: ['writable'],
  async run(ctx, { collection, writable }) {
    const responses = [await ctx.http.send({ method: 'GET', path: itemPath(collection, unknownId()) })];
    if (writable) {
      responses.push(await sendTracked(ctx, writable, { method: 'POST', path: writable.path, json: invalidBody(writable) }));
      responses.push(await sendTracked(ctx, writable, { method: 'POST', path: writable.path, body: malformedJson, headers: { 'content-type': 'application/json' } }));
    }
    const bad = responses.filter((r) => r.status >= 200 && r.status < 300 && looksLikeErrorBody(r.json));
    ensure(bad.length === 0, `${bad.map((r) => `${describe(r)} with ${brief(r.json, 80)}`).join('; ')}: a success status with an error body, expected a 4xx`, '4xx for an error', bad.map(describe).join('; '));
  },
});

export const problemDetailsChecks = [problemJsonContentType, problemMembers, problemStatusMatches, validationErrorsField, noErrorBodyOn2xx];

