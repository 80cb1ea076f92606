// Generated from fixtures/schema/restprobe.config.schema.json by `npm run config:generate`: do not edit.
// raw-config.test.ts fails when this file differs from what the schema gives.

/** What restprobe needs to know about the API under test. Secrets are never written here: they are read from environment variables ({ "env": "NAME" }). `x-messages` holds the wording restprobe uses when a keyword fails; editors ignore it. */
export interface RawConfig {
  /** Path or URL of this JSON Schema, so editors offer completion and help. */
  readonly $schema?: string;
  /** Base URL of the API under test (http:// or https://); request paths are appended to it. The base URL given on the command line wins over this one. */
  readonly baseUrl?: string;
  /** The target's plain-HTTP URL (`http://…`): it must answer 301 or 308 to HTTPS and serve no data. No credential is sent to it. */
  readonly plainHttpUrl?: string;
  /** The API's OpenAPI 3.0 or 3.1 document: a file (JSON or YAML; a relative path is read from this config file's folder) or an http(s) URL. Every answer the run receives is held to it (the DOC section). `--openapi` wins over it. */
  readonly openapi?: string;
  /** Other base URLs of the same deployment (the backends behind a load balancer), for cross-node checks. */
  readonly nodes?: readonly string[];
  /** Requests whose responses hold a secret (a minted key, a token), which no cache may store. Items they create are deleted through their Location. */
  readonly secretEndpoints?: readonly {
    /** The request method. */
    readonly method: "GET" | "POST" | "PUT" | "PATCH";
    /** Path relative to the base URL. */
    readonly path: string;
    /** A JSON body to send. */
    readonly body?: Record<string, unknown>;
  }[];
  /** Credentials restprobe sends. Without them, checks that need credentials are skipped. */
  readonly auth?: {
    /** The credential every check sends, in a request header: an API key (value), or an access token restprobe gets from auth.oauth with client credentials and renews before it expires (fromOAuth). */
    readonly apiKey?: {
      /** Header that carries the key: `X-API-Key`, or `Authorization` (sent as `<scheme> <key>`, `Bearer` unless `scheme` says otherwise). Default: X-API-Key for a value, Authorization for fromOAuth. */
      readonly header?: string;
      /** The auth scheme before the key when the header is Authorization: `Bearer` (the default), `Token` (Django REST Framework's TokenAuthentication), `ApiKey`…; an empty string sends the key alone. Default for any other header: the key alone. */
      readonly scheme?: string;
      /** The key, read from an environment variable: { "env": "NAME" }. */
      readonly value: RawSecret;
    } | {
      /** Header that carries the key: `X-API-Key`, or `Authorization` (sent as `<scheme> <key>`, `Bearer` unless `scheme` says otherwise). Default: X-API-Key for a value, Authorization for fromOAuth. */
      readonly header?: string;
      /** The auth scheme before the key when the header is Authorization: `Bearer` (the default), `Token` (Django REST Framework's TokenAuthentication), `ApiKey`…; an empty string sends the key alone. Default for any other header: the key alone. */
      readonly scheme?: string;
      /** Get the credential from auth.oauth: an access token requested with client credentials (auth.oauth needs a clientSecret) before the first request, renewed before it expires, sent as Authorization: Bearer. For an API whose keys are short-lived tokens, so a run longer than a token's life works. */
      readonly fromOAuth: true;
    };
    /** A second credential that authenticates but lacks the write scope of the configured collections (e.g. a `read:*` key): every write it sends must get 403, never 2xx and never 401. */
    readonly limited?: {
      /** Header that carries the key: `X-API-Key`, or `Authorization` (sent as `Bearer <key>`). */
      readonly header?: string;
      /** The auth scheme before the key when the header is Authorization: `Bearer` (the default), `Token` (Django REST Framework's TokenAuthentication), `ApiKey`…; an empty string sends the key alone. Default for any other header: the key alone. */
      readonly scheme?: string;
      /** The key, read from an environment variable: { "env": "NAME" }. */
      readonly value: RawSecret;
      /** The scopes it carries (`read:projects`), for messages. */
      readonly scopes?: readonly string[];
    };
    /** A login that answers with a session cookie, and the logout that ends it: the cookie must be Secure, HttpOnly and SameSite, and must get 401 after logout. */
    readonly session?: {
      /** POST path and JSON body of the login. A body member may be a secret: { "env": "NAME" }. */
      readonly login: {
        /** Path relative to the base URL. */
        readonly path: string;
        /** The login's JSON body. */
        readonly body?: Record<string, unknown>;
      };
      /** The name of the cookie that holds the session, the one AUT-cookie-attributes judges. Unset: the login's only cookie, else each whose loss ends the session (a GET of the first collection without it is refused), so a CSRF token cookie scripts must read (Django's csrftoken, Laravel's XSRF-TOKEN) is not taken for it. */
      readonly cookie?: string;
      /** The path a DELETE to ends the session. */
      readonly logout: {
        /** Path relative to the base URL. */
        readonly path: string;
      };
    };
    /** Where restprobe may mint an API key (POST), for the checks that the key is shown once and that a deleted key stops working at once. The key is deleted through the response's Location. */
    readonly mint?: {
      /** Path relative to the base URL of the POST that mints a key. */
      readonly path: string;
      /** The JSON body of the POST. */
      readonly body?: Record<string, unknown>;
      /** The response member that holds the new key. */
      readonly secretField?: string;
    };
    /** Query parameter names to try a key in, beside api_key, apikey, apiKey, api-key, key, access_token and token: none may be accepted. `init --openapi` writes the document's own name for a key in the query here. */
    readonly queryParams?: readonly string[];
    /** An OAuth 2.0 authorization server that issues the API's tokens, for the AUT- token checks and STA- refresh checks. Endpoints are discovered from the issuer's RFC 8414 metadata (/.well-known/oauth-authorization-server, else /.well-known/openid-configuration), or given explicitly. */
    readonly oauth?: {
      /** The issuer identifier; its metadata gives the endpoints. Default: the base URL's origin, when no endpoint is given explicitly. */
      readonly issuer?: string;
      /** The authorization endpoint (wins over the metadata). */
      readonly authorizationEndpoint?: string;
      /** The token endpoint (wins over the metadata). */
      readonly tokenEndpoint?: string;
      /** The JWKS URL (wins over the metadata's jwks_uri). */
      readonly jwksUrl?: string;
      /** The client id: a literal, or { "env": "NAME" } (read from the environment, not treated as a secret). */
      readonly clientId: string | RawSecret;
      /** The client secret, read from an environment variable: { "env": "NAME" }. Without it the client is public (a single-page or mobile app: PKCE, no secret): token requests send client_id alone, tokens come from the code flow, and the checks that need a confidential client (client credentials, a wrong secret refused) skip naming auth.oauth.clientSecret. Configured but unset, every OAuth check skips naming it. */
      readonly clientSecret?: RawSecret;
      /** How the client authenticates at the token endpoint: HTTP Basic (RFC 6749 §2.3.1), client_id and client_secret in the form body, or none (a public client: client_id alone, and no clientSecret). Default: none without a clientSecret, else from the metadata's token_endpoint_auth_methods_supported, Basic first. */
      readonly clientAuth?: "client_secret_basic" | "client_secret_post" | "none";
      /** The scopes to request (sent space-separated in `scope`). */
      readonly scopes?: readonly string[];
      /** Extra parameters sent with every authorization request and every client-credentials token request, for servers that want one: an Auth0 `audience`, an RFC 8707 `resource`. The OAuth parameters restprobe sets itself cannot be named here. */
      readonly parameters?: Readonly<Record<string, string>>;
      /** The client's registered redirect URI, exactly as registered; restprobe never contacts it, it reads the code from the Location that points there. */
      readonly redirectUri?: string;
      /** How restprobe gets an authorization code unattended: a test-login form it fills, or a command of yours that is given the authorization URL and prints the redirect URL it ended at. Without it, the code-flow and refresh checks skip. */
      readonly login?: {
        /** The authorization URL answers with one login form: restprobe fills in these fields beside its hidden inputs, posts it, and follows the authorization server's redirects until one points at the redirect URI. */
        readonly form: {
          /** Form fields to fill: name → value, or { "env": "NAME" } (a secret). */
          readonly fields: Readonly<Record<string, string | RawSecret>>;
          /** Set when the server asks the user to approve the client after the login: a page with one form and no password field is then its consent page, and restprobe approves it by submitting the form with its first submit button (the approving one in Keycloak's, Auth0's and node-oidc-provider's pages), up to two such pages. Default false: such a page ends the flow as a setup error. */
          readonly consent?: boolean;
        };
      } | {
        /** A command run without a shell: a string split on spaces into program and arguments, or an array. The authorization URL is its last argument and RESTPROBE_AUTHORIZATION_URL; its last non-empty line of output is the redirect URL it ended at. A relative program path is relative to the config file. */
        readonly command: string | readonly string[];
        /** How long the command may take before it is killed. */
        readonly timeoutMs?: number;
      };
    };
    /** How the API's JWT access tokens are judged and forged, for the AUT-jwt- checks. */
    readonly jwt?: {
      /** The `iss` tokens must carry. Default: the issuer in the authorization server's metadata. */
      readonly issuer?: string;
      /** The `aud` tokens must name. Default: not judged (forged tokens carry a foreign audience whatever it is). */
      readonly audience?: string;
      /** Where the public keys are published. Default: auth.oauth.jwksUrl, else the metadata's jwks_uri. */
      readonly jwksUrl?: string;
      /** The signing algorithms tokens may use. */
      readonly algorithms?: readonly ("RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512" | "ES256" | "ES384" | "ES512" | "EdDSA" | "HS256" | "HS384" | "HS512")[];
      /** A key the API accepts tokens signed with (a staging key, never production's): a private JWK as JSON (an HMAC key as an `oct` JWK) or a PKCS#8 PEM, read from an environment variable. It lets restprobe sign tokens with one claim wrong; without it, those checks skip. */
      readonly testSigningKey?: RawSecret;
      /** What counts as personal data in a token's claims: regular expressions (case-insensitive) matched against claim names and string claim values. Default: email, phone, names, passwords, addresses, birth dates. */
      readonly personalDataPatterns?: {
        /** Patterns for claim names. */
        readonly claims?: readonly string[];
        /** Patterns for string claim values. */
        readonly values?: readonly string[];
      };
    };
  };
  /** How the API names its version (conventions §9), for the VER- checks: the scheme, the current version, the deprecated ones (which must send Deprecation and Sunset) and the removed ones (404 or 410), and field renames in transition. */
  readonly version?: {
    /** `url` (`/v<n>/…` in every collection path), `header` (a media type parameter in Accept, or a header of its own) or `query` (`?v=<n>`, discouraged: VER-no-query-scheme warns; restprobe adds the current version to every request that names none). */
    readonly scheme: "url" | "header" | "query";
    /** The current major version, as a number (`2`) or as the path shows it (`v2`). */
    readonly current: string;
    /** Versions still served but deprecated: each must answer with Deprecation (an sf-date), a later Sunset and a rel="deprecation" Link. */
    readonly deprecated?: readonly string[];
    /** Versions past their sunset: each must answer 404 or 410. */
    readonly removed?: readonly string[];
    /** With the header scheme: `Accept` (the default: a vendor media type with a version parameter) or the header that carries the version (`X-API-Version`). */
    readonly header?: string;
    /** With the header scheme in Accept: the vendor of `application/vnd.<vendor>+json; version=<n>`. */
    readonly vendor?: string;
    /** The parameter that names the version: with the query scheme, on every request; under the others, the parameter VER-no-query-scheme tries, which must choose nothing. */
    readonly queryParam?: string;
    /** Fields renamed in transition: the deprecated versions return both names with equal values, the current one only the new name. */
    readonly renames?: readonly {
      /** The name of the collection (`collections[].name`) whose items carry the field. */
      readonly collection: string;
      /** The old name. */
      readonly from: string;
      /** The new name. */
      readonly to: string;
    }[];
  };
  /** Collections restprobe may read and write. Without one, checks that need a collection are skipped. */
  readonly collections?: readonly RawCollection[];
  /** How restprobe talks to the target. */
  readonly http?: {
    /** Per-request timeout in milliseconds (1 to 600000). */
    readonly timeoutMs?: number;
    /** Largest response body restprobe reads, in bytes (at least 1024); a larger body is an error. */
    readonly maxBodyBytes?: number;
    /** Requests in flight at once across checks (1 to 64). */
    readonly concurrency?: number;
    /** A PEM file of extra CA certificates to trust for an https:// target (a staging CA), relative to this config file; `--ca FILE` on the command line wins. Node's own CAs stay trusted, and certificate verification is never turned off. */
    readonly ca?: string;
    /** The run's pace: at most this many requests a second across all checks. Unset: as fast as `concurrency` allows (a 429 still slows the whole run down). */
    readonly maxRequestsPerSecond?: number;
    /** The longest restprobe waits before retrying (a Retry-After, a backoff), in milliseconds. A 429 asking for longer stops the run (every later request would be told the same): the checks not done are errors naming the stated wait, never verdicts. */
    readonly maxRetryWaitMs?: number;
    /** How many requests in a row the target may leave unanswered (timed out, connection refused, broken off mid-exchange) before the run stops: the checks not done are errors with that one root cause, instead of each timing out in turn. Any response resets the count. */
    readonly maxConsecutiveFailures?: number;
  };
  /** Limits that keep restprobe from harming the target. */
  readonly safety?: {
    /** Never send a request that writes (POST, PUT, PATCH, DELETE); write checks are skipped. `--read-only` on the command line also sets it. */
    readonly readOnly?: boolean;
    /** Hard cap on the number of requests in one run (at least 1). */
    readonly maxRequests?: number;
    /** Send the probes that can hurt a target (oversized and deeply nested bodies). `--no-destructive` on the command line sets it to false. */
    readonly destructive?: boolean;
  };
  /** Settings for property-based checks (fast-check). */
  readonly properties?: {
    /** Random cases each property check tries after its targeted ones (1 to 10000). Unset, each check tries its own few (1 to 5), chosen by what a case costs. */
    readonly numRuns?: number;
  };
  /** How restprobe may probe the target's rate limiter (conventions §8.1-8.3). The LIM- rate-limit checks run only when this is set: each sends its own bursts with nothing else in flight, without the retry policy, and waits out Retry-After before the run goes on. */
  readonly rateLimit?: {
    /** What the limit is keyed by (conventions §8.1): `apiKey` (each credential has its own quota), `user` (each user: rateLimit.otherCredential must be another user's), `ip` (each client address; restprobe is one client then) or `route` (one counter per route that every client shares: there is no second client). */
    readonly keyedBy?: "apiKey" | "user" | "ip" | "route";
    /** The credential bursts are sent with, read from an environment variable: best a key of its own, so the run's own key is never throttled. Default: auth.apiKey. When the variable is unset, the rate-limit checks skip, naming this key. */
    readonly credential?: RawSecret;
    /** A second client's credential, read from an environment variable: while the first is limited, this one must be served. */
    readonly otherCredential?: RawSecret;
    /** Header that carries the two credentials: `X-API-Key`, or `Authorization` (sent as `Bearer <key>`, or in auth.apiKey.scheme when this is auth.apiKey's header). Default: auth.apiKey.header, else X-API-Key. */
    readonly keyHeader?: string;
    /** The limit the team expects, in requests per window. A burst that meets no 429 is a failure only when it exceeded this (or the target's own RateLimit-Policy). */
    readonly limit?: number;
    /** How many requests the limiter serves at once when the client's quota is whole, where that is more than `limit`: a token bucket's capacity (AWS API Gateway's burst, nginx limit_req's burst with nodelay, Envoy's max_tokens). Default: `limit`. */
    readonly burst?: number;
    /** The window the limit counts in: `500ms`, `10s`, `1m` or `1h`. Reported beside what restprobe observed, and what a burst may be served is counted in it. Unset, with no RateLimit-Policy window either, a burst that is served more than one window allows is not judged (it could be windows of a second). */
    readonly window?: string;
    /** The most requests one rate-limit check sends (a burst and the probes after it): modest, since a staging server is shared. It must exceed `limit`. */
    readonly budget?: number;
    /** What bursts GET, relative to the base URL. Default: the first collection's path, else /. */
    readonly path?: string;
  };
  /** How restprobe subscribes to the target's webhooks and triggers events, for the EVT- checks. restprobe listens on 127.0.0.1 (a port of its own, once per run) and subscribes a URL there, or under publicUrl when a forwarder stands in front. */
  readonly webhooks?: {
    /** The POST that subscribes a URL; DELETE on its Location unsubscribes. */
    readonly subscribe: {
      /** Path relative to the base URL of the subscribing POST. */
      readonly path: string;
      /** The JSON body of the POST; every string "{url}" in it is replaced by the URL to deliver to. */
      readonly body?: Record<string, unknown>;
      /** The response member that holds the signing secret (shown once). Absent from the response: webhooks.secret gives it. */
      readonly secretField?: string;
    };
    /** The signing secret, when the target does not return one on subscribing. */
    readonly secret?: RawSecret;
    /** The collection whose writes trigger events (it needs a create body and a mark). Default: the first that can. */
    readonly collection?: string;
    /** The writes that send an event, each checked: create, update (the patch body, else the replace body), delete. */
    readonly actions?: readonly ("create" | "update" | "delete")[];
    /** How deliveries are signed: standard (Standard Webhooks), github (X-Hub-Signature-256: sha256=<hex>), stripe (Stripe-Signature: t=…,v1=…), or custom, as `signature` describes. */
    readonly scheme?: "standard" | "github" | "stripe" | "custom";
    /** With scheme custom: how the target signs. HMAC-SHA256 keyed with the secret's own bytes over `signed`, encoded, after `prefix`, in `header`. */
    readonly signature?: {
      /** The header that carries the signature (`X-Signature`). */
      readonly header: string;
      /** What precedes each signature in the header (`sha256=`, `v1=`). */
      readonly prefix?: string;
      /** How the MAC is written: hex or base64. */
      readonly encoding?: "hex" | "base64";
      /** What is signed: the body, `timestamp.body`, or `id.timestamp.body`. */
      readonly signed?: "body" | "timestamp.body" | "id.timestamp.body";
      /** The header that carries the event id. */
      readonly idHeader?: string;
      /** The header that carries the timestamp (Unix seconds). */
      readonly timestampHeader?: string;
    };
    /** A public URL that forwards to restprobe's listener (keeping the path after it), for targets that cannot reach 127.0.0.1. */
    readonly publicUrl?: string;
    /** How far a delivery's timestamp may be from now. */
    readonly toleranceSeconds?: number;
    /** How long to wait for a delivery, or for a retry after the backoff. */
    readonly deliveryWithinMs?: number;
    /** How long restprobe holds its answer to see a retry after a slow answer: longer than the target's delivery timeout. */
    readonly slowAnswerMs?: number;
    /** How long restprobe watches for deliveries after unsubscribing. */
    readonly quietMs?: number;
  };
}

