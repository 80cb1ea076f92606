/**
 * The `auth` section as an {@link AuthProfile}: its credentials with their secrets resolved
 * (a login body's `{ "env": NAME }` members too), and `auth.oauth` / `auth.jwt` through the
 * `oauth` section's loader.
 */
import type { TargetProfile } from '../../../model/profile.js';
// The run's own API credential, when auth.oauth issues it, is requested by the check kit's OAuth helpers.
import { ApiToken, apiTokenCredential } from '../../../oauth/api-token.js';
import { RestprobeError } from '../../../errors.js';
import type { RawConfig, SecretRef } from '../../raw-config.js';
import type { SecretResolver } from '../../secrets.js';
import { invalid, jwtProfile, oauthProfile, refuseLiteralSecrets } from '../oauth/load.js';
import type { JwtProfile, OAuthProfile } from '../oauth/profile.js';
import type { ApiKeyAuth, AuthProfile } from './profile.js';

/** What `auth` holds where the config says nothing. */
export const authDefaults = {
  apiKeyHeader: 'X-API-Key',
  mintSecretField: 'key',
  queryParams: [] as readonly string[],
} as const;

/**
 * The API's access token from `auth.oauth` (`auth.apiKey.fromOAuth`): its client must be
 * confidential (client credentials), and its id and secret set, since every check sends it.
 */
function oauthApiKey(raw: NonNullable<RawConfig['auth']>, oauth: OAuthProfile | undefined, jwt: JwtProfile | undefined, header: string | undefined, secrets: SecretResolver, profile: () => TargetProfile): ApiKeyAuth {
  if (oauth === undefined || jwt === undefined || raw.oauth === undefined) throw invalid('auth.apiKey.fromOAuth', 'needs auth.oauth, whose client gets the token with client credentials');
  if (raw.oauth.clientSecret === undefined) throw invalid('auth.apiKey.fromOAuth', 'needs auth.oauth.clientSecret: client credentials are for a confidential client');
  if (oauth.clientId === '') throw new RestprobeError('ERR_ENV_MISSING', `auth.oauth.clientId: environment variable ${oauth.clientIdEnv} is not set (auth.apiKey.fromOAuth gets the API's token with it)`, [`auth.oauth.clientId: environment variable ${oauth.clientIdEnv} is not set`]);
  // Required here, where the run's own credential depends on it: an unset variable is reported with the others.
  const clientSecret = secrets.resolve('auth.oauth.clientSecret', raw.oauth.clientSecret);
  const token = new ApiToken({ oauth: { ...oauth, clientSecret }, jwt }, profile);
  return apiTokenCredential(token, header ?? 'Authorization');
}

/** The credentials the config gives, secrets resolved (a login body's `{ "env": NAME }` members too). */
export function authProfile(raw: NonNullable<RawConfig['auth']>, secrets: SecretResolver, configPath: string | undefined, profile: () => TargetProfile): AuthProfile {
  const key = (where: string, k: { readonly header?: string; readonly scheme?: string; readonly value: SecretRef }): ApiKeyAuth => ({ header: k.header ?? authDefaults.apiKeyHeader, ...(k.scheme !== undefined && { scheme: k.scheme }), value: secrets.resolve(where, k.value) });
  const { apiKey, limited, session, mint } = raw;
  refuseLiteralSecrets(session?.login.body ?? {}, 'auth.session.login.body');
  const oauth = raw.oauth && oauthProfile(raw.oauth, secrets, configPath);
  // Tokens from an authorization server are judged with the defaults when auth.jwt is absent.
  const jwt = (raw.jwt ?? raw.oauth) && jwtProfile(raw.jwt ?? {}, secrets);
  return {
    ...(apiKey && { apiKey: 'fromOAuth' in apiKey ? { ...oauthApiKey(raw, oauth, jwt, apiKey.header, secrets, profile), ...(apiKey.scheme !== undefined && { scheme: apiKey.scheme }) } : key('auth.apiKey.value', apiKey) }),
    // Optional: unset, the scope check skips naming it, and the rest of the run goes on.
    ...(limited && { limited: { header: limited.header ?? authDefaults.apiKeyHeader, ...(limited.scheme !== undefined && { scheme: limited.scheme }), value: secrets.resolveOptional(limited.value), scopes: limited.scopes ?? [] } }),
    ...(session && {
      session: {
        loginPath: session.login.path,
        loginBody: Object.fromEntries(Object.entries(session.login.body ?? {}).map(([k, v]) => [k, isSecretRef(v) ? secrets.resolve(`auth.session.login.body.${k}`, v).value : v])),
        logoutPath: session.logout.path,
        ...(session.cookie !== undefined && { cookie: session.cookie }),
      },
    }),
    ...(mint && { mint: { path: mint.path, body: mint.body ?? {}, secretField: mint.secretField ?? authDefaults.mintSecretField } }),
    queryParams: raw.queryParams ?? authDefaults.queryParams,
    ...(oauth && { oauth }),
    ...(jwt && { jwt }),
  };
}

const isSecretRef = (v: unknown): v is SecretRef => typeof v === 'object' && v !== null && Object.keys(v).length === 1 && typeof (v as { env?: unknown }).env === 'string';
