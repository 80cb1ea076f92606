/**
 * Presenting tokens to the resource server (RFC 6750 §2.1): the run's genuine access
 * token decoded as a JWT, a control that it is accepted, and forged tokens that must each
 * get 401 with a challenge.
 */
import { createHash } from 'node:crypto';
import { CheckSkipped } from '../model/check.js';
import { RestprobeError } from '../errors.js';
import type { CheckContext, HttpResponse, RequestSpec } from '../model/context.js';
import type { CollectionProfile } from '../model/profile.js';
import { supports } from '../model/needs.js';
import { isConfidential, type CodeFlowClient, type JwtAccess, type OAuthClient } from '../model/needs.js';
import { challengeCause, challengeProblem, withKey } from './auth.js';
import { describe, expectEvery } from './expect.js';
import { decodeUnverified, looksLikeJwt, type DecodedJwt } from './jwt.js';
import { clientCredentialsGrant, renewAt, requireTokens, tokenRequest, tokensOf } from './oauth-token.js';
import { codeFlowTokens, sharedCodeFlow } from './code-flow.js';
import { setupError } from './setup.js';
import { sharedResponse } from './probes.js';
import { withoutCredentials } from './protected-route.js';

/** What a request adds to send `token` as a Bearer token in place of the configured credentials. */
export function withBearer(token: string): Pick<RequestSpec, 'auth' | 'headers'> {
  return withKey({ header: 'authorization', scheme: 'Bearer' }, token);
}

/** An access token a check got, and whose it is, for messages: the client's (client credentials) or a user's (the code flow). */
export interface IssuedToken {
  readonly token: string;
  readonly label: string;
}

const clientCredentialsLabel = 'the client-credentials access token';
const codeFlowLabel = "the code flow's access token (a user's)";

/**
 * A client-credentials token request's answer, sent once for the run and handed to each
 * check that judges it or the token it issued, in its own evidence. Only an answer with
 * tokens is shared: a refusal is the sender's, and each later check asks for itself.
 */
export function sharedClientCredentials(ctx: CheckContext, client: OAuthClient): Promise<HttpResponse> {
  return sharedResponse(ctx, 'a client-credentials token request', (sender) => tokenRequest(sender, client, clientCredentialsGrant(client)), (res) => tokensOf(res) !== undefined);
}

/** A token issued with client credentials: the response that issued it is in the check's evidence. */
async function clientCredentialsToken(ctx: CheckContext, client: OAuthClient): Promise<IssuedToken> {
  const tokens = requireTokens(await sharedClientCredentials(ctx, client), 'getting an access token with client credentials');
  return { token: tokens.accessToken, label: clientCredentialsLabel };
}

/** A token from a whole code flow (the run's, {@link sharedCodeFlow}): its redirect and token answer are in the check's evidence. */
async function codeFlowToken(ctx: CheckContext, client: CodeFlowClient): Promise<IssuedToken> {
  return { token: (await sharedCodeFlow(ctx, client)).tokens.accessToken, label: codeFlowLabel };
}

/** An issued token whose issuing answer is in the check's evidence: with client credentials for a confidential client, else (a public one) through the code flow. */
export function issuedAccessToken(ctx: CheckContext, access: JwtAccess): Promise<IssuedToken> {
  return isConfidential(access) || access.codeFlow === undefined ? clientCredentialsToken(ctx, access) : codeFlowToken(ctx, access.codeFlow);
}

/**
 * Every kind of access token the run can get, one of each for the run, each issuing answer
 * in the check's evidence: the client-credentials one (a confidential client) and the code
 * flow's (where a login is configured: a user's, which may carry what a machine's does not).
 */
export async function issuedAccessTokens(ctx: CheckContext, access: JwtAccess): Promise<IssuedToken[]> {
  return [...(isConfidential(access) ? [await clientCredentialsToken(ctx, access)] : []), ...(access.codeFlow === undefined ? [] : [await codeFlowToken(ctx, access.codeFlow)])];
}

/**
 * The run's shared access token: requested once (client credentials for a confidential client,
 * else the code flow), requested again when it is about to expire, and registered as a secret
 * in every check that uses it.
 */
