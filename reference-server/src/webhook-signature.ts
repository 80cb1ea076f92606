/**
 * Webhook signatures (conventions §6.3), one place for the sender (`webhooks.ts`) and the
 * receiver (`receiver.ts`) so that the two can never drift apart.
 *
 * - Standard Webhooks: `v1,<base64 HMAC-SHA256(key, id.timestamp.body)>`, the key being
 *   the secret's base64 after `whsec_`;
 * - GitHub's style: `sha256=<hex HMAC-SHA256(secret, body)>`, the secret used as text.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The Standard Webhooks MAC of one delivery. */
function standardMac(secret: string, id: string, timestamp: number | string, body: Buffer): Buffer {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
}

/** The `webhook-signature` value of a delivery: `v1,<base64>`. */
export function standardSignature(secret: string, id: string, timestamp: number | string, body: Buffer): string {
  return `v1,${standardMac(secret, id, timestamp, body).toString('base64')}`;
}

/** Whether any `v1,<base64>` in a space-separated `webhook-signature` matches, each compared in constant time. */
export function verifiesStandardSignature(secret: string, id: string, timestamp: string, body: Buffer, header: string): boolean {
  const expected = standardMac(secret, id, timestamp, body);
  return header.split(' ').some((part) => {
    const [version, value = ''] = part.split(',', 2);
    const given = Buffer.from(value, 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** The `x-hub-signature-256` value of a delivery in GitHub's style: `sha256=<hex>`. */
export function githubSignature(secret: string, body: Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
