/**
 * Waits for the rate-limit checks: what a limited answer says the wait is, and waiting it
 * out before a check ends, so the next one finds the client's budget back. Every wait comes
 * from what the target said, never a fixed sleep.
 */
import type { CheckContext, HttpResponse } from '../model/context.js';
import type { ProbeClient, RateLimitProbe } from '../model/needs.js';
import { answeredAt, dateGrainMs, pauseFor, politeDefaults, retryAfterMs, retryAfterOf } from '../http/polite.js';

/** The polite client's first back-off, for checks that wait as it would. */
export const firstBackoffMs = politeDefaults.baseDelayMs;
import { answerOf, burstUntil, lastProbeEndedAt, lastSentPerClient, requireLimited, sendAs, type Burst, type BurstOptions, type Sent } from './rate-limit-burst.js';
import { lowestQuota, readRateLimitFields } from './rate-limit-fields.js';

/** Network and timer slack a timing judgement allows, either way. */
export const slackMs = 250;

/**
 * Added to every wait: a timer may fire a millisecond early, and a server's clock may
 * count whole milliseconds, so a request sent exactly when the wait ends can be early.
 */
const clockGrainMs = 2;

/** A wait an answer states, from its arrival. */
export interface StatedWait {
  readonly ms: number;
  /** What said it: `Retry-After: 1`, `retry-after-ms: 20`. */
  readonly said: string;
  /** How much sooner an honest target may serve again: its resolution, and the clocks' grain where it was read against a clock. */
  readonly quantumMs: number;
  /** How much later an honest target may still be limiting: the clocks' grain an HTTP-date was read against (0 for a count of seconds or milliseconds). */
  readonly graceMs: number;
}

/** Millisecond fields some APIs send beside Retry-After (Azure: retry-after-ms, x-ms-retry-after-ms). */
const millisecondFields = ['retry-after-ms', 'x-ms-retry-after-ms'];

/** Retry-After alone (delta-seconds, or an HTTP-date read against the answer's Date, else its arrival time); undefined when absent or malformed. */
export function retryAfterWait(sent: Sent): StatedWait | undefined {
  const value = sent.res.headers['retry-after'];
  if (value === undefined) return undefined;
  // Delta-seconds count from the arrival; only an HTTP-date is read against the answer's Date.
  const dated = !/^\s*\d+\s*$/.test(value);
  const clock = dated ? answeredAt(sent.res.headers, sent.wall) : sent.wall;
  const ms = retryAfterMs(value, clock);
  if (ms === undefined) return undefined;
  const said = `Retry-After: ${value}`;
  if (!dated) return { ms, said, quantumMs: 1000, graceMs: 0 };
  // Against the server's Date (whole seconds, like the date) the wait is known to two seconds;
  // against restprobe's clock, to the skew answeredAt leaves unread (up to dateGrainMs) either way.
  return clock === sent.wall ? { ms, said, quantumMs: 1000 + dateGrainMs, graceMs: dateGrainMs } : { ms, said, quantumMs: 2000, graceMs: 1000 };
}

/** An answer's Retry-After in milliseconds from now, read as the polite client reads it (a 503 shedding load); undefined when absent or malformed. */
export function retryAfterFromNow(res: HttpResponse): number | undefined {
  return retryAfterOf(res.headers);
}

/** The most precise wait an answer states: a millisecond field when it sends one, else Retry-After. */
export function statedWait(sent: Sent): StatedWait | undefined {
  for (const name of millisecondFields) {
    const value = sent.res.headers[name];
    if (value !== undefined && /^\d+$/.test(value)) return { ms: Number(value), said: `${name}: ${value}`, quantumMs: 1, graceMs: 0 };
  }
  return retryAfterWait(sent);
}

/** Resolves `afterMs` after `since` (the monotonic clock; at once when that has passed), returning how long it waited; the check's signal ends the wait. */
export async function sleepAfter(ctx: CheckContext, since: number, afterMs: number): Promise<number> {
  const left = since + afterMs + clockGrainMs - performance.now();
  if (left > 0) await pauseFor(left, ctx.signal);
  return left;
}

/** One request as `client` (to another node's `baseUrl` when given), `afterMs` after `since` arrived (at once when that has passed). */
export async function probeAfter(ctx: CheckContext, probe: RateLimitProbe, since: Sent, afterMs: number, client: ProbeClient = probe.client, baseUrl?: string): Promise<Sent> {
  await sleepAfter(ctx, since.at, afterMs);
  return sendAs(ctx, probe, client, baseUrl);
}

/**
 * A burst to the limiter's first refusal. When the target sheds the client (503) before it
 * says 429 (an earlier check's refusals may count against the same window), the 503 is
 * waited out once and the burst sent again, so the refusal judged is the limiter's own.
 */
