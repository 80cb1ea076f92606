/**
 * What receiver-mode checks are written with: deliveries made as the scheme's real senders
 * make them (receiver-deliveries.ts), sent through the check's session (so they are
 * recorded, redacted and reproducible by curl), timed, and the receiver's processed count
 * read until it settles.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { RestprobeError } from '../errors.js';
import { CheckFailure } from '../model/check.js';
import type { CheckContext, HttpResponse } from '../model/context.js';
import type { ReceiverTarget } from '../model/receiver-need.js';
import { companionHeaders, probeEvent, signatureHeaders, withSignature, type ProbeEvent } from '../webhooks/receiver-deliveries.js';

// What the receiver checks build deliveries with: the scheme's companion headers and whether it carries a timestamp.
export { companionHeaders };
export { hasTimestamp } from '../webhooks/signing.js';
import { signatureHeader } from '../webhooks/signing.js';

/** A delivery's answer and how long it took. */
export interface Delivered {
  readonly res: HttpResponse;
  readonly ms: number;
}

export const is2xx = (d: Delivered): boolean => d.res.status >= 200 && d.res.status < 300;
export const is4xx = (d: Delivered): boolean => d.res.status >= 400 && d.res.status < 500;

/**
 * Fails with `accepted … (status): why` unless the receiver refused the delivery with a 4xx. A refusal
 * counts only where the receiver acknowledges a valid delivery ({@link validAcknowledged}):
 * one that refuses everything (a Python receiver that verifies `json.dumps` of the parsed
 * body) refuses a bad one for no reason the check is about.
 */
export async function expectDeliveryRefused(ctx: CheckContext, receiver: ReceiverTarget, sent: Delivered, accepted: string, why?: string): Promise<void> {
  if (!is4xx(sent)) throw new CheckFailure(`accepted ${accepted} (${sent.res.status})${why === undefined ? '' : `: ${why}`}`, 'a 4xx', String(sent.res.status), sent.res.exchangeIndex);
  await validAcknowledged(ctx, receiver, sent);
}

/**
 * Ends the check not judged unless a valid delivery, signed as the sender signs one and sent
 * once for the run's refusal checks, got a 2xx: then a refusal of `refused` is the receiver
 * telling a bad delivery from a good one. EVT-receiver-valid-2xx judges the valid one.
 */
export async function validAcknowledged(ctx: CheckContext, receiver: ReceiverTarget, refused: Delivered): Promise<void> {
  const valid = await ctx.sharedAnswers(
    `a valid delivery to ${receiver.url}`,
    (sender) => {
      const e = newEvent(receiver);
      return deliver(sender, receiver, 'a valid delivery, to tell a refusal from refusing everything', signedHeaders(receiver, e), e.body);
    },
    (d, take) => ({ ...d, res: take(d.res) }),
  );
  if (is2xx(valid)) return;
  throw new RestprobeError('ERR_BLOCKED', `not judged: the receiver answered ${refused.res.status} here, and ${valid.res.status} to a valid delivery too, so its refusal tells nothing of what this delivery got wrong (EVT-receiver-valid-2xx judges the valid one)`, [], { exchange: valid.res.exchangeIndex, rootCause: 'EVT-receiver-valid-2xx failed' });
}

/** Now, in the seconds signature timestamps count. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** A fresh event in the receiver's scheme. */
export const newEvent = (receiver: ReceiverTarget): ProbeEvent => probeEvent(receiver.scheme, receiver.url, receiver.stripeApiVersion);

/**
 * The delivery's headers as the scheme's senders make them, signed over `body` with `secret`
 * (default: the receiver's own secret, the event's own bytes, now).
 *
 * @example
 * ```ts
 * const e = newEvent(receiver);
 * await deliver(ctx, receiver, 'a valid delivery', signedHeaders(receiver, e), e.body);
 * ```
 */
export function signedHeaders(receiver: ReceiverTarget, e: ProbeEvent, ts = nowSeconds(), secret = receiver.secret.value, body = e.body): Record<string, string> {
  return { ...companionHeaders(receiver.scheme, e, ts), ...signatureHeaders(receiver.scheme, secret, e, ts, body) };
}

/** A secret other than the receiver's, in its scheme's form: what a delivery not made by the sender is signed with. */
export const otherSecret = (receiver: ReceiverTarget): string => (receiver.scheme === 'standard' ? `whsec_${randomBytes(24).toString('base64')}` : randomBytes(24).toString('hex'));

