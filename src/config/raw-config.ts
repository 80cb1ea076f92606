/**
 * The config file as the schema admits it, before defaults and secrets are resolved.
 * Mirrors `fixtures/schema/restprobe.config.schema.json`; `schema.test.ts` keeps them
 * together by validating a config that uses every property.
 */
import type { CollectionMethod } from '../model/profile.js';

/** A secret as written in the config: the name of the variable that holds it. */
export interface SecretRef {
  readonly env: string;
}

export interface RawBody {
  readonly body: Record<string, unknown>;
}

export interface RawCollection {
  readonly name: string;
  readonly path: string;
  readonly itemPath?: string;
  readonly idField?: string;
  readonly create?: RawBody;
  readonly replace?: RawBody;
  readonly patch?: RawBody;
  readonly invalid?: RawBody;
  readonly volatileFields?: readonly string[];
  readonly newId?: 'uuid' | 'none';
  readonly idType?: 'string' | 'integer';
  readonly methods?: readonly CollectionMethod[];
  readonly pagination?: {
    readonly style?: 'cursor' | 'offset' | 'page';
    readonly param?: string;
    readonly limitParam?: string;
    readonly offsetParam?: string;
    readonly pageParam?: string;
    readonly firstPage?: 0 | 1;
    readonly sortParam?: string;
    readonly orderParam?: string;
    readonly maxLimit?: number;
  };
  readonly filters?: readonly string[];
  readonly sorts?: readonly string[];
  readonly mark?: { readonly field: string };
  readonly personalised?: boolean;
  readonly notConsumed?: readonly string[];
  readonly actions?: readonly string[];
  readonly children?: readonly RawChild[];
}

export interface RawChild {
  readonly name: string;
  readonly path: string;
  readonly itemPath: string;
  readonly idField?: string;
  readonly create: RawBody;
  readonly actions?: readonly string[];
}

export interface RawConfig {
  readonly $schema?: string;
  readonly baseUrl?: string;
  readonly auth?: {
    readonly apiKey?: { readonly header?: string; readonly value: SecretRef } | { readonly header?: string; readonly fromOAuth: true };
    readonly limited?: { readonly header?: string; readonly value: SecretRef; readonly scopes?: readonly string[] };
    readonly session?: { readonly login: { readonly path: string; readonly body?: Record<string, unknown> }; readonly logout: { readonly path: string }; readonly cookie?: string };
    readonly mint?: { readonly path: string; readonly body?: Record<string, unknown>; readonly secretField?: string };
    readonly queryParams?: readonly string[];
    readonly oauth?: RawOAuth;
    readonly jwt?: RawJwt;
  };
  readonly plainHttpUrl?: string;
  readonly collections?: readonly RawCollection[];
  readonly nodes?: readonly string[];
  readonly secretEndpoints?: readonly { readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH'; readonly path: string; readonly body?: Record<string, unknown> }[];
  readonly http?: { readonly timeoutMs?: number; readonly maxBodyBytes?: number; readonly concurrency?: number; readonly ca?: string; readonly maxRequestsPerSecond?: number; readonly maxRetryWaitMs?: number; readonly maxConsecutiveFailures?: number };
  readonly safety?: { readonly readOnly?: boolean; readonly maxRequests?: number; readonly destructive?: boolean };
  readonly properties?: { readonly numRuns?: number };
  readonly rateLimit?: RawRateLimit;
  readonly webhooks?: RawWebhooks;
  readonly version?: {
    readonly scheme: 'url' | 'header' | 'query';
    readonly current: string;
    readonly deprecated?: readonly string[];
    readonly removed?: readonly string[];
    readonly header?: string;
    readonly vendor?: string;
    readonly queryParam?: string;
    readonly renames?: readonly { readonly collection: string; readonly from: string; readonly to: string }[];
  };
}

export interface RawWebhooks {
  readonly subscribe: { readonly path: string; readonly body?: Record<string, unknown>; readonly secretField?: string };
  readonly secret?: SecretRef;
  readonly collection?: string;
  readonly actions?: readonly ('create' | 'update' | 'delete')[];
  readonly scheme?: 'standard' | 'github' | 'stripe' | 'custom';
  readonly signature?: {
    readonly header: string;
    readonly prefix?: string;
    readonly encoding?: 'hex' | 'base64';
    readonly signed?: 'body' | 'timestamp.body' | 'id.timestamp.body';
    readonly idHeader?: string;
    readonly timestampHeader?: string;
  };
  readonly publicUrl?: string;
  readonly toleranceSeconds?: number;
  readonly deliveryWithinMs?: number;
  readonly slowAnswerMs?: number;
  readonly quietMs?: number;
}

export interface RawRateLimit {
  readonly keyedBy?: 'apiKey' | 'ip';
  readonly credential?: SecretRef;
  readonly otherCredential?: SecretRef;
  readonly keyHeader?: string;
  readonly limit?: number;
  /** `500ms`, `10s`, `1m`, `1h`. */
  readonly window?: string;
  readonly budget?: number;
  readonly path?: string;
}

/** A literal value, or one read from the environment. */
export type PlainOrSecret = string | SecretRef;

export interface RawOAuth {
  readonly issuer?: string;
  readonly authorizationEndpoint?: string;
  readonly tokenEndpoint?: string;
  readonly jwksUrl?: string;
  readonly clientId: PlainOrSecret;
  readonly clientSecret?: SecretRef;
  readonly clientAuth?: 'client_secret_basic' | 'client_secret_post' | 'none';
  readonly scopes?: readonly string[];
  readonly parameters?: Readonly<Record<string, string>>;
  readonly redirectUri?: string;
  readonly login?: { readonly form: { readonly fields: Readonly<Record<string, PlainOrSecret>>; readonly consent?: boolean } } | { readonly command: string | readonly string[]; readonly timeoutMs?: number };
}

export interface RawJwt {
  readonly issuer?: string;
  readonly audience?: string;
  readonly jwksUrl?: string;
  readonly algorithms?: readonly string[];
  readonly testSigningKey?: SecretRef;
  readonly personalDataPatterns?: { readonly claims?: readonly string[]; readonly values?: readonly string[] };
}
