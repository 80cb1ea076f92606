/**
 * Reading and forging JWTs (RFC 7519, RFC 8725) without trusting them: decoding without
 * verifying, and the forgeries a resource server must refuse — `alg: none`, HS256 signed
 * with the published public key as the HMAC secret (key confusion, crafted by hand since
 * jose refuses to), and a tampered signature.
 */
import { createHmac, createPublicKey, type JsonWebKey } from 'node:crypto';
import { jose } from './lazy-libraries.js';

/** A JWT's parts, decoded but not verified. */
export interface DecodedJwt {
  readonly header: Record<string, unknown>;
  readonly claims: Record<string, unknown>;
  /** The three base64url segments as they came. */
  readonly segments: readonly [string, string, string];
}

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const base64urlSegment = /^[A-Za-z0-9_-]*$/;

/** Whether a token has the shape of a JWS compact serialisation (three dot-separated parts); else it is opaque. */
export function looksLikeJwt(token: string): boolean {
  return token.split('.').length === 3;
}

/** The token decoded, or a sentence saying why it is no well-formed JWT. */
export function decodeUnverified(token: string): DecodedJwt | string {
  const segments = token.split('.');
  if (segments.length !== 3) return `${segments.length} dot-separated parts, not 3`;
  const bad = segments.findIndex((s) => !base64urlSegment.test(s));
  if (bad !== -1) return `part ${bad + 1} is not base64url (it holds characters outside A–Z a–z 0–9 - _)`;
  try {
    return { header: jose().decodeProtectedHeader(token) as Record<string, unknown>, claims: jose().decodeJwt(token) as Record<string, unknown>, segments: segments as [string, string, string] };
  } catch (err) {
    return `it does not decode: ${(err as Error).message}`;
  }
}

/** The genuine token's claims under `alg: none` with an empty signature (RFC 7519 §6.1). */
export function forgeAlgNone(jwt: DecodedJwt): string {
  return `${b64url({ ...jwt.header, alg: 'none' })}.${jwt.segments[1]}.`;
}

/** HS256 over `header.payload` with `secret` as the key, made by hand. */
export function hs256(header: Record<string, unknown>, payloadSegment: string, secret: string | Buffer): string {
  const signingInput = `${b64url(header)}.${payloadSegment}`;
  return `${signingInput}.${createHmac('sha256', secret).update(signingInput).digest('base64url')}`;
}

/** The public key of a JWK as PEM text (SPKI, or for RSA also PKCS#1): what a confused verifier takes as its HMAC secret. */
export function publicKeyPem(jwk: JsonWebKey, type: 'spki' | 'pkcs1' = 'spki'): string {
  return createPublicKey({ key: jwk, format: 'jwk' }).export({ type, format: 'pem' }).toString();
}

/**
 * The genuine token's claims signed HS256 with the public key's PEM text as the secret
 * (RFC 8725 §2.1's RS256 → HS256 confusion): SPKI (`BEGIN PUBLIC KEY`) and, for RSA, PKCS#1
 * (`BEGIN RSA PUBLIC KEY`), each with and without its final newline, as servers keep key
 * files in either form and read them either way.
 */
export function forgeKeyConfusion(jwt: DecodedJwt, jwk: JsonWebKey): string[] {
  const pems = [publicKeyPem(jwk), ...(jwk.kty === 'RSA' ? [publicKeyPem(jwk, 'pkcs1')] : [])];
  const header = { ...jwt.header, alg: 'HS256' };
  return [...new Set(pems.flatMap((pem) => [pem, pem.trimEnd()]))].map((secret) => hs256(header, jwt.segments[1], secret));
}

/** The genuine token with one bit of its signature flipped (in the middle, where no padding bits lie). */
export function tamperSignature(jwt: DecodedJwt): string {
  const sig = Buffer.from(jwt.segments[2], 'base64url');
  if (sig.length === 0) return `${jwt.segments[0]}.${jwt.segments[1]}.${Buffer.from('restprobe').toString('base64url')}`;
  const at = sig.length >> 1;
  sig[at] = sig[at]! ^ 0x01;
  return `${jwt.segments[0]}.${jwt.segments[1]}.${sig.toString('base64url')}`;
}

/** The genuine token with its payload changed (`sub` replaced) under the original signature. */
export function tamperPayload(jwt: DecodedJwt): string {
  return `${jwt.segments[0]}.${b64url({ ...jwt.claims, sub: 'restprobe-tampered' })}.${jwt.segments[2]}`;
}
