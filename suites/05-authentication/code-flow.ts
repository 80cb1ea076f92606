/** §5 rules 8–9 (RFC 6749 §4.1, RFC 7636, RFC 9700 §2.1, §4.1): the authorization code flow with PKCE, state and an exact redirect URI. */
import { CheckFailure, ShouldFailure, defineCheck } from '../../src/model/check.js';
import { authorizationAnswers, authorize, codeRequest, obtainCode, redeemCode, refresh, secretVerifier } from '../../src/check-kit/code-flow.js';
import { expectFlowWorks, expectRefusedAuthorization } from '../../src/check-kit/authorization-refusal.js';
import { describe } from '../../src/check-kit/expect.js';
import { expectTokenError } from '../../src/check-kit/oauth-errors.js';
import { requireTokens, tokensOf } from '../../src/check-kit/oauth-token.js';
import { presentToken } from '../../src/check-kit/bearer.js';

export const pkceRequired = defineCheck({
  id: 'AUT-pkce-required',
  title: 'An authorization request without a PKCE challenge gets no usable code',
  rule: 'An authorization request without `code_challenge` MUST be refused (RFC 7636 §4.4.1 `invalid_request`; conventions §5.8: the code flow uses PKCE), or its code refused at the token endpoint, with a `code_verifier` (the downgrade of RFC 9700 §4.8.2) or without one; it never yields tokens.',
  severity: 'must',
  needs: ['oauthCodeFlow'],
  judges: authorizationAnswers,
  async run(ctx, { oauthCodeFlow: client }) {
    const { code_challenge: _c, code_challenge_method: _m, ...params } = codeRequest(client).params;
    // An attacker who strips the challenge leaves the client sending its verifier (RFC 9700 §4.8.2): try that first, then none.
    const verifier = secretVerifier(ctx);
    await expectRefusedAuthorization(ctx, client, params, 'an authorization request without code_challenge', 'conventions §5.8: every client uses PKCE S256; RFC 9700 §2.1.1 requires it of public clients, §4.8.2 refuses a code_verifier for a code requested without a challenge', [verifier, undefined]);
  },
});

export const pkcePlainRefused = defineCheck({
  id: 'AUT-pkce-plain-refused',
  title: 'The plain PKCE method gets no usable code',
  rule: 'An authorization request with `code_challenge_method=plain` MUST be refused, or its code refused at the token endpoint: the challenge is S256. The MUST is the conventions\' (§5.8 allows the code flow with `code_challenge_method=S256` only); RFC 7636 §4.2 and RFC 9700 §2.1.1 constrain clients, and a server that offers `plain` (Keycloak\'s default client) breaks no RFC.',
  severity: 'must',
  needs: ['oauthCodeFlow'],
  judges: authorizationAnswers,
  async run(ctx, { oauthCodeFlow: client }) {
    const verifier = secretVerifier(ctx);
    const params = { ...codeRequest(client).params, code_challenge: verifier, code_challenge_method: 'plain' };
    await expectRefusedAuthorization(ctx, client, params, 'an authorization request with code_challenge_method=plain', 'conventions §5.8: the challenge is S256; RFC 7636 §4.2: a client that can use S256 must', [verifier]);
  },
});

export const pkceVerifierChecked = defineCheck({
  id: 'AUT-pkce-verifier-checked',
  title: 'A wrong PKCE verifier gets invalid_grant',
  rule: 'Redeeming a code with a `code_verifier` that does not match its challenge MUST get 400 `invalid_grant` (RFC 7636 §4.6).',
  severity: 'must',
  needs: ['oauthCodeFlow'],
  async run(ctx, { oauthCodeFlow: client }) {
    // Codes redeemed with the right verifier work, or a refusal could have another cause.
    await expectFlowWorks(ctx, client);
    const { code } = await obtainCode(ctx, client);
    const other = secretVerifier(ctx);
    expectTokenError(await redeemCode(ctx, client, code, other), 'invalid_grant', [400], 'redeeming a code with a wrong code_verifier');
  },
});

