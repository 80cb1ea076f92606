/**
 * Cache policy, kept in one place so that a later change (ETags, max-age on public
 * reads) touches only this file.
 */

/** What the policy needs to know about a response. */
export interface CacheFacts {
  readonly status: number;
  /** The request carried valid credentials, so the response is personalised. */
  readonly authenticated: boolean;
}

/**
 * The `Cache-Control` value for a response, or `undefined` to send none.
 *
 * Credentialed responses are personal (conventions §8.7) and errors must not be reused,
 * so both are `no-store`. What remains (OPTIONS answers) is not cacheable anyway
 * (RFC 9110 §9.3.7), so it gets no directive.
 */
export function cacheControlFor(facts: CacheFacts): string | undefined {
  if (facts.authenticated || facts.status >= 400) return 'no-store';
  return undefined;
}
