/** §5 rules 8 and §8.5 at the token endpoint (RFC 6749 §4.4, §5, RFC 9700 §2.1.2, §2.4): what it issues, how it refuses. */
import { randomBytes } from 'node:crypto';
import { CheckFailure, ShouldFailure, defineCheck } from '../../src/model/check.js';
import { isConfidential, type ConfidentialClient, type JwtAccess } from '../../src/model/needs.js';
import { describe, ensure, expectJsonObject, expectStatus } from '../../src/check-kit/expect.js';
import { oauthEndpoints } from '../../src/check-kit/oauth-metadata.js';
import { clientAuthOf, clientCredentialsGrant, tokenRequest, tokensOf } from '../../src/check-kit/oauth-token.js';
import { authorizationAnswers, newState, sharedCodeFlow } from '../../src/check-kit/code-flow.js';
import { expectRefusedAuthorization } from '../../src/check-kit/authorization-refusal.js';
import { sharedClientCredentials } from '../../src/check-kit/bearer.js';
import { expectClientAuthenticated, expectTokenError, oauthErrorCode } from '../../src/check-kit/oauth-errors.js';
import { hasCacheDirective } from '../../src/check-kit/http-grammar.js';
import { setupError } from '../../src/check-kit/setup.js';
import type { CheckContext, HttpResponse } from '../../src/model/context.js';

/** Access-token lifetimes the conventions allow (§5, §8.5: 5–15 minutes). */
export const accessTokenSeconds = { min: 300, max: 900 } as const;
/** Whose rule the range is: failure messages say so, since RFC 6749 sets none. */
export const lifetimeRule = 'the conventions\' rule, §5 and §8.5: access tokens live 5–15 minutes; RFC 6749 sets no range';
/**
 * `expires_in` counts down from the token's issue: Spring Authorization Server answers a
 * 300 s token with 299 (whole seconds left, rounded down), Keycloak when a second ticks over
 * while it signs. Seconds this far under the minimum are a lifetime of the minimum.
 */
const countdownSlackSeconds = 5;

/**
 * A client-credentials token request. A 4xx refusal breaks no rule these checks judge (the
 * client may not be allowed the grant, or auth.oauth.scopes not be its to ask for, or the
 * secret wrong): a setup error, not a verdict.
 */
async function clientCredentials(ctx: CheckContext, client: ConfidentialClient): Promise<HttpResponse> {
  const res = await sharedClientCredentials(ctx, client);
  if (res.status >= 400 && res.status < 500) {
    const error = oauthErrorCode(res);
    throw setupError(res, `the client-credentials token request was refused: ${describe(res)}${error === undefined ? '' : ` with error ${error}`}, expected 200 (is the client allowed the client_credentials grant, and are auth.oauth.scopes its to ask for?)`);
  }
  return res;
}

/** A token response (the run's, in the check's evidence): client credentials for a confidential client, else (a public one) the code flow's redemption. */
async function tokenResponse(ctx: CheckContext, access: JwtAccess): Promise<HttpResponse> {
  if (isConfidential(access)) return clientCredentials(ctx, access);
  return (await sharedCodeFlow(ctx, access.codeFlow!)).tokens.response;
}

