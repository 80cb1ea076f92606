/** The credentials of the `auth` section as the profile holds them (OAuth and JWT: the `oauth` section). */
import type { Secret } from '../../../model/secret.js';
import type { JwtProfile, OAuthProfile } from '../oauth/profile.js';

export interface ApiKeyAuth {
  /** Header that carries the key: `X-API-Key` or `Authorization` (sent as `<scheme> <key>`). */
  readonly header: string;
  /** The auth scheme before the key (`Bearer`, `Token`); absent: `Bearer` in Authorization, none elsewhere; '' none. */
  readonly scheme?: string;
  /** The key; for an issued credential, the value last issued ('' before the first). */
  readonly value: Secret;
  /** Set when restprobe gets the credential itself and renews it (`auth.apiKey.fromOAuth`: an access token). */
  readonly issued?: IssuedCredential;
}

/** A credential restprobe gets itself, renewed before it expires (the API's access token from `auth.oauth`). */
export interface IssuedCredential {
  /** The value, requested or renewed first when it is about to expire; rejects with a RestprobeError when it cannot be got. */
  fresh(): Promise<string>;
}

/** A credential that authenticates but lacks the write scope of the configured collections (`read:*` only). */
export interface LimitedAuth extends ApiKeyAuth {
  /** The scopes it carries, for messages. */
  readonly scopes: readonly string[];
}

/** A login that answers with a session cookie, and the logout that ends it. */
export interface SessionAuth {
  readonly loginPath: string;
  /** The login's JSON body, secrets resolved. */
  readonly loginBody: Record<string, unknown>;
  readonly logoutPath: string;
  /** The name of the cookie that holds the session; absent: the one whose loss ends it. */
  readonly cookie?: string;
}

/** Minting an API key: the response holds the key once; DELETE on its Location revokes it. */
export interface MintAuth {
  readonly path: string;
  readonly body: Record<string, unknown>;
  /** The response member that holds the key. */
  readonly secretField: string;
}

export interface AuthProfile {
  readonly apiKey?: ApiKeyAuth;
  readonly limited?: LimitedAuth;
  readonly session?: SessionAuth;
  readonly mint?: MintAuth;
  /** Query parameter names to try a key in (none may be accepted), beside the common ones. */
  readonly queryParams: readonly string[];
  readonly oauth?: OAuthProfile;
  readonly jwt?: JwtProfile;
}
