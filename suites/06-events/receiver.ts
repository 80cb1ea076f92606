/**
 * §6 Events, the team's receiver as the subject (receiver mode, `restprobe webhooks
 * check-receiver URL`): restprobe sends signed deliveries as the scheme's real senders make
 * them and judges the answers (conventions §6.3–6.4). They need a receiver, which only that
 * command gives, so they are a list of their own: `restprobe run` and its reports never
 * carry them, `restprobe checks` and docs/checks.md do.
 */
import { defineCheck, CheckFailure, CheckSkipped, ShouldFailure, type Check } from '../../src/model/check.js';
import type { HttpResponse } from '../../src/model/context.js';
import { companionHeaders, deliver, expectDeliveryRefused, hasTimestamp, is2xx, is4xx, newEvent, nowSeconds, otherSecret, rotationHeaders, settledCount, signedHeaders } from '../../src/check-kit/receiver.js';

export const receiverValid2xx = defineCheck({
  id: 'EVT-receiver-valid-2xx',
  title: 'A valid delivery gets a 2xx quickly',
  rule: 'A receiver MUST acknowledge a correctly signed delivery with a 2xx, quickly (within --answer-within-ms, on a second delivery when the first was slower), doing the work afterwards.',
  severity: 'must',
  needs: ['receiver'],
  async run(ctx, { receiver }) {
    const within = receiver.answerWithinMs;
    const send = async (what: string) => {
      const e = newEvent(receiver);
      const sent = await deliver(ctx, receiver, what, signedHeaders(receiver, e), e.body);
      // stripe-go and Stripe.net refuse an event of another API version than their own, as Stripe never sends one.
      const version = receiver.scheme === 'stripe' && is4xx(sent) ? ` (an event of API version ${receiver.stripeApiVersion}: a Stripe library pinned to another refuses it; --stripe-api-version names the endpoint's)` : '';
      if (!is2xx(sent)) throw new CheckFailure(`answered ${sent.res.status} to ${what}${version}`, 'a 2xx', String(sent.res.status), sent.res.exchangeIndex);
      return sent;
    };
    const first = await send('a valid delivery');
    if (first.ms <= within) return;
    // The first may pay for a connection, a cold start (a serverless function) or a loaded machine: a second one shows the receiver's pace.
    ctx.note(`the first valid delivery was answered after ${first.ms} ms, more than ${within} ms: a second one judges the pace`);
    const second = await send('a second valid delivery');
    if (second.ms > within) throw new CheckFailure(`answered after ${first.ms} ms, then ${second.ms} ms to a second delivery, more than ${within} ms`, `a 2xx within ${within} ms`, `${second.ms} ms`, second.res.exchangeIndex);
  },
});

export const receiverBadSignature4xx = defineCheck({
  id: 'EVT-receiver-bad-signature-4xx',
  title: 'A wrong signature gets a 4xx',
  rule: 'A receiver MUST refuse with a 4xx a delivery whose signature was not made with the shared secret (under the github scheme also one whose X-Hub-Signature-256 is wrong beside a right legacy SHA-1 X-Hub-Signature: the signature is HMAC-SHA256, conventions §6.3).',
  severity: 'must',
  needs: ['receiver'],
  async run(ctx, { receiver }) {
    const e = newEvent(receiver);
    const sent = await deliver(ctx, receiver, 'signed with another secret', signedHeaders(receiver, e, nowSeconds(), otherSecret(receiver)), e.body);
    await expectDeliveryRefused(ctx, receiver, sent, 'a wrong signature');
    if (receiver.scheme !== 'github') return;
    // GitHub signs twice; a receiver that checks only the legacy SHA-1 header (older github-webhook-handler) verifies no HMAC-SHA256.
    const legacy = newEvent(receiver);
    const wrong256 = signedHeaders(receiver, legacy, nowSeconds(), otherSecret(receiver))['x-hub-signature-256']!;
    const onlySha1 = await deliver(ctx, receiver, 'a wrong X-Hub-Signature-256 beside a right legacy X-Hub-Signature (sha1)', { ...signedHeaders(receiver, legacy), 'x-hub-signature-256': wrong256 }, legacy.body);
    await expectDeliveryRefused(ctx, receiver, onlySha1, 'a wrong X-Hub-Signature-256 beside a right legacy SHA-1 X-Hub-Signature: only the SHA-1 signature is checked, where the conventions ask for HMAC-SHA256');
  },
});

