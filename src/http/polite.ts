/**
 * The polite client: every check's request follows the conventions' own client retry
 * rules (§7.3), and the run paces itself as a whole. A rate-limited answer is waited out,
 * never judged: when the retries run out the request fails as ERR_RATE_LIMITED, an error
 * of the run, not the target's verdict.
 *
 * - 429, and 503 with Retry-After: retried after at least Retry-After (delta-seconds or an
 *   HTTP-date), up to `maxWaitMs`; a 429 pauses the whole run, not one check, and a 429
 *   stating a longer wait stops the run (`stopRun`), since every request would be told so.
 * - 502, 503, 504 and timeouts: retried with capped exponential backoff and full jitter,
 *   for idempotent methods only (a POST that timed out may have been applied).
 * - Nothing else is retried (other 4xx, 500, 501), and no request is ever edited.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { RestprobeError } from '../errors.js';
import type { RawRequest, RawResponse } from './client.js';
import type { Guard, Send } from './guards.js';
import { quotaSpent } from './quota-spent.js';

export interface PoliteOptions {
  /** The run's pace; undefined: as fast as the pool goes. */
  readonly maxRequestsPerSecond?: number;
  /** The longest single wait; a Retry-After longer than this ends the request (ERR_RATE_LIMITED). */
  readonly maxWaitMs: number;
  /** Attempts in all for a rate-limited request (429). */
  readonly rateLimitAttempts: number;
  /** Attempts in all for other transient failures. */
  readonly transientAttempts: number;
  /** The first backoff, doubled each retry. */
  readonly baseDelayMs: number;
  /**
   * Called when a 429 states a wait longer than `maxWaitMs`: the run cannot afford it, and
   * every later request would be told the same, so the run stops (the circuit breaker).
   * Without it, only that request ends (ERR_RATE_LIMITED).
   */
  readonly stopRun?: (why: RestprobeError) => void;
}

/** 502, 503 or 504: the target (or a gateway before it) could not answer just then, which says nothing of the request itself. */
export const isUnavailable = (status: number): boolean => status === 502 || status === 503 || status === 504;

/** Whether any of `answers` says the target was unavailable for a moment (502, 503, 504). */
export const anyUnavailable = (answers: readonly { readonly status: number }[]): boolean => answers.some((res) => isUnavailable(res.status));

export const politeDefaults: PoliteOptions = { maxWaitMs: 60_000, rateLimitAttempts: 8, transientAttempts: 3, baseDelayMs: 200 };

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
  // An HTTP-date names its weekday or month (IMF-fixdate, RFC 850, asctime).
  if (!/[A-Za-z]{3}/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** An answer's Retry-After in milliseconds from now, an HTTP-date read against the clock {@link answeredAt} picks; undefined when absent or malformed. */
export function retryAfterOf(headers: Readonly<Record<string, string | string[] | undefined>>): number | undefined {
  return retryAfterMs(headers['retry-after'], answeredAt(headers, Date.now()));
}

/** How far the answer's Date may be from restprobe's clock and still be the same clock: a Date is whole seconds. */
export const dateGrainMs = 2_000;
/** The furthest a Date is believed off restprobe's clock: beyond it (a frozen clock, 1970), the arrival time is the better guess. */
const believableSkewMs = 5 * 60_000;
/** IMF-fixdate, the only HTTP-date a sender may generate (RFC 9110 §5.6.7). */
export const imfFixdate = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * The clock an HTTP-date Retry-After is read against: `arrival` (restprobe's clock, to the
 * millisecond), unless the answer's own `Date` (an IMF-fixdate) shows the server's clock runs
 * more than two seconds, and less than five minutes, off it; then that `Date`, as the server
 * set the Retry-After date by its clock.
 * Read against restprobe's clock, a server clock 5 s ahead states a wait 5 s longer than it
 * means, and one 5 s behind a wait already over.
 *
 * @example
 * ```ts
 * answeredAt({ date: 'Wed, 21 Oct 2026 07:28:05 GMT' }, Date.parse('Wed, 21 Oct 2026 07:28:00 GMT')); // the Date's time: 5 s ahead
 * ```
 */
export function answeredAt(headers: Readonly<Record<string, string | string[] | undefined>>, arrival: number): number {
  const date = headers['date'];
  const at = typeof date === 'string' && imfFixdate.test(date.trim()) ? Date.parse(date) : Number.NaN;
  const skew = Math.abs(at - arrival);
  return Number.isNaN(at) || skew <= dateGrainMs || skew > believableSkewMs ? arrival : at;
}

/** Methods a retry cannot apply twice (RFC 9110 §9.2.2). */
const idempotent = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);

