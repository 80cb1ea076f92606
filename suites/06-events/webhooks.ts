/**
 * §6 Events, the target as sender: restprobe subscribes its own listener, triggers the
 * configured writes, and judges what arrives (conventions §6.1–6.5).
 */
import { defineCheck, CheckFailure, CheckSkipped } from '../../src/model/check.js';
import { ensure } from '../../src/check-kit/expect.js';
import { describe, eventType, expectDelivery, hasTimestamp, headerOf, metaOf, newEvent, SeenEvents, schemeName, sharedFirstDelivery, triggerCreate, updateOf, verify, withSubscription, writeEvent, type Delivery } from '../../src/check-kit/webhooks.js';
import type { WebhookProbe } from '../../src/model/needs.js';
import type { CheckContext } from '../../src/model/context.js';
import { hasCacheDirective } from '../../src/check-kit/http-grammar.js';

const isJsonType = (type: string | undefined): boolean => /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type ?? '');

export const secretShownOnce = defineCheck({
  id: 'EVT-secret-shown-once',
  title: 'The signing secret is shown once, and never stored by a cache',
  rule: 'The response that returns a webhook signing secret MUST carry Cache-Control: no-store, and no later read of the subscription may show the secret again.',
  severity: 'must',
  needs: ['webhooks'],
  async run(ctx, { webhooks }) {
    await withSubscription(ctx, webhooks, async ({ secret, url, response }) => {
      if (typeof (response.json as Record<string, unknown> | undefined)?.[webhooks.config.secretField] !== 'string') {
        throw new CheckSkipped(`the subscription response holds no "${webhooks.config.secretField}": the secret is not returned`, 'webhooks.subscribe');
      }
      const cc = response.headers['cache-control'] ?? '';
      if (!hasCacheDirective(cc, 'no-store')) throw new CheckFailure('the response that returns the signing secret may be stored by a cache', 'Cache-Control: no-store', cc === '' ? 'no Cache-Control' : `Cache-Control: ${cc}`, response.exchangeIndex);
      if (url === undefined) throw new CheckSkipped('the subscription has no Location to read it again');
      const again = await ctx.http.send({ method: 'GET', url });
      ensure(!(secret !== undefined && again.text.includes(secret)), `GET ${new URL(url).pathname} shows the signing secret again`, 'the secret shown once, at creation', 'the secret in a later read');
    });
  },
});

export const deliveryPostJson = defineCheck({
  id: 'EVT-delivery-post-json',
  title: 'An event arrives as a POST with a JSON body',
  rule: 'A webhook MUST be an HTTP POST to the registered URL, with a JSON body (Content-Type application/json).',
  severity: 'must',
  needs: ['webhooks'],
  async run(ctx, { webhooks }) {
    await firstDelivery(ctx, webhooks, (d, _secret, at) => {
      if (d.method !== 'POST') throw new CheckFailure(`the event was delivered with ${d.method}`, 'POST', d.method, at);
      if (!isJsonType(d.headers['content-type'])) throw new CheckFailure('the event is not labelled JSON', 'Content-Type: application/json', `Content-Type: ${d.headers['content-type'] ?? '(none)'}`, at);
      try {
        JSON.parse(d.raw.toString('utf8'));
      } catch {
        throw new CheckFailure('the event body is not JSON', 'a JSON body', `${d.raw.length} bytes that do not parse`, at);
      }
    });
  },
});

