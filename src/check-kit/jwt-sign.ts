/**
 * Tokens signed with the test signing key (`auth.jwt.testSigningKey`): a private JWK (an
 * HMAC key as an `oct` JWK) or a PKCS#8 PEM, so a check can send a validly signed token
 * with one claim wrong.
 */
import type { JWK, importJWK } from 'jose';
import { jose } from './lazy-libraries.js';
import { RestprobeError } from '../errors.js';
import type { SigningKey } from '../model/needs.js';
import type { DecodedJwt } from './jwt.js';
import { isObject } from '../model/json.js';

const keyError = (why: string): RestprobeError => new RestprobeError('ERR_CONFIG_INVALID', `auth.jwt.testSigningKey: ${why}`, [`auth.jwt.testSigningKey: ${why}`], { rootCause: 'unusable auth.jwt.testSigningKey' });

/** Signs `claims` with the test key, the header as the genuine token's (alg, typ, kid) where the key says nothing else. */
export async function signWithTestKey(signing: SigningKey, claims: Record<string, unknown>, genuine: DecodedJwt): Promise<string> {
  const text = signing.key.value.trim();
  let key: Awaited<ReturnType<typeof importJWK>>;
  let alg: string;
  let kid: unknown = genuine.header.kid;
  try {
    if (text.startsWith('{')) {
      const jwk = JSON.parse(text) as JWK;
      alg = jwk.alg ?? (typeof genuine.header.alg === 'string' && signing.jwt.algorithms.includes(genuine.header.alg) ? genuine.header.alg : signing.jwt.algorithms[0]!);
      if (jwk.kid !== undefined) kid = jwk.kid;
      key = await jose().importJWK(jwk, alg);
    } else if (text.includes('-----BEGIN PRIVATE KEY-----')) {
      alg = typeof genuine.header.alg === 'string' && signing.jwt.algorithms.includes(genuine.header.alg) ? genuine.header.alg : signing.jwt.algorithms[0]!;
      key = await jose().importPKCS8(text, alg);
    } else {
      throw keyError('neither a JWK (JSON) nor a PKCS#8 PEM (-----BEGIN PRIVATE KEY-----)');
    }
  } catch (err) {
    if (err instanceof RestprobeError) throw err;
    // The message names the problem, never the key.
    throw keyError(`cannot be used to sign (${(err as Error).name}: ${(err as Error).message.slice(0, 120)})`);
  }
  const header = { ...genuine.header, alg, ...(kid !== undefined && { kid }) };
  return new (jose().SignJWT)(claims).setProtectedHeader(header as { alg: string }).sign(key);
}

/** The genuine claims made fresh (issued a minute ago, valid five minutes), so only what a check changes is wrong. */
export function freshClaims(genuine: DecodedJwt, nowSeconds = Math.floor(Date.now() / 1000)): Record<string, unknown> {
  const c: Record<string, unknown> = { ...genuine.claims, iat: nowSeconds - 60, exp: nowSeconds + 300 };
  if ('nbf' in genuine.claims) c.nbf = nowSeconds - 60;
  return c;
}

/** A scope no server grants anything for. */
export const noScope = 'restprobe:none';

/**
 * The claims with every grant of rights narrowed to {@link noScope}: `scope` (RFC 9068, RFC
 * 8693), `scp` (Okta, Entra), `roles` (Entra app roles), `permissions` (Auth0 RBAC), and
 * Keycloak's `realm_access` / `resource_access` roles. A resource server that authorizes by
 * any of these then holds a valid token that allows nothing. Each keeps its JSON type.
 */
export function withoutScope(claims: Record<string, unknown>): Record<string, unknown> {
  const narrowed = (v: unknown): unknown => (Array.isArray(v) ? [noScope] : noScope);
  const out: Record<string, unknown> = { ...claims };
  for (const name of ['scope', 'scp', 'roles', 'permissions']) if (name in out) out[name] = narrowed(out[name]);
  if (!('scope' in out) && !('scp' in out)) out.scope = noScope;
  const noRoles = (v: unknown): unknown => (isObject(v) ? { ...v, roles: [] } : v);
  if ('realm_access' in out) out.realm_access = noRoles(out.realm_access);
  if (typeof out.resource_access === 'object' && out.resource_access !== null) out.resource_access = Object.fromEntries(Object.entries(out.resource_access).map(([k, v]) => [k, noRoles(v)]));
  return out;
}