export async function sharedAccessToken(ctx: CheckContext, access: JwtAccess): Promise<string> {
  const viaCodeFlow = !isConfidential(access) && access.codeFlow !== undefined;
  const token = await ctx.leased(viaCodeFlow ? 'oauth-code-flow' : 'oauth-client-credentials', async () => {
    const tokens = viaCodeFlow ? await codeFlowTokens(ctx, access.codeFlow!) : requireTokens(await tokenRequest(ctx, access, clientCredentialsGrant(access)), 'getting an access token with client credentials');
    return { value: tokens.accessToken, expiresAt: renewAt(tokens.expiresIn) };
  });
  ctx.treatAsSecret(token, 'ACCESS_TOKEN');
  return token;
}

/** A token decoded as a JWT: its decoded form, or why it is no well-formed one; undefined when it is opaque. */
export function asJwt(token: string): DecodedJwt | string | undefined {
  return looksLikeJwt(token) ? decodeUnverified(token) : undefined;
}

/**
 * An access token and its decoded form; an opaque token skips the check (there is no JWT to
 * judge). The run's shared token, or with `issued` the one whose issuing answer goes into the
 * check's evidence ({@link issuedAccessToken}): a check that judges the token holds it.
 */
export async function genuineJwt(ctx: CheckContext, access: JwtAccess, issued = false): Promise<{ token: string; jwt: DecodedJwt | string }> {
  const token = issued ? (await issuedAccessToken(ctx, access)).token : await sharedAccessToken(ctx, access);
  const jwt = asJwt(token);
  if (jwt === undefined) throw new CheckSkipped('the access token the authorization server issued is opaque (not a JWT): there is no JWT to judge');
  return { token, jwt };
}

/** The genuine token decoded (see {@link genuineJwt}); a malformed one is AUT-jwt-format's to fail, so here it skips. */
export async function decodedGenuineJwt(ctx: CheckContext, access: JwtAccess, issued = false): Promise<{ token: string; jwt: DecodedJwt }> {
  const { token, jwt } = await genuineJwt(ctx, access, issued);
  if (typeof jwt === 'string') throw new CheckSkipped(`the access token is not a well-formed JWT (${jwt}): AUT-jwt-format judges that`);
  return { token, jwt };
}

/**
 * Every kind of access token the run can get ({@link issuedAccessTokens}), decoded: an opaque or
 * malformed one is noted (AUT-jwt-format judges the form), and when none is a JWT the check skips.
 */
export async function everyIssuedJwt(ctx: CheckContext, access: JwtAccess): Promise<(IssuedToken & { jwt: DecodedJwt })[]> {
  const out: (IssuedToken & { jwt: DecodedJwt })[] = [];
  for (const issued of await issuedAccessTokens(ctx, access)) {
    const jwt = asJwt(issued.token);
    if (jwt === undefined || typeof jwt === 'string') ctx.note(`${issued.label} is ${jwt === undefined ? 'opaque (not a JWT)' : `no well-formed JWT (${jwt})`}: not judged here`);
    else out.push({ ...issued, jwt });
  }
  if (out.length === 0) throw new CheckSkipped('the access tokens the authorization server issued are opaque (not JWTs), or not well-formed (AUT-jwt-format judges that): there is no JWT to judge');
  return out;
}

/** A GET of the collection with `token`. */
export function presentToken(ctx: CheckContext, collection: CollectionProfile, token: string): Promise<HttpResponse> {
  return ctx.http.send({ method: 'GET', path: collection.path, ...withBearer(token) });
}

/** A 2xx: the token was accepted. */
const isSuccess = (res: HttpResponse): boolean => res.status >= 200 && res.status <= 299;

/**
 * The answer to a GET of the collection with `token`, sent once for the run and shared by
 * every check that presents the same token there (in each one's evidence): the JWT checks
 * each show the genuine token, or the run's token signed with the test key, accepted on the
 * same routes before their forgeries are refused.
 */
export function acceptanceOf(ctx: CheckContext, collection: CollectionProfile, token: string): Promise<HttpResponse> {
  // Named by a digest, not the token: a renewed token is another answer, and the key holds no secret.
  const digest = createHash('sha256').update(token).digest('base64url').slice(0, 16);
  // Only an acceptance is shared: a refusal (a passing 5xx, a 401) is the sender's alone, and each later check asks for itself.
  return sharedResponse(ctx, `a token ${digest} accepted at ${collection.path}`, (sender) => presentToken(sender, collection, token), isSuccess);
}

/** A token the check needs accepted (the genuine one, one signed with the test key): anything but 2xx is a setup error. */
export async function expectAccepted(ctx: CheckContext, collection: CollectionProfile, token: string, what: string): Promise<void> {
  const res = await acceptanceOf(ctx, collection, token);
  if (!isSuccess(res)) throw setupError(res, `${what} was not accepted: ${describe(res)}, so a refusal of a forged one would prove nothing`);
}

