/** Test helpers for the rate limiter: requests with a probe key, and bursts until a status. */
import type { Exchange, Harness } from './client.js';

/** A quota that comes back fast, for tests that wait for it: a token every 20 ms. */
export const shortProbeQuota = { limit: 5, windowMs: 100 } as const;

/** A quota that does not come back during a test, however slow the machine: a token every 2 s. */
export const slowProbeQuota = { limit: 5, windowMs: 10_000 } as const;

export interface ProbeOptions {
  /** Which probe key: 1 (RESTPROBE_LIMIT_KEY, the default) or 2. */
  readonly key?: 1 | 2;
  readonly node?: number;
}

/** GET /v2/projects with a probe key instead of the primary one. */
export function probe(h: Harness, options: ProbeOptions = {}): Promise<Exchange> {
  const key = options.key === 2 ? h.server.secrets.RESTPROBE_LIMIT_KEY_2 : h.server.secrets.RESTPROBE_LIMIT_KEY;
  return h.call('GET', '/v2/projects', { auth: false, headers: { 'x-api-key': key }, ...(options.node !== undefined && { node: options.node }) });
}

/** Probes one at a time until one answers `status` (at most `max`); that answer, or undefined. */
export async function probeUntil(h: Harness, status: number, options: ProbeOptions = {}, max = 50): Promise<Exchange | undefined> {
  for (let i = 0; i < max; i++) {
    const res = await probe(h, options);
    if (res.status === status) return res;
  }
  return undefined;
}

/**
 * Probes in waves of `wave` at once until one answers `status` (at most `max` requests): the
 * first such answer in send order, or undefined. A short quota refills a token every few
 * milliseconds, faster than one request at a time goes on a loaded machine; a wave empties it.
 */
export async function burstUntil(h: Harness, status: number, options: ProbeOptions = {}, wave = 10, max = 50): Promise<Exchange | undefined> {
  for (let sent = 0; sent < max; sent += wave) {
    const answers = await Promise.all(Array.from({ length: Math.min(wave, max - sent) }, () => probe(h, options)));
    const hit = answers.find((res) => res.status === status);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