export const eventsForActions = defineCheck({
  id: 'EVT-events-for-actions',
  title: 'Every configured write sends an event',
  rule: 'Each write the target announces by webhook (webhooks.actions: create, update, delete) MUST deliver an event about the item.',
  severity: 'must',
  needs: ['webhooks'],
  async run(ctx, { webhooks }) {
    const { trigger: c, config } = webhooks;
    await withSubscription(ctx, webhooks, async ({ channel }) => {
      const trigger = await triggerCreate(ctx, webhooks);
      // A retry repeats an event's bytes, or its id and type where a sender writes it anew: a
      // new event is neither, and a write's event comes after the write. An event of the id
      // alone counts (a diff or a thin event shows no mark), though where ids are reused it may
      // be an earlier item's: only the mark would tell, and requiring it would fail such senders.
      const seen = new SeenEvents(webhooks, { sameIdIsRepeat: true });
      if (config.actions.includes('create')) await newEvent(ctx, webhooks, channel, trigger, 'the create', seen);
      else await channel.next(trigger.about, config.quietMs, ctx.signal).then((d) => d && seen.take(d));
      if (config.actions.includes('update')) {
        const update = updateOf(webhooks, trigger);
        if (update === undefined) throw new CheckSkipped(`no patch or replace body for ${c.name} to send an update`, 'collections[].patch.body');
        await writeEvent(ctx, webhooks, channel, trigger, `the ${update.method}`, update, seen);
      }
      if (config.actions.includes('delete')) await writeEvent(ctx, webhooks, channel, trigger, 'the DELETE', { method: 'DELETE', url: trigger.item.url }, seen);
    });
  },
});

/** The run's first delivery about a freshly created item, on a fresh subscription ({@link sharedFirstDelivery}), judged. */
async function firstDelivery(ctx: CheckContext, webhooks: WebhookProbe, judge: (d: Delivery, secret: string | undefined, exchange: number) => void): Promise<void> {
  const { delivery, secret, exchange } = await sharedFirstDelivery(ctx, webhooks);
  judge(delivery, secret, exchange);
}

export const signatureValid = defineCheck({
  id: 'EVT-signature-valid',
  title: 'Each delivery is signed over its raw bytes',
  rule: 'A webhook payload MUST be signed with HMAC-SHA256 over its raw bytes with the shared secret (not over re-serialised JSON), in the configured scheme (webhooks.scheme).',
  severity: 'must',
  needs: ['webhooks'],
  async run(ctx, { webhooks }) {
    const { scheme } = webhooks.config;
    await firstDelivery(ctx, webhooks, (d, secret, at) => {
      if (secret === undefined) throw new CheckSkipped('no signing secret: the subscription returned none and webhooks.secret is not set', 'webhooks.secret');
      const meta = metaOf(webhooks, d);
      const raw = verify(scheme, secret, meta, d.raw);
      if (raw.ok) {
        const compact = Buffer.from(JSON.stringify(JSON.parse(d.raw.toString('utf8'))));
        ctx.note(compact.equals(d.raw) ? 'the body is compact JSON: re-serialising it gives the same bytes' : 'the signature verifies over the raw bytes and would not over the body re-serialised');
        return;
      }
      if (raw.missing === 'id' || raw.missing === 'timestamp') throw new CheckSkipped(`the signature cannot be checked: ${raw.reason} (EVT-event-id and EVT-timestamp-fresh judge that)`);
      if (raw.missing === 'signature') throw new CheckFailure(`the delivery is not signed: ${raw.reason}`, `a ${headerOf(scheme)} header (${schemeName(scheme)} scheme)`, describe(d, webhooks), at);
      let reserialised = false;
      try {
        reserialised = verify(scheme, secret, meta, Buffer.from(JSON.stringify(JSON.parse(d.raw.toString('utf8'))))).ok;
      } catch {
        reserialised = false;
      }
      throw new CheckFailure(
        reserialised ? 'the signature was computed over re-serialised JSON, not over the bytes sent: a receiver that verifies the raw body refuses it' : `the signature does not verify: ${raw.reason}`,
        `HMAC-SHA256 over the raw body in ${headerOf(scheme)} (${schemeName(scheme)} scheme)`,
        reserialised ? 'a signature over compact re-serialised JSON' : `${headerOf(scheme)}: ${meta.signature ?? ''}`,
        at,
      );
    });
  },
});

