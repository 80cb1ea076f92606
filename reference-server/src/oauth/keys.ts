/**
 * The key the authorization server signs access tokens with, and what it publishes of it.
 *
 * RS256 (the default): an RSA 2048 key pair, made once per process (making one takes a
 * tenth of a second or more, and test suites start hundreds of servers; each server's
 * issuer differs, so no token of one is valid at another); the JWKS publishes the public
 * half. HS256 (`serve --jwt-alg HS256`): a 256-bit shared secret, never published (the
 * JWKS is empty). Either way the private key is exported as one line of JWK JSON
 * (`RESTPROBE_JWT_TEST_KEY`), so a harness can forge tokens the server would accept and
 * then break one property at a time.
 */
import { generateKeyPair, randomBytes, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { calculateJwkThumbprint, type JWK } from 'jose';

/** The algorithms the server can be pinned to. */
export type JwtAlgorithm = 'RS256' | 'HS256';
export const jwtAlgorithms: readonly JwtAlgorithm[] = ['RS256', 'HS256'];

export interface SigningKeys {
  readonly alg: JwtAlgorithm;
  readonly kid: string;
  readonly signKey: KeyObject | Uint8Array;
  readonly verifyKey: KeyObject | Uint8Array;
  /** The JWKS `keys`: the public JWK (with kid, alg, use "sig"), none for HS256. */
  readonly publicJwks: readonly JWK[];
  /** The private signing key as one line of JWK JSON, with kid and alg. */
  readonly testKey: string;
  /**
   * The public key's PEM encodings as bytes (SPKI and PKCS#1, with and without the final
   * newline): the HMAC secrets an attacker would try, for fault `jwt-key-confusion`.
   */
  readonly confusionSecrets: readonly Uint8Array[];
}

/** The process's RSA key pair, once it is asked for. */
let rsaKeyPair: Promise<{ publicKey: KeyObject; privateKey: KeyObject }> | undefined;

/** The signing key for `alg`: a fresh HS256 secret, or the process's RSA key pair. */
export async function createSigningKeys(alg: JwtAlgorithm): Promise<SigningKeys> {
  if (alg === 'HS256') {
    const secret = new Uint8Array(randomBytes(32));
    const kid = randomBytes(8).toString('base64url');
    const jwk = { kty: 'oct', k: Buffer.from(secret).toString('base64url'), kid, alg };
    return { alg, kid, signKey: secret, verifyKey: secret, publicJwks: [], testKey: JSON.stringify(jwk), confusionSecrets: [] };
  }
  rsaKeyPair ??= promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  const { publicKey, privateKey } = await rsaKeyPair;
  const publicJwk = publicKey.export({ format: 'jwk' }) as JWK;
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateJwk = { ...(privateKey.export({ format: 'jwk' }) as JWK), kid, alg };
  const pems = [publicKey.export({ type: 'spki', format: 'pem' }), publicKey.export({ type: 'pkcs1', format: 'pem' })].map(String);
  const confusionSecrets = pems.flatMap((pem) => [pem, pem.trimEnd()]).map((pem) => new TextEncoder().encode(pem));
  return {
    alg,
    kid,
    signKey: privateKey,
    verifyKey: publicKey,
    publicJwks: [{ ...publicJwk, kid, alg, use: 'sig' }],
    testKey: JSON.stringify(privateJwk),
    confusionSecrets,
  };
}
