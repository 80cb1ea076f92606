/**
 * Bursts for the rate-limit checks: requests sent as one client through the check's raw
 * session (no retry policy, so every 429 is seen as it came), in waves of
 * `http.concurrency` (once no wider than what the target says is left, plus one), until the
 * limiter answers or the budget is spent.
 */
import { CheckSkipped } from '../model/check.js';
import type { CheckContext, HttpResponse } from '../model/context.js';
import type { ProbeClient, RateLimitProbe } from '../model/needs.js';
import { lowestQuota, readRateLimitFields, tightest, type QuotaPolicy } from './rate-limit-fields.js';
import { setupError } from './setup.js';

/** A response, when its request left (`left`) and when it arrived (`at`) on the monotonic clock, and `wall` for HTTP-dates. */
export interface Sent {
  readonly res: HttpResponse;
  readonly left: number;
  readonly at: number;
  readonly wall: number;
}

/**
 * How the limiter took a request: served, limited (429), shed (503), or refused with some
 * other error once requests had been served (a limiter that answers 403, a server that
 * breaks under the burst).
 */
export type Answer = 'served' | 'limited' | 'shed' | 'refused';

/**
 * The limiter's answer to a probe request. An error before anything was served (401, 404…)
 * says nothing about the limiter: a setup error naming the exchange.
 */
export function answerOf(res: HttpResponse, client: ProbeClient, servedBefore = true, check = 'rateLimit.path and rateLimit.credential'): Answer {
  if (res.status === 429) return 'limited';
  if (res.status === 503) return 'shed';
  if (res.status < 400) return 'served';
  if (servedBefore) return 'refused';
  throw setupError(res, `a probe request as ${client.label} answered ${res.status} before any was served, so bursts cannot observe the limiter (check ${check})`);
}

/** The last request a check sent as one client to one base URL. */
export interface LastSent {
  readonly sent: Sent;
  readonly client: ProbeClient;
  /** Another node's base URL; undefined for the run's base URL. */
  readonly baseUrl?: string;
  /** Whether any request the check sent as this client there was served: else the limiter was never met. */
  readonly servedAny: boolean;
}

/**
 * Per check: the last request each client sent to each base URL. What a check spent there
 * comes back once the stated wait of a refusal among them, then a whole window, has passed
 * (rate-limit-wait.ts), which a check waits before it ends, whatever its verdict.
 */
const lastSentBy = new WeakMap<CheckContext, Map<string, LastSent>>();

/** The last request `ctx`'s check sent as each client to each base URL. */
export function lastSentPerClient(ctx: CheckContext): LastSent[] {
  return [...(lastSentBy.get(ctx)?.values() ?? [])];
}

/** When any check of the run last finished a probe request, answered or not (monotonic clock): one record for the run. */
interface ProbeClock {
  last?: number;
}

/** The run's probe clock, asked of the run once per check: every request of a burst sets it. */
const clocks = new WeakMap<CheckContext, Promise<ProbeClock>>();

function probeClock(ctx: CheckContext): Promise<ProbeClock> {
  let clock = clocks.get(ctx);
  if (clock === undefined) {
    clock = ctx.runFixture('the rate-limit probes: when the last one ended', async () => ({}));
    clocks.set(ctx, clock);
    // Not kept when the run's fixtures are closed: the next ask is refused afresh.
    clock.catch(() => clocks.delete(ctx));
  }
  return clock;
}

/**
 * When the run's last probe request ended, whoever sent it, at any node and as
 * any probe client; undefined when none was sent yet. Quotas of their own are spent only by
 * these requests, so a whole window after it they are whole again.
 */
export async function lastProbeEndedAt(ctx: CheckContext): Promise<number | undefined> {
  return (await probeClock(ctx)).last;
}

/** One GET of the probe path as `client`, at `baseUrl` (another node) when given. */
export async function sendAs(ctx: CheckContext, probe: RateLimitProbe, client: ProbeClient = probe.client, baseUrl?: string): Promise<Sent> {
  const http = ctx.rawHttp();
  const target = baseUrl === undefined ? { path: probe.path } : { url: `${baseUrl.replace(/\/+$/, '')}${probe.path}` };
  const left = performance.now();
  try {
    const res = await http.send({ method: 'GET', ...target, auth: client.auth, headers: client.headers });
    const sent = { res, left, at: performance.now(), wall: Date.now() };
    const last = lastSentBy.get(ctx) ?? new Map<string, LastSent>();
    lastSentBy.set(ctx, last);
    const key = `${client.label} at ${baseUrl ?? ''}`;
    const servedAny = res.status < 400 || last.get(key)?.servedAny === true;
    last.set(key, { sent, client, servedAny, ...(baseUrl !== undefined && { baseUrl }) });
    return sent;
  } finally {
    // Answered or not (a timeout, an abort): the target may have counted it. A request a
    // check left running after the run ended has no clock left to set.
    const clock = await probeClock(ctx).catch(() => undefined);
    if (clock !== undefined) clock.last = performance.now();
  }
}

