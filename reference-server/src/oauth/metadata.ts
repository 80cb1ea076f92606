/**
 * Authorization server metadata (RFC 8414 §2) and the JWKS (RFC 7517 §5): public
 * documents, the same on every node (the issuer is the first node's origin).
 */
import type { JWK } from 'jose';
import { fullScopes } from '../scopes.js';
import type { ServerOrigin } from './origin.js';

export const metadataPath = '/.well-known/oauth-authorization-server';
export const authorizePath = '/oauth/authorize';
export const tokenPath = '/oauth/token';
export const revocationPath = '/oauth/revoke';
export const jwksPath = '/oauth/jwks';

/** The resources a scope may name besides `*` (the first path segments of the API). */
const resources = ['projects', 'tasks', 'members', 'events', 'api-keys', 'webhook-subscriptions', 'sessions'];

export function metadata(origin: ServerOrigin): Record<string, unknown> {
  return {
    issuer: origin.issuer,
    authorization_endpoint: origin.endpoint(authorizePath),
    token_endpoint: origin.endpoint(tokenPath),
    jwks_uri: origin.endpoint(jwksPath),
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    // RFC 7009 token revocation, advertised as RFC 8414 §2 names it.
    revocation_endpoint: origin.endpoint(revocationPath),
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: [...fullScopes, ...resources.flatMap((r) => [`read:${r}`, `write:${r}`])],
  };
}

export function jwks(keys: readonly JWK[]): { keys: readonly JWK[] } {
  return { keys };
}
