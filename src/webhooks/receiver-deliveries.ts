/**
 * Receiver mode's deliveries as each scheme's real senders make them, so a receiver built
 * on that sender's library takes them (@octokit/webhooks answers 400 to a delivery without
 * X-GitHub-Event; Stripe's library parses an event object):
 *
 * - `standard` (Svix and the Standard Webhooks libraries): `webhook-id` (`msg_…`),
 *   `webhook-timestamp`, `webhook-signature`, and the same under Svix's own names
 *   (`svix-id`, `svix-timestamp`, `svix-signature`), which unbranded Svix senders (Clerk,
 *   Resend) send and their documented receivers read; the body `{type, timestamp, data}`.
 * - `github`: `X-GitHub-Event: ping`, `X-GitHub-Delivery` (a GUID), `X-GitHub-Hook-ID`, the
 *   installation target headers, `X-Hub-Signature-256` and the legacy `X-Hub-Signature`
 *   (sha1), `User-Agent: GitHub-Hookshot/…`; the body a ping event.
 * - `stripe`: `Stripe-Signature: t=…,v1=…`, `User-Agent: Stripe/1.0 …`, JSON labelled UTF-8;
 *   the body an event object (`evt_…`).
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { signHeaders, signatureHeader, type SignatureScheme } from './signing.js';

/** One probe event: its id and the exact bytes sent. */
export interface ProbeEvent {
  readonly id: string;
  readonly body: Buffer;
}

const hookId = '424242';
const note = 'a test delivery from restprobe webhooks check-receiver';

/** The API version a stripe-scheme event names unless told another (`--stripe-api-version`). */
export const defaultStripeApiVersion = '2024-06-20';

/** A fresh event in the scheme's own shape, with an id of the form its senders give (a Stripe event of `stripeApiVersion`). */
export function probeEvent(scheme: SignatureScheme, receiverUrl: string, stripeApiVersion = defaultStripeApiVersion): ProbeEvent {
  const now = new Date();
  if (scheme === 'github') {
    const value = { zen: 'Keep it logically awesome.', hook_id: Number(hookId), hook: { type: 'Repository', id: Number(hookId), name: 'web', active: true, events: ['*'], config: { content_type: 'json', insecure_ssl: '0', url: receiverUrl } }, restprobe: note };
    return { id: randomUUID(), body: Buffer.from(JSON.stringify(value)) };
  }
  if (scheme === 'stripe') {
    const id = `evt_${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x')}`;
    const value = { id, object: 'event', api_version: stripeApiVersion, created: Math.floor(now.getTime() / 1000), data: { object: { object: 'restprobe_probe', note } }, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type: 'restprobe.probe' };
    return { id, body: Buffer.from(JSON.stringify(value)) };
  }
  const value = { type: 'restprobe.probe', timestamp: now.toISOString(), data: { note } };
  return { id: `msg_${randomBytes(18).toString('base64url')}`, body: Buffer.from(JSON.stringify(value)) };
}

/** What the scheme's senders send beside the signature: content type, user agent, event name and ids. */
export function companionHeaders(scheme: SignatureScheme, event: ProbeEvent, timestamp: number): Record<string, string> {
  if (scheme === 'github') {
    return {
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/restprobe',
      'x-github-event': 'ping',
      'x-github-delivery': event.id,
      'x-github-hook-id': hookId,
      'x-github-hook-installation-target-type': 'repository',
      'x-github-hook-installation-target-id': '1',
    };
  }
  if (scheme === 'stripe') return { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' };
  return { 'content-type': 'application/json', 'user-agent': 'restprobe (Standard Webhooks)', 'webhook-id': event.id, 'webhook-timestamp': String(timestamp), 'svix-id': event.id, 'svix-timestamp': String(timestamp) };
}

/** The scheme's signature headers given one value (Standard Webhooks' under both its names). */
export function withSignature(scheme: SignatureScheme, value: string): Record<string, string> {
  return scheme === 'standard' ? { [signatureHeader[scheme]]: value, 'svix-signature': value } : { [signatureHeader[scheme]]: value };
}

/** The headers that sign `body` in the scheme (GitHub's legacy sha1 signature too, as GitHub sends it). */
export function signatureHeaders(scheme: SignatureScheme, secret: string, event: ProbeEvent, timestamp: number, body: Buffer = event.body): Record<string, string> {
  const signed = signHeaders(scheme, secret, event.id, timestamp, body);
  const signature = withSignature(scheme, signed[signatureHeader[scheme]]!);
  return scheme === 'github' ? { ...signature, 'x-hub-signature': `sha1=${createHmac('sha1', secret).update(body).digest('hex')}` } : signature;
}