export interface Burst {
  /** Every answer, in the order the requests were sent. */
  readonly sent: readonly Sent[];
  /** The served ones before the first that `stops` the burst. */
  readonly served: number;
  /** The first answer that stopped the burst (in send order), if one did. */
  readonly stop?: Sent;
  /** When the first request left, on the monotonic clock. */
  readonly startedAt: number;
}

export interface BurstOptions {
  readonly client?: ProbeClient;
  /** Another node's base URL to send the burst to; default the run's base URL. */
  readonly baseUrl?: string;
  /** What ends the burst; default any answer but served (a 429 or 503). */
  readonly until?: (answer: Answer) => boolean;
  /** Requests in flight at once; default `http.concurrency`. */
  readonly concurrency?: number;
  /** The most requests; default the probe's budget. */
  readonly budget?: number;
}

/**
 * Sends waves of requests until one is answered as `until` says, or the budget is spent.
 *
 * @example
 * ```ts
 * const burst = await burstUntil(ctx, probe);
 * const limited = requireLimited(burst, probe); // the first 429, or a skip
 * ```
 */
export async function burstUntil(ctx: CheckContext, probe: RateLimitProbe, options: BurstOptions = {}): Promise<Burst> {
  const client = options.client ?? probe.client;
  const until = options.until ?? ((a: Answer) => a !== 'served');
  const budget = options.budget ?? probe.budget;
  const width = Math.max(1, options.concurrency ?? ctx.profile.http.concurrency);
  const sent: Sent[] = [];
  const answers: Answer[] = [];
  const startedAt = performance.now();
  let next = width;
  let narrowing = true;
  while (sent.length < budget) {
    const wave = await Promise.all(Array.from({ length: Math.min(next, budget - sent.length) }, () => sendAs(ctx, probe, client, options.baseUrl)));
    for (const s of wave) answers.push(answerOf(s.res, client, answers.includes('served')));
    sent.push(...wave);
    const allServed = answers.every((a) => a === 'served');
    // A narrowed wave served whole: the quota came back meanwhile (a bucket that refills as the
    // burst goes) or the fields understate. Whole waves from here on, or narrow waves could be
    // served one refill at a time until the budget is spent, and never meet the limit.
    if (wave.length < width && allServed) narrowing = false;
    next = narrowing && allServed ? leftAndOne(wave, width) : width;
    const stopAt = answers.findIndex(until);
    if (stopAt !== -1) return { sent, served: answers.slice(0, stopAt).filter((a) => a === 'served').length, stop: sent[stopAt]!, startedAt };
  }
  return { sent, served: answers.filter((a) => a === 'served').length, startedAt };
}

/**
 * The next wave while every answer so far was served: no wider than `width`, nor than the
 * least the wave's answers said was left (their RateLimit fields) and one, the request that
 * meets the limit; requests past it would only be refused beside it. Where that wave is served
 * whole (a refill meanwhile, fields that understate), the burst narrows no more (burstUntil):
 * it goes on in whole waves, as without the fields.
 */
function leftAndOne(wave: readonly Sent[], width: number): number {
  const left = wave.map((s) => tightest(readRateLimitFields(s.res))?.remaining).filter((r) => r !== undefined);
  return left.length === 0 ? width : Math.max(1, Math.min(width, Math.min(...left) + 1));
}

/** The quota the target advertises on the burst's first answer (its RateLimit fields), the lowest when it has several. */
export function advertised(burst: Burst): QuotaPolicy | undefined {
  const first = burst.sent[0];
  return first && lowestQuota(readRateLimitFields(first.res));
}

/** The limit a burst is judged by: the declared one, else the one the target advertises, else what the burst saw served (at least 1). */
export function quotaOf(burst: Burst, probe: RateLimitProbe): number {
  return probe.limit ?? advertised(burst)?.quota ?? Math.max(1, burst.served);
}

/** The 429 that stopped a burst; a skip when there was none (LIM-rate-limit-enforced judges that). */
export function requireLimited(burst: Burst, probe: RateLimitProbe): Sent {
  const stop = burst.stop;
  if (stop?.res.status === 429) return stop;
  if (stop !== undefined) throw new CheckSkipped(`the limiter answered ${stop.res.status}, not 429, so there is no 429 to judge (see LIM-rate-limit-enforced)`);
  throw new CheckSkipped(`${burst.sent.length} requests as ${probe.client.label} met no 429, so there is none to judge (see LIM-rate-limit-enforced)`, 'rateLimit.budget');
}

/**
 * A 429 with nothing sent after it, for judging its stated wait: a request of the same
 * wave that came later may have taken the quota that wait promised. When the burst's 429
 * was not its last request, one more is sent (up to three, until one is refused).
 */
export async function lastRefusal(ctx: CheckContext, probe: RateLimitProbe, burst: Burst): Promise<Sent> {
  const limited = requireLimited(burst, probe);
  if (burst.sent.at(-1) === limited) return limited;
  for (let tries = 0; tries < 3; tries++) {
    const again = await sendAs(ctx, probe);
    if (again.res.status === 429) return again;
  }
  return limited;
}
