/**
 * Damage containment: a health probe before the run and after each check that may hurt
 * the target (the `last` class). When the target no longer answers as it did, the run
 * says once "the target stopped working after CHECK", with both answers as evidence, and
 * blocks the checks after it instead of blaming them.
 */
import type { Damage, Health } from '../model/run-outcome.js';
import type { TargetProfile } from '../model/profile.js';
import { RestprobeError } from '../errors.js';
import type { Send } from '../http/guards.js';
import { credentialHeaders, resolveUrl, versionedUrl } from '../http/session.js';

export type { Damage, Health };

/**
 * GETs the base URL and the first collection, as preflight does.
 *
 * @example
 * ```ts
 * await probeHealth(profile, send); // ['GET / → 200', 'GET /v2/projects → 200']
 * ```
 */
export async function probeHealth(profile: TargetProfile, send: Send): Promise<Health> {
  const paths = ['/', ...(profile.collections[0] ? [profile.collections[0].path] : [])];
  const out: string[] = [];
  for (const path of paths) {
    try {
      const res = await send({ method: 'GET', url: versionedUrl(profile, resolveUrl(profile.baseUrl, path)), headers: { accept: 'application/json', ...credentialHeaders(profile) } });
      out.push(`GET ${path} → ${res.status}`);
    } catch (err) {
      // A spent budget, a rate limit or a stop says nothing of the target's health.
      const unknown = err instanceof RestprobeError && ['ERR_REQUEST_BUDGET', 'ERR_RATE_LIMITED', 'ERR_INTERRUPTED', 'ERR_HARNESS'].includes(err.code);
      out.push(`GET ${path} → ${unknown ? 'unknown' : err instanceof RestprobeError ? err.code : 'failed'}`);
    }
  }
  return out;
}

/** Whether the target answers worse than before: a status class that changed, or no answer. */
export function worse(before: Health, now: Health): boolean {
  const cls = (line: string) => (line.endsWith('→ unknown') ? 'unknown' : (/→ (\d)\d\d$/.exec(line)?.[1] ?? 'none'));
  return now.some((line, i) => before[i] !== undefined && cls(before[i]!) !== 'unknown' && cls(line) !== cls(before[i]!) && (cls(line) === '5' || cls(line) === 'none'));
}
