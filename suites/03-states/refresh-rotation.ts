/**
 * §3 refresh-token states and §5 rule 10 (RFC 6749 §6, RFC 9700 §4.14.2): every refresh
 * rotates the refresh token, the old one is then refused, and presenting it again revokes
 * the whole family. Each check runs its own code flow, so the run's shared token and the
 * other checks' families are untouched.
 */
import { CheckSkipped, defineCheck } from '../../src/model/check.js';
import type { CheckContext } from '../../src/model/context.js';
import type { CodeFlowClient } from '../../src/model/needs.js';
import { codeFlowTokens, refresh } from '../../src/check-kit/code-flow.js';
import { requireTokens, tokensOf, type Tokens } from '../../src/check-kit/oauth-token.js';
import { describe, ensure, expectStatus } from '../../src/check-kit/expect.js';
import { expectTokenError } from '../../src/check-kit/oauth-errors.js';

/** A refresh token of the check's own family. */
async function ownRefreshToken(ctx: CheckContext, client: CodeFlowClient): Promise<string> {
  const tokens = await codeFlowTokens(ctx, client);
  if (tokens.refreshToken === undefined) throw new CheckSkipped('the authorization server issued no refresh token with the code flow: there is no rotation to judge');
  return tokens.refreshToken;
}

/** The first refresh of a family, which must succeed for the check to go on. */
async function rotated(ctx: CheckContext, client: CodeFlowClient, old: string): Promise<Tokens> {
  return requireTokens(await refresh(ctx, client, old), 'refreshing with a fresh refresh token');
}

export const refreshRotates = defineCheck({
  id: 'STA-refresh-rotates',
  title: 'A refresh returns a new access token and a new refresh token',
  rule: 'A refresh MUST return a new access token and a new refresh token (conventions §3 refresh-token table, §5.10; RFC 9700 §4.14.2).',
  severity: 'must',
  needs: ['oauthCodeFlow'],
  async run(ctx, { oauthCodeFlow: client }) {
    const old = await ownRefreshToken(ctx, client);
    const res = await refresh(ctx, client, old);
    expectStatus(res, 200, 'a refresh');
    const next = tokensOf(res);
    ensure(next !== undefined, `${describe(res)} holds no access_token, expected a new one`, 'access_token', 'none');
    ensure(next.refreshToken !== undefined && next.refreshToken !== old, `${describe(res)} ${next.refreshToken === undefined ? 'holds no refresh_token' : 'returned the same refresh token'}, expected a new one (conventions §3, §5.10: refresh tokens are rotated; RFC 9700 §4.14.2 requires it of public clients)`, 'a new refresh_token', next.refreshToken === undefined ? 'none' : 'the same');
  },
});

export const refreshOldRefused = defineCheck({
  id: 'STA-refresh-old-refused',
  title: 'A rotated-out refresh token is refused',
  rule: 'Once a refresh token has been used, presenting it again MUST get 400 `invalid_grant` (conventions §3 refresh-token table; RFC 9700 §4.14.2).',
  severity: 'must',
  needs: ['oauthCodeFlow'],
  assumes: ['STA-refresh-rotates'],
  async run(ctx, { oauthCodeFlow: client }) {
    const old = await ownRefreshToken(ctx, client);
    await rotated(ctx, client, old);
    expectTokenError(await refresh(ctx, client, old), 'invalid_grant', [400], 'presenting the rotated-out refresh token at once (conventions §3: a refresh invalidates the old token; a reuse grace period, as Okta keeps 30 s by default, shows so)');
  },
});

export const refreshReuseRevokesFamily = defineCheck({
  id: 'STA-refresh-reuse-revokes-family',
  title: 'Reusing an old refresh token revokes its family',
  rule: 'When an invalidated refresh token is presented, the whole family MUST be revoked: the newest refresh token then gets 400 `invalid_grant` too (conventions §3 refresh-token table, §5.12; RFC 9700 §4.14.2).',
  severity: 'must',
  needs: ['oauthCodeFlow'],
  async run(ctx, { oauthCodeFlow: client }) {
    const old = await ownRefreshToken(ctx, client);
    const newest = (await rotated(ctx, client, old)).refreshToken;
    if (newest === undefined) throw new CheckSkipped('the refresh returned no new refresh token: STA-refresh-rotates judges that');
    // Not a dependency on STA-refresh-old-refused: that one may only warn (a 403 refusal), and the reuse is still judged.
    const reuse = await refresh(ctx, client, old);
    if (tokensOf(reuse) !== undefined) throw new CheckSkipped('the rotated-out refresh token still works, so no reuse was detected: STA-refresh-old-refused judges that');
    expectTokenError(await refresh(ctx, client, newest), 'invalid_grant', [400], 'presenting the newest refresh token after the old one was reused (conventions §3: reuse revokes the whole family)');
  },
});

export const refreshChecks = [refreshRotates, refreshOldRefused, refreshReuseRevokesFamily];
