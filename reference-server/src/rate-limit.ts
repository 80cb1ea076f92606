/**
 * An optional rate limiter (`serve --rate-limit 20/10s`): a fixed window of requests per
 * client, keyed by the presented API key (the remote address when there is none), with one
 * counter store shared by every node, since per-node counters multiply the limit by the
 * node count (conventions §8.2). An excess request gets 429 problem+json and
 * `Retry-After` in seconds until the window ends (§8.1, §7).
 */
import type { IncomingHttpHeaders } from 'node:http';

export interface RateLimit {
  /** Requests each client may send per window. */
  readonly limit: number;
  readonly windowMs: number;
}

/** `20/10s`, `600/1m`, `50/500ms` → a {@link RateLimit}; undefined when the text is not one. */
export function parseRateLimit(text: string): RateLimit | undefined {
  const m = /^(\d+)\/(\d+)(ms|s|m)$/.exec(text.trim());
  if (!m) return undefined;
  const limit = Number(m[1]);
  const windowMs = Number(m[2]) * (m[3] === 'ms' ? 1 : m[3] === 's' ? 1000 : 60_000);
  return limit >= 1 && windowMs >= 1 ? { limit, windowMs } : undefined;
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(readonly config: RateLimit) {}

  /** Counts a request; returns the seconds to wait when it is over the limit, else undefined. */
  take(headers: IncomingHttpHeaders, remote: string | undefined, now = Date.now()): number | undefined {
    const key = clientKey(headers, remote);
    let window = this.windows.get(key);
    if (window === undefined || now - window.start >= this.config.windowMs) {
      window = { start: now - ((now - (window?.start ?? now)) % this.config.windowMs), count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    if (window.count <= this.config.limit) return undefined;
    return Math.max(1, Math.ceil((window.start + this.config.windowMs - now) / 1000));
  }
}

/** Who a request counts against: its API key, else its address. */
function clientKey(headers: IncomingHttpHeaders, remote: string | undefined): string {
  const key = headers['x-api-key'] ?? headers.authorization;
  return typeof key === 'string' && key.length > 0 ? `key:${key}` : `ip:${remote ?? 'unknown'}`;
}