/**
 * The run's shared pace: a minimum spacing between requests, and a pause every request
 * waits out after a 429.
 */
export class Pacer {
  private nextSlot = 0;
  /** When the last paced request left: a slot is never less than a spacing after it. */
  private departed = -Infinity;
  private pausedUntil = 0;
  private waitedTotal = 0;
  private waitCount = 0;
  /** Wall-clock time some retry was waiting, overlapping waits counted once. */
  private waitingTotal = 0;
  private waitingUntil = 0;
  private readonly listeners = new Set<(wait: Wait) => void>();

  /** Time requests spent waiting (the pace, a pause, a retry's wait), for the report. */
  get waitedMs(): number {
    return this.waitedTotal;
  }

  /** The waits so far (a retry's, or a spent quota's hold): how many, and the wall-clock time the run spent in at least one. */
  get waits(): { readonly count: number; readonly wallMs: number } {
    return { count: this.waitCount, wallMs: this.waitingTotal };
  }

  /** Hears each retry's wait as it starts (a run's progress line says what it waits for). */
  onWait(listener: (wait: Wait) => void): void {
    this.listeners.add(listener);
  }

  /** Counts a retry's wait in the run's waited time; `why` says what was answered. */
  waited(ms: number, why = 'a retry'): void {
    this.waitedTotal += ms;
    this.counted(ms, why);
  }

  /**
   * A served answer said the quota is spent until its reset, `ms` from now: every request of
   * the run waits until then (counted as a wait, once however many answers say so), rather
   * than meet a 429 and wait out its Retry-After.
   */
  hold(ms: number, why: string): void {
    const until = Date.now() + ms;
    // Answers in flight together report one spent window: a second of slack tells them apart from the next.
    const counted = until > this.pausedUntil + 1000;
    this.pause(until);
    if (counted) this.counted(ms, why);
  }

  private counted(ms: number, why: string): void {
    this.waitCount++;
    const now = Date.now();
    this.waitingTotal += Math.max(0, now + ms - Math.max(now, this.waitingUntil));
    this.waitingUntil = Math.max(this.waitingUntil, now + ms);
    for (const listener of this.listeners) listener({ why, ms, count: this.waitCount });
  }

  constructor(private readonly maxRequestsPerSecond?: number) {}

  /** Resolves when the next request may leave; at once when nothing holds it. */
  wait(signal?: AbortSignal): Promise<void> | undefined {
    const now = Date.now();
    let at = Math.max(now, this.pausedUntil);
    if (this.maxRequestsPerSecond === undefined) {
      if (at <= now) return undefined;
      this.waitedTotal += at - now;
      return pauseFor(at - now, signal);
    }
    const spacing = 1000 / this.maxRequestsPerSecond;
    at = Math.max(at, this.nextSlot, this.departed + spacing);
    this.nextSlot = at + spacing;
    if (at <= now) {
      this.departed = now;
      return undefined;
    }
    this.waitedTotal += at - now;
    return this.leaveAt(at, spacing, signal);
  }

  /**
   * Waits until `at`, then for as long as the last request left less than `spacing` ago (or a
   * pause came meanwhile): a busy machine fires timers late, several at once, and the requests
   * they hold would leave together, over the pace (a fixed window would count the late ones
   * beside its own).
   */
  private async leaveAt(at: number, spacing: number, signal: AbortSignal | undefined): Promise<void> {
    await pauseFor(at - Date.now(), signal);
    const turn = () => Math.max(this.departed + spacing, this.pausedUntil) - Date.now();
    for (let gap = turn(); gap > 0; gap = turn()) {
      this.waitedTotal += gap;
      await pauseFor(gap, signal);
    }
    this.departed = Date.now();
  }

  /** After a 429: every request of the run waits until `until`. */
  pause(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
  }
}

/** A wait as it starts (a retry's, or a hold until a spent quota's reset): what the target answered, how long, and the how-many-th wait of the run it is. */
export interface Wait {
  readonly why: string;
  readonly ms: number;
  readonly count: number;
}

/** A wait the policy made, for the check's evidence. */
export type PoliteNote = (line: string) => void;

/**
 * The guard that makes a session polite: paced, retried as §7.3 says, and never handing
 * a check a 429.
 *
 * @example
 * ```ts
 * const send = guard(client.send.bind(client), [politely(pacer, politeDefaults, (line) => ctx.note(line))]);
 * ```
 */
export function politely(pacer: Pacer, options: PoliteOptions, note: PoliteNote): Guard {
  return (next) => (req) => sendPolitely(next, req, pacer, options, note);
}