export const receiverRotation2xx = defineCheck({
  id: 'EVT-receiver-rotation-2xx',
  title: 'A delivery signed with an old secret and the current one gets a 2xx',
  rule: 'While a sender rotates its secret it lists a signature made with each, the old one first (Standard Webhooks: space-separated in webhook-signature; Stripe: several v1= in Stripe-Signature): a receiver MUST accept a delivery when any listed signature verifies (Standard Webhooks, verifying signatures).',
  severity: 'must',
  needs: ['receiver'],
  async run(ctx, { receiver }) {
    const e = newEvent(receiver);
    const headers = rotationHeaders(receiver, e, otherSecret(receiver));
    if (headers === undefined) throw new CheckSkipped(`the ${receiver.scheme} scheme carries one signature a delivery, so a sender cannot list two while it rotates its secret`);
    const sent = await deliver(ctx, receiver, 'signed with an old secret, then the current one', headers, e.body);
    if (!is2xx(sent)) throw new CheckFailure(`answered ${sent.res.status} to a delivery whose second signature, made with the shared secret, verifies: only the first listed signature is checked, so every delivery during a secret rotation is refused`, 'a 2xx', String(sent.res.status), sent.res.exchangeIndex);
  },
});

export const receiverReserialised4xx = defineCheck({
  id: 'EVT-receiver-reserialised-4xx',
  title: 'A body re-serialised after signing gets a 4xx',
  rule: 'A receiver MUST verify the signature over the raw bytes received, so a body whose bytes differ from those signed (the same JSON, re-serialised) gets a 4xx.',
  severity: 'must',
  needs: ['receiver'],
  async run(ctx, { receiver }) {
    const e = newEvent(receiver);
    // Signed compact, sent pretty-printed: the same JSON, other bytes.
    const pretty = Buffer.from(JSON.stringify(JSON.parse(e.body.toString('utf8')), null, 2));
    const sent = await deliver(ctx, receiver, 'signed, then re-serialised', signedHeaders(receiver, e), pretty);
    await expectDeliveryRefused(ctx, receiver, sent, 'a body whose bytes are not the ones signed', 'it verifies re-serialised JSON, not the raw bytes');
  },
});

export const receiverTimestamp4xx = defineCheck({
  id: 'EVT-receiver-timestamp-4xx',
  title: 'A stale timestamp gets a 4xx (and a future one should)',
  rule: "A receiver MUST refuse with a 4xx a delivery whose signed timestamp is older than its tolerance (a replay), and SHOULD refuse one as far in the future.",
  // The MUST part fails; the SHOULD part (a future timestamp) only warns.
  severity: 'must',
  needs: ['receiver'],
  async run(ctx, { receiver }) {
    if (!hasTimestamp(receiver.scheme)) throw new CheckSkipped(`the ${receiver.scheme} scheme carries no timestamp`);
    const offset = 10 * receiver.toleranceSeconds;
    const stale = newEvent(receiver);
    const future = newEvent(receiver);
    const old = await deliver(ctx, receiver, `timestamp ${offset} s old`, signedHeaders(receiver, stale, nowSeconds() - offset), stale.body);
    const ahead = await deliver(ctx, receiver, `timestamp ${offset} s ahead`, signedHeaders(receiver, future, nowSeconds() + offset), future.body);
    await expectDeliveryRefused(ctx, receiver, old, `a timestamp ${offset} s old`, 'a replayed event is not refused');
    // Refusing replays is the rule; a timestamp from the future is no replay, and Stripe's own library takes one.
    if (!is4xx(ahead)) throw new ShouldFailure(`accepted a timestamp ${offset} s ahead (${ahead.res.status}), though it refused one as old: a receiver should refuse a timestamp outside its tolerance either way`, 'a 4xx', String(ahead.res.status), ahead.res.exchangeIndex);
  },
});

export const receiverUnsigned4xx = defineCheck({
  id: 'EVT-receiver-unsigned-4xx',
  title: 'A delivery without signature headers gets a 4xx',
  rule: 'A receiver MUST refuse with a 4xx a delivery that carries no signature.',
  severity: 'must',
  needs: ['receiver'],
  async run(ctx, { receiver }) {
    const e = newEvent(receiver);
    const sent = await deliver(ctx, receiver, 'without signature headers', companionHeaders(receiver.scheme, e, nowSeconds()), e.body);
    await expectDeliveryRefused(ctx, receiver, sent, 'a delivery without signature headers');
  },
});

