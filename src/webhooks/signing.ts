/**
 * Webhook signature schemes (conventions §6.3: HMAC-SHA256 over the raw bytes, compared in
 * constant time, with a timestamp against replays):
 *
 * - `standard` — Standard Webhooks: `webhook-id`, `webhook-timestamp` (Unix seconds),
 *   `webhook-signature: v1,<base64 HMAC(key, id.timestamp.body)>` (a space-separated list);
 *   the key is the base64 after `whsec_`. Svix's `svix-id`, `svix-timestamp` and
 *   `svix-signature` are read where those are absent, as Svix's libraries do.
 * - `github` — `X-Hub-Signature-256: sha256=<hex HMAC(secret, body)>`, the id in
 *   `X-GitHub-Delivery`; no timestamp, so nothing refuses a replay (a finding, not a crash).
 * - `stripe` — `Stripe-Signature: t=<unix>,v1=<hex HMAC(secret, t.body)>`, the secret's
 *   own bytes as the key; the event id is the body's `id`.
 * - a {@link CustomScheme} — a header of the target's own (`X-Signature: sha256=<hex>`):
 *   what is signed, how it is encoded and where the id and timestamp travel, from config.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { signatureSchemes, type CustomScheme, type Scheme, type SignatureScheme } from '../model/signature-scheme.js';

export { signatureSchemes };
export type { CustomScheme, Scheme, SignatureScheme };

const isCustom = (scheme: Scheme): scheme is CustomScheme => typeof scheme === 'object';

/** The scheme's name for messages: `standard`, or `custom (X-Signature)`. */
export const schemeName = (scheme: Scheme): string => (isCustom(scheme) ? `custom (${scheme.header})` : scheme);

/** What a delivery says about itself, read per scheme. */
export interface DeliveryMeta {
  readonly id?: string;
  /** The timestamp as sent (Unix seconds, as text). */
  readonly timestamp?: string;
  /** The signature header, as sent. */
  readonly signature?: string;
}

/** The header that carries the signature, lower-case. */
export const signatureHeader: Readonly<Record<SignatureScheme, string>> = { standard: 'webhook-signature', github: 'x-hub-signature-256', stripe: 'stripe-signature' };

/** The header that carries a scheme's signature, lower-case. */
export const headerOf = (scheme: Scheme): string => (isCustom(scheme) ? scheme.header.toLowerCase() : signatureHeader[scheme]);

/** Whether the scheme signs a timestamp (and so lets a receiver refuse replays). */
export const hasTimestamp = (scheme: Scheme): boolean => (isCustom(scheme) ? scheme.signed !== 'body' : scheme !== 'github');

const hmac = (key: Buffer | string, ...parts: (string | Buffer)[]): Buffer => {
  const mac = createHmac('sha256', key);
  for (const p of parts) mac.update(p);
  return mac.digest();
};

const standardKey = (secret: string): Buffer => Buffer.from(secret.replace(/^whsec_/, ''), 'base64');

/** Reads the id, timestamp and signature of a delivery (headers lower-case). */
export function readMeta(scheme: Scheme, headers: Readonly<Record<string, string | undefined>>, raw: Buffer): DeliveryMeta {
  const signature = headers[headerOf(scheme)];
  if (isCustom(scheme)) {
    const at = (name: string | undefined) => (name === undefined ? undefined : headers[name.toLowerCase()]);
    return { id: at(scheme.idHeader), timestamp: at(scheme.timestampHeader), signature };
  }
  // Svix, whose libraries the spec grew from, sends its own names unless white-labelled (`svix-id`…); its libraries read either.
  if (scheme === 'standard') return { id: headers['webhook-id'] ?? headers['svix-id'], timestamp: headers['webhook-timestamp'] ?? headers['svix-timestamp'], signature: signature ?? headers['svix-signature'] };
  if (scheme === 'github') return { id: headers['x-github-delivery'], signature };
  let id: string | undefined;
  try {
    const body: unknown = JSON.parse(raw.toString('utf8'));
    const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['id'] : undefined;
    id = typeof value === 'string' ? value : undefined;
  } catch {
    id = undefined;
  }
  const t = signature?.split(',').find((p) => p.startsWith('t='))?.slice(2);
  return { id, timestamp: t, signature };
}

