/**
 * What the EVT- checks are written with: a subscription to a channel of the run's webhook
 * listener (unsubscribed and closed when the check ends), a marked item whose writes
 * trigger events, and the deliveries about that item (other checks' items trigger events
 * too: a delivery is this check's when its body names the item's mark or id).
 */
import { CheckFailure } from '../model/check.js';
import type { CheckContext, CreatedResource, HttpResponse, RequestSpec } from '../model/context.js';
import type { WebhookProbe } from '../model/needs.js';
import { isObject } from '../model/json.js';
import { readMeta, type DeliveryMeta } from '../webhooks/signing.js';
import type { Channel, Delivery } from '../model/webhook-inbox.js';

// What the EVT- checks judge deliveries with: the signing rules and the delivery's type.
export { hasTimestamp, headerOf, schemeName, verify } from '../webhooks/signing.js';
export type { Delivery };
import { setupError } from './setup.js';
import { createdItemUrl } from './created-url.js';
import { expectStatus } from './expect.js';
import { updateBody, updateMethod } from './probes.js';
import { singularForms } from '../model/ids.js';

export interface Subscription {
  readonly channel: Channel;
  /** The signing secret: returned by the target, else the config's. */
  readonly secret: string | undefined;
  /** The subscription's URL (its Location), for DELETE. */
  readonly url: string | undefined;
  readonly response: HttpResponse;
}

/** Replaces every "{url}" in a JSON value's strings. */
function fill(value: unknown, url: string): unknown {
  if (typeof value === 'string') return value.replaceAll('{url}', url);
  if (Array.isArray(value)) return value.map((v) => fill(v, url));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, url)]));
  return value;
}

/** Subscribes a fresh channel, runs `body`, and closes the channel (cleanup unsubscribes). */
export async function withSubscription(ctx: CheckContext, probe: WebhookProbe, body: (sub: Subscription) => Promise<void>): Promise<void> {
  const listener = await ctx.webhookListener();
  const channel = listener.channel();
  try {
    const { config } = probe;
    const res = await ctx.http.send({ method: 'POST', path: config.subscribePath, json: fill(config.subscribeBody, channel.url) });
    if (res.status < 200 || res.status > 299) throw setupError(res, `subscribing to webhooks failed: POST ${config.subscribePath} answered ${res.status}`);
    const json = res.json as Record<string, unknown> | undefined;
    const returned = typeof json?.[config.secretField] === 'string' ? (json[config.secretField] as string) : undefined;
    const secret = returned ?? config.secret?.value;
    if (returned !== undefined) ctx.treatAsSecret(returned, 'WEBHOOK_SECRET');
    // A safe Location (inside the base URL's path, under a gateway's prefix), as for any created item.
    const { url, reason } = createdItemUrl(ctx.profile, res);
    if (reason !== undefined && res.headers['location'] !== undefined) ctx.note(`POST ${config.subscribePath}: ${reason}`);
    // Unsubscribed before the check's items are deleted: their deletes then send it no events.
    if (url !== undefined) ctx.track(url, { first: true });
    ctx.note(`subscribed ${channel.url} (restprobe's listener${config.publicUrl === undefined ? ' on 127.0.0.1' : `, through ${config.publicUrl}`})`);
    await body({ channel, secret, url, response: res });
  } finally {
    for (const d of channel.deliveries) ctx.note(`delivery: ${describe(d, probe)}`);
    channel.close();
  }
}

/** A marked item whose writes trigger events, and a test for the deliveries about it. */
export interface Trigger {
  readonly item: CreatedResource;
  readonly about: (d: Delivery) => boolean;
  /** The delivery shows the item's mark: an event of this item, not of another that held its id before. */
  readonly showsMark: (d: Delivery) => boolean;
}

/**
 * Creates a marked item in the trigger collection: the create is the first event.
 * `beforeCreate` gets the item's tests before the create is sent, for a delivery that comes
 * before the create's answer.
 */
