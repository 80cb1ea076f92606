/** §7 errors: the status code carries the result. */
import type { Check } from '../../src/model/check.js';
import { expectStatus } from '../../src/checks/expect.js';
import { expectProblems } from '../../src/checks/problem.js';
import { invalidBody, itemPath, malformedJson, sendTracked, unknownId, unknownPath, unsupportedAccept, unsupportedContentType } from '../../src/checks/probes.js';

export const unknownId404: Check = {
  id: 'ERR-unknown-id-404',
  section: 'ERR',
  title: 'An unknown id answers 404 problem+json',
  rule: 'GET on an item id that does not exist MUST answer 404 with a problem+json body.',
  severity: 'must',
  requires: ['collection'],
  async run(ctx) {
    const res = await ctx.http.send({ method: 'GET', path: itemPath(ctx.collection(), unknownId()) });
    expectStatus(res, 404, 'GET of an unknown id');
    expectProblems([res], 'content-type', 'application/problem+json');
  },
};

export const unknownPath404: Check = {
  id: 'ERR-unknown-path-404',
  section: 'ERR',
  title: 'An unknown path answers 404 problem+json',
  rule: 'A request to a path that names no resource MUST answer 404 with a problem+json body.',
  severity: 'must',
  requires: [],
  async run(ctx) {
    const res = await ctx.http.send({ method: 'GET', path: unknownPath() });
    expectStatus(res, 404, 'GET of an unknown path');
    expectProblems([res], 'content-type', 'application/problem+json');
  },
};

export const malformedJson400: Check = {
  id: 'ERR-malformed-json-400',
  section: 'ERR',
  title: 'Malformed JSON answers 400',
  rule: 'A body that is not valid JSON is bad input and MUST get 400.',
  severity: 'must',
  requires: ['write'],
  async run(ctx) {
    const collection = ctx.writableCollection();
    const res = await sendTracked(ctx, collection, { method: 'POST', path: collection.path, body: malformedJson, headers: { 'content-type': 'application/json' } });
    expectStatus(res, 400, 'POST with malformed JSON');
  },
};

export const validation422: Check = {
  id: 'ERR-validation-422',
  section: 'ERR',
  title: 'A body that fails validation answers 422',
  rule: 'Well-formed JSON that fails validation (wrong types, bad values) MUST get 422.',
  severity: 'must',
  requires: ['write'],
  async run(ctx) {
    const collection = ctx.writableCollection();
    const res = await sendTracked(ctx, collection, { method: 'POST', path: collection.path, json: invalidBody(collection) });
    expectStatus(res, 422, 'POST with a body that fails validation');
  },
};

export const unsupportedAccept406: Check = {
  id: 'ERR-unsupported-accept-406',
  section: 'ERR',
  title: 'An unsupported Accept answers 406',
  rule: 'A request whose Accept admits no format the API produces MUST get 406 (the conventions are stricter than RFC 9110 §12.4.1, which also allows ignoring Accept).',
  severity: 'must',
  requires: ['collection'],
  async run(ctx) {
    const res = await ctx.http.send({ method: 'GET', path: ctx.collection().path, headers: { accept: unsupportedAccept } });
    expectStatus(res, 406, `GET with Accept: ${unsupportedAccept}`);
  },
};

export const unsupportedContentType415: Check = {
  id: 'ERR-unsupported-content-type-415',
  section: 'ERR',
  title: 'An unsupported Content-Type answers 415',
  rule: 'A request body in a format the API does not consume MUST get 415.',
  severity: 'must',
  requires: ['write'],
  async run(ctx) {
    const collection = ctx.writableCollection();
    const res = await sendTracked(ctx, collection, {
      method: 'POST',
      path: collection.path,
      body: JSON.stringify(collection.createBody),
      headers: { 'content-type': unsupportedContentType },
    });
    expectStatus(res, 415, `POST with Content-Type: ${unsupportedContentType}`);
  },
};

export const statusCodeChecks: readonly Check[] = [unknownId404, unknownPath404, malformedJson400, validation422, unsupportedAccept406, unsupportedContentType415];
