/** PKCE (RFC 7636): a code verifier and its S256 challenge. */
import { createHash, randomBytes } from 'node:crypto';

export interface PkcePair {
  /** 43 characters of the unreserved set (RFC 7636 §4.1: 43–128). */
  readonly verifier: string;
  /** BASE64URL(SHA256(ASCII(verifier))), unpadded (§4.2). */
  readonly challenge: string;
}

/** The S256 challenge of `verifier`. */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/**
 * @example
 * ```ts
 * const { verifier, challenge } = pkcePair();
 * ```
 */
export function pkcePair(): PkcePair {
  // 32 random bytes are 43 base64url characters, all unreserved.
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256(verifier) };
}