export async function triggerCreate(ctx: CheckContext, probe: WebhookProbe, beforeCreate?: (tests: Omit<Trigger, 'item'>) => void): Promise<Trigger> {
  // A mark of the run: a create killed before its answer leaves only the mark, and cleanup searches by a run's marks alone.
  const mark = ctx.newMark();
  let id: string | undefined;
  const { markField, idField } = probe.trigger;
  // The mark is known before the create answers (a delivery may come first); the id after.
  // An event that shows another mark is another item's, whatever its id (ids can be reused);
  // one that shows no mark at all (a delete event of the id alone) is matched by the id.
  const showsMark = (d: Delivery): boolean => decoded(d).text.includes(mark);
  const idKeys = idMembers(idField, probe.trigger.name);
  const about = (d: Delivery): boolean => {
    const seen = decoded(d);
    if (seen.text.includes(mark)) return true;
    if (seen.body === notJson || membersNamed(seen, markField).length > 0 || id === undefined || id === '') return false;
    return idKeys.some((key) => membersNamed(seen, key).some((v) => String(v) === id));
  };
  beforeCreate?.({ about, showsMark });
  const item = await ctx.create(probe.trigger, { [probe.trigger.markField]: mark });
  id = item.id;
  return { item, about, showsMark };
}

const notJson = Symbol('not JSON');

/**
 * The members that may name the item in an event that shows only its id: the collection's id
 * field (a full item in the event, Stripe's thin `related_object.id`), and the names thin events
 * give it (`object_id`, `resource_id`, `entity_id`, `project_id` for projects; camelCase too).
 */
function idMembers(idField: string, collection: string): string[] {
  return [...new Set([idField, ...['object', 'resource', 'entity', ...singularForms(collection)].flatMap((k) => [`${k}_id`, `${k}Id`])])];
}

/** A delivery's body as text and as JSON, and the values of members looked up by name so far. */
interface Decoded {
  readonly text: string;
  readonly body: unknown;
  readonly members: Map<string, unknown[]>;
}

/**
 * Each delivery decoded once: a channel tests every delivery it holds against a waiting
 * check's item again each time another arrives (an item's id becomes known only once its
 * create answers), and a delivery may be tested by several checks.
 */
const decodedDeliveries = new WeakMap<Delivery, Decoded>();

function decoded(d: Delivery): Decoded {
  let seen = decodedDeliveries.get(d);
  if (seen === undefined) {
    const text = d.raw.toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = notJson;
    }
    decodedDeliveries.set(d, (seen = { text, body, members: new Map() }));
  }
  return seen;
}

/** The values of the members of a decoded JSON body named `key`, at any depth. */
function membersNamed(seen: Decoded, key: string): unknown[] {
  let values = seen.members.get(key);
  if (values === undefined) seen.members.set(key, (values = valuesOf(seen.body, key)));
  return values;
}

/** Every value of members named `key`, at any depth. */
function valuesOf(value: unknown, key: string): unknown[] {
  if (Array.isArray(value)) return value.flatMap((v) => valuesOf(v, key));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => (k === key && (typeof v === 'string' || typeof v === 'number') ? [v] : valuesOf(v, key)));
}

/** Waits for the next delivery about the item after `from`; none within the configured time is a failure. */
export async function expectDelivery(ctx: CheckContext, probe: WebhookProbe, channel: Channel, trigger: Trigger, what: string, from = 0, exchange?: number): Promise<Delivery> {
  const d = await channel.next(trigger.about, probe.config.deliveryWithinMs, ctx.signal, from);
  if (d === undefined) throw undelivered(probe, channel.url, channel.deliveries.length - from, what, exchange ?? trigger.item.response.exchangeIndex);
  return d;
}

