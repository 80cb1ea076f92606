/**
 * Token requests (RFC 6749 §3.2): form-encoded POSTs to the token endpoint with the
 * client authenticated by HTTP Basic (§2.3.1, id and secret form-urlencoded first) or in
 * the body (client_secret_post), or, for a public client, identified by its `client_id`
 * alone (§3.2.1). Every token the answer holds is scrubbed from reports.
 */
import type { CheckContext, HttpResponse, RequestSpec } from '../model/context.js';
import type { OAuthClient } from '../model/needs.js';
import { describe, summarise } from '../model/describe-response.js';
import { oauthEndpoints, type OAuthEndpoints } from './oauth-metadata.js';
import { SetupFailure } from '../model/check.js';
import { revokeWhenDone } from './oauth-revoke.js';
import { basicCredentials, clientAuthOf, type ClientAuth } from './oauth-client-auth.js';

export { basicCredentials, clientAuthOf, type ClientAuth };

export interface TokenRequestOptions {
  /** Authenticate so (default: {@link clientAuthOf}); `none` sends the client id only. */
  readonly clientAuth?: ClientAuth;
  readonly clientId?: string;
  readonly clientSecret?: string;
}

/** A token request as it is sent, and the Basic credential it carries (derived from the secret, so as secret as it). */
export function tokenRequestSpec(client: OAuthClient, endpoints: OAuthEndpoints, fields: Record<string, string>, opts: TokenRequestOptions = {}): { readonly spec: RequestSpec; readonly basic?: string } {
  const how = opts.clientAuth ?? clientAuthOf(client, endpoints);
  const id = opts.clientId ?? client.oauth.clientId;
  const secret = opts.clientSecret ?? client.oauth.clientSecret?.value ?? '';
  const form = how === 'client_secret_post' ? { ...fields, client_id: id, client_secret: secret } : how === 'none' ? { ...fields, client_id: id } : fields;
  const basic = how === 'client_secret_basic' ? basicCredentials(id, secret).slice('Basic '.length) : undefined;
  const spec: RequestSpec = { method: 'POST', url: endpoints.tokenEndpoint, auth: false, form, ...(basic !== undefined && { headers: { authorization: `Basic ${basic}` } }) };
  return { spec, ...(basic !== undefined && { basic }) };
}

/** Sends one token request; the answer is the check's to judge. */
export async function tokenRequest(ctx: CheckContext, client: OAuthClient, fields: Record<string, string>, opts: TokenRequestOptions = {}): Promise<HttpResponse> {
  const endpoints = await oauthEndpoints(ctx, client.oauth);
  const { spec, basic } = tokenRequestSpec(client, endpoints, fields, opts);
  // What is derived from the secret is as secret as it: a target echoing the header is scrubbed by it.
  if (basic !== undefined) ctx.treatAsSecret(basic, 'OAUTH_CLIENT_BASIC');
  const res = await ctx.http.send(spec);
  secretsOf(ctx, res);
  revokeWhenDone(ctx, client, endpoints, fields, res);
  return res;
}

/** A token response's members, as RFC 6749 §5.1 names them. */
export interface Tokens {
  readonly accessToken: string;
  readonly tokenType: string;
  readonly expiresIn?: number;
  readonly refreshToken?: string;
  readonly scope?: string;
  readonly response: HttpResponse;
}

/**
 * Registers every token a response holds as a secret (also of a refused or odd answer: one
 * form-encoded, `access_token=…&refresh_token=…`, as GitHub's token endpoint answers without
 * `Accept: application/json`, which the checks fail but must not print).
 */
function secretsOf(ctx: CheckContext, res: HttpResponse): void {
  const body = typeof res.json === 'object' && res.json !== null ? (res.json as Record<string, unknown>) : Object.fromEntries(new URLSearchParams(res.text.trim()));
  for (const [name, label] of [['access_token', 'ACCESS_TOKEN'], ['refresh_token', 'REFRESH_TOKEN'], ['id_token', 'ID_TOKEN']] as const) {
    const v = body[name];
    if (typeof v === 'string' && v !== '') ctx.treatAsSecret(v, label);
  }
}

/** The tokens of a 200 answer, or undefined when it is no success with an access token. */
export function tokensOf(res: HttpResponse): Tokens | undefined {
  const b = res.json as Record<string, unknown> | undefined;
  if (res.status !== 200 || typeof b !== 'object' || b === null || typeof b.access_token !== 'string' || b.access_token === '') return undefined;
  return {
    accessToken: b.access_token,
    tokenType: typeof b.token_type === 'string' ? b.token_type : '',
    ...(typeof b.expires_in === 'number' && { expiresIn: b.expires_in }),
    // Some servers send expires_in as a numeric string.
    ...(typeof b.expires_in === 'string' && /^\d+$/.test(b.expires_in) && { expiresIn: Number(b.expires_in) }),
    ...(typeof b.refresh_token === 'string' && b.refresh_token !== '' && { refreshToken: b.refresh_token }),
    ...(typeof b.scope === 'string' && { scope: b.scope }),
    response: res,
  };
}

/** The tokens of a request that must succeed for the check to mean anything; else a setup error. */
export function requireTokens(res: HttpResponse, what: string): Tokens {
  const tokens = tokensOf(res);
  if (tokens === undefined) throw new SetupFailure(res, `${what} failed: ${describe(res)} (body ${summarise(res)}), expected 200 with an access_token`);
  return tokens;
}

/** The fields of a client-credentials request, with the config's extra parameters (`auth.oauth.parameters`). */
export function clientCredentialsGrant(client: OAuthClient): Record<string, string> {
  return { ...client.oauth.parameters, grant_type: 'client_credentials', ...(client.oauth.scopes.length > 0 && { scope: client.oauth.scopes.join(' ') }) };
}

/** Tokens are renewed this long before they expire, so none runs out mid-check (a short-lived one: a quarter of its life and a second). */
const renewMarginMs = 30_000;
/** When a token response gives no lifetime, it is used this long (RFC 6749 leaves it to the server). */
const assumedLifetimeMs = 60_000;

/** When a token issued now with `expiresIn` seconds (or none said) is to be renewed, in epoch milliseconds. */
export function renewAt(expiresIn: number | undefined, now = Date.now()): number {
  if (expiresIn === undefined) return now + assumedLifetimeMs;
  const life = expiresIn * 1000;
  // A second more for a short one: exp counts whole seconds from an iat rounded down.
  return now + life - Math.min(renewMarginMs, life / 4 + 1000);
}
