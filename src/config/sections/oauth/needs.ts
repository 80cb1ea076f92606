/** How the OAuth and JWT needs are met: what `auth.oauth` and `auth.jwt` must say. */
import { need } from '../../../model/need.js';
import type { TargetProfile } from '../../../model/profile.js';
import type { Secret } from '../../../model/secret.js';
import { Unmet } from '../../../model/unmet.js';
import type { JwtProfile, OAuthLogin, OAuthProfile } from './profile.js';

/**
 * The authorization server's client: confidential (its secret in `oauth.clientSecret`), or
 * public, a single-page or mobile app with no secret (`clientSecret` absent), whose token
 * requests carry its `client_id` only and which gets tokens through the code flow alone.
 */
export interface OAuthClient {
  readonly oauth: OAuthProfile;
  readonly jwt: JwtProfile;
}

/** A client with a secret: it may use client credentials, and be refused for a wrong secret. */
export interface ConfidentialClient extends OAuthClient {
  readonly oauth: OAuthProfile & { readonly clientSecret: Secret };
}

/** The client, and what the authorization code flow needs besides. */
export interface CodeFlowClient extends OAuthClient {
  readonly oauth: OAuthClient['oauth'] & { readonly login: OAuthLogin; readonly redirectUri: string };
}

/**
 * A client restprobe can get access tokens from, to judge them: with client credentials (a
 * confidential client), and through the code flow (`codeFlow`, where an unattended login is
 * configured: a user's token).
 */
export interface JwtAccess extends OAuthClient {
  readonly codeFlow?: CodeFlowClient;
}

/** Whether the client has a secret to authenticate with (else it is public). */
export function isConfidential(client: OAuthClient): client is ConfidentialClient {
  return client.oauth.clientSecret !== undefined;
}

/** Any configured client, public or confidential, on a run that may POST to the token endpoint. */
export function resolveOAuthClient(p: TargetProfile): OAuthClient | Unmet {
  const oauth = p.auth.oauth;
  if (oauth === undefined) return new Unmet('no OAuth authorization server configured', 'auth.oauth');
  if (oauth.clientId === '') return new Unmet(`environment variable ${oauth.clientIdEnv} (auth.oauth.clientId) is not set`, 'auth.oauth');
  const secret = oauth.clientSecret;
  // A client said to authenticate with a secret, but without one: not taken for a public client.
  if (secret === undefined && oauth.clientAuth !== undefined && oauth.clientAuth !== 'none') return new Unmet(`no client secret configured, though auth.oauth.clientAuth is ${oauth.clientAuth}`, 'auth.oauth.clientSecret');
  if (secret !== undefined && secret.value === '') return new Unmet(`environment variable ${secret.envName} (auth.oauth.clientSecret) is not set`, 'auth.oauth.clientSecret');
  // Every token request is a POST: a read-only run sends none.
  if (p.safety.readOnly) return new Unmet('read-only run: token requests are POSTs', 'safety.readOnly');
  return { oauth, jwt: p.auth.jwt! };
}

/** A confidential client; a public one is unmet, naming the secret it lacks. */
export function resolveConfidentialClient(p: TargetProfile): ConfidentialClient | Unmet {
  const client = resolveOAuthClient(p);
  if (client instanceof Unmet || isConfidential(client)) return client;
  return new Unmet('the client is public (no auth.oauth.clientSecret): this check needs a confidential client, one with a secret', 'auth.oauth.clientSecret');
}

export function resolveCodeFlow(p: TargetProfile): CodeFlowClient | Unmet {
  const client = resolveOAuthClient(p);
  if (client instanceof Unmet) return client;
  const { login, redirectUri } = client.oauth;
  if (login === undefined) return new Unmet('no unattended login configured for the authorization code flow', 'auth.oauth.login');
  if (login.kind === 'form' && login.unset.length > 0) return new Unmet(`the login form's ${login.unset.join(', ')} ${login.unset.length === 1 ? 'is' : 'are'} not set`, 'auth.oauth.login');
  if (redirectUri === undefined) return new Unmet('no redirect URI configured', 'auth.oauth.redirectUri');
  return { ...client, oauth: { ...client.oauth, login, redirectUri } };
}

/** A client with client credentials, the code flow, or both; a public client needs the code flow. */
export function resolveJwtAccess(p: TargetProfile): JwtAccess | Unmet {
  const client = resolveOAuthClient(p);
  if (client instanceof Unmet) return client;
  const codeFlow = resolveCodeFlow(p);
  if (isConfidential(client)) return codeFlow instanceof Unmet ? client : { ...client, codeFlow };
  if (codeFlow instanceof Unmet) return new Unmet(`the client is public (no auth.oauth.clientSecret), so it gets tokens through the code flow only: ${codeFlow.reason}`, codeFlow.configKey);
  return { ...client, codeFlow };
}

/** The test signing key, and the JWT settings it signs under. */
export interface SigningKey {
  readonly key: Secret;
  readonly jwt: JwtProfile;
}

export function resolveSigningKey(p: TargetProfile): SigningKey | Unmet {
  const key = p.auth.jwt?.testSigningKey;
  if (key === undefined) return new Unmet('no test signing key configured', 'auth.jwt.testSigningKey');
  if (key.value === '') return new Unmet(`environment variable ${key.envName} (auth.jwt.testSigningKey) is not set`, 'auth.jwt.testSigningKey');
  return { key, jwt: p.auth.jwt! };
}

/** The needs an OAuth authorization server and the JWT settings meet. */
export const oauthNeeds = {
  /** An OAuth client (`auth.oauth`), public or confidential, on a run that may POST to the token endpoint. */
  oauthClient: need<OAuthClient>({ label: 'an OAuth client', keys: ['auth.oauth', 'safety.readOnly'], resolve: resolveOAuthClient }),
  /** An OAuth client with a secret: client credentials, a wrong secret refused. */
  confidentialClient: need<ConfidentialClient>({ label: 'an OAuth client with a secret', keys: ['auth.oauth', 'auth.oauth.clientSecret', 'safety.readOnly'], resolve: resolveConfidentialClient }),
  /** The OAuth client and an unattended login for the authorization code flow. */
  oauthCodeFlow: need<CodeFlowClient>({ label: 'an OAuth client and an unattended login', keys: ['auth.oauth', 'auth.oauth.login', 'auth.oauth.redirectUri', 'safety.readOnly'], resolve: resolveCodeFlow }),
  /** Access tokens restprobe can obtain (client credentials, the code flow, or both), to judge as JWTs. */
  jwtAccess: need<JwtAccess>({ label: 'an access token restprobe can get (client credentials, or the code flow)', keys: ['auth.oauth', 'auth.oauth.clientSecret', 'auth.oauth.login', 'auth.jwt'], resolve: resolveJwtAccess }),
  /** A key the API accepts tokens signed with (`auth.jwt.testSigningKey`). */
  jwtSigningKey: need<SigningKey>({ label: 'a test signing key', keys: ['auth.jwt.testSigningKey'], resolve: resolveSigningKey }),
} as const;
