/**
 * Whether an authorization request that must be refused was: no code and no token came
 * back, and the server answered with an error (an error redirect, or a 4xx page; RFC 6749
 * §4.1.2.1). A code is only judged with its redemption, since refusing it at the token
 * endpoint protects just as well (RFC 9700 §4.8.2). A control comes first: the same
 * request done right must yield tokens, or a refusal could be for another reason (a wrong
 * redirect URI or login in the config, a consent page restprobe cannot pass).
 */
import { CheckFailure } from '../model/check.js';
import type { CheckContext, HttpResponse } from '../model/context.js';
import type { CodeFlowClient } from '../model/needs.js';
import { authorize, codeOf, redeemCode, sharedCodeFlow, type AuthorizationOutcome } from './code-flow.js';
import { describe } from './expect.js';
import { tokensOf } from './oauth-token.js';
import { setupError } from './setup.js';

/** What the outcome was, for notes and messages. */
export function outcomeText(o: AuthorizationOutcome): string {
  if (o.kind === 'answer') return describe(o.response);
  const error = o.query.get('error') ?? o.fragment.get('error');
  return error !== null ? `a redirect with error=${error}` : o.query.has('code') ? 'a redirect with a code' : o.fragment.has('access_token') ? 'a redirect with an access token in its fragment' : 'a redirect without code or error';
}

const exchangeOf = (o: AuthorizationOutcome): number | undefined => (o.kind === 'answer' ? o.response.exchangeIndex : o.response?.exchangeIndex);

/**
 * The control: a well-formed code request of the same client reaches tokens (else a setup
 * error saying where it stopped), so what refuses a changed request is the change. One flow
 * for the run ({@link sharedCodeFlow}), in each check's evidence.
 */
export async function expectFlowWorks(ctx: CheckContext, client: CodeFlowClient): Promise<void> {
  await sharedCodeFlow(ctx, client);
}

/**
 * Runs the control, then the authorization request `params` once per entry of `redeemWith`;
 * fails when it issued a token, or a code that the token endpoint then redeemed with that
 * entry's `code_verifier` (none for `undefined`), or when the server broke (5xx). `rule`
 * says whose rule a failure breaks. Each attempt asks for a code of its own: a code is
 * single-use, so one refused redemption would spoil the next.
 */
export async function expectRefusedAuthorization(ctx: CheckContext, client: CodeFlowClient, params: Record<string, string>, what: string, rule: string, redeemWith: readonly (string | undefined)[] = [undefined]): Promise<void> {
  await expectFlowWorks(ctx, client);
  for (const verifier of redeemWith) {
    if (!(await refusedOnce(ctx, client, params, what, rule, verifier))) return;
  }
}

/** One attempt of {@link expectRefusedAuthorization}: whether a code was issued (so another redemption is worth trying). */
async function refusedOnce(ctx: CheckContext, client: CodeFlowClient, params: Record<string, string>, what: string, rule: string, verifier: string | undefined): Promise<boolean> {
  const outcome = await authorize(ctx, client, params);
  if (outcome.kind === 'answer') {
    const res: HttpResponse = outcome.response;
    // The login did not go through (locked out, throttled, the form changed): the changed request was never judged.
    if (outcome.loginFailed === true) throw setupError(res, `${what}: the configured login did not go through (${outcome.loginProblem}), so whether the request is refused is not known`);
    if (res.status >= 500) throw new CheckFailure(`${what}: ${describe(res)}, expected a refusal (an error redirect or a 4xx page; ${rule})`, 'an error redirect or 4xx', String(res.status), res.exchangeIndex);
    ctx.note(`${what}: ${describe(res)}`);
    return false;
  }
  if (outcome.fragment.has('access_token') || outcome.query.has('access_token')) {
    throw new CheckFailure(`${what}: the server redirected with an access token, expected a refusal (${rule})`, 'an error redirect or a 4xx page', 'an access token', exchangeOf(outcome));
  }
  const code = codeOf(outcome);
  if (code === undefined) {
    ctx.note(`${what}: ${outcomeText(outcome)}`);
    return false;
  }
  const redeemed = await redeemCode(ctx, client, code, verifier);
  const sent = verifier === undefined ? 'without a code_verifier' : 'with a code_verifier';
  if (tokensOf(redeemed) !== undefined) {
    throw new CheckFailure(`${what}: the server issued a code, and the token endpoint redeemed it ${sent} (${describe(redeemed)}), expected the request or the code refused (${rule})`, 'an error redirect or a 4xx page, or the code refused', 'tokens', redeemed.exchangeIndex);
  }
  ctx.note(`${what}: a code was issued, but the token endpoint refused it ${sent} (${describe(redeemed)})`);
  return true;
}