export async function burstToLimit(ctx: CheckContext, probe: RateLimitProbe, options: Omit<BurstOptions, 'until'> = {}): Promise<Burst> {
  const burst = await burstUntil(ctx, probe, options);
  const shed = burst.stop;
  const stated = shed?.res.status === 503 ? statedWait(shed) : undefined;
  if (shed === undefined || stated === undefined || stated.ms > ctx.profile.http.maxRetryWaitMs) return burst;
  ctx.note(`shed (503) after ${burst.served} served requests, before any 429 (${stated.said}): waited it out and sent the burst again`);
  await sleepAfter(ctx, shed.at, stated.ms);
  return burstUntil(ctx, probe, options);
}

/**
 * {@link burstToLimit} with the default options, sent once for the run: the checks that judge
 * only the burst and its first refusal (that it came, its Retry-After, its body) share it,
 * each with the answers in its own evidence. The first to ask sends it (and gives the quota
 * back, as every rate-limit check does); the others send nothing, so they wait for nothing.
 */
export function sharedBurstToLimit(ctx: CheckContext, probe: RateLimitProbe): Promise<Burst> {
  return ctx.sharedAnswers(`a burst to the first refusal as ${probe.client.label}`, (sender) => burstToLimit(sender, probe), (burst, take) => {
    const sent = burst.sent.map((s) => ({ ...s, res: take(s.res) }));
    const stop = burst.stop && sent[burst.sent.indexOf(burst.stop)];
    return { ...burst, sent, ...(stop && { stop }) };
  });
}

/** How long after `since` a later answer came, in whole milliseconds. */
export const elapsed = (since: Sent, later: Sent): number => Math.round(later.at - since.at);

/**
 * Waits out what a limited answer stated, then sends one request to see `client` served
 * again; while it is still limited, backs off as §7.3 says (doubling from 200 ms: five tries
 * when nothing was stated, three past a stated wait that proved short). The outcome is a
 * note, never a verdict: a target that lied about the wait is the truthful check's finding,
 * and a wait past `http.maxRetryWaitMs` is not waited.
 */
export async function waitOut(ctx: CheckContext, probe: RateLimitProbe, limited: Sent, client: ProbeClient = probe.client, baseUrl?: string): Promise<void> {
  const stated = statedWait(limited);
  const what = `the ${limited.res.status} to ${client.label}${baseUrl === undefined ? '' : ` at ${baseUrl}`}`;
  if (stated !== undefined && stated.ms > ctx.profile.http.maxRetryWaitMs) {
    ctx.note(`${what} said ${stated.said}, longer than http.maxRetryWaitMs (${ctx.profile.http.maxRetryWaitMs} ms): not waited out`);
    return;
  }
  const said = stated === undefined ? 'which stated no wait' : stated.said;
  const served = (s: Sent): boolean => answerOf(s.res, client) === 'served';
  let waited = stated?.ms ?? 0;
  let again = stated === undefined ? undefined : await probeAfter(ctx, probe, limited, waited, client, baseUrl);
  for (let delay = politeDefaults.baseDelayMs, tries = stated === undefined ? 5 : 3; tries > 0 && waited + delay <= ctx.profile.http.maxRetryWaitMs && (again === undefined || !served(again)); delay *= 2, tries--) {
    waited += delay;
    again = await probeAfter(ctx, probe, limited, waited, client, baseUrl);
  }
  const longer = stated !== undefined && waited > stated.ms ? ', after backing off: longer than it said' : stated === undefined ? `, backing off from ${politeDefaults.baseDelayMs} ms` : '';
  if (again !== undefined && served(again)) ctx.note(`served again ${elapsed(limited, again)} ms after ${what} (${said})${longer}`);
  else ctx.note(`still limited ${waited} ms after ${what} (${said}): the next check may start limited`);
}

/**
 * The window a spent quota comes back within: the declared one (`rateLimit.window`), else
 * the one the target advertises for its lowest quota (RateLimit-Policy's `w`).
 */
export function quotaWindowMs(probe: RateLimitProbe, answers: readonly Sent[]): number | undefined {
  if (probe.windowMs !== undefined) return probe.windowMs;
  const window = answers.map((s) => lowestQuota(readRateLimitFields(s.res))?.window).find((w) => w !== undefined);
  return window === undefined ? undefined : window * 1000;
}

/**
 * The most a counter of `quota` per `windowMs`, shared by every client or node, can serve in
 * `ms` after it was seen empty: what it gives back in that time, and one more for a refill
 * that came just as it was seen. Served beyond this, a counter of its own did the serving.
 *
 * @example
 * ```ts
 * sharedRefills(5, 250, 120); // 3: two tokens back at 50 ms each, and one at the edge
 * ```
 */
export function sharedRefills(quota: number, windowMs: number, ms: number): number {
  return Math.floor((quota * Math.max(0, ms)) / windowMs) + 1;
}

/**
 * Gives back what a check spent: every refusal it left a client with at any node waited
 * out (the stated wait, then one request served) where that client was served before, then,
 * unless every client it sent as has a quota of its own, a whole window after its last
 * request at each, so a token bucket is full and a fixed window new again. A quota of its
 * own need not be whole again: the next rate-limit check bursts to the limit from wherever
 * it stands, and no other check spends it.
 */
