/**
 * What the rate-limit checks need: a limiter the config lets restprobe probe, a client to
 * burst as, and for the per-client check a second client.
 */
import { need } from '../../../model/need.js';
import type { TargetProfile } from '../../../model/profile.js';
import type { Secret } from '../../../model/secret.js';
import { Unmet } from '../../../model/unmet.js';
import { keyHeaders } from '../../../model/key-headers.js';
import { perCredential, type RateLimitProfile } from './profile.js';

/** Who a burst's requests come from. */
export interface ProbeClient {
  /** For messages: `$RESTPROBE_LIMIT_KEY`, or "the run's own key ($API_KEY)". */
  readonly label: string;
  /** Send the run's own credentials (RequestSpec.auth). */
  readonly auth: boolean;
  /** Headers that present this client instead. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Whether its quota is its own: a credential of its own, counted by key, which no other
   * request of the run spends. What a burst leaves spent of it hinders no other check.
   */
  readonly ownQuota: boolean;
}

/** A rate limiter restprobe may probe, and how. */
export interface RateLimitProbe {
  readonly client: ProbeClient;
  /** What bursts GET, relative to the base URL. */
  readonly path: string;
  /** The most requests one check sends. */
  readonly budget: number;
  /** The declared limit, burst and window, when the config gives them. */
  readonly limit?: number;
  readonly burst?: number;
  readonly windowMs?: number;
}

/**
 * A client presented by `secret` in the configured key header, with auth.apiKey's scheme
 * when it is that key's header (`Authorization: Token <key>` for Django REST framework).
 */
function keyClient(p: TargetProfile, rl: RateLimitProfile, secret: Secret): ProbeClient {
  const apiKey = p.auth.apiKey;
  const scheme = apiKey !== undefined && apiKey.header.toLowerCase() === rl.keyHeader.toLowerCase() ? apiKey.scheme : undefined;
  return { label: `$${secret.envName}`, auth: false, headers: keyHeaders(rl.keyHeader, secret.value, scheme), ownQuota: perCredential(rl.keyedBy) };
}

const notConfigured = (): Unmet => new Unmet('rate-limit probing is not configured: restprobe sends bursts only where the config has a rateLimit section', 'rateLimit');

export function resolveRateLimit(p: TargetProfile): RateLimitProbe | Unmet {
  const rl = p.rateLimit;
  if (rl === undefined) return notConfigured();
  if (rl.credential?.value === '') return new Unmet(`environment variable ${rl.credential.envName} (rateLimit.credential) is not set`, 'rateLimit.credential');
  let client: ProbeClient;
  if (rl.credential !== undefined) client = keyClient(p, rl, rl.credential);
  else if (p.auth.apiKey !== undefined) client = { label: `the run's own key ($${p.auth.apiKey.value.envName})`, auth: true, headers: {}, ownQuota: false };
  else if (rl.keyedBy === 'ip') client = { label: 'this address, without credentials', auth: true, headers: {}, ownQuota: false };
  else return new Unmet('the limit is keyed by API key, and no credential is configured to burst with', 'rateLimit.credential');
  if (rl.limit !== undefined && rl.budget <= rl.limit) {
    return new Unmet(`a burst of rateLimit.budget = ${rl.budget} requests cannot exceed the declared limit of ${rl.limit}`, 'rateLimit.budget');
  }
  return { client, path: rl.path, budget: rl.budget, ...(rl.limit !== undefined && { limit: rl.limit }), ...(rl.burst !== undefined && { burst: rl.burst }), ...(rl.windowMs !== undefined && { windowMs: rl.windowMs }) };
}

export function resolveOtherClient(p: TargetProfile): ProbeClient | Unmet {
  const rl = p.rateLimit;
  if (rl === undefined) return notConfigured();
  if (rl.keyedBy === 'ip') return new Unmet('the limit is keyed by client address, and restprobe sends from one address: there is no second client', 'rateLimit.keyedBy');
  if (rl.keyedBy === 'route') return new Unmet('the limit is keyed by route: every client of the route shares one counter (§8.1), so no client has a quota of its own to compare', 'rateLimit.keyedBy');
  if (rl.otherCredential === undefined) return new Unmet('no second credential to tell clients apart', 'rateLimit.otherCredential');
  if (rl.otherCredential.value === '') return new Unmet(`environment variable ${rl.otherCredential.envName} (rateLimit.otherCredential) is not set`, 'rateLimit.otherCredential');
  return keyClient(p, rl, rl.otherCredential);
}

/** The needs the rateLimit section meets. */
export const rateLimitNeeds = {
  /** A rate limiter the config lets restprobe probe (`rateLimit`), a client to burst as, and a budget that can pass the declared limit. */
  rateLimit: need<RateLimitProbe>({ label: 'a rate limiter to probe', keys: ['rateLimit', 'rateLimit.credential', 'rateLimit.budget', 'rateLimit.limit'], resolve: resolveRateLimit }),
  /** A second client of the rate limiter. */
  otherClient: need<ProbeClient>({ label: 'a second client of the rate limiter', keys: ['rateLimit.otherCredential', 'rateLimit.keyedBy'], resolve: resolveOtherClient }),
} as const;