export const codeSingleUse = defineCheck({
  id: 'AUT-code-single-use',
  title: 'A code redeemed twice gets invalid_grant',
  rule: 'An authorization code MUST be redeemable once only: a second redemption gets 400 `invalid_grant`, and the tokens issued for its first use SHOULD be revoked (RFC 6749 §4.1.2, §10.5).',
  severity: 'must',
  needs: ['oauthCodeFlow'],
  uses: ['firstCollection'],
  async run(ctx, { oauthCodeFlow: client, firstCollection: collection }) {
    const { code, verifier } = await obtainCode(ctx, client);
    const first = requireTokens(await redeemCode(ctx, client, code, verifier), 'redeeming the code the first time');
    expectTokenError(await redeemCode(ctx, client, code, verifier), 'invalid_grant', [400], 'redeeming the same code a second time');
    if (first.refreshToken !== undefined) {
      const again = await refresh(ctx, client, first.refreshToken);
      if (tokensOf(again) !== undefined) throw new ShouldFailure(`the refresh token issued for the code's first use still works after the code was reused (${describe(again)}), expected it revoked (RFC 6749 §4.1.2: SHOULD)`, 'refresh refused', 'tokens issued', again.exchangeIndex);
    }
    // A self-contained access token is revoked only "when possible": noted, not judged.
    if (collection !== undefined) {
      const res = await presentToken(ctx, collection, first.accessToken);
      if (res.status >= 200 && res.status < 300) ctx.note(`the access token of the code's first use still works (${describe(res)}): a JWT lives until its exp unless a denylist is used`);
    }
  },
});

export const stateEchoed = defineCheck({
  id: 'AUT-state-echoed',
  title: 'The state comes back unchanged',
  rule: 'The redirect after an authorization request MUST carry the `state` the client sent, exactly (RFC 6749 §4.1.2; conventions §5.9).',
  severity: 'must',
  needs: ['oauthCodeFlow'],
  judges: authorizationAnswers,
  async run(ctx, { oauthCodeFlow: client }) {
    // A code request of its own: the evidence shows the state sent and the redirect that brought it back.
    const { outcome, sentState } = await obtainCode(ctx, client);
    const got = outcome.query.get('state');
    if (got !== sentState) throw new CheckFailure(`the redirect carries state ${got === null ? 'absent' : JSON.stringify(got)}, expected the ${JSON.stringify(sentState)} sent`, sentState, got ?? 'none', outcome.response?.exchangeIndex);
  },
});

/**
 * Redirect URIs that are not the registered one, each taken for it by a common loose match:
 * a path below it (a prefix match, and GitHub's "a subdirectory of the callback URL"), the
 * same with a query parameter added (django-oauth-toolkit accepts any query that keeps the
 * registered one's), and another origin.
 */
function unregisteredRedirects(registered: string): string[] {
  if (!URL.canParse(registered)) return [`${registered}/restprobe`, 'https://restprobe.invalid/callback'];
  const below = new URL(registered);
  below.pathname = `${below.pathname.replace(/\/$/, '')}/restprobe`;
  const query = new URL(registered);
  query.searchParams.append('restprobe', '1');
  return [below.href, query.href, 'https://restprobe.invalid/callback'];
}

/** Whether a redirect goes to `uri`: its origin and path, with each of its query parameters (a server re-encodes the query as it adds its own). */
function redirectedTo(location: string, uri: string): boolean {
  if (!URL.canParse(location) || !URL.canParse(uri)) return location.startsWith(uri);
  const to = new URL(location);
  const asked = new URL(uri);
  return to.origin === asked.origin && to.pathname === asked.pathname && [...asked.searchParams].every(([k, v]) => to.searchParams.getAll(k).includes(v));
}

export const redirectUriExact = defineCheck({
  id: 'AUT-redirect-uri-exact',
  title: 'An unregistered redirect URI is never redirected to',
  rule: 'An authorization request whose `redirect_uri` is not exactly a registered one MUST NOT be redirected to it, neither with a code nor with an error (RFC 6749 §4.1.2.1; RFC 9700 §2.1, §4.1: exact string matching).',
  severity: 'must',
  needs: ['oauthCodeFlow'],
  judges: authorizationAnswers,
  async run(ctx, { oauthCodeFlow: client }) {
    const registered = client.oauth.redirectUri;
    // The registered URI must work, or a refusal of the others proves nothing.
    await expectFlowWorks(ctx, client);
    for (const bad of unregisteredRedirects(registered)) {
      const outcome = await authorize(ctx, client, { ...codeRequest(client).params, redirect_uri: bad });
      if (outcome.kind === 'redirect' && redirectedTo(outcome.location, bad)) {
        throw new CheckFailure(`an authorization request with the unregistered redirect_uri ${bad} was redirected to it (${outcome.query.has('code') ? 'with a code' : 'with an error'}), expected an error page and no redirect`, 'no redirect to it', 'a redirect', outcome.response?.exchangeIndex);
      }
      ctx.note(`redirect_uri ${bad}: ${outcome.kind === 'answer' ? describe(outcome.response) : `redirected to ${new URL(outcome.location).origin}${new URL(outcome.location).pathname}`}`);
    }
  },
});

export const codeFlowChecks = [pkceRequired, pkcePlainRefused, pkceVerifierChecked, codeSingleUse, stateEchoed, redirectUriExact];
