/** §7 errors: every error body is problem+json of one shape (RFC 9457). */
import { defineCheck } from '../../src/model/check.js';
import { describe, ensure, brief } from '../../src/check-kit/expect.js';
import { errorAs2xx, errorBodySigns, expectFieldErrors, expectProblems, leakedInternals } from '../../src/check-kit/problem.js';
import { errorProbeUses, errorProbes, offendingFields, provokeErrors } from '../../src/check-kit/probes.js';

export const problemJsonContentType = defineCheck({
  id: 'ERR-problem-json-content-type',
  title: 'Error responses are application/problem+json',
  rule: 'Every 4xx and 5xx response MUST carry `Content-Type: application/problem+json`, the media type of the problem+json shape the conventions give every error body (§2 error body, §7 rule 2; RFC 9457 §3 defines the shape, §6.1 the media type).',
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
    const res = await errorProbes.invalidBody(ctx, collection);
    expectFieldErrors(res, offendingFields(collection), 'the answer to an invalid body');
  },
});

export const noErrorBodyOn2xx = defineCheck({
  id: 'ERR-no-error-body-on-2xx',
  title: 'No 2xx carries an error body',
  rule: 'The status code MUST carry the result: a 2xx response never carries an error body (problem members, an error status, `success: false`, `error` members, a body of report members with a message, or a bare message in a JSON string or plain text in the words of an error).',
  severity: 'must',
  needs: ['collection'],
  uses: ['writable'],
  async run(ctx, { collection, writable }) {
    const responses = [await errorProbes.unknownItem(ctx, collection)];
    if (writable) responses.push(await errorProbes.invalidBody(ctx, writable), await errorProbes.malformedJson(ctx, writable));
    // A body that names an item is a representation, whatever its fields are called.
    const isRepresentation = (json: unknown) => typeof json === 'object' && json !== null && (json as Record<string, unknown>)[collection.idField] !== undefined;
    const bad = responses.flatMap((r) => {
      const signs = r.status >= 200 && r.status < 300 && !isRepresentation(r.json) ? errorBodySigns(r) : [];
      return signs.length > 0 ? [`${describe(r)} with ${brief(r.json, 80)} (${signs.join(', ')})`] : [];
    });
    ensure(bad.length === 0, `${bad.join('; ')}: a success status with an error body, expected a 4xx`, '4xx for an error', bad.join('; '), errorAs2xx);
  },
});

export const noStackTraceOrHtml = defineCheck({
  id: 'ERR-no-stack-trace-or-html',
  title: 'Error bodies reveal no stack trace or HTML',
  rule: 'An error body SHOULD reveal nothing of the implementation: no stack trace, and no HTML inside a JSON body (RFC 9457 §5 warns against leaking implementation details; an HTML error page is already a broken problem+json shape).',
  severity: 'should',
  needs: [],
  uses: errorProbeUses,
  async run(ctx, needs) {
    const responses = await provokeErrors(ctx, needs);
    const leaks = responses.flatMap((r) => leakedInternals(r).map((l) => `${describe(r)}: ${l}`));
    ensure(leaks.length === 0, `${leaks.join('; ')}; expected error bodies that reveal nothing of the implementation`, 'no stack trace, no HTML', leaks.join('; '));
  },
});

export const problemDetailsChecks = [problemJsonContentType, problemMembers, problemStatusMatches, validationErrorsField, noErrorBodyOn2xx, noStackTraceOrHtml];

