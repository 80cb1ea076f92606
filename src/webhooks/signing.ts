/**
 * Webhook signature schemes (conventions §6.3: HMAC-SHA256 over the raw bytes, compared in
 * constant time, with a timestamp against replays):
 *
 * - `standard` — Standard Webhooks: `webhook-id`, `webhook-timestamp` (Unix seconds),
 *   `webhook-signature: v1,<base64 HMAC(key, id.timestamp.body)>` (a space-separated list);
 *   the key is the base64 after `whsec_`.
 * - `github` — `X-Hub-Signature-256: sha256=<hex HMAC(secret, body)>`, the id in
 *   `X-GitHub-Delivery`; no timestamp, so nothing refuses a replay (a finding, not a crash).
 * - `stripe` — `Stripe-Signature: t=<unix>,v1=<hex HMAC(secret, t.body)>`, the secret's
 *   own bytes as the key; the event id is the body's `id`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const signatureSchemes = ['standard', 'github', 'stripe'] as const;
export type SignatureScheme = (typeof signatureSchemes)[number];

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

/** Whether the scheme signs a timestamp (and so lets a receiver refuse replays). */
export const hasTimestamp = (scheme: SignatureScheme): boolean => scheme !== 'github';

const hmac = (key: Buffer | string, ...parts: (string | Buffer)[]): Buffer => {
  const mac = createHmac('sha256', key);
  for (const p of parts) mac.update(p);
  return mac.digest();
};

const standardKey = (secret: string): Buffer => Buffer.from(secret.replace(/^whsec_/, ''), 'base64');

/** Reads the id, timestamp and signature of a delivery (headers lower-case). */
export function readMeta(scheme: SignatureScheme, headers: Readonly<Record<string, string | undefined>>, raw: Buffer): DeliveryMeta {
  const signature = headers[signatureHeader[scheme]];
  if (scheme === 'standard') return { id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], signature };
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
export function signHeaders(scheme: SignatureScheme, secret: string, id: string, timestamp: number, body: Buffer): Record<string, string> {
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
export function verify(scheme: SignatureScheme, secret: string, meta: DeliveryMeta, body: Buffer): Verdict {
  const header = signatureHeader[scheme];
  if (meta.signature === undefined || meta.signature === '') return { ok: false, reason: `no ${header} header`, missing: 'signature' };
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
