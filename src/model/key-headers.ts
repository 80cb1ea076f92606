/** How a key travels in a header: the one rule for the run's key, the limited key and the rate-limit probe keys. */

/**
 * Query parameters a key is commonly put in; none may be accepted (conventions §5.1). Express,
 * NestJS and FastAPI read query names case-sensitively: `apiKey` is its own name. Azure API
 * Management takes `subscription-key` by default, beside its header.
 */
export const commonKeyParams: readonly string[] = ['api_key', 'apikey', 'apiKey', 'api-key', 'key', 'access_token', 'token', 'subscription-key'];

/**
 * The header that carries `key` as `header` and `scheme` say: `Authorization: Bearer <key>`
 * (or `Token <key>`, Django REST Framework's), or the key itself in any other header.
 *
 * @example
 * ```ts
 * keyHeaders('Authorization', 'k3y', 'Token'); // { authorization: 'Token k3y' }
 * ```
 */
export function keyHeaders(header: string, key: string, scheme?: string): Record<string, string> {
  const name = header.toLowerCase();
  const prefix = scheme ?? (name === 'authorization' ? 'Bearer' : '');
  return { [name]: prefix === '' ? key : `${prefix} ${key}` };
}
