/**
 * The config's `rateLimit` section as a {@link RateLimitProfile}: defaults applied, the
 * window read, the two credentials resolved from the environment. An unset variable is no
 * config error here: the rate-limit checks skip, naming `rateLimit.credential`.
 */
import type { TargetProfile } from '../../../model/profile.js';
import type { RawRateLimit } from '../../raw-config.js';
import type { SecretResolver } from '../../secrets.js';
import { authDefaults } from '../auth/load.js';
import type { CollectionProfile } from '../collections/profile.js';
import type { RateLimitProfile } from './profile.js';

/** What `rateLimit` holds where the config says nothing (the key header: the run's own key's). */
export const rateLimitDefaults = {
  rateLimitKeyedBy: 'apiKey',
  rateLimitBudget: 50,
} as const;

const unitMs = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;

/** `500ms`, `10s`, `1m`, `1h` in milliseconds (the schema admits nothing else). */
export function windowMs(text: string): number {
  const m = /^(\d+)(ms|s|m|h)$/.exec(text)!;
  return Number(m[1]) * unitMs[m[2] as keyof typeof unitMs];
}

export function rateLimitProfile(raw: RawRateLimit, auth: TargetProfile['auth'], collections: readonly CollectionProfile[], secrets: SecretResolver): RateLimitProfile {
  return {
    keyedBy: raw.keyedBy ?? rateLimitDefaults.rateLimitKeyedBy,
    keyHeader: raw.keyHeader ?? auth.apiKey?.header ?? authDefaults.apiKeyHeader,
    ...(raw.credential && { credential: secrets.resolveOptional(raw.credential) }),
    ...(raw.otherCredential && { otherCredential: secrets.resolveOptional(raw.otherCredential) }),
    ...(raw.limit !== undefined && { limit: raw.limit }),
    ...(raw.burst !== undefined && { burst: raw.burst }),
    ...(raw.window !== undefined && { windowMs: windowMs(raw.window) }),
    budget: raw.budget ?? rateLimitDefaults.rateLimitBudget,
    path: raw.path ?? collections[0]?.path ?? '/',
  };
}
