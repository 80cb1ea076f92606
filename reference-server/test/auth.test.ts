/**
 * The clean reference server's credentials (conventions §5): scopes on every call,
 * minted keys with scopes, session cookies, and keys never taken from the URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Exchange, type Harness } from './client.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const as = (key: string): { auth: false; headers: Record<string, string> } => ({ auth: false, headers: { 'x-api-key': key } });

function expectProblem(res: Exchange, status: number): Record<string, any> {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe('application/problem+json');
  const body = res.json();
  expect(body).toMatchObject({ status, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
  return body;
}

/** Mints a key with the primary key and returns its id and secret. */
async function mint(scopes?: string[]): Promise<{ id: string; key: string; scopes: string[] }> {
  const res = await h.call('POST', '/v2/api-keys', { json: { name: 'test', ...(scopes && { scopes }) } });
  expect(res.status).toBe(201);
  return res.json();
}

/** Logs in with a key and returns the `Cookie` header that carries the session. */
async function login(key: string): Promise<{ cookie: string }> {
  const res = await h.call('POST', '/v2/sessions', { auth: false, json: { api_key: key } });
  expect(res.status).toBe(201);
  return { cookie: (res.headers['set-cookie'] ?? '').split(';')[0] ?? '' };
}

describe('keys', () => {
  it('starts with two random base64url keys, or the ones given', async () => {
    const { RESTPROBE_API_KEY: full, RESTPROBE_READONLY_KEY: readOnly } = h.server.secrets;
    expect(full).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readOnly).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readOnly).not.toBe(full);
    const given = await startHarness([], { apiKey: 'k-full', readOnlyKey: 'k-read' });
    try {
      expect(given.server.secrets).toMatchObject({ RESTPROBE_API_KEY: 'k-full', RESTPROBE_READONLY_KEY: 'k-read' });
      expect((await given.call('GET', '/v2/projects', as('k-read'))).status).toBe(200);
      expect((await given.call('POST', '/v2/projects', { ...as('k-read'), json: { name: 'n' } })).status).toBe(403);
    } finally {
      await given.close();
    }
  });
});

describe('scopes', () => {
  it('lets the read-only key read everything', async () => {
    const project = await h.createProject();
    const task = (await h.call('POST', `/v2/projects/${project.id}/tasks`, { json: { title: 't' } })).json();
    const readOnly = as(h.server.secrets.RESTPROBE_READONLY_KEY);
    for (const path of ['/v2', '/v2/projects', `/v2/projects/${project.id}`, `/v2/projects/${project.id}/tasks`, `/v2/tasks/${task.id}`, '/v2/members', '/v2/events']) {
      expect((await h.call('GET', path, readOnly)).status, path).toBe(200);
      expect((await h.call('HEAD', path, readOnly)).status, path).toBe(200);
    }
    expect((await h.call('GET', '/v2/projects/missing', readOnly)).status).toBe(404);
  });

  it('refuses every write of the read-only key with 403 problem+json naming the scope, and applies none', async () => {
    const project = await h.createProject({ name: 'kept' });
    const readOnly = as(h.server.secrets.RESTPROBE_READONLY_KEY);
    const writes: [string, string, unknown?][] = [
      ['POST', '/v2/projects', { name: 'n' }],
      ['PUT', `/v2/projects/${project.id}`, { name: 'changed' }],
      ['PATCH', `/v2/projects/${project.id}`, { name: 'changed' }],
      ['DELETE', `/v2/projects/${project.id}`],
      ['DELETE', '/v2/projects/missing'],
      ['POST', `/v2/projects/${project.id}/tasks`, { title: 't' }],
      ['POST', '/v2/members', { name: 'm', email: 'm@example.com' }],
      ['POST', '/v2/events', { type: 'x' }],
      ['POST', '/v2/api-keys', { name: 'k' }],
    ];
    for (const [method, path, json] of writes) {
      const res = await h.call(method, path, { ...readOnly, ...(json !== undefined && { json }) });
      const needed = `write:${path.split('/')[2]}`;
      expect(expectProblem(res, 403).detail, `${method} ${path}`).toContain(needed);
      expect(res.headers['www-authenticate']).toBe(`Bearer realm="restprobe-reference", error="insufficient_scope", scope="${needed}"`);
    }
    expect((await h.call('GET', `/v2/projects/${project.id}`)).json().name).toBe('kept');
  });

  it('names the resource by the first segment: nested tasks are projects; write does not imply read', async () => {
    const project = await h.createProject();
    const task = (await h.call('POST', `/v2/projects/${project.id}/tasks`, { json: { title: 't' } })).json();
    const reader = as((await mint(['read:projects'])).key);
    expect((await h.call('GET', '/v2/projects', reader)).status).toBe(200);
    expect((await h.call('GET', `/v2/projects/${project.id}/tasks`, reader)).status).toBe(200);
    expectProblem(await h.call('GET', `/v2/tasks/${task.id}`, reader), 403);
    expectProblem(await h.call('GET', '/v2/members', reader), 403);
    const writer = as((await mint(['write:projects'])).key);
    expect((await h.call('POST', `/v2/projects/${project.id}/tasks`, { ...writer, json: { title: 'u' } })).status).toBe(201);
    expectProblem(await h.call('GET', `/v2/projects/${project.id}`, writer), 403);
    expectProblem(await h.call('PATCH', `/v2/tasks/${task.id}`, { ...writer, json: { title: 'v' } }), 403);
  });

  it('lets any valid credential read the index, even one with no scope', async () => {
    const none = as((await mint([])).key);
    expect((await h.call('GET', '/v2', none)).status).toBe(200);
    expectProblem(await h.call('GET', '/v2/projects', none), 403);
  });

  it('gives the primary key every scope', async () => {
    const project = await h.createProject();
    expect((await h.call('PATCH', `/v2/projects/${project.id}`, { json: { name: 'p' } })).status).toBe(200);
    expect((await h.call('DELETE', `/v2/projects/${project.id}`)).status).toBe(204);
    expect((await h.call('POST', '/v2/api-keys', { json: { name: 'k' } })).status).toBe(201);
  });

  it('allows only what every presented credential allows', async () => {
    const both = { auth: false as const, headers: { 'x-api-key': h.server.secrets.RESTPROBE_API_KEY, authorization: `Bearer ${h.server.secrets.RESTPROBE_READONLY_KEY}` } };
    expect((await h.call('GET', '/v2/projects', both)).status).toBe(200);
    expectProblem(await h.call('POST', '/v2/projects', { ...both, json: { name: 'n' } }), 403);
  });
});

