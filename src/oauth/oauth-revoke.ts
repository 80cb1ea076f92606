/**
 * The refresh tokens a check obtains are revoked when it ends (RFC 7009), so a run leaves no
 * live grant on the authorization server: a POST of `token` and `token_type_hint=refresh_token`
 * to the metadata's `revocation_endpoint`, the client authenticated as at the token endpoint.
 * Where the server advertises no such endpoint, or refuses, the run's leftovers say so, by
 * what the token is and which check got it, never its value.
 *
 * A refresh rotates a token within its family: the family is one credential, and every token
 * of it is revoked (the rotated-out ones included, as a server may keep them to detect reuse).
 */
import type { CheckContext } from '../model/context.js';
import type { OAuthClient } from '../model/needs.js';
import type { RawRequest, RawResponse } from '../http/client.js';
import { formBody, parseJson } from '../http/session.js';
import { isObject } from '../model/json.js';
import type { OAuthEndpoints } from './oauth-metadata.js';
import { basicCredentials, clientAuthOf } from './oauth-client-auth.js';

/** A refresh token's family: its tokens in the order they were issued. */
interface Family {
  readonly tokens: string[];
}

/** Each check's families, by every token of theirs (a refresh names its family by the token it presents). */
const familiesOf = new WeakMap<CheckContext, Map<string, Family>>();

/** What a grant's refresh token is called in notes and leftovers. */
function describeGrant(grant: string | undefined): string {
  if (grant === 'authorization_code') return 'a refresh token from the code flow';
  if (grant === 'refresh_token') return 'a refresh token from a refresh';
  return `a refresh token from the ${grant ?? 'unnamed'} grant`;
}

/**
 * Registers the refresh token a token response holds, if any, to be revoked when the check
 * ends: a refresh's new token joins the family of the token it replaced. A refresh token
 * from a client-credentials grant is listed, not revoked: the run's shared access token may
 * stand on it (RFC 7009 §2.1 lets revocation end the grant's access tokens too).
 *
 * @example
 * ```ts
 * const res = await ctx.http.send({ method: 'POST', url: endpoints.tokenEndpoint, form });
 * revokeWhenDone(ctx, client, endpoints, form, res);
 * ```
 */
export function revokeWhenDone(ctx: CheckContext, client: OAuthClient, endpoints: OAuthEndpoints, fields: Readonly<Record<string, string>>, res: { readonly json: unknown }): void {
  const token = isObject(res.json) ? res.json['refresh_token'] : undefined;
  if (typeof token !== 'string' || token === '') return;
  const byToken = familiesOf.get(ctx) ?? new Map<string, Family>();
  familiesOf.set(ctx, byToken);
  const replaced = fields['grant_type'] === 'refresh_token' ? byToken.get(fields['refresh_token'] ?? '') : undefined;
  if (replaced !== undefined) {
    replaced.tokens.push(token);
    byToken.set(token, replaced);
    return;
  }
  const family: Family = { tokens: [token] };
  byToken.set(token, family);
  const grant = fields['grant_type'];
  ctx.revokeWhenDone({
    what: describeGrant(grant),
    issuer: endpoints.tokenEndpoint,
    revoke: (send) =>
      grant === 'client_credentials'
        ? Promise.resolve("the run's shared access token may stand on its grant; revoke it at the authorization server")
        : revokeFamily(send, client, endpoints, family),
  });
}

/** Revokes every token of `family`, newest first; why not, when one could not be. */
async function revokeFamily(send: (req: RawRequest) => Promise<RawResponse>, client: OAuthClient, endpoints: OAuthEndpoints, family: Family): Promise<string | undefined> {
  const endpoint = endpoints.revocationEndpoint;
  if (endpoint === undefined) return 'the authorization server advertises no revocation_endpoint (RFC 7009); it stays valid until it expires or is revoked there';
  for (const token of [...family.tokens].reverse()) {
    const res = await send(revocationRequest(endpoint, client, endpoints, token));
    // RFC 7009 §2.2: 200 for a revoked token and for one the server no longer knows.
    if (res.status !== 200) {
      const body = parseJson(res.body.toString('utf8'));
      const error = isObject(body) && typeof body['error'] === 'string' ? ` (${body['error']})` : '';
      return `POST ${new URL(endpoint).pathname} answered ${res.status}${error}`;
    }
  }
  return undefined;
}

/** The revocation request of RFC 7009 §2.1, the client authenticated as at the token endpoint. */
function revocationRequest(endpoint: string, client: OAuthClient, endpoints: OAuthEndpoints, token: string): RawRequest {
  const how: string = clientAuthOf(client, endpoints);
  const id = client.oauth.clientId;
  const secret = client.oauth.clientSecret?.value ?? '';
  const fields = { token, token_type_hint: 'refresh_token', ...(how === 'client_secret_post' && { client_id: id, client_secret: secret }), ...(how === 'none' && { client_id: id }) };
  return {
    method: 'POST',
    url: endpoint,
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded', ...(how === 'client_secret_basic' && { authorization: basicCredentials(id, secret) }) },
    body: formBody(fields),
  };
}