/** Other collections a forgery is also sent to: a resource server may verify tokens well on one route and not on another. */
const otherRoutes = 2;

/**
 * Sends each forged token to `collection`, and to up to two other collections where the
 * `control` token (accepted on `collection` already) is accepted too: each of them, or with
 * `elsewhere: 'first'` the first (where the forgeries are one attack any route that verifies
 * signatures refuses whole, a tampered signature and payload; not where a variant is the bypass
 * of its own, alg `None` past a case-sensitive `none` check, or a PEM without its newline); every one must get
 * 401 with a challenge (RFC 6750 §3.1 `invalid_token`). A forgery taken (2xx) is always this
 * check's failure. Forgeries all refused, but not as 401 with a challenge, are this check's
 * failure only when the API refuses a request without credentials properly; otherwise the
 * shape is the API's refusal everywhere, AUT-missing-credentials-401's finding, and the
 * check ends blocked on it rather than failing twice for one cause.
 */
export async function expectRefused(ctx: CheckContext, collection: CollectionProfile, forged: readonly string[], what: string, control: string, { elsewhere = 'all' }: { readonly elsewhere?: 'all' | 'first' } = {}): Promise<void> {
  const responses: HttpResponse[] = [];
  // A route served without credentials ([AllowAnonymous], @Public()) ignores a token, forged or
  // not: a 2xx there shows no attack working, so forgeries go only where credentials are needed.
  const open: string[] = [];
  const protectedRoute = async (c: CollectionProfile): Promise<boolean> => {
    if (!(await withoutCredentials(ctx, c)).open) return true;
    open.push(c.path);
    return false;
  };
  const judged: CollectionProfile[] = [];
  if (await protectedRoute(collection)) {
    judged.push(collection);
    for (const token of forged) responses.push(await presentToken(ctx, collection, token));
  }
  const forgedElsewhere = elsewhere === 'first' ? forged.slice(0, 1) : forged;
  let elsewhereSent = 0;
  for (const other of ctx.collections.filter((c) => c.path !== collection.path && supports(c, 'GET'))) {
    if (elsewhereSent === otherRoutes) break;
    if (!(await protectedRoute(other))) continue;
    const res = await acceptanceOf(ctx, other, control);
    if (!isSuccess(res)) {
      ctx.note(`${other.path}: the token the forgeries are made from is not accepted there (${describe(res)}), so none was sent`);
      continue;
    }
    elsewhereSent++;
    // Where the collection itself was public, the first protected route takes every forgery in its place.
    const here = judged.length === 0 ? forged : forgedElsewhere;
    judged.push(other);
    for (const token of here) responses.push(await presentToken(ctx, other, token));
  }
  if (open.length > 0) ctx.note(`${open.join(', ')} answer${open.length === 1 ? 's' : ''} a request without credentials with a 2xx: no forgery was sent there, where a token is not needed`);
  if (judged.length === 0) throw new CheckSkipped(`${open.join(', ')} answer${open.length === 1 ? 's' : ''} a request without credentials with a 2xx: where no token is needed, whether a forged one is refused cannot be seen`, 'collections');
  // A forgery taken (2xx) is the attack working; another refusal (400 invalid_token, 403) breaks only the status rule.
  const accepted = responses.filter(isSuccess).length;
  const message = (how: string) => (bad: number, all: number, found: string) => `${bad} of ${all} requests with ${what} ${how} — ${found}; expected 401 with a WWW-Authenticate challenge (conventions §5.3; RFC 6750 §3.1: invalid_token)`;
  if (accepted > 0) expectEvery(responses, challengeProblem, message(`were not refused (${accepted} accepted)`), '401 + WWW-Authenticate');
  if (responses.every((r) => challengeProblem(r) === undefined)) return;
  const { res: bare } = await withoutCredentials(ctx, judged[0]!);
  const general = challengeProblem(bare);
  if (general !== undefined) {
    throw new RestprobeError('ERR_BLOCKED', `not judged: every forgery was refused, but not with 401 and a challenge, and neither is a request without credentials (${general}): that is the API's refusal everywhere, which AUT-missing-credentials-401 judges`, [], { exchange: bare.exchangeIndex, rootCause: 'AUT-missing-credentials-401 failed' });
  }
  expectEvery(responses, challengeProblem, message('were refused, but not with 401 and a challenge'), '401 + WWW-Authenticate', challengeCause);
}
