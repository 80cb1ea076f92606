/**
 * The reference authorization server on a clean server: metadata, JWKS, the token
 * endpoint's grants and errors, the unattended code flow, refresh rotation, and the
 * resource API's verification of JWT access tokens (every attack refused).
 */
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { escapeHtml } from '../src/oauth/login-page.js';
import { startHarness, type Harness } from './client.js';
import { api, authorize, clientToken, codeFlow, forge, keyConfused, login, now, pkce, redeem, redirectParams, redirectUri, refresh, revoke, tampered, token, unsigned, userTokens } from './oauth-client.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe('metadata and keys', () => {
  it('publishes RFC 8414 metadata with the origin as issuer', async () => {
    const res = await h.call('GET', '/.well-known/oauth-authorization-server', { auth: false });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    const origin = h.server.url;
    expect(res.json()).toMatchObject({
      issuer: origin,
      authorization_endpoint: `${origin}/oauth/authorize`,
      token_endpoint: `${origin}/oauth/token`,
      jwks_uri: `${origin}/oauth/jwks`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      revocation_endpoint: `${origin}/oauth/revoke`,
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    });
    expect(res.json().scopes_supported).toEqual(expect.arrayContaining(['read:*', 'write:*']));
  });

  it('publishes the public signing key, and exports the private one as one line of JWK JSON', async () => {
    const res = await h.call('GET', '/oauth/jwks', { auth: false });
    expect(res.status).toBe(200);
    const [key, ...rest] = res.json().keys;
    expect(rest).toEqual([]);
    expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(key.d).toBeUndefined();
    const testKey = JSON.parse(h.server.secrets.RESTPROBE_JWT_TEST_KEY);
    expect(testKey).toMatchObject({ kty: 'RSA', alg: 'RS256', kid: key.kid, n: key.n });
    expect(testKey.d).toEqual(expect.any(String));
    expect(h.server.secrets.RESTPROBE_JWT_TEST_KEY).not.toContain('\n');
  });

  it('needs no API key, and is not rate limited with the API', async () => {
    const res = await h.call('GET', '/oauth/jwks', { auth: false, headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers['ratelimit']).toBeUndefined();
  });

  it('answers OPTIONS with Allow and a wrong method with 405', async () => {
    expect((await h.call('OPTIONS', '/oauth/token', { auth: false })).headers['allow']).toBe('POST, OPTIONS');
    const get = await h.call('GET', '/oauth/token', { auth: false });
    expect(get.status).toBe(405);
    expect(get.headers['cache-control']).toBe('no-store');
    expect(get.json().error).toBe('invalid_request');
    expect((await h.call('DELETE', '/.well-known/oauth-authorization-server', { auth: false })).status).toBe(405);
  });
});