/** How many --settle-ms the first event of the duplicate check is waited on to be processed. */
const firstProcessedWithin = 4;

export const receiverDuplicate2xx = defineCheck({
  id: 'EVT-receiver-duplicate-2xx',
  title: 'The same event delivered twice gets a 2xx both times, and is processed once',
  rule: 'Delivery is at-least-once: a receiver MUST acknowledge a repeated event with a 2xx and MUST NOT process it again, knowing it by its event id (the repeat is signed anew, later, as a sender signs each retry).',
  severity: 'must',
  needs: ['receiver'],
  async run(ctx, { receiver }) {
    const e = newEvent(receiver);
    const { processedUrl } = receiver;
    const counted = processedUrl === undefined ? undefined : { ...receiver, processedUrl };
    // Signed anew, as Svix and Stripe sign each retry: a receiver that knows a repeat by its signature or timestamp, not its id, processes it again. The first a second back, so neither is from the future.
    const first = await deliver(ctx, receiver, 'an event', signedHeaders(receiver, e, nowSeconds() - 1), e.body);
    // Where the receiver tells its count, the repeat waits for the first processing, as a
    // retry comes after the work: what that took is how long a repeat queued behind other
    // work may take to show (a count of 1 read sooner could pass a second processing to come).
    // A queue ahead of it (another check's event) may hold the first back past --settle-ms: it is read for a few windows.
    const firstDone = counted !== undefined && is2xx(first) ? await settledCount(ctx, counted, e.id, firstProcessedWithin * receiver.settleMs, 1) : undefined;
    const processedInMs = firstDone?.count === 1 ? first.ms + firstDone.waited : undefined;
    const twice = [first, await deliver(ctx, receiver, 'the same event again, signed anew', signedHeaders(receiver, e, nowSeconds()), e.body)];
    const refused = twice.find((d) => !is2xx(d));
    if (refused) throw new CheckFailure(`answered ${twice.map((d) => d.res.status).join(' then ')}: a repeat (delivery is at-least-once) must be acknowledged and skipped`, 'a 2xx both times', twice.map((d) => d.res.status).join(' then '), refused.res.exchangeIndex);
    if (counted === undefined) throw new CheckSkipped('both deliveries were acknowledged, but whether the repeat was processed again was not judged: give --processed-url, where the receiver tells how often it processed an event');
    const noCount = (r: HttpResponse) => new CheckFailure('the processed URL answered no numeric count', 'JSON with a numeric count', r.text.slice(0, 80), r.exchangeIndex);
    if (firstDone !== undefined && firstDone.count === undefined && firstDone.res.status === 200) throw noCount(firstDone.res);
    if (firstDone?.count !== undefined && firstDone.count > 1) throw new CheckFailure(`processed the event ${firstDone.count} times from one delivery, before any repeat, expected once`, 'processed once', `${firstDone.count} times`, firstDone.res.exchangeIndex);
    // Without the first processing's time, a repeat's may come after any window read: not judged.
    if (processedInMs === undefined) throw new CheckSkipped(`both deliveries were acknowledged, but the processed URL did not count the first within ${firstProcessedWithin * receiver.settleMs} ms (${firstProcessedWithin} × --settle-ms), so how long the repeat's processing may take to show is not known: whether it is processed again was not judged (a longer --settle-ms waits for it)`);
    const { count, res } = await settledCount(ctx, counted, e.id, Math.max(receiver.settleMs, 2 * processedInMs));
    if (count === undefined) throw noCount(res);
    if (count !== 1) throw new CheckFailure(`acknowledged a repeat but processed the event ${count} times, expected once`, 'processed once', `${count} times`, res.exchangeIndex);
  },
});

/** The receiver-mode checks, in the order `restprobe checks` lists them. */
export const receiverCatalogue: readonly Check[] = [receiverValid2xx, receiverBadSignature4xx, receiverRotation2xx, receiverReserialised4xx, receiverTimestamp4xx, receiverUnsigned4xx, receiverDuplicate2xx];
