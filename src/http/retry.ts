/**
 * The conventions' client retry rules (§7.3), as one policy: retry transient failures
 * (timeouts, a broken connection, 429, 502, 503, 504) with capped exponential backoff and
 * full jitter, waiting at least what `Retry-After` says (delta-seconds or an HTTP-date)
 * up to a cap; never retry other 4xx, 500 or 501; never edit the request.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { RestprobeError } from '../errors.js';
import type { RawRequest, RawResponse } from './client.js';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly attempts: number;
  /** The first backoff, doubled each retry. */
  readonly baseDelayMs: number;
  /** No single wait is longer, whatever `Retry-After` asks. */
  readonly maxDelayMs: number;
}

/** A wait the policy made, for the evidence. */
export interface RetryNote {
  readonly attempt: number;
  readonly reason: string;
  readonly waitMs: number;
}

const transientStatuses = new Set([429, 502, 503, 504]);
const transientCodes = new Set(['ERR_TIMEOUT', 'ERR_PROTOCOL']);

/**
 * Seconds or an HTTP-date, as milliseconds from `now`; undefined when absent or malformed
 * (RFC 9110 §10.2.3).
 *
 * @example
 * ```ts
 * retryAfterMs('3'); // 3000
 * retryAfterMs('Wed, 21 Oct 2026 07:28:00 GMT', Date.parse('Wed, 21 Oct 2026 07:27:58 GMT')); // 2000
 * ```
 */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * Sends `req` through `send`, retrying what §7.3 calls transient. Resolves with the last
 * response (a 429 that outlived every attempt included: the caller decides what it means),
 * or rejects with the last transport error.
 *
 * @example
 * ```ts
 * const res = await sendWithRetry((r) => client.send(r), req, { attempts: 3, baseDelayMs: 100, maxDelayMs: 5_000 }, (n) => notes.push(n));
 * ```
 */
export async function sendWithRetry(
  send: (req: RawRequest) => Promise<RawResponse>,
  req: RawRequest,
  policy: RetryPolicy,
  onRetry: (note: RetryNote) => void = () => {},
): Promise<RawResponse> {
  for (let attempt = 1; ; attempt++) {
    let reason: string;
    let floorMs = 0;
    try {
      const res = await send(req);
      if (!transientStatuses.has(res.status) || attempt >= policy.attempts) return res;
      reason = `answered ${res.status}`;
      floorMs = retryAfterMs(res.headers['retry-after']) ?? 0;
      // Waiting less than Retry-After asks is not allowed; waiting longer than the cap is not wanted.
      if (floorMs > policy.maxDelayMs) return res;
    } catch (err) {
      if (!(err instanceof RestprobeError) || !transientCodes.has(err.code) || attempt >= policy.attempts || req.signal?.aborted) throw err;
      reason = err.message;
    }
    const backoff = Math.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
    const waitMs = Math.round(Math.min(policy.maxDelayMs, Math.max(floorMs, backoff)));
    onRetry({ attempt, reason, waitMs });
    await sleep(waitMs, undefined, req.signal ? { signal: req.signal } : undefined);
  }
}
