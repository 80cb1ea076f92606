/**
 * How a client authenticates to the token and revocation endpoints (RFC 6749 §2.3.1):
 * HTTP Basic, the body, or a public client's `client_id` alone. Token requests and
 * revocations both use it.
 */
import { isConfidential, type OAuthClient } from '../model/needs.js';
import { formBody } from '../http/session.js';
import type { OAuthEndpoints } from './oauth-metadata.js';

/** How a token request authenticates the client; `none`: a public client's `client_id` alone. */
export type ClientAuth = 'client_secret_basic' | 'client_secret_post' | 'none';

/** `none` for a public client; else the configured method, else the first the metadata lists that restprobe speaks, Basic first. */
export function clientAuthOf(client: OAuthClient, endpoints: OAuthEndpoints): ClientAuth {
  if (!isConfidential(client)) return 'none';
  if (client.oauth.clientAuth !== undefined) return client.oauth.clientAuth;
  return !endpoints.authMethods.includes('client_secret_basic') && endpoints.authMethods.includes('client_secret_post') ? 'client_secret_post' : 'client_secret_basic';
}

/** `Basic base64(urlencode(id) ":" urlencode(secret))`, as RFC 6749 §2.3.1 asks. */
export function basicCredentials(id: string, secret: string): string {
  const enc = (s: string): string => formBody({ '': s }).slice(1);
  return `Basic ${Buffer.from(`${enc(id)}:${enc(secret)}`).toString('base64')}`;
}
