/** The `rateLimit` section as the profile holds it. */
import type { Secret } from '../../../model/secret.js';

/** The `rateLimit` section (conventions §8.1–8.3), its defaults applied. */
export interface RateLimitProfile {
  /** What the limit is keyed by: each API key, each user, each client address, or each route (every client sharing it). */
  readonly keyedBy: 'apiKey' | 'user' | 'ip' | 'route';
  /** The header the two credentials below go in. */
  readonly keyHeader: string;
  /** What bursts are sent with; absent: the run's own key. Its `value` is '' when its variable is unset. */
  readonly credential?: Secret;
  /** A second client, for the per-client check; `value` '' when its variable is unset. */
  readonly otherCredential?: Secret;
  /** The limit the team declares, requests per window. */
  readonly limit?: number;
  /** What the limiter serves at once with a whole quota, where more than the limit (a token bucket's capacity). */
  readonly burst?: number;
  readonly windowMs?: number;
  /** The most requests one rate-limit check sends. */
  readonly budget: number;
  /** What bursts GET, relative to the base URL. */
  readonly path: string;
}

/** Whether each credential (an API key's, a user's) has a quota of its own: no other client spends it. */
export const perCredential = (keyedBy: RateLimitProfile['keyedBy']): boolean => keyedBy === 'apiKey' || keyedBy === 'user';
