import { createHmac, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { compactVerify, decodeJwt, decodeProtectedHeader, importJWK, SignJWT } from 'jose';
import { decodeUnverified, forgeAlgNone, forgeKeyConfusion, looksLikeJwt, publicKeyPem, tamperPayload, tamperSignature, type DecodedJwt } from './jwt.js';
import { freshClaims, signWithTestKey } from './jwt-sign.js';
import type { SigningKey } from '../model/needs.js';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicJwk = publicKey.export({ format: 'jwk' });
const privateJwk = { ...privateKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256' };
const jwtSettings = { algorithms: ['RS256'], personalData: { claims: [], values: [] } };

async function genuine(): Promise<{ token: string; jwt: DecodedJwt }> {
  const token = await new SignJWT({ iss: 'https://as.example', sub: 'c', aud: 'https://api.example', scope: 'read:*' }).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: 'k1' }).setIssuedAt().setExpirationTime('10m').sign(privateKey);
  return { token, jwt: decodeUnverified(token) as DecodedJwt };
}

describe('JWT forgeries', () => {
  it('decodes without verifying, and tells opaque and malformed tokens apart', async () => {
    const { token, jwt } = await genuine();
    expect(jwt.header).toEqual({ alg: 'RS256', typ: 'at+jwt', kid: 'k1' });
    expect(looksLikeJwt('opaque-random-token')).toBe(false);
    expect(decodeUnverified('a.b')).toMatch(/2 dot-separated parts/);
    expect(decodeUnverified('a+b.c.d')).toMatch(/part 1 is not base64url/);
    expect(decodeUnverified(token.replace(/^[^.]+/, 'bm90IGpzb24'))).toMatch(/does not decode/);
  });

  it('forges alg none with the genuine claims and an empty signature', async () => {
    const { jwt } = await genuine();
    const none = forgeAlgNone(jwt);
    expect(decodeProtectedHeader(none)).toMatchObject({ alg: 'none', typ: 'at+jwt' });
    expect(none.endsWith('.')).toBe(true);
    expect(none.split('.')[1]).toBe(jwt.segments[1]);
  });

  it('signs HS256 with the public key PEM as the secret (SPKI and PKCS#1), with and without its final newline', async () => {
    const { jwt } = await genuine();
    const pem = publicKeyPem(publicJwk);
    expect(pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+-----END PUBLIC KEY-----\n$/);
    const pkcs1 = publicKeyPem(publicJwk, 'pkcs1');
    expect(pkcs1).toMatch(/^-----BEGIN RSA PUBLIC KEY-----\n/);
    const forged = forgeKeyConfusion(jwt, publicJwk);
    expect(forged).toHaveLength(4);
    expect(decodeProtectedHeader(forged[0]!).alg).toBe('HS256');
    // A server whose key file is PKCS#1 and that takes it as an HMAC secret accepts one of them.
    for (const secret of [pem, pkcs1.trimEnd()]) {
      expect(forged.some((t) => {
        const [h, p, s] = t.split('.');
        return createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url') === s;
      }), secret.slice(0, 30)).toBe(true);
    }
  });

  it('tampers the signature or the payload so verification fails', async () => {
    const { jwt } = await genuine();
    for (const t of [tamperSignature(jwt), tamperPayload(jwt)]) await expect(compactVerify(t, publicKey)).rejects.toThrow();
    expect(decodeJwt(tamperPayload(jwt)).sub).toBe('restprobe-tampered');
  });
});

describe('signWithTestKey', () => {
  it('signs fresh claims with a private JWK, keeping the genuine header', async () => {
    const { jwt } = await genuine();
    const signing: SigningKey = { key: { envName: 'K', value: JSON.stringify(privateJwk) }, jwt: jwtSettings };
    const now = 1_800_000_000;
    const token = await signWithTestKey(signing, { ...freshClaims(jwt, now), iss: 'https://evil' }, jwt);
    const { payload, protectedHeader } = await compactVerify(token, await importJWK(publicJwk as never, 'RS256'));
    expect(protectedHeader).toEqual({ alg: 'RS256', typ: 'at+jwt', kid: 'k1' });
    expect(JSON.parse(new TextDecoder().decode(payload))).toMatchObject({ iss: 'https://evil', iat: now - 60, exp: now + 300 });
  });

  it('signs with a PKCS#8 PEM and an oct JWK too, and names the key without showing it when unusable', async () => {
    const { jwt } = await genuine();
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await expect(compactVerify(await signWithTestKey({ key: { envName: 'K', value: pem }, jwt: jwtSettings }, { sub: 'x' }, jwt), publicKey)).resolves.toBeDefined();
    const oct = { kty: 'oct', k: Buffer.from('a-shared-secret-of-32-bytes-long!').toString('base64url'), alg: 'HS256' };
    expect(decodeProtectedHeader(await signWithTestKey({ key: { envName: 'K', value: JSON.stringify(oct) }, jwt: jwtSettings }, { sub: 'x' }, jwt)).alg).toBe('HS256');
    await expect(signWithTestKey({ key: { envName: 'K', value: 'not-a-key-s3cr3t' }, jwt: jwtSettings }, {}, jwt)).rejects.toThrow(/auth\.jwt\.testSigningKey: neither a JWK/);
    const err = await signWithTestKey({ key: { envName: 'K', value: '{"kty":"RSA","n":"s3cr3tish"}' }, jwt: jwtSettings }, {}, jwt).catch((e: Error) => e);
    expect(String(err)).toMatch(/testSigningKey: cannot be used to sign/);
    expect(String(err)).not.toContain('s3cr3tish');
  });
});
