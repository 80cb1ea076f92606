/**
 * §3 refresh-token states and §5 rule 10 (RFC 6749 §6, RFC 9700 §4.14.2): every refresh
 * rotates the refresh token, the old one is then refused, and presenting it again revokes
 * the whole family. The three checks judge the steps of one family of their own (a code flow,
 * so the run's shared token and the other checks' tokens are untouched), sent once for the run.
 */
import { CheckSkipped, defineCheck } from '../../src/model/check.js';
import type { CheckContext, HttpResponse } from '../../src/model/context.js';
import { answered, servesAll, type CutShort } from '../../src/check-kit/update-sequences.js';
import type { CodeFlowClient } from '../../src/model/needs.js';
import { codeFlowTokens, refresh } from '../../src/check-kit/code-flow.js';
import { requireTokens, tokensOf } from '../../src/check-kit/oauth-token.js';
import { describe, ensure, expectStatus } from '../../src/check-kit/expect.js';
import { expectTokenError } from '../../src/check-kit/oauth-errors.js';

/**
 * A family's steps in order: the first refresh, the rotated-out refresh token presented again,
 * then the newest one. Each step is sent only where the one before it leaves something to judge:
 * the reuse after a refresh that issued tokens, the newest after a reuse that was refused. A step
 * that threw (a timeout, a dropped connection) ends the family there: the checks whose steps were
 * answered judge them, the check whose step is missing meets the error ({@link answered}).
 */
interface Family extends CutShort {
  /** The refresh token the code flow issued; undefined where it issued none. */
  readonly old?: string;
  readonly first?: HttpResponse;
  readonly reuse?: HttpResponse;
  readonly newest?: HttpResponse;
}

/**
 * The family, sent by the first of the three checks that asks, each holding the answers in its
 * own evidence: one code flow and three refreshes, where each check would run the flow and the
 * refreshes before its step. A family cut short, or with an answer that says the server was
 * unavailable for a moment, is its sender's alone: each other check sends its own.
 */
function family(ctx: CheckContext, client: CodeFlowClient): Promise<Family> {
  return ctx.sharedAnswers(
    'a refresh-token family',
    async (sender): Promise<Family> => {
      const old = (await codeFlowTokens(sender, client)).refreshToken;
      if (old === undefined) return {};
      let sent: Family = { old };
      try {
        const first = await refresh(sender, client, old);
        sent = { ...sent, first };
        const next = tokensOf(first)?.refreshToken;
        if (first.status !== 200 || next === undefined || next === old) return sent;
        const reuse = await refresh(sender, client, old);
        sent = { ...sent, reuse };
        if (tokensOf(reuse) !== undefined) return sent;
        return { ...sent, newest: await refresh(sender, client, next) };
      } catch (failure) {
        return { ...sent, failure };
      }
    },
    (f, take) => ({ ...f, ...(f.first && { first: take(f.first) }), ...(f.reuse && { reuse: take(f.reuse) }), ...(f.newest && { newest: take(f.newest) }) }),
    (f) => servesAll(f, [f.first, f.reuse, f.newest].filter((res) => res !== undefined)),
  );
}

/** The family's first refresh, of a refresh token the code flow issued. */
async function firstRefresh(ctx: CheckContext, client: CodeFlowClient): Promise<Family & { old: string; first: HttpResponse }> {
  const f = await family(ctx, client);
  if (f.old === undefined) throw new CheckSkipped('the authorization server issued no refresh token with the code flow: there is no rotation to judge');
  return { ...f, old: f.old, first: answered(f, f.first) };
}

/** A later step of the family: what it answered, none where the step before left nothing to send, and the failure that cut the family short before it. */
const reached = (f: Family, step: HttpResponse | undefined): HttpResponse | undefined => (f.failure === undefined ? step : answered(f, step));

export const refreshRotates = defineCheck({
  id: 'STA-refresh-rotates',
  title: 'A refresh returns a new access token and a new refresh token',
  rule: 'A refresh MUST return a new access token and a new refresh token (conventions §3 refresh-token table, §5.10; RFC 9700 §4.14.2).',
  severity: 'must',
  needs: ['oauthCodeFlow'],
  async run(ctx, { oauthCodeFlow: client }) {
    const { old, first: res } = await firstRefresh(ctx, client);
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
    const f = await firstRefresh(ctx, client);
    requireTokens(f.first, 'refreshing with a fresh refresh token');
    const reuse = reached(f, f.reuse);
    if (reuse === undefined) throw new CheckSkipped(`${describe(f.first)} returned the same refresh token or none: there is no rotated-out token to present (STA-refresh-rotates judges that)`);
    expectTokenError(reuse, 'invalid_grant', [400], 'presenting the rotated-out refresh token at once (conventions §3: a refresh invalidates the old token; a reuse grace period, as Okta keeps 30 s by default, shows so)', { clientShown: true });
  },
});

export const refreshReuseRevokesFamily = defineCheck({
  id: 'STA-refresh-reuse-revokes-family',
  title: 'Reusing an old refresh token revokes its family',
  rule: 'When an invalidated refresh token is presented, the whole family MUST be revoked: the newest refresh token then gets 400 `invalid_grant` too (conventions §3 refresh-token table, §5.12; RFC 9700 §4.14.2).',
  severity: 'must',
  needs: ['oauthCodeFlow'],
  async run(ctx, { oauthCodeFlow: client }) {
    const f = await firstRefresh(ctx, client);
    requireTokens(f.first, 'refreshing with a fresh refresh token');
    const reuse = reached(f, f.reuse);
    if (reuse === undefined) throw new CheckSkipped('the refresh returned no new refresh token: STA-refresh-rotates judges that');
    // Not a dependency on STA-refresh-old-refused: that one may only warn (a 403 refusal), and the reuse is still judged.
    const newest = reached(f, f.newest);
    if (newest === undefined) throw new CheckSkipped('the rotated-out refresh token still works, so no reuse was detected: STA-refresh-old-refused judges that');
    expectTokenError(newest, 'invalid_grant', [400], 'presenting the newest refresh token after the old one was reused (conventions §3: reuse revokes the whole family)', { clientShown: true });
  },
});

export const refreshChecks = [refreshRotates, refreshOldRefused, refreshReuseRevokesFamily];
