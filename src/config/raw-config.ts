/**
 * The config file as the schema admits it, before defaults and secrets are resolved: the
 * types generated from `fixtures/schema/restprobe.config.schema.json`
 * (`raw-config.generated.ts`), and names for the parts the loaders and `restprobe init` take.
 */
import type { RawConfig, RawSecret } from './raw-config.generated.js';

export type { RawBody, RawChild, RawCollection, RawConfig } from './raw-config.generated.js';

/** A secret as written in the config: the name of the variable that holds it. */
export type SecretRef = RawSecret;
/** A literal value, or one read from the environment. */
export type PlainOrSecret = string | SecretRef;

type RawAuth = NonNullable<RawConfig['auth']>;
export type RawOAuth = NonNullable<RawAuth['oauth']>;
export type RawJwt = NonNullable<RawAuth['jwt']>;
export type RawWebhooks = NonNullable<RawConfig['webhooks']>;
export type RawRateLimit = NonNullable<RawConfig['rateLimit']>;