/**
 * The events a check has taken so far. A retry repeats an event's bytes, so a delivery with
 * bytes not seen is new. With `sameIdIsRepeat`, a delivery with the id and type of an event
 * taken already is not new either: a sender that re-serialises a retry (a new timestamp or
 * attempt count in the body) keeps its id. (EVT-event-id does not: there an id given again to
 * another event of one type is the finding, which it must see.)
 *
 * @example
 * ```ts
 * const seen = new SeenEvents(webhooks, { sameIdIsRepeat: true });
 * ```
 */
export class SeenEvents {
  private readonly taken = new Set<string>();
  private readonly sameIdIsRepeat: boolean;

  constructor(private readonly probe: WebhookProbe, options: { readonly sameIdIsRepeat?: boolean } = {}) {
    this.sameIdIsRepeat = options.sameIdIsRepeat === true;
  }

  /** Whether `d` is an event not taken yet. */
  isNew(d: Delivery): boolean {
    if (this.taken.has(`bytes ${d.raw.toString('base64')}`)) return false;
    const event = this.eventKey(d);
    return !(this.sameIdIsRepeat && event !== undefined && this.taken.has(event));
  }

  take(d: Delivery): void {
    this.taken.add(`bytes ${d.raw.toString('base64')}`);
    const event = this.eventKey(d);
    if (event !== undefined) this.taken.add(event);
  }

  /** The event's id and type, where the delivery names both. */
  private eventKey(d: Delivery): string | undefined {
    const id = metaOf(this.probe, d).id;
    const type = eventType(d);
    return id === undefined || type === undefined ? undefined : `event ${JSON.stringify([id, type])}`;
  }
}

/**
 * Sends a write to the trigger's item and waits for its own event: a delivery about the item,
 * among those after the write was sent, that `seen` takes for a new event (which it then
 * joins). Returns the event and the write's exchange.
 *
 * @example
 * ```ts
 * const { delivery } = await writeEvent(ctx, webhooks, channel, trigger, 'the delete', { method: 'DELETE', url: trigger.item.url }, seen);
 * ```
 */
export async function writeEvent(ctx: CheckContext, probe: WebhookProbe, channel: Channel, trigger: Trigger, what: string, spec: RequestSpec, seen: SeenEvents): Promise<{ delivery: Delivery; exchange: number }> {
  const from = channel.deliveries.length;
  const res = await ctx.http.send(spec);
  expectStatus(res, [200, 201, 202, 204], what);
  return { delivery: await newEvent(ctx, probe, channel, trigger, what, seen, from, res.exchangeIndex), exchange: res.exchangeIndex };
}

/** The next delivery about the trigger's item after `from` that `seen` takes for a new event, which then joins it. */
export async function newEvent(ctx: CheckContext, probe: WebhookProbe, channel: Channel, trigger: Trigger, what: string, seen: SeenEvents, from = 0, exchange?: number): Promise<Delivery> {
  const about = (x: Delivery): boolean => trigger.about(x) && seen.isNew(x);
  const d = await expectDelivery(ctx, probe, channel, { ...trigger, about }, what, from, exchange);
  seen.take(d);
  return d;
}

/**
 * The update the trigger collection takes for its item: a PATCH with the patch body, else a PUT
 * with the replace body, the item's mark kept; undefined where it has neither.
 */
export function updateOf(probe: WebhookProbe, trigger: Trigger): RequestSpec | undefined {
  const c = probe.trigger;
  if (c.patchBody === undefined && c.replaceBody === undefined) return undefined;
  const method = updateMethod(c);
  // Sent as every other check sends its writes (application/json), which the config's bodies are.
  return { method, url: trigger.item.url, json: { ...updateBody(c, method), [c.markField]: trigger.item.body[c.markField] } };
}

