/**
 * Webhooks (conventions §6), per Standard Webhooks: a subscriptions resource whose signing
 * secret is shown once (`no-store`), events on every create, update, delete and task
 * completion, each signed over its exact raw bytes
 * (`webhook-signature: v1,<base64 HMAC-SHA256(key, id.timestamp.body)>`), and delivered
 * at least once: a non-2xx answer, or none within the delivery timeout, is retried with
 * exponential backoff and jitter, with the same id and the same bytes every time.
 *
 * The schedule is `short` (250 ms timeout, 50 ms first retry, six attempts: the default, for
 * tests and demos) or `standard` (15 s, 5 s, eight attempts, as production senders).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import type { JsonObject } from './body.js';
import { param, requiredBody, type Operation } from './context.js';
import type { FaultName } from './faults.js';
import { notFound, validationFailed } from './problem.js';
import { emptyReply, jsonReply, type Reply } from './respond.js';
import type { Route } from './router.js';
import { githubSignature, standardSignature } from './webhook-signature.js';

export const webhookSubscriptionsPath = '/v2/webhook-subscriptions';

export type WebhookScheduleName = 'standard' | 'short';
export const webhookScheduleNames: readonly WebhookScheduleName[] = ['standard', 'short'];

export interface WebhookSchedule {
  /** How long a delivery may take before it counts as failed. */
  readonly timeoutMs: number;
  /** The first retry's delay; each next one doubles, with jitter. */
  readonly firstRetryMs: number;
  /** Attempts in all, the first included. */
  readonly attempts: number;
}

export const webhookSchedules: Readonly<Record<WebhookScheduleName, WebhookSchedule>> = {
  standard: { timeoutMs: 15_000, firstRetryMs: 5_000, attempts: 8 },
  short: { timeoutMs: 250, firstRetryMs: 50, attempts: 6 },
};

interface Subscription {
  readonly id: string;
  readonly url: string;
  /** Event types delivered (`project.created`…); `*` for all. */
  readonly events: readonly string[];
  readonly secret: string;
  readonly created_at: string;
}

/** A secret as Standard Webhooks makes them: `whsec_` + base64 of 32 random bytes. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** How the reference server signs deliveries. */
export type WebhookSigning = 'standard' | 'github';

/** The delay before retry `n` (1-based): the first retry's delay doubled n-1 times, from half to all of it (jitter). */
export function backoffMs(schedule: WebhookSchedule, n: number): number {
  const full = schedule.firstRetryMs * 2 ** (n - 1);
  return Math.round(full / 2 + Math.random() * (full / 2));
}

/** Subscriptions and deliveries, shared by every node. */
export class Webhooks {
  private readonly subscriptions = new Map<string, Subscription>();
  /** Fault `webhook-unsubscribe-ignored`: deleted subscriptions still delivered to. */
  private readonly ghosts = new Map<string, Subscription>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly agent = new Agent({ connections: 64 });
  private closed = false;

  constructor(
    private readonly faults: ReadonlySet<FaultName>,
    readonly schedule: WebhookSchedule = webhookSchedules.short,
    /** How deliveries are signed: Standard Webhooks, or GitHub's style (`serve --webhook-scheme github`). */
    readonly scheme: WebhookSigning = 'standard',
  ) {}

  routes(): Route<Operation>[] {
    const find = (id: string): Subscription => {
      const sub = this.subscriptions.get(id);
      if (sub === undefined) throw notFound('No webhook subscription exists with this id.');
      return sub;
    };
    const shown = (sub: Subscription): Record<string, unknown> => {
      const { secret, ...rest } = sub;
      // Fault `webhook-secret-readable`: the secret is shown on every read.
      return this.faults.has('webhook-secret-readable') ? { ...rest, secret } : rest;
    };
    return [
      {
        pattern: webhookSubscriptionsPath,
        operations: {
          GET: { handler: () => jsonReply(200, { data: [...this.subscriptions.values()].map(shown), next_cursor: null }) },
          POST: {
            body: 'required',
            handler: (ctx) => {
              const sub = { id: randomUUID(), ...readSubscription(requiredBody(ctx)), secret: newSecret(), created_at: new Date().toISOString() };
              this.subscriptions.set(sub.id, sub);
              return { ...jsonReply(201, sub, { Location: `${webhookSubscriptionsPath}/${sub.id}` }), holdsSecret: true };
            },
          },
        },
      },
      {
        pattern: `${webhookSubscriptionsPath}/:id`,
        operations: {
          GET: { handler: (ctx) => jsonReply(200, shown(find(param(ctx, 'id')))) },
          DELETE: {
            handler: (ctx) => {
              const sub = find(param(ctx, 'id'));
              this.subscriptions.delete(sub.id);
              if (this.faults.has('webhook-unsubscribe-ignored')) this.ghosts.set(sub.id, sub);
              return emptyReply(204);
            },
          },
        },
      },
    ];
  }

