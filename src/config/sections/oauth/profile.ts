/** The `auth.oauth` and `auth.jwt` sections as the profile holds them. */
import type { Secret } from '../../../model/secret.js';

/** How restprobe gets an authorization code without a person: a form it fills, or the team's own command. */
export type OAuthLogin =
  | {
      readonly kind: 'form';
      /** Field values, secrets resolved. */
      readonly fields: Readonly<Record<string, string>>;
      /** Fields whose variable is unset (`name (VARIABLE)`): the code-flow checks skip naming auth.oauth.login. */
      readonly unset: readonly string[];
      /** Approve a consent page after the login (its one form, by its first submit button). */
      readonly consent?: true;
    }
  | { readonly kind: 'command'; /** Program and arguments; the authorization URL is appended. */ readonly argv: readonly string[]; readonly timeoutMs: number };

/** The OAuth 2.0 authorization server (`auth.oauth`). */
export interface OAuthProfile {
  /** The issuer whose RFC 8414 metadata gives the endpoints; absent when every endpoint is explicit. */
  readonly issuer?: string;
  readonly authorizationEndpoint?: string;
  readonly tokenEndpoint?: string;
  readonly jwksUrl?: string;
  /** Not a secret: it is sent in URLs, and reports may show it. '' when its variable is unset. */
  readonly clientId: string;
  /** The variable the client id is read from, when it is read from one. */
  readonly clientIdEnv?: string;
  /** Absent: a public client (no secret; the code flow only). `value` '' when its variable is unset: every OAuth check skips. */
  readonly clientSecret?: Secret;
  /** `none`: a public client, its client_id alone. Absent: none without a secret, else chosen from the metadata, Basic first. */
  readonly clientAuth?: 'client_secret_basic' | 'client_secret_post' | 'none';
  readonly scopes: readonly string[];
  /** Sent with every authorization request and client-credentials grant (`audience`, `resource`). */
  readonly parameters: Readonly<Record<string, string>>;
  readonly redirectUri?: string;
  readonly login?: OAuthLogin;
}

/** How the API's JWT access tokens are judged (`auth.jwt`). */
export interface JwtProfile {
  readonly issuer?: string;
  readonly audience?: string;
  readonly jwksUrl?: string;
  readonly algorithms: readonly string[];
  /** `value` '' when its variable is unset: the checks that sign tokens skip. */
  readonly testSigningKey?: Secret;
  /** Case-insensitive patterns for claim names and string claim values that are personal data. */
  readonly personalData: { readonly claims: readonly string[]; readonly values: readonly string[] };
}
