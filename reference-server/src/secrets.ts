/** Comparing and storing secrets (client secrets, passwords, codes, refresh tokens). */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** SHA-256, base64url: stores look secrets up by digest, never by the secret itself. */
export function digestOf(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('base64url');
}

/** Constant-time equality of two secrets (digests first, so lengths leak nothing). */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a, 'utf8').digest(), createHash('sha256').update(b, 'utf8').digest());
}

/** A fresh opaque secret: `bytes` random bytes, base64url. */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