export const timestampFresh = defineCheck({
  id: 'EVT-timestamp-fresh',
  title: 'Each delivery carries a signed timestamp within tolerance',
  rule: 'A webhook MUST carry a timestamp (Unix seconds) within webhooks.toleranceSeconds of now, so a receiver can refuse replayed events.',
  severity: 'must',
  needs: ['webhooks'],
  async run(ctx, { webhooks }) {
    const { scheme, toleranceSeconds } = webhooks.config;
    await firstDelivery(ctx, webhooks, (d, _secret, at) => {
      if (!hasTimestamp(scheme)) throw new CheckFailure(`the ${schemeName(scheme)} signature scheme carries no signed timestamp: a receiver cannot refuse a replayed event`, 'a signed timestamp (standard or stripe scheme, or a custom one that signs it)', `${schemeName(scheme)} scheme`, at);
      const ts = metaOf(webhooks, d).timestamp;
      if (ts === undefined) throw new CheckFailure('the delivery carries no timestamp', scheme === 'standard' ? 'a webhook-timestamp header' : scheme === 'stripe' ? 't= in Stripe-Signature' : `a ${typeof scheme === 'object' ? scheme.timestampHeader ?? 'timestamp' : 'timestamp'} header`, describe(d, webhooks), at);
      if (!/^\d+$/.test(ts)) throw new CheckFailure(`the timestamp "${ts}" is not Unix seconds`, 'an integer number of seconds', ts, at);
      const skew = Math.abs(d.receivedAt / 1000 - Number(ts));
      if (skew > toleranceSeconds) throw new CheckFailure(`the timestamp is ${Math.round(skew)} s from the time it arrived`, `within ${toleranceSeconds} s (webhooks.toleranceSeconds)`, `${Math.round(skew)} s`, at);
    });
  },
});

export const eventId = defineCheck({
  id: 'EVT-event-id',
  title: 'Each event carries an id of its own',
  rule: 'A webhook MUST carry an event id, the same on every delivery of one event and another for every other event, so a receiver that skips ids it has seen (delivery is at-least-once) drops repeats and nothing else: judged on the creates of two items and a later write (a delete, else an update) to the first.',
  severity: 'must',
  needs: ['webhooks'],
  async run(ctx, { webhooks }) {
    const { scheme, actions } = webhooks.config;
    const where = typeof scheme === 'object' ? `a ${scheme.idHeader ?? 'event id'} header` : { standard: 'a webhook-id header', github: 'an X-GitHub-Delivery header', stripe: 'an "id" member in the body' }[scheme];
    await withSubscription(ctx, webhooks, async ({ channel }) => {
      const ids: { what: string; id: string }[] = [];
      const judge = (what: string, d: Delivery, at: number): void => {
        const id = metaOf(webhooks, d).id;
        if (id === undefined || id.trim() === '') throw new CheckFailure(`the delivery after ${what} carries no event id`, where, describe(d, webhooks), at);
        const before = ids.find((x) => x.id === id);
        if (before !== undefined) throw new CheckFailure(`the events of ${before.what} and ${what} both carry the id ${id}: a receiver that skips ids it has seen, as the conventions tell it to, drops the second event`, 'another id for every event', `${id} on both`, at);
        ids.push({ what, id });
      };
      // Events no sender may take for one: the creates of two items, and a later write to the
      // first (an id made from the item's repeats there: "msg_" + the item's id).
      const first = await triggerCreate(ctx, webhooks);
      const seen = new SeenEvents(webhooks);
      judge('the create', await newEvent(ctx, webhooks, channel, first, 'the create', seen), first.item.response.exchangeIndex);
      const second = await triggerCreate(ctx, webhooks);
      judge('the second create', await expectDelivery(ctx, webhooks, channel, second, 'the second create'), second.item.response.exchangeIndex);
      const write = actions.includes('delete') ? { method: 'DELETE', url: first.item.url } : actions.includes('update') ? updateOf(webhooks, first) : undefined;
      if (write === undefined) ctx.note('no later write to the first item: the target announces no delete, and no update it can be sent (webhooks.actions, collections[].patch.body)');
      else {
        const what = `the ${write.method} of the first item`;
        // No event (or a refused write) is EVT-events-for-actions' to judge: the creates' ids still are this check's.
        const event = await writeEvent(ctx, webhooks, channel, first, what, write, seen).catch((err: unknown) => {
          if (!(err instanceof CheckFailure)) throw err;
          ctx.note(`${what} brought no event to judge its id: ${err.message}`);
        });
        if (event !== undefined) judge(what, event.delivery, event.exchange);
      }
      ctx.note(`${ids.length} events, ${ids.length} ids: ${ids.map((x) => x.id).join(', ')}`);
    });
  },
});

