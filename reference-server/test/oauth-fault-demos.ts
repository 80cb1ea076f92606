/**
 * What each fault of the authorization server and the JWT verification does (run by
 * faults.test.ts, one server per fault, and shown to fail on the clean server). Each also
 * shows that the neighbouring behaviour is intact, so a fault changes only what it names.
 */
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { expect } from 'vitest';
import type { FaultName } from '../src/index.js';
import type { Harness } from './client.js';
import { api, authorize, clientToken, codeFlow, forge, keyConfused, login, now, pkce, redeem, redirectParams, redirectUri, refresh, tampered, token, unsigned, userTokens } from './oauth-client.js';

const oauthFaults = [
  'jwt-alg-none-accepted', 'jwt-key-confusion', 'jwt-signature-unchecked', 'jwt-exp-unchecked', 'jwt-nbf-unchecked',
  'jwt-iss-unchecked', 'jwt-aud-unchecked', 'jwt-scope-ignored', 'token-lifetime-24h', 'jwt-pii-in-claims', 'jwt-no-typ',
  'jwt-claims-missing', 'token-response-cacheable', 'client-secret-unchecked', 'unknown-grant-500', 'password-grant-accepted',
  'implicit-flow-accepted', 'pkce-optional', 'pkce-plain-accepted', 'pkce-verifier-unchecked', 'code-reusable', 'state-dropped',
  'redirect-uri-prefix-match', 'redirect-uri-extra-query', 'refresh-not-rotated', 'old-refresh-still-valid', 'refresh-reuse-no-revoke',
] as const satisfies readonly FaultName[];

type Demo = (h: Harness) => Promise<void>;

const expired = (h: Harness, model: string) => forge(h, model, { iat: now() - 1200, nbf: now() - 1200, exp: now() - 600 });
const notYet = (h: Harness, model: string) => forge(h, model, { nbf: now() + 600, exp: now() + 1200 });

/** The status the API answers a bearer token with. */
const statusWith = async (h: Harness, bearer: string): Promise<number> => (await api(h, bearer)).status;