export const clientCredentialsToken = defineCheck({
  id: 'AUT-client-credentials-token',
  title: 'Client credentials get a Bearer access token of 5–15 minutes',
  rule: 'A client-credentials token request (RFC 6749 §4.4) MUST get 200 JSON with `access_token`, `token_type` Bearer (compared case-insensitively) and `expires_in` between 300 and 900 seconds (conventions §5, §8.5: access tokens live 5–15 minutes; it counts down from the issue, so up to 5 s under 300 is taken; a response without it, which RFC 6749 §5.1 only recommends, is warned).',
  severity: 'must',
  needs: ['confidentialClient'],
  async run(ctx, { confidentialClient }) {
    const res = await clientCredentials(ctx, confidentialClient);
    expectStatus(res, 200, 'client-credentials token request');
    const body = expectJsonObject(res, 'token response');
    ensure(typeof body.access_token === 'string' && body.access_token !== '', `${describe(res)} has no access_token, expected one`, 'access_token', 'none');
    const type = typeof body.token_type === 'string' ? body.token_type : undefined;
    ensure(type?.toLowerCase() === 'bearer', `${describe(res)} has token_type ${type === undefined ? 'absent' : JSON.stringify(type)}, expected "Bearer"`, 'Bearer', String(type));
    const tokens = tokensOf(res)!;
    const s = tokens.expiresIn;
    const range = `${accessTokenSeconds.min}–${accessTokenSeconds.max}`;
    ensure(s === undefined || (s >= accessTokenSeconds.min - countdownSlackSeconds && s <= accessTokenSeconds.max), `${describe(res)} has expires_in ${s}, expected ${range} seconds (${lifetimeRule})`, range, String(s));
    if (s !== undefined && s < accessTokenSeconds.min) ctx.note(`expires_in ${s}: the seconds left of a ${accessTokenSeconds.min} s token, counted down from its issue (taken up to ${countdownSlackSeconds} s under)`);
    // RFC 6749 §4.4.3: a refresh token SHOULD NOT be included; not this check's rule.
    if (tokens.refreshToken !== undefined) ctx.note('the client-credentials response holds a refresh token (RFC 6749 §4.4.3: SHOULD NOT)');
    // The lifetime is the conventions' rule, the member only RECOMMENDED (RFC 6749 §5.1): without it the range is not shown, only warned.
    if (s === undefined) throw new ShouldFailure(`${describe(res)} has no expires_in, expected ${range} seconds (RFC 6749 §5.1: RECOMMENDED; AUT-jwt-lifetime judges a JWT's own exp)`, range, 'absent', res.exchangeIndex);
  },
});

export const tokenNoStore = defineCheck({
  id: 'AUT-token-no-store',
  title: 'Token responses are not stored',
  rule: 'A token response MUST carry `Cache-Control: no-store` (RFC 6749 §5.1), so no cache keeps the tokens.',
  severity: 'must',
  needs: ['jwtAccess'],
  async run(ctx, { jwtAccess }) {
    const res = await tokenResponse(ctx, jwtAccess);
    expectStatus(res, 200, 'the token request');
    const cc = res.headers['cache-control'];
    ensure(hasCacheDirective(cc, 'no-store'), `${describe(res)} has Cache-Control ${cc === undefined ? 'absent' : JSON.stringify(cc)}, expected no-store`, 'no-store', cc ?? 'none');
    // RFC 6749 §5.1 also names Pragma: no-cache, which RFC 9111 deprecates: only noted.
    if (!/no-cache/i.test(res.headers.pragma ?? '')) ctx.note('no Pragma: no-cache (RFC 6749 §5.1 names it; RFC 9111 §5.4 deprecates Pragma)');
  },
});

export const tokenInvalidClient = defineCheck({
  id: 'AUT-token-invalid-client',
  title: 'A wrong client secret or an unknown client gets invalid_client',
  rule: 'A token request with a wrong client secret or an unknown client MUST get error `invalid_client`: 401 with a `WWW-Authenticate` challenge when the client authenticated with HTTP Basic, 400 or 401 otherwise (RFC 6749 §5.2).',
  severity: 'must',
  needs: ['confidentialClient'],
  // Wrong secrets for the run's own client: an authorization server that locks a client out
  // after failed attempts would then refuse every other check's token requests.
  schedule: 'last',
  async run(ctx, { confidentialClient: oauthClient }) {
    const how = clientAuthOf(oauthClient, await oauthEndpoints(ctx, oauthClient.oauth));
    const wrong = `restprobe-wrong-${randomBytes(12).toString('base64url')}`;
    const grant = clientCredentialsGrant(oauthClient);
    // The control: the configured secret is accepted, or refusing the wrong ones proves nothing.
    expectClientAuthenticated(await sharedClientCredentials(ctx, oauthClient), 'a token request with the configured client secret');
    const tries = [
      { what: 'a wrong client secret', res: await tokenRequest(ctx, oauthClient, grant, { clientSecret: wrong }) },
      { what: 'an unknown client', res: await tokenRequest(ctx, oauthClient, grant, { clientId: `restprobe-unknown-${randomBytes(6).toString('hex')}`, clientSecret: wrong }) },
    ];
    for (const { what, res } of tries) {
      const statuses = how === 'client_secret_basic' ? [401] : [400, 401];
      expectTokenError(res, 'invalid_client', statuses, `a token request with ${what} (${how})`);
      if (how === 'client_secret_basic') ensure((res.headers['www-authenticate'] ?? '').trim() !== '', `${describe(res)} to ${what} sent with HTTP Basic has no WWW-Authenticate challenge, expected one (RFC 6749 §5.2)`, 'WWW-Authenticate', 'none');
    }
  },
});