async function sendPolitely(next: Send, req: RawRequest, pacer: Pacer, options: PoliteOptions, note: PoliteNote): Promise<RawResponse> {
  // Named only when a note or an error needs it: parsing a URL per request is hot-path cost.
  const what = (): string => `${req.method} ${new URL(req.url).pathname}`;
  const safeToRepeat = idempotent.has(req.method.toUpperCase());
  for (let attempt = 1; ; attempt++) {
    const held = pacer.wait(req.signal);
    if (held) await held;
    let waitMs: number;
    let reason: string;
    try {
      // Each attempt's timeout counts from when it leaves, not from before the waits.
      const res = await next(attempt === 1 && held === undefined ? req : { ...req, startedAt: performance.now() });
      // Read only where a wait may follow: the Date behind an HTTP-date is parsed for these answers alone.
      const retryAfter = res.status === 429 || res.status === 503 ? retryAfterOf(res.headers) : undefined;
      if (res.status === 429 || (res.status === 503 && retryAfter !== undefined && safeToRepeat)) {
        const asked = retryAfter ?? backoff(options, attempt);
        const shown = res.headers['retry-after'] === undefined ? 'no Retry-After' : `Retry-After: ${String(res.headers['retry-after'])}`;
        if (attempt >= options.rateLimitAttempts || asked > options.maxWaitMs) {
          if (res.status === 503) return res;
          if (asked > options.maxWaitMs && options.stopRun) {
            const why = `the target asked restprobe to wait ${Math.round(asked / 1000)} s (429 to ${what()}, ${shown}), longer than http.maxRetryWaitMs allows (${options.maxWaitMs} ms): the run stopped rather than wait it out`;
            const err = new RestprobeError('ERR_RATE_LIMITED', why, [], { rootCause: why });
            options.stopRun(err);
            throw err;
          }
          throw new RestprobeError('ERR_RATE_LIMITED', `${what()}: rate limited (429, ${shown}) after ${attempt} attempts; restprobe waits at most ${options.maxWaitMs} ms a time (http.maxRetryWaitMs)`, [], { rootCause: `the target rate-limited restprobe (429, ${shown})` });
        }
        // At least what the server asked (RFC 9110 §10.2.3), and the whole run waits with this check.
        waitMs = asked;
        if (res.status === 429) pacer.pause(Date.now() + waitMs);
        reason = `answered ${res.status} (${shown})`;
      } else if (safeToRepeat && isUnavailable(res.status) && attempt < options.transientAttempts) {
        waitMs = backoff(options, attempt);
        reason = `answered ${res.status}`;
      } else {
        // A served answer that says the quota is spent: the run holds until the reset (past http.maxRetryWaitMs, the 429 decides).
        const spent = res.status < 400 ? quotaSpent(res.headers) : undefined;
        if (spent !== undefined && spent.ms > 0 && spent.ms <= options.maxWaitMs) {
          pacer.hold(spent.ms, `${what()} answered ${res.status} with ${spent.shown}: the quota is spent`);
          note(`${what()} answered ${res.status} with ${spent.shown}: the run holds its requests ${Math.round(spent.ms)} ms, until the reset`);
        }
        return res;
      }
    } catch (err) {
      const transient = err instanceof RestprobeError && (err.code === 'ERR_TIMEOUT' || err.code === 'ERR_PROTOCOL');
      if (!transient || !safeToRepeat || attempt >= options.transientAttempts || req.signal?.aborted) throw err;
      waitMs = backoff(options, attempt);
      reason = `failed (${err.message.replace(/^[A-Z]+ \S+: /, '')})`;
    }
    note(`${what()} ${reason}; waited ${Math.round(waitMs)} ms and retried (attempt ${attempt + 1})`);
    pacer.waited(waitMs, `${what()} ${reason}`);
    await pauseFor(waitMs, req.signal);
  }
}

/** Waits `ms`; an abort ends the wait with the signal's reason (a check's deadline), as a request would. */
export async function pauseFor(ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(ms, undefined, signal ? { signal } : undefined);
  } catch (err) {
    throw signal?.reason instanceof RestprobeError ? signal.reason : new RestprobeError('ERR_TIMEOUT', 'a wait was cancelled', [], { cause: err });
  }
}

/** Full jitter over a capped doubling: a random wait in [0, min(cap, base × 2^(n−1))). */
function backoff(options: PoliteOptions, attempt: number): number {
  return Math.random() * Math.min(options.maxWaitMs, options.baseDelayMs * 2 ** (attempt - 1));
}
