/** How the token endpoint refuses (RFC 6749 §5.2): a status and an `error` code, and never tokens. */
import { CheckFailure, ShouldFailure } from '../model/check.js';
import type { HttpResponse } from '../model/context.js';
import { describe, expectStatus } from './expect.js';
import { tokensOf } from './oauth-token.js';
import { setupError } from './setup.js';
import { oauthErrorCode } from '../oauth/error-code.js';

export { oauthErrorCode };

/**
 * A setup error when the client's own credentials were refused (`invalid_client`, or any
 * other 401 but `invalid_grant`: Keycloak refuses a wrong secret with 401
 * `unauthorized_client`, and a wrong user login with 401 `invalid_grant`, which is the
 * grant's): whatever the request was to test, a refusal of the client says nothing about
 * it, and must not pass or fail the check.
 */
export function expectClientAuthenticated(res: HttpResponse, what: string): void {
  const error = oauthErrorCode(res);
  if (error !== 'invalid_client' && !(res.status === 401 && error !== 'invalid_grant')) return;
  throw setupError(res, `${what}: ${describe(res)} refused the client itself (auth.oauth.clientId with its auth.oauth.clientSecret, sent as auth.oauth.clientAuth says, or alone for a public client), so the answer says nothing about the rule`, 'the client was not authenticated');
}

/**
 * Fails unless `res` refuses with `statuses` (one of) and error `code`, issuing nothing. With
 * `clientShown` (the same client was just served: a refresh that succeeded), only an explicit
 * `invalid_client` is taken for a refusal of the client: another 401 (Ory Hydra's
 * `token_inactive` for a reused refresh token) is judged as the grant's refusal.
 *
 * @example
 * ```ts
 * expectTokenError(res, 'invalid_grant', [400], 'redeeming the same code twice');
 * ```
 */
export function expectTokenError(res: HttpResponse, code: string, statuses: readonly number[], what: string, { clientShown = false }: { readonly clientShown?: boolean } = {}): void {
  const want = `${statuses.join(' or ')} ${code}`;
  if (tokensOf(res) !== undefined) throw new CheckFailure(`${what}: ${describe(res)} issued tokens, expected ${want}`, want, 'tokens', res.exchangeIndex);
  if (code !== 'invalid_client' && !(clientShown && oauthErrorCode(res) !== 'invalid_client')) expectClientAuthenticated(res, what);
  const found = oauthErrorCode(res);
  // RFC 6749 §5.2 answers errors with 400 "unless specified otherwise", with no MUST: a
  // refusal with the right code and another 4xx (Auth0 sends 403 invalid_grant) holds, and is only warned.
  const otherClientError = statuses.length === 1 && statuses[0] === 400 && res.status > 400 && res.status < 500;
  if (otherClientError && found === code) throw new ShouldFailure(`${what}: found ${describe(res)} with error "${code}", expected 400 (RFC 6749 §5.2; the refusal itself holds)`, '400', String(res.status), res.exchangeIndex);
  expectStatus(res, statuses, what);
  if (found !== code) throw new CheckFailure(`${what}: ${describe(res)} with error ${found === undefined ? 'absent' : JSON.stringify(found)}, expected "${code}"${confusedWith[`${code} ${found}`] ?? ''}`, code, found ?? 'none', res.exchangeIndex);
}

/** Why a code a server sends is not the one RFC 6749 §5.2 names for the case (expected, found). */
const confusedWith: Readonly<Record<string, string>> = {
  // Keycloak answers a wrong client secret so; its maintainers agree it should be invalid_client (keycloak#12162).
  'invalid_client unauthorized_client': ' (RFC 6749 §5.2: unauthorized_client is for a client that may not use the grant; a failed client authentication is invalid_client)',
};