describe('credentials that do not authenticate', () => {
  it.each(['api_key', 'apikey', 'key', 'access_token', 'token'])('never takes a key from the query (%s)', async (name) => {
    const res = await h.call('GET', `/v2/projects?${name}=${encodeURIComponent(h.server.secrets.RESTPROBE_API_KEY)}`, { auth: false });
    expectProblem(res, 401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="restprobe-reference"');
  });

  it.each([
    ['another scheme', { authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` }, 'Bearer realm="restprobe-reference"'],
    ['an empty key', { 'x-api-key': '' }, 'Bearer realm="restprobe-reference", error="invalid_token"'],
    ['a long garbage key', { 'x-api-key': 'g'.repeat(64) }, 'Bearer realm="restprobe-reference", error="invalid_token"'],
    ['a malformed Bearer', { authorization: 'Bearer a b c' }, 'Bearer realm="restprobe-reference"'],
    ['an unknown session', { cookie: 'session=nope' }, 'Bearer realm="restprobe-reference", error="invalid_token"'],
    ['an empty session', { cookie: 'session=' }, 'Bearer realm="restprobe-reference", error="invalid_token"'],
  ])('answers %s with 401 and a challenge', async (_name, headers, challenge) => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const res = await h.call(method, '/v2/projects/x', { auth: false, headers });
      expect(res.status === 405 || res.status === 401, `${method}: ${res.status}`).toBe(true);
      if (res.status === 401) {
        expectProblem(res, 401);
        expect(res.headers['www-authenticate']).toBe(challenge);
      }
    }
  });

  it('ignores cookies other than session, and never answers odd cookies with 5xx', async () => {
    expect((await h.call('GET', '/v2/projects', { headers: { cookie: 'theme=dark; sessionx=1' } })).status).toBe(200);
    for (const cookie of ['session', ';;=;', 'session=a=b', `session=${'x'.repeat(4000)}`]) {
      expect((await h.call('GET', '/v2/projects', { auth: false, headers: { cookie } })).status).toBe(401);
    }
  });
});

describe('minting', () => {
  it('gives a minted key its minter\'s scopes by default, or those asked for, shown but never the secret', async () => {
    const all = await mint();
    expect(all.scopes).toEqual(['read:*', 'write:*']);
    const res = await h.call('POST', '/v2/api-keys', { json: { name: 'r', scopes: ['read:projects', 'read:projects', 'write:tasks'] } });
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const { id, key, scopes } = res.json();
    expect(scopes).toEqual(['read:projects', 'write:tasks']);
    const shown = await h.call('GET', `/v2/api-keys/${id}`);
    expect(shown.json()).toEqual({ id, name: 'r', prefix: key.slice(0, 7), scopes, created_at: expect.any(String) });
    expect(shown.text).not.toContain(key);
  });

  it('refuses scopes the minter lacks with 403, and malformed scopes with 422 on scopes', async () => {
    const minter = as((await mint(['write:api-keys', 'read:projects'])).key);
    expect((await h.call('POST', '/v2/api-keys', { ...minter, json: { name: 'n', scopes: ['read:projects'] } })).status).toBe(201);
    const defaulted = (await h.call('POST', '/v2/api-keys', { ...minter, json: { name: 'n' } })).json();
    expect(defaulted.scopes).toEqual(['write:api-keys', 'read:projects']);
    for (const scopes of [['write:projects'], ['read:*']]) {
      expect(expectProblem(await h.call('POST', '/v2/api-keys', { ...minter, json: { name: 'n', scopes } }), 403).detail).toContain(scopes[0]);
    }
    for (const scopes of ['read:projects', ['admin'], ['read:Projects'], [1], ['delete:projects'], Array.from({ length: 33 }, (_, i) => `read:r${i}`)]) {
      const res = await h.call('POST', '/v2/api-keys', { json: { name: 'n', scopes } });
      expect(expectProblem(res, 422).errors).toEqual([{ field: 'scopes', message: expect.any(String) }]);
    }
  });

  it('revokes a key at once, and the sessions it opened with it', async () => {
    const minted = await mint();
    const session = await login(minted.key);
    expect((await h.call('GET', '/v2/projects', { auth: false, headers: session })).status).toBe(200);
    expect((await h.call('DELETE', `/v2/api-keys/${minted.id}`)).status).toBe(204);
    expectProblem(await h.call('GET', '/v2/projects', as(minted.key)), 401);
    expectProblem(await h.call('GET', '/v2/projects', { auth: false, headers: session }), 401);
  });
});

describe('sessions', () => {
  it('logs in with a key in the body: 201, an opaque id only in a Secure HttpOnly SameSite=Lax cookie', async () => {
    const res = await h.call('POST', '/v2/sessions', { auth: false, json: { api_key: h.server.secrets.RESTPROBE_API_KEY } });
    expect(res.status).toBe(201);
    const cookie = res.headers['set-cookie'] ?? '';
    expect(cookie).toMatch(/^session=[A-Za-z0-9_-]{43}; Path=\/; Secure; HttpOnly; SameSite=Lax$/);
    const id = cookie.slice('session='.length, cookie.indexOf(';'));
    expect(res.text).not.toContain(id);
    expect(res.json()).toEqual({ scopes: ['read:*', 'write:*'], created_at: expect.any(String) });
    expect(res.headers['location']).toBe('/v2/sessions/current');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('authenticates with the cookie, with the scopes of the key that logged in', async () => {
    const full = await login(h.server.secrets.RESTPROBE_API_KEY);
    expect((await h.call('POST', '/v2/projects', { auth: false, headers: full, json: { name: 'n' } })).status).toBe(201);
    const current = await h.call('GET', '/v2/sessions/current', { auth: false, headers: full });
    expect(current.json()).toEqual({ scopes: ['read:*', 'write:*'], created_at: expect.any(String) });
    const readOnly = await login(h.server.secrets.RESTPROBE_READONLY_KEY);
    expect((await h.call('GET', '/v2/projects', { auth: false, headers: readOnly })).status).toBe(200);
    expectProblem(await h.call('POST', '/v2/projects', { auth: false, headers: readOnly, json: { name: 'n' } }), 403);
  });

  it('logs out: 204, the record is gone, and the same cookie gets 401 with a challenge', async () => {
    const session = await login(h.server.secrets.RESTPROBE_READONLY_KEY);
    const out = await h.call('DELETE', '/v2/sessions/current', { auth: false, headers: session });
    expect(out.status).toBe(204);
    expect(out.headers['set-cookie']).toBe('session=; Path=/; Max-Age=0; Secure; HttpOnly; SameSite=Lax');
    for (const [method, path] of [['GET', '/v2/projects'], ['GET', '/v2/sessions/current'], ['DELETE', '/v2/sessions/current']] as const) {
      const res = await h.call(method, path, { auth: false, headers: session });
      expectProblem(res, 401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="restprobe-reference", error="invalid_token"');
    }
  });

  it('refuses a login with a bad key (401) or without one (422), and has no current session for a key', async () => {
    const bad = await h.call('POST', '/v2/sessions', { auth: false, json: { api_key: 'wrong' } });
    expectProblem(bad, 401);
    expect(bad.headers['www-authenticate']).toBe('Bearer realm="restprobe-reference", error="invalid_token"');
    expect(bad.headers['set-cookie']).toBeUndefined();
    for (const json of [{}, { api_key: 1 }, { api_key: '' }]) {
      expect(expectProblem(await h.call('POST', '/v2/sessions', { auth: false, json }), 422).errors).toEqual([{ field: 'api_key', message: expect.any(String) }]);
    }
    expectProblem(await h.call('POST', '/v2/sessions', { auth: false, body: '{', headers: { 'content-type': 'application/json' } }), 400);
    expectProblem(await h.call('GET', '/v2/sessions/current'), 404);
    expectProblem(await h.call('DELETE', '/v2/sessions/current'), 404);
    expectProblem(await h.call('DELETE', '/v2/sessions/current', { auth: false }), 401);
  });
});
