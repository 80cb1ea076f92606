/** The authorization server's published keys (RFC 7517 JWK Set), for checks that use its public key. */
import type { JsonWebKey } from 'node:crypto';
import { RestprobeError } from '../errors.js';
import type { CheckContext } from '../model/context.js';
import type { OAuthClient } from '../model/needs.js';
import { describe } from './expect.js';
import { oauthEndpoints } from './oauth-metadata.js';
import { setupError } from './setup.js';

/** The JWK Set's keys (auth.jwt.jwksUrl, else auth.oauth.jwksUrl or the metadata's jwks_uri). */
export async function publishedKeys(ctx: CheckContext, client: OAuthClient): Promise<JsonWebKey[]> {
  const url = client.jwt.jwksUrl ?? (await oauthEndpoints(ctx, client.oauth)).jwksUri;
  if (url === undefined) throw new RestprobeError('ERR_SETUP', 'setup: no JWKS URL: the metadata names no jwks_uri and auth.jwt.jwksUrl is not set', [], { rootCause: 'no JWKS URL' });
  const res = await ctx.http.send({ method: 'GET', url, auth: false });
  const keys = (res.json as { keys?: unknown } | undefined)?.keys;
  if (res.status !== 200 || !Array.isArray(keys)) throw setupError(res, `reading the published keys failed: ${describe(res)}, expected 200 with a JWK Set ({ "keys": [...] })`);
  return keys.filter((k): k is JsonWebKey => typeof k === 'object' && k !== null);
}

/** The public key the token names by `kid`, else the first asymmetric one. */
export function keyFor(keys: readonly JsonWebKey[], kid: unknown): JsonWebKey | undefined {
  const asymmetric = keys.filter((k) => k.kty === 'RSA' || k.kty === 'EC' || k.kty === 'OKP');
  return asymmetric.find((k) => kid !== undefined && k.kid === kid) ?? asymmetric[0];
}
