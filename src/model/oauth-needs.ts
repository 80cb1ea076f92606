/** How the OAuth and JWT needs are met (see needs.ts): what `auth.oauth` and `auth.jwt` must say. */
import type { JwtProfile, OAuthLogin, OAuthProfile, Secret, TargetProfile } from './profile.js';
import { Unmet } from './needs.js';

/** The authorization server's client, with its secret. */
export interface OAuthClient {
  readonly oauth: OAuthProfile & { readonly clientSecret: Secret };
  readonly jwt: JwtProfile;
}

/** The client, and what the authorization code flow needs besides. */
export interface CodeFlowClient extends OAuthClient {
  readonly oauth: OAuthClient['oauth'] & { readonly login: OAuthLogin; readonly redirectUri: string };
}

/** A client whose tokens are judged as JWTs. */
export type JwtAccess = OAuthClient;

/** The test signing key, and the JWT settings it signs under. */
export interface SigningKey {
  readonly key: Secret;
  readonly jwt: JwtProfile;
}

export function resolveOAuthClient(p: TargetProfile): OAuthClient | Unmet {
  const oauth = p.auth.oauth;
  if (oauth === undefined) return new Unmet('no OAuth authorization server configured', 'auth.oauth');
  if (oauth.clientId === '') return new Unmet(`environment variable ${oauth.clientIdEnv} (auth.oauth.clientId) is not set`, 'auth.oauth');
  const secret = oauth.clientSecret;
  if (secret === undefined) return new Unmet('no client secret configured', 'auth.oauth.clientSecret');
  if (secret.value === '') return new Unmet(`environment variable ${secret.envName} (auth.oauth.clientSecret) is not set`, 'auth.oauth.clientSecret');
  // Every token request is a POST: a read-only run sends none.
  if (p.safety.readOnly) return new Unmet('read-only run: token requests are POSTs', 'safety.readOnly');
  return { oauth: { ...oauth, clientSecret: secret }, jwt: p.auth.jwt! };
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

export const resolveJwtAccess = resolveOAuthClient;

export function resolveSigningKey(p: TargetProfile): SigningKey | Unmet {
  const key = p.auth.jwt?.testSigningKey;
  if (key === undefined) return new Unmet('no test signing key configured', 'auth.jwt.testSigningKey');
  if (key.value === '') return new Unmet(`environment variable ${key.envName} (auth.jwt.testSigningKey) is not set`, 'auth.jwt.testSigningKey');
  return { key, jwt: p.auth.jwt! };
}
