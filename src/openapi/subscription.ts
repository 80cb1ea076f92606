/**
 * Webhook subscriptions (conventions §6), from the document: an operation with a callback
 * whose URL comes from its own request body (`{$request.body#/url}`) is where a client
 * subscribes. Its body, with that member set to `{url}`, is `webhooks.subscribe.body`, which
 * restprobe fills with its listener's URL; such an endpoint is no collection to write to.
 */
import type { RawWebhooks } from '../config/raw-config.js';
import { isObject } from '../model/json.js';
import type { BodyInference } from './bodies.js';
import type { OpenApiDocument } from '../model/openapi-document.js';
import { jsonMedia, successResponse, type Operation } from '../document/operations.js';
import { tokensOf } from '../model/json-pointer.js';
import { flatten } from '../document/schema.js';

export interface SubscriptionInference {
  readonly operation: Operation;
  readonly webhooks?: RawWebhooks;
  readonly fillIns: readonly string[];
  readonly notes: readonly string[];
}

/** The body member a callback URL is read from (`{$request.body#/url}` → `['url']`). */
function urlMember(op: Operation): string[] | undefined {
  for (const expression of op.callbacks) {
    const m = /^\{\$request\.body#(\/[^}]*)\}$/.exec(expression.trim());
    const tokens = m === null ? undefined : tokensOf(m[1]!);
    if (tokens !== undefined && tokens.length > 0) return tokens;
  }
  return undefined;
}

/** `body` with the member at `tokens` set to `value` (objects on the way made as needed). */
function withMember(body: Record<string, unknown>, tokens: readonly string[], value: unknown): Record<string, unknown> {
  const [first, ...rest] = tokens;
  if (first === undefined) return body;
  const inner = isObject(body[first]) ? body[first] : {};
  return { ...body, [first]: rest.length === 0 ? value : withMember(inner, rest, value) };
}

/**
 * The subscribing operation among `ops`, and the `webhooks` config it gives.
 *
 * @example
 * ```ts
 * // POST /hooks { url, events } with callbacks: { event: { '{$request.body#/url}': … } }
 * inferSubscription(doc, ops, bodies, '/v2')?.webhooks; // { subscribe: { path: '/v2/hooks', body: { url: '{url}', events: ['*'] } } }
 * ```
 */
export function inferSubscription(doc: OpenApiDocument, ops: readonly Operation[], bodies: BodyInference, prefix: string): SubscriptionInference | undefined {
  const operation = ops.find((o) => o.method === 'POST' && urlMember(o) !== undefined);
  if (operation === undefined) return undefined;
  const where = `${operation.method} ${prefix}${operation.path}`;
  const member = urlMember(operation)!;
  const body = bodies.body(jsonMedia(operation.requestBody?.content), 'create');
  if (!body.ok) return { operation, fillIns: [`webhooks: how restprobe subscribes ({ subscribe: { path: ${prefix}${operation.path}, body: … } }): ${where} calls back, but ${body.problem}`], notes: [] };
  const answer = jsonMedia(successResponse(operation)?.content)?.schema;
  const fields = answer === undefined ? [] : [...flatten(doc, answer).properties.keys(), ...flatten(doc, answer).alternatives.flatMap((a) => [...flatten(doc, a).properties.keys()])];
  const secretField = fields.find((f) => /secret/i.test(f));
  const webhooks: RawWebhooks = {
    subscribe: { path: prefix + operation.path, body: withMember(body.body, member, '{url}'), ...(secretField !== undefined && secretField !== 'secret' && { secretField }) },
  };
  const fillIns = [
    ...(secretField === undefined ? ['secret: the signing secret ({ env: … }), or subscribe.secretField, the answer member that holds it: the document names none'] : []),
    'scheme: how deliveries are signed: standard (Standard Webhooks, the default), github, stripe, or custom with signature',
    'collection: the collection whose writes send events (default: the first with a create body and a mark), and actions: which writes do (create, update, delete)',
  ];
  return { operation, webhooks, fillIns, notes: [`${where} calls back the URL in its body (a callback of the document's): webhooks.subscribe, not a collection`] };
}