/** The failure of a wait for a delivery about an item that got `others` deliveries, none about it. */
function undelivered(probe: WebhookProbe, channelUrl: string, others: number, what: string, exchange: number): CheckFailure {
  const within = probe.config.deliveryWithinMs;
  return new CheckFailure(`no webhook delivery about the item came within ${within} ms of ${what}`, `a POST to ${channelUrl} within webhooks.deliveryWithinMs (${within} ms)`, `${others} deliveries, none about the item`, exchange);
}

/** The first delivery about a freshly created item on a fresh subscription (or that none came), and the answers that made it come. */
interface FirstDelivery {
  /** Undefined when none came within webhooks.deliveryWithinMs. */
  readonly delivery: Delivery | undefined;
  /** The signing secret the subscription used. */
  readonly secret: string | undefined;
  readonly subscription: HttpResponse;
  readonly create: HttpResponse;
  readonly channelUrl: string;
  /** Deliveries the channel got meanwhile, about other items. */
  readonly others: number;
}

/**
 * The first delivery about a freshly created item on a fresh subscription, once for the run:
 * the checks that judge one delivery's form (method and body, signature, timestamp) judge the
 * same one, each with the subscription and the create in its own evidence and the delivery in
 * its notes; where none came in time, each fails so, on the one wait. The sender's
 * subscription and item go when it ends, as any check's.
 *
 * @example
 * ```ts
 * const { delivery, exchange } = await sharedFirstDelivery(ctx, webhooks);
 * ```
 */
export async function sharedFirstDelivery(ctx: CheckContext, probe: WebhookProbe): Promise<{ delivery: Delivery; secret: string | undefined; exchange: number }> {
  const first = await ctx.sharedAnswers(
    'the first delivery about a created item',
    async (sender) => {
      let first: FirstDelivery | undefined;
      await withSubscription(sender, probe, async ({ channel, secret, response }) => {
        const trigger = await triggerCreate(sender, probe);
        const delivery = await channel.next(trigger.about, probe.config.deliveryWithinMs, sender.signal);
        // A wait cut short (the check's deadline, the run stopped) says nothing of the target: not kept.
        sender.signal.throwIfAborted();
        first = { delivery, secret, subscription: response, create: trigger.item.response, channelUrl: channel.url, others: channel.deliveries.length };
      });
      return first!;
    },
    (first, take) => {
      const [subscription, create] = [take(first.subscription), take(first.create)];
      // The sender noted it with its subscription; a check handed it notes it too.
      if (create !== first.create && first.delivery !== undefined) ctx.note(`the run's first delivery about a created item: ${describe(first.delivery, probe)}`);
      return { ...first, subscription, create };
    },
  );
  if (first.delivery === undefined) throw undelivered(probe, first.channelUrl, first.others, 'the create', first.create.exchangeIndex);
  return { delivery: first.delivery, secret: first.secret, exchange: first.create.exchangeIndex };
}

export function metaOf(probe: WebhookProbe, d: Delivery): DeliveryMeta {
  return readMeta(probe.config.scheme, d.headers, d.raw);
}

/** Where an event body names its type: Standard Webhooks' `type`, and the names other senders use. */
const typeFields = ['type', 'event', 'event_type', 'eventType', 'kind'] as const;

/** The event's type as its body names it (`project.created`); undefined when the body is no JSON object or names none. */
export function eventType(d: Delivery): string | undefined {
  // Decoded once per delivery (decoded): a retry is looked for among every delivery again as each arrives.
  const { body } = decoded(d);
  if (!isObject(body)) return undefined;
  const found = typeFields.map((k) => body[k]).find((v) => typeof v === 'string');
  return found as string | undefined;
}

/** One line per delivery, for evidence. */
export function describe(d: Delivery, probe: WebhookProbe): string {
  const meta = metaOf(probe, d);
  return `${d.method} ${d.path} content-type ${d.headers['content-type'] ?? '(none)'}, id ${meta.id ?? '(none)'}, timestamp ${meta.timestamp ?? '(none)'}, ${d.raw.length} bytes; answered ${d.answered ?? '(nothing yet)'}`;
}
