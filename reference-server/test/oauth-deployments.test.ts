/**
 * The authorization server as deployed differently: two nodes over one store, HTTPS, an
 * HS256 key, and the header versioning scheme (where the API's base URL is the origin).
 */
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './client.js';
import { api, clientToken, codeFlow, forge, keyConfused, redeem } from './oauth-client.js';

async function withServer(options: Parameters<typeof startHarness>[1], run: (h: Harness) => Promise<void>): Promise<void> {
  const h = await startHarness([], options);
  try {
    await run(h);
  } finally {
    await h.close();
  }
}

describe.concurrent('deployments', () => {
  it('two nodes: one issuer and audience, and a code issued on one node redeems on the other', async () => {
    await withServer({ nodes: 2 }, async (h) => {
      const [first, second] = await Promise.all([0, 1].map((node) => h.call('GET', '/.well-known/oauth-authorization-server', { auth: false, node })));
      expect(first?.json()).toEqual(second?.json());
      expect(second?.json().issuer).toBe(h.server.url);
      const { code, verifier } = await codeFlow(h);
      const res = await redeem(h, code, verifier, 1);
      expect(res.status).toBe(200);
      const claims = decodeJwt(res.json().access_token);
      expect([claims.iss, claims.aud]).toEqual([h.server.url, `${h.server.url}/v2`]);
      const onSecond = await h.call('GET', '/v2/projects', { auth: false, node: 1, headers: { authorization: `Bearer ${res.json().access_token}` } });
      expect(onSecond.status).toBe(200);
    });
  });

  it('over TLS the issuer is https, and the OAuth endpoints carry HSTS', async () => {
    await withServer({ tls: true }, async (h) => {
      const res = await h.call('GET', '/.well-known/oauth-authorization-server', { auth: false });
      expect(res.json().issuer).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
      expect((await api(h, await clientToken(h))).status).toBe(200);
    });
  });

  it('HS256: tokens signed with a shared secret that is never published', async () => {
    await withServer({ jwtAlg: 'HS256' }, async (h) => {
      expect((await h.call('GET', '/oauth/jwks', { auth: false })).json()).toEqual({ keys: [] });
      expect(JSON.parse(h.server.secrets.RESTPROBE_JWT_TEST_KEY)).toMatchObject({ kty: 'oct', alg: 'HS256', kid: expect.any(String), k: expect.any(String) });
      const jwt = await clientToken(h);
      expect(decodeProtectedHeader(jwt)).toMatchObject({ alg: 'HS256', typ: 'at+jwt' });
      expect((await api(h, jwt)).status).toBe(200);
      expect((await api(h, await forge(h, jwt, { sub: 'someone' }))).status).toBe(200);
    });
  });

  it('RS256 pinned: an HS256 token is refused whatever its key', async () => {
    await withServer({}, async (h) => {
      expect((await api(h, await keyConfused(h, await clientToken(h)))).status).toBe(401);
    });
  });

  it('header versioning: the audience is the origin, and the API takes tokens at unversioned paths', async () => {
    await withServer({ versioning: 'header' }, async (h) => {
      const jwt = await clientToken(h);
      expect(decodeJwt(jwt).aud).toBe(h.server.url);
      expect((await api(h, jwt, 'GET', '/projects')).status).toBe(200);
    });
  });
});
