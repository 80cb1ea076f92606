/**
 * The error probes on real stacks: a gateway's 502 to one probe (a cold start behind an ALB,
 * nginx's HTML page) is no error body of the API's, so the problem checks judge the others.
 */
import { describe, expect, it } from 'vitest';
import type { TargetProfile } from '../src/model/profile.js';
import { pathOf, type Rewrites } from './support/rewriting-proxy.js';
import { adjustProjects, startVariant } from './support/target.js';
import { verdictsOf } from './support/verdicts.js';

describe('a gateway that answers one error probe 502 with its own HTML page', () => {
  it('is not judged as the API\'s error body: the problem checks pass on the others, and say so', async () => {
    const badGateway: Rewrites = {
      request: (req) => (req.method === 'POST' && req.body.startsWith('{"restprobe": "malformed",') ? { status: 502, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>502 Bad Gateway</h1></body></html>' } : req),
    };
    const ids = ['ERR-problem-json-content-type', 'ERR-problem-members', 'ERR-problem-status-matches'] as const;
    const got = await verdictsOf(startVariant(badGateway), ids);
    expect(got.verdicts, got.explain).toEqual(Object.fromEntries(ids.map((id) => [id, 'pass'])));
    expect(got.notes.join('\n')).toMatch(/not judged as the API's error bodies: POST \S+ → 502 text\/html/);
  });
});

describe('an API that answers a wrong type 400 and a bad value 422 (Spring with Jackson, hand-written Go)', () => {
  const problem = (status: number, detail: string) => ({ status, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify({ type: 'about:blank', title: status === 400 ? 'Bad Request' : 'Unprocessable Content', status, detail, ...(status === 422 && { errors: [{ field: 'name', message: detail }] }) }) });
  const typedThenValidated: Rewrites = {
    request: (req) => {
      if (!['POST', 'PUT', 'PATCH'].includes(req.method) || !/^\/v2\/projects(\/[^/]+)?$/.test(pathOf(req))) return req;
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(req.body) as Record<string, unknown>;
      } catch {
        return req;
      }
      if ('name' in body && typeof body['name'] !== 'string') return problem(400, 'name: cannot deserialize');
      return body['name'] === '' ? problem(422, 'name: must not be blank') : req;
    },
  };
  const blankName = (p: TargetProfile): TargetProfile => adjustProjects(p, () => ({ invalidBody: { name: '' } }));

  it('ERR-validation-422 judges the update with the configured invalid value where a wrong type gets 400, and passes', async () => {
    const got = await verdictsOf(startVariant(typedThenValidated), ['ERR-validation-422'], blankName);
    expect(got.verdicts, got.explain).toEqual({ 'ERR-validation-422': 'pass' });
  });

  it('keeps the 400 where the configured values refuse nothing (a body invalid only for a field it leaves out makes a valid partial update), and fails', async () => {
    const leavesNameOut = (p: TargetProfile): TargetProfile => adjustProjects(p, (c) => ({ invalidBody: { description: 'a project with no name' }, patchBody: { ...c.patchBody, description: 'patched' } }));
    const got = await verdictsOf(startVariant(typedThenValidated), ['ERR-validation-422'], leavesNameOut);
    expect(got.verdicts, got.explain).toEqual({ 'ERR-validation-422': 'fail' });
    expect(got.explain).toMatch(/an update with a body that fails validation: found PATCH \S+ → 400/);
  });
});

describe('ERR-no-error-body-on-2xx and a bare message', () => {
  const unknownItemAs200 = (contentType: string, body: string): Rewrites => ({
    response: (res, req) => (req.method === 'GET' && /^\/v2\/projects\/[^/]+$/.test(pathOf(req)) && res.status === 404 ? { status: 200, headers: { 'content-type': contentType }, body } : res),
  });

  it('fails a 200 whose body is a JSON string or plain text in the words of an error ("Not found")', async () => {
    for (const [type, body] of [['application/json', '"Project not found"'], ['text/plain', 'Not found']] as const) {
      const got = await verdictsOf(startVariant(unknownItemAs200(type, body)), ['ERR-no-error-body-on-2xx']);
      expect(got.verdicts, got.explain).toEqual({ 'ERR-no-error-body-on-2xx': 'fail' });
      expect(got.explain).toMatch(/a bare message "(Project not found|Not found)"/);
    }
  });

  it('takes a bare message without such words for none ("ok")', async () => {
    const got = await verdictsOf(startVariant(unknownItemAs200('text/plain', 'ok')), ['ERR-no-error-body-on-2xx']);
    expect(got.verdicts, got.explain).toEqual({ 'ERR-no-error-body-on-2xx': 'pass' });
  });
});