/** A secret, read from an environment variable. Secrets are never written in the config file. */
export interface RawSecret {
  /** Name of the environment variable that holds the secret. */
  readonly env: string;
}

/** A JSON request body. */
export interface RawBody {
  /** The JSON object sent as the request body. */
  readonly body: Record<string, unknown>;
}

/** One collection of resources: where it lives and how to write to it. */
export interface RawCollection {
  /** A short name used in messages (`projects`). */
  readonly name: string;
  /** Path of the collection relative to the base URL (`/v2/projects`). */
  readonly path: string;
  /** Path template of one item; `{id}` is replaced by the item's id. Default: `<path>/{id}`. */
  readonly itemPath?: string;
  /** Field of the item's representation that holds its id. */
  readonly idField?: string;
  /** What the ids look like: `string` (a UUID or any text), or `integer`. Probes for an id that does not exist use one of the same kind, so an API that refuses a malformed id (400) is not taken for one that answers 404 wrongly. */
  readonly idType?: "string" | "integer";
  /** A POST that creates a valid item. Without it, write checks skip. */
  readonly create?: RawBody;
  /** A full PUT body that replaces the item; fields of the create body missing here must reset. */
  readonly replace?: RawBody;
  /** A partial PATCH body; fields not named here must be kept. */
  readonly patch?: RawBody;
  /** A well-formed JSON body that the server must reject with 422. Default: derived from the create body. */
  readonly invalid?: RawBody;
  /** Fields the server may change on its own (timestamps, revisions); ignored when representations are compared. Default: the names frameworks give such fields (updated_at, updatedAt, version, lock_version, rowVersion, concurrencyStamp, __v, _rev and the like), less any the create, replace or patch body sends; [] compares every field. */
  readonly volatileFields?: readonly string[];
  /** Fields the API takes in a create or update but never shows in an answer (a password; the FastAPI tutorial's `secret_name`, left out of its response model; OpenAPI's `writeOnly`): not expected back when an answer is compared with what was sent. */
  readonly writeOnlyFields?: readonly string[];
  /** How a fresh id for PUT-creates-missing is made: `uuid`, or `none` to skip those checks. */
  readonly newId?: "uuid" | "none";
  /** The methods the collection's paths support. restprobe sends no write the collection does not support, and creates nothing where it cannot DELETE it again (those checks skip, naming this key). Default: all five. */
  readonly methods?: readonly ("GET" | "POST" | "PUT" | "PATCH" | "DELETE")[];
  /** How the collection pages: cursor style (`data` + `next_cursor`), offset style (`limit` + `offset`) or page style (a page number + a page size, e.g. `page` + `per_page`). */
  readonly pagination?: {
    /** `cursor` (the page carries `next_cursor`), `offset` (`limit` plus `offset`) or `page` (a page number plus a page size; pages shift under inserts as offset pages do). */
    readonly style?: "cursor" | "offset" | "page";
    /** Query parameter that takes the previous page's `next_cursor` (the conventions allow `cursor` or `after`). */
    readonly param?: string;
    /** Query parameter for the page size (`per_page` or `page_size` are common with page style). */
    readonly limitParam?: string;
    /** Query parameter for the offset (offset style). */
    readonly offsetParam?: string;
    /** Query parameter for the page number (page style). */
    readonly pageParam?: string;
    /** The number of the first page (page style): 1 (the usual) or 0. */
    readonly firstPage?: 0 | 1;
    /** Query parameter for the sort key; a `-` prefix means descending unless `orderParam` is set. */
    readonly sortParam?: string;
    /** Set when the API takes the direction in a parameter of its own (`sort=name&order=desc`): its name. The values sent are `asc` and `desc`. Absent: a `-` prefix on the sort field means descending. */
    readonly orderParam?: string;
    /** The declared maximum page size. Absent: none declared; LIM-limit-capped then looks for an unbounded list (a huge limit must be refused or clamped), and LIM-default-page-bounded judges the collection as it is (a second default page of other items shows a bound), else skips. */
    readonly maxLimit?: number;
    /** Where the API's pages keep their items and next cursor, when they are not the conventions' `data` and `next_cursor` (Django REST framework's `results` and `next`, Spring's `content`). END-get-collection-200 still judges the page by the conventions; every other check reads the items and the next page through this envelope. */
    readonly envelope?: {
      /** JSON Pointer (RFC 6901) to the page's array of items (`/results`, `/content`); `""` when the body itself is the array. */
      readonly items?: string;
      /** JSON Pointer to the next page's cursor, or its URL with `nextIs: url` (cursor style); null there on the last page. */
      readonly next?: string;
      /** What `next` holds: `cursor` (sent back in `param`) or `url` (the next page's URL, absolute or relative: restprobe takes the cursor from its `param` query parameter, so it must be on the API's origin and carry that parameter). */
      readonly nextIs?: "cursor" | "url";
    };
  };
  /** Fields the collection filters on (`?status=open`). Filter checks use the values of the items restprobe creates. */
  readonly filters?: readonly string[];
  /** Fields the `sort` parameter accepts (ascending; restprobe also tries `-field`). */
  readonly sorts?: readonly string[];
  /** A string field restprobe may set to a run-unique value on the items it creates, so a walk is checked against a known set even on a shared database. Best when it is also in `filters`. */
  readonly mark?: {
    /** Name of the marker field. */
    readonly field: string;
  };
  /** Whether what this collection answers depends on who asks (one user's or one tenant's data), so no shared cache may store it (conventions §8.7). An API key names an application, not a user: say false when every caller sees the same data. Unset: restprobe does not judge `public` on this collection. */
  readonly personalised?: boolean;
  /** Media types this collection's writes do not consume, such as application/xml or application/x-www-form-urlencoded: ERR-unsupported-content-type-415 sends a POST, PUT and PATCH in each and expects 415, beside the made-up type it always sends. Many APIs also consume forms (Express, Rails, Django REST framework): list a type only when the API refuses it. */
  readonly notConsumed?: readonly string[];
  /** Names of `_links` members of this collection's items that name an action taken with POST alone and always open (not state-dependent: `actions` are those): RES-links-resolve does not GET them, since a POST-only route answers GET 404, and Fastify and Rails answer OPTIONS 404 too, so nothing shows the route is there. */
  readonly postLinks?: readonly string[];
  /** Names of `_links` members of this collection's items that are state-dependent actions (§1, §2 noun actions): each must be linked on a new item, taken with a POST to its path, and no longer linked once taken; a GET on it must change nothing. */
  readonly actions?: readonly string[];
  /** Sub-collections listed under one item of this collection (`/<collection>/<id>/<sub-collection>`), whose items are also addressed at the top level (conventions §2). */
  readonly children?: readonly RawChild[];
}

/** A sub-collection: where it is listed under its owner, where one of its items lives at the top level, and how to create one. */
export interface RawChild {
  /** A short name used in messages (`tasks`). */
  readonly name: string;
  /** The nested listing; `{id}` is replaced by the owner's id (`/v2/projects/{id}/tasks`). */
  readonly path: string;
  /** One item at the top level; `{id}` is replaced by the item's id (`/v2/tasks/{id}`). */
  readonly itemPath: string;
  /** Field of the item's representation that holds its id. */
  readonly idField?: string;
  /** A POST to the nested listing that creates a valid item. */
  readonly create: RawBody;
  /** Names of `_links` members of the sub-collection's items that name an action taken with POST alone and always open (see `collections[].postLinks`). */
  readonly postLinks?: readonly string[];
  /** Names of `_links` members that are state-dependent actions (§1, §2 noun actions): each must be linked on a new item, taken with a POST to its path, and no longer linked once taken; a GET on it must change nothing. */
  readonly actions?: readonly string[];
}