export const oauthDemonstrations: Record<(typeof oauthFaults)[number], Demo> = {
  async 'jwt-alg-none-accepted'(h) {
    const model = await clientToken(h);
    expect(await statusWith(h, unsigned(model))).toBe(200);
    expect(await statusWith(h, tampered(model))).toBe(401);
  },
  async 'jwt-key-confusion'(h) {
    const model = await clientToken(h);
    expect(await statusWith(h, await keyConfused(h, model))).toBe(200);
    expect(await statusWith(h, unsigned(model))).toBe(401);
  },
  async 'jwt-signature-unchecked'(h) {
    const model = await clientToken(h);
    expect(await statusWith(h, tampered(model))).toBe(200);
    // Claims are still checked, and an unsigned token still refused.
    expect(await statusWith(h, tampered(await expired(h, model)))).toBe(401);
    expect(await statusWith(h, unsigned(model))).toBe(401);
  },
  async 'jwt-exp-unchecked'(h) {
    const model = await clientToken(h);
    expect(await statusWith(h, await expired(h, model))).toBe(200);
    expect(await statusWith(h, await notYet(h, model))).toBe(401);
  },
  async 'jwt-nbf-unchecked'(h) {
    const model = await clientToken(h);
    expect(await statusWith(h, await notYet(h, model))).toBe(200);
    expect(await statusWith(h, await expired(h, model))).toBe(401);
  },
  async 'jwt-iss-unchecked'(h) {
    const model = await clientToken(h);
    expect(await statusWith(h, await forge(h, model, { iss: 'https://issuer.example' }))).toBe(200);
    expect(await statusWith(h, await forge(h, model, { aud: 'https://api.example/v2' }))).toBe(401);
  },
  async 'jwt-aud-unchecked'(h) {
    const model = await clientToken(h);
    expect(await statusWith(h, await forge(h, model, { aud: 'https://api.example/v2' }))).toBe(200);
    expect(await statusWith(h, await forge(h, model, { iss: 'https://issuer.example' }))).toBe(401);
  },
  async 'jwt-scope-ignored'(h) {
    const readOnly = await clientToken(h, 'read:projects');
    const res = await h.call('POST', '/v2/projects', { auth: false, headers: { authorization: `Bearer ${readOnly}` }, json: { name: 'n' } });
    expect(res.status).toBe(201);
  },
  async 'token-lifetime-24h'(h) {
    const res = await token(h, { grant_type: 'client_credentials' });
    expect(res.json().expires_in).toBe(86_400);
    const claims = decodeJwt(res.json().access_token);
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(86_400);
  },
  async 'jwt-pii-in-claims'(h) {
    const claims = decodeJwt((await userTokens(h)).access_token);
    expect(claims).toMatchObject({ email: 'probe-user@example.test', name: 'Probe User' });
  },
  async 'jwt-no-typ'(h) {
    const jwt = await clientToken(h);
    expect(decodeProtectedHeader(jwt).typ).toBeUndefined();
    expect(await statusWith(h, jwt)).toBe(200);
  },
  async 'jwt-claims-missing'(h) {
    const jwt = await clientToken(h);
    const claims = decodeJwt(jwt);
    expect([claims.nbf, claims.aud]).toEqual([undefined, undefined]);
    // The server still takes its own tokens, and still refuses a foreign audience.
    expect(await statusWith(h, jwt)).toBe(200);
    expect(await statusWith(h, await forge(h, jwt, { aud: 'https://api.example/v2' }))).toBe(401);
  },
  async 'token-response-cacheable'(h) {
    for (const res of [await token(h, { grant_type: 'client_credentials' }), await token(h, { grant_type: 'client_credentials' }, { secret: 'wrong' })]) {
      expect(res.headers['cache-control']).toBe('max-age=300');
      expect(res.headers['pragma']).toBeUndefined();
    }
  },
  async 'client-secret-unchecked'(h) {
    expect((await token(h, { grant_type: 'client_credentials' }, { secret: 'wrong' })).status).toBe(200);
    const unknown = await h.call('POST', '/oauth/token', { auth: false, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials&client_id=someone&client_secret=x' });
    expect(unknown.status).toBe(401);
  },
  async 'unknown-grant-500'(h) {
    expect((await token(h, { grant_type: 'urn:example:unknown' })).status).toBe(500);
    expect((await token(h, { grant_type: 'password', username: 'probe-user', password: 'x' })).json().error).toBe('unsupported_grant_type');
  },
  async 'password-grant-accepted'(h) {
    const { RESTPROBE_OAUTH_USERNAME: username, RESTPROBE_OAUTH_PASSWORD: password } = h.server.secrets;
    const res = await token(h, { grant_type: 'password', username, password });
    expect(res.status).toBe(200);
    expect(await statusWith(h, res.json().access_token)).toBe(200);
    expect((await token(h, { grant_type: 'password', username, password: 'wrong' })).json().error).toBe('invalid_grant');
  },
  async 'implicit-flow-accepted'(h) {
    const page = await authorize(h, pkce().challenge, { response_type: 'token', code_challenge: undefined, code_challenge_method: undefined });
    expect(page.status).toBe(200);
    const redirected = await login(h, page);
    expect(redirected.status).toBe(303);
    const fragment = new URLSearchParams(new URL(redirected.headers['location'] ?? '').hash.slice(1));
    expect(fragment.get('token_type')).toBe('Bearer');
    expect(fragment.get('state')).toBe('st-123');
    expect(await statusWith(h, fragment.get('access_token') ?? '')).toBe(200);
  },
  async 'pkce-optional'(h) {
    const { code } = await codeFlow(h, { code_challenge: undefined, code_challenge_method: undefined });
    expect((await redeem(h, code, undefined)).status).toBe(200);
    // With a challenge, the verifier is still checked.
    const checked = await codeFlow(h);
    expect((await redeem(h, checked.code, pkce().verifier)).json().error).toBe('invalid_grant');
  },
  async 'pkce-plain-accepted'(h) {
    const verifier = pkce().verifier;
    const { code } = await codeFlow(h, { code_challenge: verifier, code_challenge_method: 'plain' });
    expect((await redeem(h, code, verifier)).status).toBe(200);
    expect(redirectParams(await authorize(h, pkce().challenge, { code_challenge: undefined, code_challenge_method: undefined })).get('error')).toBe('invalid_request');
  },
  async 'pkce-verifier-unchecked'(h) {
    const { code } = await codeFlow(h);
    expect((await redeem(h, code, pkce().verifier)).status).toBe(200);
  },
  async 'code-reusable'(h) {
    const { code, verifier } = await codeFlow(h);
    expect((await redeem(h, code, verifier)).status).toBe(200);
    expect((await redeem(h, code, verifier)).status).toBe(200);
  },
  async 'state-dropped'(h) {
    const { redirect } = await codeFlow(h);
    expect(redirect.get('code')).toEqual(expect.any(String));
    expect(redirect.has('state')).toBe(false);
  },
  async 'redirect-uri-prefix-match'(h) {
    const evil = `${redirectUri}.attacker.example/cb`;
    const { challenge } = pkce();
    const page = await authorize(h, challenge, { redirect_uri: evil });
    expect(page.status).toBe(200);
    const redirected = await login(h, page);
    expect(redirected.headers['location']?.startsWith(`${evil}?code=`)).toBe(true);
    expect((await authorize(h, challenge, { redirect_uri: 'https://attacker.example/cb' })).status).toBe(400);
  },
  async 'redirect-uri-extra-query'(h) {
    const evil = `${redirectUri}?next=attacker`;
    const { challenge } = pkce();
    const page = await authorize(h, challenge, { redirect_uri: evil });
    expect(page.status).toBe(200);
    const redirected = await login(h, page);
    expect(redirected.headers['location']?.startsWith(`${evil}&code=`)).toBe(true);
    // A longer path is still refused.
    expect((await authorize(h, challenge, { redirect_uri: `${redirectUri}/more` })).status).toBe(400);
  },
  async 'refresh-not-rotated'(h) {
    const { refresh_token } = await userTokens(h);
    const res = await refresh(h, refresh_token);
    expect(res.status).toBe(200);
    expect(res.json().refresh_token).toBeUndefined();
    expect((await refresh(h, refresh_token)).status).toBe(200);
  },
  async 'old-refresh-still-valid'(h) {
    const { refresh_token } = await userTokens(h);
    const rotated = (await refresh(h, refresh_token)).json().refresh_token;
    expect(rotated).toEqual(expect.any(String));
    expect((await refresh(h, refresh_token)).status).toBe(200);
    expect((await refresh(h, rotated)).status).toBe(200);
  },
  async 'refresh-reuse-no-revoke'(h) {
    const { refresh_token } = await userTokens(h);
    const rotated = (await refresh(h, refresh_token)).json().refresh_token;
    expect((await refresh(h, refresh_token)).json().error).toBe('invalid_grant');
    expect((await refresh(h, rotated)).status).toBe(200);
  },
};