describe('token endpoint', () => {
  it('issues a client-credentials token (Basic or in the body), no refresh token, never cached', async () => {
    for (const client of ['basic', 'post'] as const) {
      const res = await token(h, { grant_type: 'client_credentials' }, { client });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['pragma']).toBe('no-cache');
      expect(res.headers['content-type']).toBe('application/json');
      const body = res.json();
      expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 600, scope: 'read:* write:*' });
      expect(body.refresh_token).toBeUndefined();
    }
  });

  it('issues JWTs of the RFC 9068 profile without personal data', async () => {
    const jwt = await clientToken(h, 'read:projects');
    const header = decodeProtectedHeader(jwt);
    expect(header).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
    expect(header.kid).toEqual(expect.any(String));
    const claims = decodeJwt(jwt);
    expect(claims).toMatchObject({ iss: h.server.url, aud: `${h.server.url}/v2`, sub: 'restprobe-client', client_id: 'restprobe-client', scope: 'read:projects' });
    expect(claims.exp).toBe((claims.iat ?? 0) + 600);
    expect(claims.nbf).toBe(claims.iat);
    expect(claims.jti).toEqual(expect.any(String));
    expect(Object.keys(claims).sort()).toEqual(['aud', 'client_id', 'exp', 'iat', 'iss', 'jti', 'nbf', 'scope', 'sub']);
  });

  it('answers errors with RFC 6749 §5.2 bodies, never cached', async () => {
    const cases: [Record<string, string>, Parameters<typeof token>[2], number, string][] = [
      [{ grant_type: 'client_credentials' }, { secret: 'wrong' }, 401, 'invalid_client'],
      [{ grant_type: 'client_credentials' }, { client: 'none' }, 401, 'invalid_client'],
      [{ grant_type: 'password', username: 'probe-user', password: h.server.secrets.RESTPROBE_OAUTH_PASSWORD }, {}, 400, 'unsupported_grant_type'],
      [{ grant_type: 'urn:example:unknown' }, {}, 400, 'unsupported_grant_type'],
      [{}, {}, 400, 'invalid_request'],
      [{ grant_type: 'client_credentials', scope: 'admin' }, {}, 400, 'invalid_scope'],
      [{ grant_type: 'authorization_code' }, {}, 400, 'invalid_request'],
      [{ grant_type: 'authorization_code', code: 'nope', redirect_uri: redirectUri, code_verifier: 'x'.repeat(43) }, {}, 400, 'invalid_grant'],
      [{ grant_type: 'refresh_token', refresh_token: 'nope' }, {}, 400, 'invalid_grant'],
    ];
    for (const [fields, options, status, error] of cases) {
      const res = await token(h, fields, options);
      expect([res.status, res.json().error], JSON.stringify(fields)).toEqual([status, error]);
      expect(res.json().error_description).toEqual(expect.any(String));
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['pragma']).toBe('no-cache');
      expect(res.headers['content-type']).toBe('application/json');
      if (status === 401) expect(res.headers['www-authenticate']).toBe('Basic realm="restprobe-reference"');
    }
  });

  it('refuses bodies that are not forms, and repeated parameters, with 400 invalid_request', async () => {
    const json = await h.call('POST', '/oauth/token', { auth: false, json: { grant_type: 'client_credentials' } });
    expect([json.status, json.json().error]).toEqual([400, 'invalid_request']);
    const twice = await h.call('POST', '/oauth/token', { auth: false, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials&grant_type=client_credentials' });
    expect([twice.status, twice.json().error]).toEqual([400, 'invalid_request']);
    const garbled = await h.call('POST', '/oauth/token', { auth: false, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: Buffer.from([0xff, 0xfe, 0x3d]) });
    expect(garbled.status).toBe(400);
    const huge = await token(h, { grant_type: 'client_credentials', scope: 'x'.repeat(100_000) });
    expect(huge.status).toBe(400);
  });
});

describe('the authorization code flow', () => {
  it('runs unattended: authorize → login form → 303 with code and state → tokens with the verifier', async () => {
    const { verifier, challenge } = pkce();
    const page = await authorize(h, challenge);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toContain('<form method="post" action="/oauth/authorize">');
    expect(page.text).toMatch(/<input name="username"/);
    expect(page.text).toMatch(/<input type="password" name="password"/);
    expect(page.text).not.toMatch(/(src|href)=/);
    const redirected = await login(h, page);
    expect(redirected.status).toBe(303);
    expect(redirected.headers['location']).toMatch(/^http:\/\/127\.0\.0\.1\/restprobe\/callback\?code=[\w-]+&state=st-123$/);
    const res = await redeem(h, redirectParams(redirected).get('code') ?? '', verifier);
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ token_type: 'Bearer', expires_in: 600, scope: 'read:* write:*', refresh_token: expect.any(String) });
    expect(decodeJwt(res.json().access_token).sub).not.toBe('probe-user');
    expect((await api(h, res.json().access_token)).status).toBe(200);
  });

  it('sends no state back when none was sent, and escapes what it shows', async () => {
    const { redirect } = await codeFlow(h, { state: undefined });
    expect(redirect.has('state')).toBe(false);
    const page = await authorize(h, pkce().challenge, { scope: 'read:projects' });
    expect(page.text).not.toContain('<script');
    const wrong = await login(h, page, { password: 'wrong' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('name="request"');
    // The same form still works after a wrong attempt; then it is used up.
    expect((await login(h, page)).status).toBe(303);
    expect((await login(h, page)).status).toBe(400);
  });

  it('refuses an unknown client or a foreign redirect URI with 400, never redirecting', async () => {
    for (const overrides of [{ client_id: 'someone-else' }, { redirect_uri: `${redirectUri}/evil` }, { redirect_uri: 'https://attacker.example/cb' }, { redirect_uri: undefined }]) {
      const res = await authorize(h, pkce().challenge, overrides);
      expect(res.status, JSON.stringify(overrides)).toBe(400);
      expect(res.headers['location']).toBeUndefined();
      expect(res.headers['content-type']).toBe('application/problem+json');
    }
  });

  it('redirects other errors to the client with error and state', async () => {
    const cases: [Record<string, string | undefined>, string][] = [
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge_method: undefined }, 'invalid_request'],
      [{ scope: 'admin:everything' }, 'invalid_scope'],
    ];
    for (const [overrides, error] of cases) {
      const params = redirectParams(await authorize(h, pkce().challenge, overrides));
      expect([params.get('error'), params.get('state')], JSON.stringify(overrides)).toEqual([error, 'st-123']);
      expect(params.get('error_description')).toEqual(expect.any(String));
    }
  });

  it('checks the verifier, and a code works once: its replay revokes what it issued', async () => {
    const { code, verifier } = await codeFlow(h);
    expect((await redeem(h, code, undefined)).json().error).toBe('invalid_grant');
    const other = await codeFlow(h);
    expect((await redeem(h, other.code, pkce().verifier)).json().error).toBe('invalid_grant');
    // A failed verifier used the code up too (RFC 6749 §4.1.2: one use).
    expect((await redeem(h, code, verifier)).json().error).toBe('invalid_grant');
    const fresh = await codeFlow(h);
    const first = await redeem(h, fresh.code, fresh.verifier);
    expect(first.status).toBe(200);
    const replay = await redeem(h, fresh.code, fresh.verifier);
    expect([replay.status, replay.json().error]).toEqual([400, 'invalid_grant']);
    expect((await refresh(h, first.json().refresh_token)).json().error).toBe('invalid_grant');
  });

  it('needs the redirect_uri of the authorization request at the token endpoint', async () => {
    const { code, verifier } = await codeFlow(h);
    expect((await token(h, { grant_type: 'authorization_code', code, code_verifier: verifier })).json().error).toBe('invalid_request');
    const other = await token(h, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: `${redirectUri}/other` });
    expect(other.json().error).toBe('invalid_grant');
  });

  it('escapes HTML in what the login page shows', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#60;/a&#62;');
  });
});

