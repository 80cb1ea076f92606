/** The webhook signature schemes a config can name (the signing itself is in src/webhooks/signing.ts). */
export const signatureSchemes = ['standard', 'github', 'stripe'] as const;
export type SignatureScheme = (typeof signatureSchemes)[number];

/**
 * A signature scheme described by config (`webhooks.signature`): HMAC-SHA256 with the
 * secret's own bytes as the key, over the body or `timestamp.body` or `id.timestamp.body`.
 *
 * @example
 * ```ts
 * const scheme: CustomScheme = { header: 'X-Signature', prefix: 'sha256=', encoding: 'hex', signed: 'timestamp.body', timestampHeader: 'X-Timestamp', idHeader: 'X-Event-Id' };
 * ```
 */
export interface CustomScheme {
  readonly header: string;
  /** What precedes each signature in the header (`sha256=`, `v1=`); '' for none. */
  readonly prefix: string;
  readonly encoding: 'hex' | 'base64';
  readonly signed: 'body' | 'timestamp.body' | 'id.timestamp.body';
  readonly idHeader?: string;
  readonly timestampHeader?: string;
}

/** A named scheme, or one the config describes. */
export type Scheme = SignatureScheme | CustomScheme;
