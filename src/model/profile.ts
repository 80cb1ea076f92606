/**
 * The resolved target profile: the config file after schema validation, with every
 * `{ "env": NAME }` secret replaced by a {@link Secret} that knows its value and its
 * variable's name. Checks read only this; they never see the raw config file.
 */
import type { Scheme } from './signature-scheme.js';

/** A secret resolved from the environment. `envName` is what curl commands print. */
export interface Secret {
  readonly envName: string;
  readonly value: string;
}

export interface ApiKeyAuth {
  /** Header that carries the key: `X-API-Key` or `Authorization` (sent as `Bearer <key>`). */
  readonly header: string;
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

/** A method a collection may support. */
export type CollectionMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface CollectionProfile {
  /** A short name used in messages (`projects`). */
  readonly name: string;
  /** Path of the collection relative to the base URL (`/v2/projects`). */
  readonly path: string;
  /** Path template of one item; `{id}` is replaced. Default: `<path>/{id}`. */
  readonly itemPath: string;
  /** Field of the representation that holds the id. Default `id`. */
  readonly idField: string;
  /** Body of a POST that creates a valid item. Without it, write checks skip. */
  readonly createBody?: Record<string, unknown>;
  /** Full body for a PUT that replaces the item; fields of createBody missing here must reset. */
  readonly replaceBody?: Record<string, unknown>;
  /** Partial body for a PATCH; fields not named here must be kept. */
  readonly patchBody?: Record<string, unknown>;
  /** A well-formed JSON body that fails validation (422). Default: derived from createBody. */
  readonly invalidBody?: Record<string, unknown>;
  /** Fields the server may change on its own (timestamps, revisions); ignored in comparisons. */
  readonly volatileFields: readonly string[];
  /** How a fresh id for PUT-creates-missing is made: `uuid` (default) or `none` to skip. */
  readonly newId: 'uuid' | 'none';
  /** What ids look like; absent: strings. */
  readonly idType?: 'string' | 'integer';
  /** The methods the collection's paths support; restprobe sends no other write. Absent: all five. */
  readonly methods?: readonly CollectionMethod[];
  readonly pagination: PaginationProfile;
  /** Fields the collection filters on. */
  readonly filters: readonly string[];
  /** Fields `sort` accepts. */
  readonly sorts: readonly string[];
  /** A string field the harness may set to mark the items it creates. */
  readonly markField?: string;
  /**
   * Whether what the collection answers depends on who asks (a user's own data): such
   * responses must not be stored by shared caches. Undefined when the config does not say.
   */
  readonly personalised?: boolean;
  /** Media types the collection's writes do not consume (`application/xml`): 415 is owed for each. */
  readonly notConsumed?: readonly string[];
  /** `_links` members of an item that are state-dependent actions (see {@link ChildProfile.actions}); the loader always fills it. */
  readonly actions?: readonly string[];
  /** Sub-collections listed under one item of this collection (`/projects/{id}/tasks`); the loader always fills it. */
  readonly children?: readonly ChildProfile[];
}

/**
 * A sub-collection (conventions §2): listed under its owner, each item also addressed at
 * the top level.
 */
export interface ChildProfile {
  readonly name: string;
  /** The nested listing; `{id}` is the owner's id (`/v2/projects/{id}/tasks`). */
  readonly path: string;
  /** One item at the top level; `{id}` is the child's id (`/v2/tasks/{id}`). */
  readonly itemPath: string;
  readonly idField: string;
  /** Body of a POST to the nested listing that creates a valid child. */
  readonly createBody: Record<string, unknown>;
  /** `_links` members that are state-dependent actions: linked while open, taken with POST, then no longer linked. */
  readonly actions: readonly string[];
}

export interface SecretEndpoint {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  readonly path: string;
  readonly body?: Record<string, unknown>;
}

export interface PaginationProfile {
  /** `cursor` (`next_cursor`), `offset` (`limit` + `offset`) or `page` (a page number + a page size). */
  readonly style: 'cursor' | 'offset' | 'page';
  /** Query parameter that takes `next_cursor` (cursor style). */
  readonly param: string;
  /** Query parameter for the page size (`limit`; `per_page` is common with page numbers). */
  readonly limitParam: string;
  readonly offsetParam: string;
  /** Query parameter for the page number (page style). */
  readonly pageParam: string;
  /** The number of the first page (page style): 1 or 0. */
  readonly firstPage: number;
  readonly sortParam: string;
  /** Set when a separate parameter gives the direction (`sort=name&order=desc`); absent: a `-` prefix on the field means descending. */
  readonly orderParam?: string;
  /** The declared maximum page size; absent: none declared. */
  readonly maxLimit?: number;
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

/** How restprobe subscribes to the target's webhooks, triggers events and judges deliveries. */
export interface WebhooksProfile {
  readonly subscribePath: string;
  /** The subscribing POST's body; "{url}" strings become the URL to deliver to. */
  readonly subscribeBody: Record<string, unknown>;
  readonly secretField: string;
  /** The signing secret from the config, when the target does not return one. */
  readonly secret?: Secret;
  /** The collection whose writes trigger events; default the first that can. */
  readonly collection?: string;
  readonly actions: readonly ('create' | 'update' | 'delete')[];
  /** A named scheme, or the config's own (`webhooks.signature`). */
  readonly scheme: Scheme;
  readonly publicUrl?: string;
  readonly toleranceSeconds: number;
  readonly deliveryWithinMs: number;
  readonly slowAnswerMs: number;
  readonly quietMs: number;
}

export interface TargetProfile {
  readonly baseUrl: string;
  readonly auth: AuthProfile;
  /** The target's plain-HTTP URL, which must redirect to HTTPS and serve no data. */
  readonly plainHttpUrl?: string;
  readonly collections: readonly CollectionProfile[];
  /** Other base URLs of the same deployment, for cross-node checks. */
  readonly nodes: readonly string[];
  /** Requests whose responses hold a secret. */
  readonly secretEndpoints: readonly SecretEndpoint[];
  readonly http: {
    /** Per-request timeout, milliseconds. */
    readonly timeoutMs: number;
    /** Response-body cap, bytes. */
    readonly maxBodyBytes: number;
    /** Requests in flight at once across checks. */
    readonly concurrency: number;
    /** Send every request through this HTTP proxy (`--proxy`). */
    readonly proxy?: string;
    /** Extra trusted CA certificates, PEM (`--ca`, `http.ca`). */
    readonly ca?: string;
    /** The run's pace across all checks; undefined: none. */
    readonly maxRequestsPerSecond?: number;
    /** The longest single wait before a retry; a 429 stating a longer one stops the run. */
    readonly maxRetryWaitMs: number;
    /** Requests in a row the target leaves unanswered (timed out, refused, broken off) that stop the run; default {@link profileDefaults}. */
    readonly maxConsecutiveFailures?: number;
  };
  readonly safety: {
    /** Never send a request that writes (POST, PUT, PATCH, DELETE). */
    readonly readOnly: boolean;
    /** Hard cap on requests in one run. */
    readonly maxRequests: number;
    /** Send the probes that can hurt a target (oversized and deeply nested bodies). */
    readonly destructive: boolean;
  };
  /** fast-check settings for property checks. */
  readonly properties: { readonly numRuns: number };
  /** How the API names its version (§9); absent: the VER- checks skip, naming `version`. */
  readonly version?: VersionProfile;
  /** How the target's rate limiter may be probed; absent: it is not (the LIM- rate-limit checks skip). */
  readonly rateLimit?: RateLimitProfile;
  /** How the target's webhooks are subscribed to; absent: the EVT- checks skip. */
  readonly webhooks?: WebhooksProfile;
  /** Every secret value in the profile, for scrubbing reports and logs. */
  readonly secrets: readonly Secret[];
}

/** The `version` section (conventions §9), versions as bare numbers (`v2` → `2`). */
export interface VersionProfile {
  readonly scheme: 'url' | 'header' | 'query';
  readonly current: string;
  readonly deprecated: readonly string[];
  readonly removed: readonly string[];
  /** The header scheme's header: `Accept` (a vendor media type) or one of its own (`X-API-Version`). */
  readonly header: string;
  /** The vendor of `application/vnd.<vendor>+json; version=<n>`, for the header scheme in Accept. */
  readonly vendor?: string;
  readonly queryParam: string;
  /** Fields renamed in transition, by collection name. */
  readonly renames: readonly { readonly collection: string; readonly from: string; readonly to: string }[];
}

/** The `rateLimit` section (conventions §8.1–8.3), its defaults applied. */
export interface RateLimitProfile {
  /** What the limit is keyed by: each API key, or each client address. */
  readonly keyedBy: 'apiKey' | 'ip';
  /** The header the two credentials below go in. */
  readonly keyHeader: string;
  /** What bursts are sent with; absent: the run's own key. Its `value` is '' when its variable is unset. */
  readonly credential?: Secret;
  /** A second client, for the per-client check; `value` '' when its variable is unset. */
  readonly otherCredential?: Secret;
  /** The limit the team declares, requests per window. */
  readonly limit?: number;
  readonly windowMs?: number;
  /** The most requests one rate-limit check sends. */
  readonly budget: number;
  /** What bursts GET, relative to the base URL. */
  readonly path: string;
}

export const profileDefaults = {
  timeoutMs: 10_000,
  maxBodyBytes: 5 * 1024 * 1024,
  concurrency: 4,
  maxRequests: 20_000,
  numRuns: 25,
  maxRetryWaitMs: 60_000,
  maxConsecutiveFailures: 10,
  destructive: true,
  rateLimitBudget: 50,
} as const;