/** The first delivery about an item answered as `first` says, and the retry that must follow: same id, same bytes. */
async function expectRetry(ctx: CheckContext, webhooks: WebhookProbe, first: { status: number; delayMs?: number }, why: string): Promise<void> {
  await withSubscription(ctx, webhooks, async ({ channel }) => {
    let refused: Delivery | undefined;
    // The answer is set before the create is sent: its delivery may come before the create's answer.
    const trigger = await triggerCreate(ctx, webhooks, ({ about }) => {
      channel.answer = (d) => {
        if (refused !== undefined || !about(d)) return { status: 204 };
        refused = d;
        return first;
      };
    });
    await expectDelivery(ctx, webhooks, channel, trigger, 'the create');
    if (refused === undefined) throw new CheckSkipped('the delivery about the item shows no mark and came before the create answered with its id, so restprobe could not recognise it in time: nothing was refused');
    const d: Delivery = refused;
    const id = metaOf(webhooks, d).id;
    // The same event again: its id or, where the refused delivery shows the item's mark (a
    // sender that changed the id), its bytes or its type. Without the mark, equal bytes prove
    // nothing: the deletes of two earlier holders of a reused id are byte for byte alike.
    // Another event of another type about the item (an audit hook's update) is not a retry.
    const type = eventType(d);
    const retryOf = (x: Delivery) => trigger.about(x) && ((id !== undefined && metaOf(webhooks, x).id === id) || (trigger.showsMark(d) && (x.raw.equals(d.raw) || (trigger.showsMark(x) && eventType(x) === type))));
    const within = webhooks.config.deliveryWithinMs + (first.delayMs ?? 0);
    const after = channel.deliveries.indexOf(d) + 1;
    const retry = await channel.next(id === undefined ? trigger.about : retryOf, within, ctx.signal, after);
    const at = trigger.item.response.exchangeIndex;
    if (retry === undefined) {
      // Its bytes again under another id, with no mark to tell: a retry with a new id, or another event alike.
      const alike = channel.deliveries.slice(after).find((x) => trigger.about(x) && x.raw.equals(d.raw));
      const alikeId = alike === undefined ? undefined : metaOf(webhooks, alike).id;
      if (alikeId !== undefined && id !== undefined) throw new CheckFailure(`the delivery was not retried with its event id within ${within} ms after ${why}; its bytes came again with the id ${alikeId}: a retry that carries a new event id, or another event of the same bytes`, `a retry with the same id (${id})`, alikeId, at);
      throw new CheckFailure(`the delivery was not retried within ${within} ms after ${why} (webhooks.deliveryWithinMs${first.delayMs === undefined ? '' : ' and slowAnswerMs'}: a sender whose first retry comes later needs more)`, 'a retry of the same event', 'no further delivery of the event', at);
    }
    const b = metaOf(webhooks, retry).id;
    if (id === undefined || b === undefined) throw new CheckSkipped('the deliveries carry no event id to compare (EVT-event-id judges that)');
    if (id !== b) throw new CheckFailure(`the retry after ${why} carries a new event id`, `the same id (${id})`, b, at);
    if (!retry.raw.equals(d.raw)) throw new CheckFailure(`the retry after ${why} changed the body`, `the same ${d.raw.length} bytes`, `${retry.raw.length} other bytes: ${retry.raw.toString('utf8').slice(0, 200)}`, at);
    // Timestamps count whole seconds: two attempts 2 s apart with one timestamp were not signed anew.
    const gap = retry.receivedAt - d.receivedAt;
    const signedAt = metaOf(webhooks, d).timestamp;
    if (signedAt !== undefined && gap >= 2_000 && metaOf(webhooks, retry).timestamp === signedAt) {
      throw new CheckFailure(`the retry after ${why} came ${gap} ms after the first attempt with its timestamp (${signedAt}), expected each attempt signed anew with the time it is sent: a receiver refuses a retry whose timestamp is past its tolerance as a replay, so the retries of a long schedule are lost`, 'a timestamp of the retry\'s own', `the first attempt's ${signedAt}`, at);
    }
    ctx.note(`retried after ${gap} ms with the same id and bytes`);
  });
}

