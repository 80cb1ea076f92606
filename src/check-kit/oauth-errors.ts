/** How the token endpoint refuses (RFC 6749 §5.2): a status and an `error` code, and never tokens. */
import { CheckFailure, ShouldFailure } from '../model/check.js';
import type { HttpResponse } from '../model/context.js';
import { describe, expectStatus } from './expect.js';
import { tokensOf } from './oauth-token.js';

/** The `error` of an RFC 6749 §5.2 body, or undefined. */
export function oauthErrorCode(res: HttpResponse): string | undefined {
  const e = (res.json as { error?: unknown } | undefined)?.error;
  return typeof e === 'string' ? e : undefined;
}

/**
 * Fails unless `res` refuses with `statuses` (one of) and error `code`, issuing nothing.
 *
 * @example
 * ```ts
 * expectTokenError(res, 'invalid_grant', [400], 'redeeming the same code twice');
 * ```
 */
export function expectTokenError(res: HttpResponse, code: string, statuses: readonly number[], what: string): void {
  const want = `${statuses.join(' or ')} ${code}`;
  if (tokensOf(res) !== undefined) throw new CheckFailure(`${what}: ${describe(res)} issued tokens, expected ${want}`, want, 'tokens', res.exchangeIndex);
  const found = oauthErrorCode(res);
  // RFC 6749 §5.2 answers errors with 400 "unless specified otherwise", with no MUST: a
  // refusal with the right code and another 4xx (Auth0 sends 403 invalid_grant) holds, and is only warned.
  const otherClientError = statuses.length === 1 && statuses[0] === 400 && res.status > 400 && res.status < 500;
  if (otherClientError && found === code) throw new ShouldFailure(`${what}: found ${describe(res)} with error "${code}", expected 400 (RFC 6749 §5.2; the refusal itself holds)`, '400', String(res.status), res.exchangeIndex);
  expectStatus(res, statuses, what);
  if (found !== code) throw new CheckFailure(`${what}: ${describe(res)} with error ${found === undefined ? 'absent' : JSON.stringify(found)}, expected "${code}"`, code, found ?? 'none', res.exchangeIndex);
}