export const tokenUnsupportedGrant = defineCheck({
  id: 'AUT-token-unsupported-grant',
  title: 'An unknown grant type gets 400 unsupported_grant_type',
  rule: 'A token request with a grant type the server does not support MUST get 400 with error `unsupported_grant_type` (RFC 6749 §5.2).',
  severity: 'must',
  needs: ['oauthClient'],
  async run(ctx, { oauthClient }) {
    const res = await tokenRequest(ctx, oauthClient, { grant_type: 'urn:restprobe:no-such-grant' });
    expectTokenError(res, 'unsupported_grant_type', [400], 'a token request with grant_type urn:restprobe:no-such-grant');
  },
});

export const passwordGrantRefused = defineCheck({
  id: 'AUT-password-grant-refused',
  title: 'The password grant issues no tokens',
  rule: 'The resource owner password credentials grant MUST NOT be used (RFC 9700 §2.4; conventions §5.8): a token request with `grant_type=password` gets a 4xx error, never tokens.',
  severity: 'must',
  needs: ['oauthClient'],
  async run(ctx, { oauthClient }) {
    // The test user's own login where the config has one: a server that takes the grant would then issue tokens.
    const login = oauthClient.oauth.login;
    const fields = login?.kind === 'form' ? login.fields : {};
    const res = await tokenRequest(ctx, oauthClient, { grant_type: 'password', username: fields.username ?? 'restprobe-user', password: fields.password ?? randomBytes(12).toString('base64url') });
    if (tokensOf(res) !== undefined) throw new CheckFailure(`${describe(res)} issued tokens for grant_type=password, expected a 4xx error`, 'a 4xx error', 'tokens', res.exchangeIndex);
    ensure(res.status >= 400 && res.status < 500, `${describe(res)} to grant_type=password, expected a 4xx error (unsupported_grant_type, unauthorized_client…)`, '4xx', String(res.status));
    expectClientAuthenticated(res, 'a token request with grant_type=password');
    // invalid_grant refuses the credentials, not the grant (RFC 6749 §5.2): the server runs it, and a right login would get tokens.
    const error = oauthErrorCode(res);
    if (error === 'invalid_grant') throw new CheckFailure(`${describe(res)} with error "invalid_grant" to grant_type=password: the server runs the grant and refused only the login, expected the grant itself refused (unsupported_grant_type or unauthorized_client)`, 'unsupported_grant_type or unauthorized_client', 'invalid_grant', res.exchangeIndex);
    ctx.note(`grant_type=password: ${describe(res)}${error === undefined ? '' : ` error ${error}`}${login?.kind === 'form' ? '' : ' (sent with a made-up login: auth.oauth.login is no form)'}`);
  },
});

export const implicitRefused = defineCheck({
  id: 'AUT-implicit-refused',
  title: 'The implicit grant issues no tokens',
  rule: 'The implicit grant MUST NOT issue tokens (conventions §5.8: implicit flows are not used; RFC 9700 §2.1.2 says SHOULD NOT): `response_type=token` gets an error redirect or a 4xx page, never an access token.',
  severity: 'must',
  needs: ['oauthCodeFlow'],
  judges: authorizationAnswers,
  async run(ctx, { oauthCodeFlow: client }) {
    const params = { response_type: 'token', client_id: client.oauth.clientId, redirect_uri: client.oauth.redirectUri, state: newState(), ...(client.oauth.scopes.length > 0 && { scope: client.oauth.scopes.join(' ') }) };
    await expectRefusedAuthorization(ctx, client, params, 'response_type=token', 'conventions §5.8: the implicit flow is not used; RFC 9700 §2.1.2: SHOULD NOT');
  },
});

export const tokenEndpointChecks = [clientCredentialsToken, tokenNoStore, tokenInvalidClient, tokenUnsupportedGrant, passwordGrantRefused, implicitRefused];