describe('refresh tokens', () => {
  it('rotate: each refresh gives a new one, the old one is refused, and its reuse revokes the family', async () => {
    const first = await userTokens(h);
    const second = await refresh(h, first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.headers['cache-control']).toBe('no-store');
    const rotated = second.json().refresh_token;
    expect(rotated).toEqual(expect.any(String));
    expect(rotated).not.toBe(first.refresh_token);
    expect((await api(h, second.json().access_token)).status).toBe(200);
    const reuse = await refresh(h, first.refresh_token);
    expect([reuse.status, reuse.json().error]).toEqual([400, 'invalid_grant']);
    // The family is revoked: the newest token stops working too.
    expect((await refresh(h, rotated)).json().error).toBe('invalid_grant');
  });

  it('are revoked with their whole family at the revocation endpoint (RFC 7009); an unknown token is answered 200 too', async () => {
    const first = await userTokens(h);
    const rotated = (await refresh(h, first.refresh_token)).json().refresh_token;
    // The client must authenticate, as at the token endpoint.
    const anonymous = await revoke(h, rotated, { client: 'none' });
    expect([anonymous.status, anonymous.json().error]).toEqual([401, 'invalid_client']);
    const unrevoked = await refresh(h, rotated);
    expect(unrevoked.status).toBe(200);
    const newest: string = unrevoked.json().refresh_token;
    const revoked = await revoke(h, first.refresh_token, { client: 'post' });
    expect([revoked.status, revoked.text, revoked.headers['cache-control']]).toEqual([200, '', 'no-store']);
    // Revoking a rotated-out token of the family ends the newest one too.
    expect((await refresh(h, newest)).json().error).toBe('invalid_grant');
    expect((await revoke(h, 'no-such-token')).status).toBe(200);
    expect((await revoke(h, newest)).status).toBe(200);
  });

  it('may narrow the scope, never beyond what the user granted (RFC 6749 §6)', async () => {
    const { code, verifier } = await codeFlow(h, { scope: 'read:*' });
    const { refresh_token } = (await redeem(h, code, verifier)).json();
    const narrowed = await token(h, { grant_type: 'refresh_token', refresh_token, scope: 'read:projects' });
    expect(narrowed.json().scope).toBe('read:projects');
    const widened = await token(h, { grant_type: 'refresh_token', refresh_token: narrowed.json().refresh_token, scope: 'write:projects' });
    expect(widened.json().error).toBe('invalid_scope');
  });
});

