/**
 * The resolved target profile: the config file after schema validation, with every
 * `{ "env": NAME }` secret replaced by a {@link Secret} that knows its value and its
 * variable's name. Checks read only this; they never see the raw config file.
 *
 * Each config section's part is declared beside its schema, loader and needs
 * (`src/config/sections/<section>/profile.ts`); this module composes them.
 */
import type { AuthProfile } from '../config/sections/auth/profile.js';
import type { CollectionProfile } from '../config/sections/collections/profile.js';
import type { RateLimitProfile } from '../config/sections/rate-limit/profile.js';
import type { HttpSettings, PropertySettings, SafetySettings } from '../config/sections/run/profile.js';
import type { SecretEndpoint } from '../config/sections/target/profile.js';
import type { VersionProfile } from '../config/sections/version/profile.js';
import type { WebhooksProfile } from '../config/sections/webhooks/profile.js';
import type { Secret } from './secret.js';

export type { Secret } from './secret.js';
export type { ApiKeyAuth, AuthProfile, IssuedCredential, LimitedAuth, MintAuth, SessionAuth } from '../config/sections/auth/profile.js';
export type { ChildProfile, CollectionMethod, CollectionProfile, PageEnvelope, PaginationProfile } from '../config/sections/collections/profile.js';
export type { JwtProfile, OAuthLogin, OAuthProfile } from '../config/sections/oauth/profile.js';
export type { RateLimitProfile } from '../config/sections/rate-limit/profile.js';
export type { HttpSettings, PropertySettings, SafetySettings } from '../config/sections/run/profile.js';
export type { SecretEndpoint } from '../config/sections/target/profile.js';
export type { VersionProfile } from '../config/sections/version/profile.js';
export type { WebhooksProfile } from '../config/sections/webhooks/profile.js';
export { runDefaults as profileDefaults } from '../config/sections/run/profile.js';

export interface TargetProfile {
  readonly baseUrl: string;
  readonly auth: AuthProfile;
  /** The target's plain-HTTP URL, which must redirect to HTTPS and serve no data. */
  readonly plainHttpUrl?: string;
  /** The API's OpenAPI document (an absolute file path or an http(s) URL): the DOC section holds every answer to it. */
  readonly openapi?: string;
  readonly collections: readonly CollectionProfile[];
  /** Other base URLs of the same deployment, for cross-node checks. */
  readonly nodes: readonly string[];
  /** Requests whose responses hold a secret. */
  readonly secretEndpoints: readonly SecretEndpoint[];
  readonly http: HttpSettings;
  readonly safety: SafetySettings;
  /** fast-check settings for property checks. */
  readonly properties: PropertySettings;
  /** How the API names its version (§9); absent: the VER- checks skip, naming `version`. */
  readonly version?: VersionProfile;
  /** How the target's rate limiter may be probed; absent: it is not (the LIM- rate-limit checks skip). */
  readonly rateLimit?: RateLimitProfile;
  /** How the target's webhooks are subscribed to; absent: the EVT- checks skip. */
  readonly webhooks?: WebhooksProfile;
  /** Every secret value in the profile, for scrubbing reports and logs. */
  readonly secrets: readonly Secret[];
}
