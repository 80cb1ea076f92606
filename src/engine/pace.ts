/**
 * The run's pace: `http.maxRequestsPerSecond` when the config sets it; else, when the
 * config's `rateLimit` declares the quota the run's own key is held to (its bursts are sent
 * with the run's key, or the limit is per client address), nine tenths of that quota, so the
 * run stays under it from the start instead of meeting 429s and waiting them out.
 */
import type { TargetProfile } from '../model/profile.js';
import { perCredential } from '../config/sections/rate-limit/profile.js';

export interface Pace {
  readonly perSecond: number;
  /** Where it comes from: the config's own pace, or the quota `rateLimit` declares. */
  readonly from: 'http.maxRequestsPerSecond' | 'rateLimit';
}

/** Of the declared quota, what the run takes: a margin for clocks and windows that do not line up. */
const shareOfQuota = 0.9;

/**
 * @example
 * ```ts
 * runPace(profile); // { perSecond: 9, from: 'rateLimit' } for "rateLimit": { "limit": 100, "window": "10s" } on the run's key
 * ```
 */
export function runPace(profile: TargetProfile): Pace | undefined {
  if (profile.http.maxRequestsPerSecond !== undefined) return { perSecond: profile.http.maxRequestsPerSecond, from: 'http.maxRequestsPerSecond' };
  const quota = profile.rateLimit;
  if (quota?.limit === undefined || quota.windowMs === undefined) return undefined;
  // A key of its own for the bursts (rateLimit.credential) says nothing of the run's own key's quota.
  if (perCredential(quota.keyedBy) && quota.credential !== undefined) return undefined;
  return { perSecond: (shareOfQuota * quota.limit * 1000) / quota.windowMs, from: 'rateLimit' };
}

/** Requests a check instance sends, on the reference server's full run (2 021 for 210): for an estimate only. */
export const requestsPerCheckEstimate = 10;

/**
 * The line `restprobe run` prints before a paced run: the pace, where it comes from, and
 * about how long the run takes at it.
 *
 * @example
 * ```ts
 * paceLine({ perSecond: 9, from: 'rateLimit' }, 210); // "paced at 9 requests/s (9/10 of rateLimit's quota …): about 2,100 requests, so about 3 min 53 s"
 * ```
 */
export function paceLine(pace: Pace, instances: number): string {
  const requests = instances * requestsPerCheckEstimate;
  const seconds = Math.round(requests / pace.perSecond);
  const why = pace.from === 'rateLimit' ? "9/10 of rateLimit's quota for the run's key; http.maxRequestsPerSecond sets another" : 'http.maxRequestsPerSecond';
  const duration = seconds >= 60 ? `${Math.floor(seconds / 60)} min ${seconds % 60} s` : `${seconds} s`;
  return `paced at ${Number(pace.perSecond.toFixed(2))} requests/s (${why}): about ${requests.toLocaleString('en-US')} requests, so about ${duration}`;
}