export const retryAfter500 = defineCheck({
  id: 'EVT-retry-after-500',
  title: 'A delivery answered 500 is retried, with the same id and body',
  rule: 'A failed webhook delivery MUST be retried (at-least-once), with the same event id and the identical body, each attempt signed anew with the time it is sent (a receiver refuses a stale timestamp as a replay, §6.3).',
  severity: 'must',
  needs: ['webhooks'],
  async run(ctx, { webhooks }) {
    await expectRetry(ctx, webhooks, { status: 500 }, 'a 500');
  },
});

export const retryAfterTimeout = defineCheck({
  id: 'EVT-retry-after-timeout',
  title: 'A delivery answered too slowly is retried, with the same id and body',
  rule: 'A webhook delivery that gets no answer within the sender\'s timeout MUST be retried, with the same event id and the identical body, each attempt signed anew with the time it is sent (a receiver refuses a stale timestamp as a replay, §6.3).',
  severity: 'must',
  // Mostly waiting (an answer held, then the retry): started among the first, the wait overlaps the run.
  slow: true,
  needs: ['webhooks'],
  async run(ctx, { webhooks }) {
    const slow = webhooks.config.slowAnswerMs;
    await expectRetry(ctx, webhooks, { status: 204, delayMs: slow }, `an answer held ${slow} ms (webhooks.slowAnswerMs)`);
  },
});

export const unsubscribeStops = defineCheck({
  id: 'EVT-unsubscribe-stops',
  title: 'Unsubscribing stops deliveries',
  rule: 'Once a webhook subscription is deleted, the target MUST deliver no new event to its URL.',
  severity: 'must',
  // Mostly waiting (webhooks.quietMs with no delivery): started among the first, the wait overlaps the run.
  slow: true,
  needs: ['webhooks'],
  async run(ctx, { webhooks }) {
    await withSubscription(ctx, webhooks, async ({ channel, url }) => {
      if (url === undefined) throw new CheckSkipped('the subscription answered no Location to DELETE', 'webhooks.subscribe');
      const createdAt = Date.now();
      const first = await triggerCreate(ctx, webhooks);
      const latency = (await expectDelivery(ctx, webhooks, channel, first, 'the create')).receivedAt - createdAt;
      const res = await ctx.http.send({ method: 'DELETE', url });
      ensure(res.status >= 200 && res.status < 300, `unsubscribing answered ${res.status}`, 'a 2xx to DELETE of the subscription', String(res.status));
      const second = await triggerCreate(ctx, webhooks);
      // A sender that delivers late (an outbox polled every few seconds) would deliver after a
      // watch shorter than its pace: the watch lasts twice the create's delivery at least.
      const quiet = Math.max(webhooks.config.quietMs, 2 * latency);
      if (quiet > webhooks.config.quietMs) ctx.note(`the create's event came ${latency} ms after it: watched ${quiet} ms, twice that, rather than webhooks.quietMs (${webhooks.config.quietMs} ms)`);
      const late = await channel.next(second.about, quiet, ctx.signal);
      if (late !== undefined) throw new CheckFailure('an event was delivered after the subscription was deleted', `no delivery within ${quiet} ms (webhooks.quietMs, or twice the create's delivery)`, describe(late, webhooks), second.item.response.exchangeIndex);
    });
  },
});

export const senderChecks = [secretShownOnce, deliveryPostJson, eventsForActions, signatureValid, timestampFresh, eventId, retryAfter500, retryAfterTimeout, unsubscribeStops];
