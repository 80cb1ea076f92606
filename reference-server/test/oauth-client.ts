/**
 * OAuth helpers for the reference-server tests: token requests, the unattended code flow
 * (authorize → login form → code → token), and tokens forged with the exported test key.
 */
import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt, importJWK, SignJWT, type JWTPayload } from 'jose';
import type { Exchange, Harness } from './client.js';

export const redirectUri = 'http://127.0.0.1/restprobe/callback';

const form = { 'content-type': 'application/x-www-form-urlencoded' };

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

export interface TokenOptions {
  /** How the client authenticates: HTTP Basic (default), in the body, or not at all. */
  readonly client?: 'basic' | 'post' | 'none';
  /** The secret to present (default the right one). */
  readonly secret?: string;
  readonly node?: number;
  /** Where to POST (default the token endpoint; the revocation endpoint authenticates the client alike). */
  readonly endpoint?: string;
}

/** POSTs a form to the token endpoint. */
export function token(h: Harness, fields: Record<string, string>, options: TokenOptions = {}): Promise<Exchange> {
  const { RESTPROBE_OAUTH_CLIENT_ID: id, RESTPROBE_OAUTH_CLIENT_SECRET: right } = h.server.secrets;
  const secret = options.secret ?? right;
  const client = options.client ?? 'basic';
  const body = new URLSearchParams({ ...fields, ...(client === 'post' && { client_id: id, client_secret: secret }) }).toString();
  const headers = { ...form, ...(client === 'basic' && { authorization: basic(id, secret) }) };
  return h.call('POST', options.endpoint ?? '/oauth/token', { auth: false, headers, body, ...(options.node !== undefined && { node: options.node }) });
}

/** A client-credentials access token. */
export async function clientToken(h: Harness, scope?: string): Promise<string> {
  const res = await token(h, { grant_type: 'client_credentials', ...(scope !== undefined && { scope }) });
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${res.text}`);
  return res.json().access_token;
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** GET /oauth/authorize with the usual parameters, `overrides` replacing (undefined: dropping) them. */
export function authorize(h: Harness, challenge: string, overrides: Record<string, string | undefined> = {}, node?: number): Promise<Exchange> {
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: h.server.secrets.RESTPROBE_OAUTH_CLIENT_ID,
    redirect_uri: redirectUri,
    scope: 'read:* write:*',
    state: 'st-123',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
  return h.call('GET', `/oauth/authorize?${query}`, { auth: false, ...(node !== undefined && { node }) });
}

/** The hidden `request` of a login page. */
export function requestIdOf(page: Exchange): string {
  const m = /name="request" value="([^"]*)"/.exec(page.text);
  if (m?.[1] === undefined) throw new Error(`no login form in ${page.status} ${page.text.slice(0, 200)}`);
  return m[1];
}

/** Submits a login page's form (default: the test user's right login). */
export function login(h: Harness, page: Exchange, credentials: { username?: string; password?: string } = {}, node?: number): Promise<Exchange> {
  const body = new URLSearchParams({
    request: requestIdOf(page),
    username: credentials.username ?? h.server.secrets.RESTPROBE_OAUTH_USERNAME,
    password: credentials.password ?? h.server.secrets.RESTPROBE_OAUTH_PASSWORD,
  }).toString();
  return h.call('POST', '/oauth/authorize', { auth: false, headers: form, body, ...(node !== undefined && { node }) });
}

/** The query of a redirect's Location. */
export function redirectParams(res: Exchange): URLSearchParams {
  if (res.status !== 303) throw new Error(`expected a 303 redirect, got ${res.status} ${res.text.slice(0, 200)}`);
  return new URL(res.headers['location'] ?? '').searchParams;
}

/** The whole unattended flow up to the code. */
export async function codeFlow(h: Harness, overrides: Record<string, string | undefined> = {}): Promise<{ code: string; verifier: string; redirect: URLSearchParams }> {
  const { verifier, challenge } = pkce();
  const page = await authorize(h, challenge, overrides);
  const redirect = redirectParams(await login(h, page));
  return { code: redirect.get('code') ?? '', verifier, redirect };
}

/** Redeems a code. */
export function redeem(h: Harness, code: string, verifier: string | undefined, node?: number): Promise<Exchange> {
  return token(h, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, ...(verifier !== undefined && { code_verifier: verifier }) }, node === undefined ? {} : { node });
}

/** Tokens from a full code flow. */
export async function userTokens(h: Harness): Promise<{ access_token: string; refresh_token: string; scope: string }> {
  const { code, verifier } = await codeFlow(h);
  const res = await redeem(h, code, verifier);
  if (res.status !== 200) throw new Error(`code redemption failed: ${res.status} ${res.text}`);
  return res.json();
}

export function refresh(h: Harness, refreshToken: string): Promise<Exchange> {
  return token(h, { grant_type: 'refresh_token', refresh_token: refreshToken });
}

/** Revokes a refresh token (RFC 7009), the client authenticated as `options` says. */
export function revoke(h: Harness, refreshToken: string, options: TokenOptions = {}): Promise<Exchange> {
  return token(h, { token: refreshToken, token_type_hint: 'refresh_token' }, { ...options, endpoint: '/oauth/revoke' });
}

/** GET /v2/projects with a bearer token (no API key). */
export function api(h: Harness, bearer: string, method = 'GET', path = '/v2/projects'): Promise<Exchange> {
  return h.call(method, path, { auth: false, headers: { authorization: `Bearer ${bearer}` } });
}

/** A token signed with the exported test key: the claims of `model` with `claims` over them. */
export async function forge(h: Harness, model: string, claims: JWTPayload = {}, header: Record<string, unknown> = {}): Promise<string> {
  const jwk = JSON.parse(h.server.secrets.RESTPROBE_JWT_TEST_KEY) as { alg: string; kid: string };
  const key = await importJWK(jwk, jwk.alg);
  return new SignJWT({ ...decodeJwt(model), ...claims }).setProtectedHeader({ alg: jwk.alg, typ: 'at+jwt', kid: jwk.kid, ...header }).sign(key);
}

/** An unsigned (`alg: none`) token with the claims of `model`. */
export function unsigned(model: string): string {
  const enc = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${enc({ alg: 'none', typ: 'at+jwt' })}.${enc(decodeJwt(model))}.`;
}

/** `token` with one character of its signature changed. */
export function tampered(token: string): string {
  const [h, p, s = ''] = token.split('.');
  const flipped = (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
  return `${h}.${p}.${flipped}`;
}

/** An HS256 token with the claims of `model`, signed with the server's public key PEM (SPKI) as the secret. */
export async function keyConfused(h: Harness, model: string): Promise<string> {
  const res = await h.call('GET', '/oauth/jwks', { auth: false });
  const { createPublicKey } = await import('node:crypto');
  const pem = createPublicKey({ key: res.json().keys[0], format: 'jwk' }).export({ type: 'spki', format: 'pem' }).toString();
  return new SignJWT(decodeJwt(model)).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' }).sign(new TextEncoder().encode(pem));
}

export const now = (): number => Math.floor(Date.now() / 1000);
