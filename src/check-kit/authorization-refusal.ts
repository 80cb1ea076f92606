/**
 * Whether an authorization request that must be refused was: no code and no token came
 * back, and the server answered with an error (an error redirect, or a 4xx page; RFC 6749
 * §4.1.2.1). A code is only judged with its redemption, since refusing it at the token
 * endpoint protects just as well (RFC 9700 §4.8.2).
 */
import { CheckFailure } from '../model/check.js';
import type { CheckContext, HttpResponse } from '../model/context.js';
import type { CodeFlowClient } from '../model/oauth-needs.js';
import { codeOf, redeemCode, type AuthorizationOutcome } from './code-flow.js';
import { describe } from './expect.js';
import { tokensOf } from './oauth-token.js';

/** What the outcome was, for notes and messages. */
export function outcomeText(o: AuthorizationOutcome): string {
  if (o.kind === 'answer') return describe(o.response);
  const error = o.query.get('error') ?? o.fragment.get('error');
  return error !== null ? `a redirect with error=${error}` : o.query.has('code') ? 'a redirect with a code' : o.fragment.has('access_token') ? 'a redirect with an access token in its fragment' : 'a redirect without code or error';
}

const exchangeOf = (o: AuthorizationOutcome): number | undefined => (o.kind === 'answer' ? o.response.exchangeIndex : o.response?.exchangeIndex);

/**
 * Fails when `outcome` issued a token, or a code that the token endpoint then redeemed
 * (with `verifier`, when the request had one), or when the server broke (5xx).
 */
export async function expectRefusedAuthorization(ctx: CheckContext, client: CodeFlowClient, outcome: AuthorizationOutcome, what: string, verifier?: string): Promise<void> {
  if (outcome.kind === 'answer') {
    const res: HttpResponse = outcome.response;
    if (res.status >= 500) throw new CheckFailure(`${what}: ${describe(res)}, expected a refusal (an error redirect or a 4xx page)`, 'an error redirect or 4xx', String(res.status), res.exchangeIndex);
    ctx.note(`${what}: ${describe(res)}`);
    return;
  }
  if (outcome.fragment.has('access_token') || outcome.query.has('access_token')) {
    throw new CheckFailure(`${what}: the server redirected with an access token, expected a refusal`, 'an error redirect or a 4xx page', 'an access token', exchangeOf(outcome));
  }
  const code = codeOf(outcome);
  if (code === undefined) {
    ctx.note(`${what}: ${outcomeText(outcome)}`);
    return;
  }
  const redeemed = await redeemCode(ctx, client, code, verifier);
  if (tokensOf(redeemed) !== undefined) {
    throw new CheckFailure(`${what}: the server issued a code, and the token endpoint redeemed it (${describe(redeemed)}), expected the request refused`, 'an error redirect or a 4xx page, or the code refused', 'tokens', redeemed.exchangeIndex);
  }
  ctx.note(`${what}: a code was issued, but the token endpoint refused it (${describe(redeemed)})`);
}