  /**
   * Wraps a route's writes so that each success emits `<noun>.<action>`: created (POST, or
   * a PUT answered 201), updated, deleted (with the item as it was), completed.
   */
  emitting(route: Route<Operation>, noun: string, current: (id: string) => Record<string, unknown> | undefined, action?: string): Route<Operation> {
    const operations: Record<string, Operation> = { ...route.operations };
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const op = route.operations[method];
      if (op === undefined) continue;
      operations[method] = {
        ...op,
        handler: async (ctx) => {
          const before = method === 'DELETE' ? current(param(ctx, 'id')) : undefined;
          const reply = await op.handler(ctx);
          if (reply.status < 200 || reply.status > 299) return reply;
          const kind = action ?? (method === 'POST' || (method === 'PUT' && reply.status === 201) ? 'created' : method === 'DELETE' ? 'deleted' : 'updated');
          // Fault `webhook-no-event-on-delete`: deletes go unannounced.
          if (kind === 'deleted' && this.faults.has('webhook-no-event-on-delete')) return reply;
          // The item as stored now (what a write answered may be partial under a fault).
          const id = method === 'POST' && action === undefined ? createdId(reply) : param(ctx, 'id');
          const data = kind === 'deleted' ? before : id === undefined ? undefined : current(id);
          if (data !== undefined) this.emit(`${noun}.${kind}`, data);
          return reply;
        },
      };
    }
    return { ...route, operations };
  }

  /** Queues one event for every subscription that wants it (each its own delivery). */
  emit(type: string, data: Record<string, unknown>): void {
    const targets = [...this.subscriptions.values(), ...this.ghosts.values()].filter((s) => s.events.includes('*') || s.events.includes(type));
    for (const sub of targets) {
      const payload = { type, timestamp: new Date().toISOString(), data };
      // Sent pretty-printed: the exact bytes signed, which no re-serialisation reproduces.
      const body = Buffer.from(JSON.stringify(payload, null, 2));
      // Faults `webhook-same-id`: every event to a subscription carries one id, the subscription's;
      // `webhook-id-per-item`: every event about an item carries one id, made from the item's.
      const id = this.faults.has('webhook-same-id') ? `msg_${sub.id.replaceAll('-', '')}` : this.faults.has('webhook-id-per-item') ? `msg_${String(data['id'])}` : `msg_${randomBytes(16).toString('base64url')}`;
      this.later(0, () => this.deliver(sub, id, Math.floor(Date.now() / 1000), body, payload, 1));
    }
  }

  private async deliver(sub: Subscription, id: string, timestamp: number, body: Buffer, payload: Record<string, unknown>, attempt: number): Promise<void> {
    if (this.closed) return;
    // Faults that break the same-id, same-bytes promise of a retry.
    const sentId = attempt > 1 && this.faults.has('webhook-new-id-on-retry') ? `msg_${randomBytes(16).toString('base64url')}` : id;
    const sentBody = attempt > 1 && this.faults.has('webhook-body-changed-on-retry') ? Buffer.from(JSON.stringify({ ...payload, attempt }, null, 2)) : body;
    const signed = this.faults.has('webhook-signs-reserialised-json') ? Buffer.from(JSON.stringify(JSON.parse(sentBody.toString('utf8')))) : sentBody;
    // Each attempt is signed anew with the time it is sent, as Svix and Stripe sign theirs: a
    // retry hours later with the first attempt's timestamp is refused as a replay. Fault
    // `webhook-retry-keeps-timestamp`: the first attempt's timestamp and signature again.
    const signedAt = attempt > 1 && !this.faults.has('webhook-retry-keeps-timestamp') ? Math.floor(Date.now() / 1000) : timestamp;
    const headers: Record<string, string> = { 'content-type': this.faults.has('webhook-text-plain') ? 'text/plain' : 'application/json', 'user-agent': 'restprobe-reference-server' };
    if (this.scheme === 'github') {
      // GitHub's style: the id in X-GitHub-Delivery, sha256=<hex HMAC(secret, body)>, no timestamp.
      if (!this.faults.has('webhook-no-id')) headers['x-github-delivery'] = sentId;
      if (!this.faults.has('webhook-unsigned')) headers['x-hub-signature-256'] = githubSignature(sub.secret, signed);
    } else {
      if (!this.faults.has('webhook-no-id')) headers['webhook-id'] = sentId;
      if (!this.faults.has('webhook-no-timestamp')) headers['webhook-timestamp'] = String(signedAt);
      if (!this.faults.has('webhook-unsigned')) headers['webhook-signature'] = standardSignature(sub.secret, sentId, signedAt, signed);
    }
    let ok = false;
    try {
      const res = await request(sub.url, { method: 'POST', headers, body: sentBody, dispatcher: this.agent, signal: AbortSignal.timeout(this.schedule.timeoutMs) });
      await res.body.dump();
      ok = res.statusCode >= 200 && res.statusCode <= 299;
      if (res.statusCode === 410) {
        // Gone (Standard Webhooks): the endpoint is disabled, and nothing more is sent to it.
        this.subscriptions.delete(sub.id);
        this.ghosts.delete(sub.id);
        return;
      }
    } catch {
      // Refused, reset, or too slow: a failed attempt.
    }
    if (ok || attempt >= this.schedule.attempts) return;
    // Fault `webhook-no-retry`: one attempt only, whatever the answer.
    if (this.faults.has('webhook-no-retry')) return;
    // The fault's retries come late enough (2.1 s) for a kept timestamp to show: timestamps count whole seconds.
    const keptFor = this.faults.has('webhook-retry-keeps-timestamp') ? 2_100 : 0;
    this.later(backoffMs(this.schedule, attempt) + keptFor, () => this.deliver(sub, id, timestamp, body, payload, attempt + 1));
  }

  private later(ms: number, run: () => Promise<void>): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void run();
    }, ms);
    this.timers.add(timer);
  }

  /** Stops every pending delivery and closes the delivery connections. */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await this.agent.destroy();
  }
}

