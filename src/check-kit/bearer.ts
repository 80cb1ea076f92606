/**
 * Presenting tokens to the resource server (RFC 6750 §2.1): the run's genuine access
 * token decoded as a JWT, a control that it is accepted, and forged tokens that must each
 * get 401 with a challenge.
 */
import { CheckSkipped } from '../model/check.js';
import { RestprobeError } from '../errors.js';
import type { CheckContext, HttpResponse, RequestSpec } from '../model/context.js';
import type { CollectionProfile } from '../model/profile.js';
import { supports } from '../model/needs.js';
import type { OAuthClient } from '../model/oauth-needs.js';
import { challengeProblem, withKey } from './auth.js';
import { describe, expectEvery } from './expect.js';
import { decodeUnverified, looksLikeJwt, type DecodedJwt } from './jwt.js';
import { clientCredentialsGrant, requireTokens, sharedAccessToken, tokenRequest } from './oauth-token.js';
import { setupError } from './setup.js';

/** What a request adds to send `token` as a Bearer token in place of the configured credentials. */
export function withBearer(token: string): Pick<RequestSpec, 'auth' | 'headers'> {
  return withKey('authorization', token);
}

/**
 * An access token and its decoded form; an opaque token skips the check (there is no JWT to
 * judge). The run's shared token, or with `own` one the check requests itself: a check that
 * judges the token then holds the response that issued it in its evidence.
 */
export async function genuineJwt(ctx: CheckContext, client: OAuthClient, own = false): Promise<{ token: string; jwt: DecodedJwt | string }> {
  const token = own ? requireTokens(await tokenRequest(ctx, client, clientCredentialsGrant(client)), 'getting an access token with client credentials').accessToken : await sharedAccessToken(ctx, client);
  if (!looksLikeJwt(token)) throw new CheckSkipped('the access token the authorization server issued is opaque (not a JWT): there is no JWT to judge');
  return { token, jwt: decodeUnverified(token) };
}

/** The genuine token decoded (see {@link genuineJwt}); a malformed one is AUT-jwt-format's to fail, so here it skips. */
export async function decodedGenuineJwt(ctx: CheckContext, client: OAuthClient, own = false): Promise<{ token: string; jwt: DecodedJwt }> {
  const { token, jwt } = await genuineJwt(ctx, client, own);
  if (typeof jwt === 'string') throw new CheckSkipped(`the access token is not a well-formed JWT (${jwt}): AUT-jwt-format judges that`);
  return { token, jwt };
}

/** A GET of the collection with `token`. */
export function presentToken(ctx: CheckContext, collection: CollectionProfile, token: string): Promise<HttpResponse> {
  return ctx.http.send({ method: 'GET', path: collection.path, ...withBearer(token) });
}

/** A token the check needs accepted (the genuine one, one signed with the test key): anything but 2xx is a setup error. */
export async function expectAccepted(ctx: CheckContext, collection: CollectionProfile, token: string, what: string): Promise<void> {
  const res = await presentToken(ctx, collection, token);
  if (res.status < 200 || res.status > 299) throw setupError(res, `${what} was not accepted: ${describe(res)}, so a refusal of a forged one would prove nothing`);
}

/** Other collections a forgery is also sent to: a resource server may verify tokens well on one route and not on another. */
const otherRoutes = 2;

/**
 * Sends each forged token to `collection`, and to up to two other collections where the
 * `control` token (accepted on `collection` already) is accepted too; every one must get
 * 401 with a challenge (RFC 6750 §3.1 `invalid_token`). A forgery taken (2xx) is always this
 * check's failure. Forgeries all refused, but not as 401 with a challenge, are this check's
 * failure only when the API refuses a request without credentials properly; otherwise the
 * shape is the API's refusal everywhere, AUT-missing-credentials-401's finding, and the
 * check ends blocked on it rather than failing twice for one cause.
 */
export async function expectRefused(ctx: CheckContext, collection: CollectionProfile, forged: readonly string[], what: string, control: string): Promise<void> {
  const responses: HttpResponse[] = [];
  for (const token of forged) responses.push(await presentToken(ctx, collection, token));
  const others = ctx.collections.filter((c) => c.path !== collection.path && supports(c, 'GET')).slice(0, otherRoutes);
  for (const other of others) {
    const res = await presentToken(ctx, other, control);
    if (res.status < 200 || res.status > 299) {
      ctx.note(`${other.path}: the token the forgeries are made from is not accepted there (${describe(res)}), so none was sent`);
      continue;
    }
    for (const token of forged) responses.push(await presentToken(ctx, other, token));
  }
  // A forgery taken (2xx) is the attack working; another refusal (400 invalid_token, 403) breaks only the status rule.
  const accepted = responses.filter((r) => r.status >= 200 && r.status < 300).length;
  const message = (how: string) => (bad: number, all: number, found: string) => `${bad} of ${all} requests with ${what} ${how} — ${found}; expected 401 with a WWW-Authenticate challenge (conventions §5.3; RFC 6750 §3.1: invalid_token)`;
  if (accepted > 0) expectEvery(responses, challengeProblem, message(`were not refused (${accepted} accepted)`), '401 + WWW-Authenticate');
  if (responses.every((r) => challengeProblem(r) === undefined)) return;
  const bare = await ctx.http.send({ method: 'GET', path: collection.path, auth: false });
  const general = challengeProblem(bare);
  if (general !== undefined) {
    throw new RestprobeError('ERR_BLOCKED', `not judged: every forgery was refused, but not with 401 and a challenge, and neither is a request without credentials (${general}): that is the API's refusal everywhere, which AUT-missing-credentials-401 judges`, [], { exchange: bare.exchangeIndex, rootCause: 'AUT-missing-credentials-401 failed' });
  }
  expectEvery(responses, challengeProblem, message('were refused, but not with 401 and a challenge'), '401 + WWW-Authenticate');
}