/** The headers that sign `body` (for receiver mode). */
export function signHeaders(scheme: Scheme, secret: string, id: string, timestamp: number, body: Buffer): Record<string, string> {
  if (isCustom(scheme)) {
    const signature = `${scheme.prefix}${hmac(secret, ...customContent(scheme, id, String(timestamp)), body).toString(scheme.encoding)}`;
    return { [scheme.header.toLowerCase()]: signature, ...(scheme.idHeader && { [scheme.idHeader.toLowerCase()]: id }), ...(scheme.timestampHeader && { [scheme.timestampHeader.toLowerCase()]: String(timestamp) }) };
  }
  if (scheme === 'standard') {
    return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${hmac(standardKey(secret), `${id}.${timestamp}.`, body).toString('base64')}` };
  }
  if (scheme === 'github') return { 'x-github-delivery': id, 'x-hub-signature-256': `sha256=${hmac(secret, body).toString('hex')}` };
  return { 'stripe-signature': `t=${timestamp},v1=${hmac(secret, `${timestamp}.`, body).toString('hex')}` };
}

/** Constant-time equality of two byte strings of possibly different lengths. */
function same(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

export type Verdict = { readonly ok: true } | { readonly ok: false; readonly reason: string; readonly missing?: 'signature' | 'id' | 'timestamp' };

/**
 * Whether `meta.signature` signs `body` under `secret`: any one signature in the header
 * may match, each compared in constant time.
 */
export function verify(scheme: Scheme, secret: string, meta: DeliveryMeta, body: Buffer): Verdict {
  const header = headerOf(scheme);
  if (meta.signature === undefined || meta.signature === '') return { ok: false, reason: `no ${header} header`, missing: 'signature' };
  if (isCustom(scheme)) return verifyCustom(scheme, secret, meta, meta.signature, body);
  if (scheme === 'standard') {
    if (meta.id === undefined) return { ok: false, reason: 'no webhook-id header: the signed content cannot be rebuilt', missing: 'id' };
    if (meta.timestamp === undefined) return { ok: false, reason: 'no webhook-timestamp header: the signed content cannot be rebuilt', missing: 'timestamp' };
    const expected = hmac(standardKey(secret), `${meta.id}.${meta.timestamp}.`, body);
    const given = meta.signature.split(' ').filter((p) => p.startsWith('v1,')).map((p) => Buffer.from(p.slice(3), 'base64'));
    if (given.length === 0) return { ok: false, reason: `${header} holds no v1 signature` };
    return given.some((g) => same(g, expected)) ? { ok: true } : { ok: false, reason: `no v1 signature in ${header} matches` };
  }
  if (scheme === 'github') {
    if (!meta.signature.startsWith('sha256=')) return { ok: false, reason: `${header} is not sha256=<hex>` };
    return same(Buffer.from(meta.signature.slice(7), 'hex'), hmac(secret, body)) ? { ok: true } : { ok: false, reason: `${header} does not match` };
  }
  if (meta.timestamp === undefined) return { ok: false, reason: `${header} has no t=`, missing: 'timestamp' };
  const expected = hmac(secret, `${meta.timestamp}.`, body);
  const given = meta.signature.split(',').filter((p) => p.startsWith('v1=')).map((p) => Buffer.from(p.slice(3), 'hex'));
  if (given.length === 0) return { ok: false, reason: `${header} holds no v1= signature` };
  return given.some((g) => same(g, expected)) ? { ok: true } : { ok: false, reason: `no v1= signature in ${header} matches` };
}

/** The signed content before the body: nothing, `timestamp.`, or `id.timestamp.`. */
function customContent(scheme: CustomScheme, id: string, timestamp: string): string[] {
  if (scheme.signed === 'body') return [];
  return scheme.signed === 'timestamp.body' ? [`${timestamp}.`] : [`${id}.${timestamp}.`];
}

function verifyCustom(scheme: CustomScheme, secret: string, meta: DeliveryMeta, signature: string, body: Buffer): Verdict {
  const header = headerOf(scheme);
  if (scheme.signed === 'id.timestamp.body' && meta.id === undefined) return { ok: false, reason: `no ${scheme.idHeader ?? 'id'} header: the signed content cannot be rebuilt`, missing: 'id' };
  if (scheme.signed !== 'body' && meta.timestamp === undefined) return { ok: false, reason: `no ${scheme.timestampHeader ?? 'timestamp'} header: the signed content cannot be rebuilt`, missing: 'timestamp' };
  const expected = hmac(secret, ...customContent(scheme, meta.id ?? '', meta.timestamp ?? ''), body);
  // Several signatures may be listed (a key rotation), separated by spaces or commas.
  const given = signature.split(/[ ,]+/).filter((p) => p.startsWith(scheme.prefix) && p.length > scheme.prefix.length).map((p) => Buffer.from(p.slice(scheme.prefix.length), scheme.encoding));
  if (given.length === 0) return { ok: false, reason: `${header} holds no ${scheme.prefix ? `${scheme.prefix}…` : ''}signature` };
  return given.some((g) => same(g, expected)) ? { ok: true } : { ok: false, reason: `no signature in ${header} matches` };
}