describe('the resource API with JWT access tokens', () => {
  let model: string;
  beforeAll(async () => {
    model = await clientToken(h);
  });

  it('accepts a valid token, and a forged one the test key signs', async () => {
    expect((await api(h, model)).status).toBe(200);
    expect((await api(h, await forge(h, model))).status).toBe(200);
  });

  it.each([
    ['alg none', () => unsigned(model)],
    ['HS256 signed with the public key PEM', () => keyConfused(h, model)],
    ['a tampered signature', () => tampered(model)],
    ['an expired token', () => forge(h, model, { iat: now() - 1200, nbf: now() - 1200, exp: now() - 600 })],
    ['nbf in the future', () => forge(h, model, { nbf: now() + 600, exp: now() + 1200 })],
    ['a foreign issuer', () => forge(h, model, { iss: 'https://issuer.example' })],
    ['a foreign audience', () => forge(h, model, { aud: 'https://api.example/v2' })],
    ['no exp', () => forge(h, model, { exp: undefined })],
    ['garbage in three parts', () => 'a.b.c'],
  ])('refuses %s with 401 invalid_token', async (_what, make) => {
    const res = await api(h, await make());
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="restprobe-reference", error="invalid_token"');
    expect(res.headers['content-type']).toBe('application/problem+json');
  });

  it('tolerates a few seconds of clock skew, no more', async () => {
    expect((await api(h, await forge(h, model, { nbf: now() + 2 }))).status).toBe(200);
  });

  it('enforces the scope claim: 403 insufficient_scope', async () => {
    const readOnly = await clientToken(h, 'read:projects');
    expect((await api(h, readOnly)).status).toBe(200);
    const write = await api(h, readOnly, 'POST', '/v2/projects');
    expect(write.status).toBe(403);
    expect(write.headers['www-authenticate']).toContain('error="insufficient_scope"');
    expect((await api(h, readOnly, 'GET', '/v2/members')).status).toBe(403);
  });

  it('intersects a token with an API key sent alongside', async () => {
    const readOnly = await clientToken(h, 'read:*');
    const res = await h.call('POST', '/v2/projects', { headers: { authorization: `Bearer ${readOnly}` }, json: { name: 'x' } });
    expect(res.status).toBe(403);
  });
});

describe('bad input', () => {
  const formType = { 'content-type': 'application/x-www-form-urlencoded' };
  it.each([
    ['GET', '/oauth/authorize', {}, undefined],
    ['GET', '/oauth/authorize?client_id=%ZZ&redirect_uri=%E0%A4%A', {}, undefined],
    ['GET', '/oauth/authorize?client_id=restprobe-client&redirect_uri=http%3A%2F%2F127.0.0.1%2Frestprobe%2Fcallback&client_id=x', {}, undefined],
    ['HEAD', '/oauth/authorize', {}, undefined],
    ['POST', '/oauth/authorize', formType, undefined],
    ['POST', '/oauth/authorize', { 'content-type': 'application/json' }, '{"request":"x"}'],
    ['POST', '/oauth/authorize', formType, 'request=%ZZ&username=&password='],
    ['POST', '/oauth/token', formType, '%%%=&&=='],
    ['POST', '/oauth/token', { ...formType, authorization: 'Basic !!!' }, 'grant_type=client_credentials'],
    ['POST', '/oauth/token', { ...formType, authorization: 'Basic Zm9v' }, 'grant_type=client_credentials'],
    ['POST', '/oauth/token', { ...formType, authorization: 'Basic JVpaOiVaWg==' }, 'grant_type=client_credentials'],
    ['POST', '/oauth/token', formType, 'grant_type=refresh_token&client_id=restprobe-client&client_secret=x&refresh_token=%00'],
    ['GET', '/v2/projects', { authorization: 'Bearer eyJhbGciOiJub25lIn0.bm90IGpzb24.' }, undefined],
    ['GET', '/v2/projects', { authorization: 'Bearer ..' }, undefined],
  ] as const)('%s %s answers below 500', async (method, path, headers, body) => {
    const res = await h.call(method, path, { auth: false, headers: { ...headers }, ...(body !== undefined && { body }) });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe('lifetimes (the clock moved on, timers real)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const later = (seconds: number): void => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + seconds * 1000);
  };

  it('a code is refused after 60 s', async () => {
    const { code, verifier } = await codeFlow(h);
    later(61);
    expect((await redeem(h, code, verifier)).json().error).toBe('invalid_grant');
  });

  it('an access token is refused once expired (after the 5 s of tolerance)', async () => {
    const jwt = await clientToken(h);
    later(600 + 6);
    expect((await api(h, jwt)).status).toBe(401);
  });
});