async function giveQuotaBack(ctx: CheckContext, probe: RateLimitProbe): Promise<void> {
  // A client refused before anything was served (a 401, a 500 to every request) met no limiter: nothing to wait out but the window.
  for (const { sent, client, baseUrl, servedAny } of lastSentPerClient(ctx)) if (sent.res.status >= 400 && servedAny) await waitOut(ctx, probe, sent, client, baseUrl);
  const last = lastSentPerClient(ctx);
  if (last.length === 0) return;
  if (last.every((l) => l.client.ownQuota)) return ctx.note(`${[...new Set(last.map((l) => l.client.label))].join(' and ')}: a quota of its own, which no other check spends: no longer limited, and not waited on until whole`);
  const spent = last.map((l) => l.sent);
  const windowMs = windowToWait(ctx, quotaWindowMs(probe, spent), {
    unknown: 'no window is declared (rateLimit.window) or advertised (RateLimit-Policy w): only the stated waits were waited out',
    tooLong: 'not waited',
    then: 'so the next check may find less than the whole quota',
  });
  if (windowMs === undefined) return;
  for (const sent of spent) await sleepAfter(ctx, sent.at, windowMs);
  ctx.note(`waited a whole window (${windowMs} ms) after the last request${spent.length > 1 ? ' at each node' : ''}, so the next check finds the whole quota`);
}

/**
 * Waits until a whole window (declared, `rateLimit.window`) has passed since the run's last
 * probe request, before a check that needs every quota whole: one that tells a fresh quota at
 * another node from a shared one. The checks before it leave a quota of its own only no
 * longer limited (giveQuotaBack), so a node's counter of its own could start short and pass
 * for a shared one; only probe requests spend such a quota, so the time since the last of them
 * counts towards the window (a whole window when none was sent in this run: another process
 * may have). Nothing to wait for when every earlier check gave its quota back whole (a quota
 * it shares with the run).
 */
export async function wholeQuotaFirst(ctx: CheckContext, probe: RateLimitProbe): Promise<void> {
  if (!probe.client.ownQuota) return;
  const windowMs = windowToWait(ctx, probe.windowMs, {
    unknown: 'no window is declared (rateLimit.window): the check starts without waiting for every quota to be whole',
    tooLong: 'not waited for every quota to be whole',
    then: 'and an earlier check may have left some short',
  });
  if (windowMs === undefined) return;
  const last = await lastProbeEndedAt(ctx);
  const left = await sleepAfter(ctx, last ?? performance.now(), windowMs);
  ctx.note(
    last === undefined
      ? `waited a whole window (${windowMs} ms) first, so every node's quota is whole`
      : left > 0
        ? `waited ${Math.round(left)} ms, until a whole window (${windowMs} ms) had passed since the run's last probe request, so every node's quota is whole`
        : `a whole window (${windowMs} ms) had passed since the run's last probe request: every node's quota is whole`,
  );
}

/**
 * The window to wait, when it is known and within `http.maxRetryWaitMs`; otherwise undefined,
 * with a note saying why nothing is waited (`unknown` or `tooLong`) and what follows (`then`).
 */
function windowToWait(ctx: CheckContext, windowMs: number | undefined, why: { readonly unknown: string; readonly tooLong: string; readonly then: string }): number | undefined {
  const most = ctx.profile.http.maxRetryWaitMs;
  if (windowMs === undefined) ctx.note(`${why.unknown}, ${why.then}`);
  else if (windowMs > most) ctx.note(`the window of ${windowMs} ms is longer than http.maxRetryWaitMs (${most} ms): ${why.tooLong}, ${why.then}`);
  else return windowMs;
  return undefined;
}

/**
 * Runs a rate-limit check's probe, then, whatever its verdict (a pass, a failure, a skip),
 * gives back the quota it spent (giveQuotaBack), so the next check starts with the quota
 * this one found. When the probe threw and the wait fails too (the check's deadline), the
 * probe's verdict stands and the wait is a note.
 */
export async function leavingQuotaAsFound(ctx: CheckContext, probe: RateLimitProbe, body: () => Promise<void>): Promise<void> {
  let verdict: { readonly thrown: unknown } | undefined;
  try {
    await body();
  } catch (err) {
    verdict = { thrown: err };
  }
  if (!ctx.signal.aborted) {
    try {
      await giveQuotaBack(ctx, probe);
    } catch (err) {
      if (verdict === undefined) throw err;
      ctx.note(`the wait after the verdict was cut short: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (verdict !== undefined) throw verdict.thrown;
}

/** Hands the shared burst's first 429 to `judge`, which throws on a violation; the quota is left as found. */
export async function judgeRefusal(ctx: CheckContext, probe: RateLimitProbe, judge: (limited: Sent) => void): Promise<void> {
  await leavingQuotaAsFound(ctx, probe, async () => judge(requireLimited(await sharedBurstToLimit(ctx, probe), probe)));
}