/** The id of what a POST created: its `id` member, else the last segment of its Location. */
function createdId(reply: Reply): string | undefined {
  const value = reply.content !== undefined && 'value' in reply.content ? reply.content.value : undefined;
  const id = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['id'] : undefined;
  if (typeof id === 'string') return id;
  // Not a JSON value: fall back on Location.
  const location = reply.headers?.['Location'];
  return location === undefined ? undefined : decodeURIComponent(location.split('/').at(-1) ?? '');
}

/** `url` (http or https) and `events` (default `["*"]`) from a create body; 422 naming each bad field. */
function readSubscription(body: JsonObject): { url: string; events: string[] } {
  const url = body['url'];
  const events = body['events'] ?? ['*'];
  const errors = [];
  let valid = false;
  try {
    valid = typeof url === 'string' && ['http:', 'https:'].includes(new URL(url).protocol);
  } catch {
    valid = false;
  }
  if (!valid) errors.push({ field: 'url', message: 'must be an absolute http or https URL' });
  if (!Array.isArray(events) || events.length === 0 || !events.every((e) => typeof e === 'string' && /^(\*|[a-z]+\.[a-z]+)$/.test(e))) {
    errors.push({ field: 'events', message: 'must be a non-empty array of event types ("project.created") or "*"' });
  }
  if (errors.length > 0) throw validationFailed(errors);
  return { url: url as string, events: events as string[] };
}