/**
 * The delivery's headers as a sender sends them while it rotates its secret: a signature made
 * with `oldSecret` listed first, then the receiver's (Standard Webhooks: space-separated in
 * webhook-signature; Stripe: another `v1=` in Stripe-Signature). Undefined for a scheme that
 * carries one signature (github).
 */
export function rotationHeaders(receiver: ReceiverTarget, e: ProbeEvent, oldSecret: string): Record<string, string> | undefined {
  if (receiver.scheme === 'github') return undefined;
  const ts = nowSeconds();
  const name = signatureHeader[receiver.scheme];
  const current = signedHeaders(receiver, e, ts);
  const old = signedHeaders(receiver, e, ts, oldSecret)[name]!;
  // Stripe's `t=…,v1=…`: one timestamp, the signatures after it.
  const both = receiver.scheme === 'standard' ? `${old} ${current[name]!}` : `${old},${current[name]!.split(',').slice(1).join(',')}`;
  return { ...current, ...withSignature(receiver.scheme, both) };
}

/**
 * Per receiver (the one need object every receiver check is given): whether it has answered
 * any delivery, and how many deliveries in a row it left unanswered until the timeout.
 */
const silence = new WeakMap<ReceiverTarget, { answered: boolean; unanswered: number }>();

/** Two deliveries in a row with no answer, and none ever answered: the receiver is silent (a cold start gets its second chance). */
const silentAfter = 2;

/**
 * POSTs one delivery to the receiver (the team's `--header`s last) and notes what it was.
 * Once the receiver has left two deliveries in a row unanswered until the request timeout, and
 * answered none, the checks after them are not judged (ERR_TIMEOUT) without sending: each
 * delivery would wait the whole timeout again (a silent receiver took 70 s for seven errors).
 */
export async function deliver(ctx: CheckContext, receiver: ReceiverTarget, what: string, headers: Record<string, string>, body: Buffer): Promise<Delivered> {
  const state = silence.get(receiver) ?? { answered: false, unanswered: 0 };
  silence.set(receiver, state);
  const rootCause = `the receiver answered no delivery: ${silentAfter} in a row got no complete response within the request timeout`;
  if (!state.answered && state.unanswered >= silentAfter) throw new RestprobeError('ERR_TIMEOUT', `${what}: not sent, since ${rootCause}`, [], { rootCause });
  const t0 = performance.now();
  const res = await ctx.http.send({ method: 'POST', url: receiver.url, headers: { ...headers, ...receiver.headers }, body, auth: false }).catch((err: unknown) => {
    if (err instanceof RestprobeError && err.code === 'ERR_TIMEOUT' && !state.answered && ++state.unanswered >= silentAfter) throw new RestprobeError(err.code, err.message, [], { cause: err, ...(err.exchange !== undefined && { exchange: err.exchange }), rootCause });
    throw err;
  });
  state.answered = true;
  const ms = Math.round(performance.now() - t0);
  ctx.note(`${what}: POST ${receiver.url} → ${res.status} in ${ms} ms`);
  return { res, ms };
}

/**
 * How often the receiver says it processed event `id` (`count` in the JSON the processed
 * URL answers), read until `settleMs` has passed or the count reaches `enough` (default 2:
 * nothing can undo a second processing); undefined when it answers no numeric count.
 * `waited` is how long it read.
 */
export async function settledCount(ctx: CheckContext, receiver: ReceiverTarget & { readonly processedUrl: string }, id: string, settleMs = receiver.settleMs, enough = 2): Promise<{ readonly count: number | undefined; readonly res: HttpResponse; readonly waited: number }> {
  const url = receiver.processedUrl.replace('{id}', encodeURIComponent(id));
  const started = performance.now();
  for (let reads = 1; ; reads++) {
    const res = await ctx.http.send({ method: 'GET', url, auth: false });
    const value = (res.json as Record<string, unknown> | undefined)?.['count'];
    const count = typeof value === 'number' ? value : undefined;
    const waited = performance.now() - started;
    if ((count ?? 0) >= enough || waited >= settleMs) {
      ctx.note(`GET ${url} → ${res.status}: count ${count ?? 'not given'} (read ${reads} times over ${Math.round(waited)} ms, ${settleMs === receiver.settleMs ? '' : `${Math.round(settleMs)} ms watched, `}--settle-ms ${receiver.settleMs})`);
      return { count, res, waited };
    }
    await sleep(Math.min(100, settleMs - waited), undefined, { signal: ctx.signal });
  }
}
