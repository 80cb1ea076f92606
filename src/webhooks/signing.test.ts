import { describe, expect, it } from 'vitest';
import { hasTimestamp, readMeta, schemeName, signHeaders, verify, type CustomScheme, type SignatureScheme } from './signing.js';

describe('webhook signing', () => {
  it('reproduces the Standard Webhooks published test vector, and verifies it', () => {
    const body = Buffer.from('{"test": 2432232314}');
    const headers = signHeaders('standard', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body);
    expect(headers['webhook-signature']).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    const meta = readMeta('standard', headers, body);
    expect(verify('standard', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', meta, body)).toEqual({ ok: true });
    // Any signature in the space-separated list may match.
    expect(verify('standard', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', { ...meta, signature: `v1,AAAA ${meta.signature}` }, body)).toEqual({ ok: true });
    // Re-serialised JSON is other bytes: it does not verify.
    expect(verify('standard', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', meta, Buffer.from(JSON.stringify(JSON.parse(body.toString())))).ok).toBe(false);
  });

  it('reads Svix\'s own header names (svix-id, svix-timestamp, svix-signature) under standard, where the webhook- ones are absent', () => {
    const body = Buffer.from('{"test": 2432232314}');
    const signed = signHeaders('standard', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body);
    const svix = Object.fromEntries(Object.entries(signed).map(([k, v]) => [k.replace(/^webhook-/, 'svix-'), v]));
    const meta = readMeta('standard', svix, body);
    expect(meta).toEqual({ id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: '1614265330', signature: signed['webhook-signature'] });
    expect(verify('standard', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', meta, body)).toEqual({ ok: true });
    // Signed with another key, it still fails.
    expect(verify('standard', 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', meta, body).ok).toBe(false);
  });

  it("reproduces GitHub's example signature", () => {
    const body = Buffer.from('Hello, World!');
    const headers = signHeaders('github', "It's a Secret to Everybody", 'd1', 0, body);
    expect(headers['x-hub-signature-256']).toBe('sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17');
    expect(verify('github', "It's a Secret to Everybody", readMeta('github', headers, body), body)).toEqual({ ok: true });
    expect(readMeta('github', headers, body).timestamp).toBeUndefined();
  });

  it.each(['standard', 'github', 'stripe'] as SignatureScheme[])('%s: signs and verifies, refuses a wrong secret, a changed body and a missing header', (scheme) => {
    const body = Buffer.from('{"id":"evt_1","type":"x"}');
    const headers = signHeaders(scheme, 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0', 'evt_1', 1_700_000_000, body);
    const meta = readMeta(scheme, headers, body);
    expect(meta.id).toBe('evt_1');
    expect(verify(scheme, 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0', meta, body)).toEqual({ ok: true });
    expect(verify(scheme, 'whsec_b3RoZXJvdGhlcm90aGVy', meta, body).ok).toBe(false);
    expect(verify(scheme, 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0', meta, Buffer.from('{"id":"evt_1","type":"y"}')).ok).toBe(false);
    expect(verify(scheme, 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0', { ...meta, signature: undefined }, body)).toMatchObject({ ok: false, missing: 'signature' });
  });

  it('stripe: reads the timestamp from t=, and the id from the body', () => {
    const body = Buffer.from('{"id":"evt_9"}');
    const meta = readMeta('stripe', signHeaders('stripe', 'whsec_x', 'ignored', 1614265330, body), body);
    expect(meta).toMatchObject({ id: 'evt_9', timestamp: '1614265330' });
  });

  it("a custom scheme described like GitHub's reproduces GitHub's example signature", () => {
    const likeGithub: CustomScheme = { header: 'X-Hub-Signature-256', prefix: 'sha256=', encoding: 'hex', signed: 'body', idHeader: 'X-GitHub-Delivery' };
    const body = Buffer.from('Hello, World!');
    const headers = signHeaders(likeGithub, "It's a Secret to Everybody", 'd1', 0, body);
    expect(headers['x-hub-signature-256']).toBe('sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17');
    expect(verify(likeGithub, "It's a Secret to Everybody", readMeta(likeGithub, headers, body), body)).toEqual({ ok: true });
    expect(hasTimestamp(likeGithub)).toBe(false);
  });

  it.each([
    { header: 'X-Signature', prefix: '', encoding: 'base64', signed: 'id.timestamp.body', idHeader: 'X-Event-Id', timestampHeader: 'X-Timestamp' },
    { header: 'Signature', prefix: 'v1=', encoding: 'hex', signed: 'timestamp.body', timestampHeader: 'Signature-Timestamp' },
  ] as CustomScheme[])('custom $header ($signed, $encoding): signs, verifies, and refuses a wrong secret, another body, a missing timestamp', (scheme) => {
    const body = Buffer.from('{"id":"evt_1"}');
    const headers = signHeaders(scheme, 'sekrit', 'evt_1', 1_700_000_000, body);
    const meta = readMeta(scheme, headers, body);
    expect(meta.timestamp).toBe('1700000000');
    expect(hasTimestamp(scheme)).toBe(true);
    expect(verify(scheme, 'sekrit', meta, body)).toEqual({ ok: true });
    // The signed content is what the scheme says: the same MAC over another timestamp fails.
    expect(verify(scheme, 'sekrit', { ...meta, timestamp: '1700000001' }, body).ok).toBe(false);
    expect(verify(scheme, 'other', meta, body).ok).toBe(false);
    expect(verify(scheme, 'sekrit', meta, Buffer.from('{"id":"evt_2"}')).ok).toBe(false);
    expect(verify(scheme, 'sekrit', { ...meta, timestamp: undefined }, body)).toMatchObject({ ok: false, missing: 'timestamp' });
    expect(schemeName(scheme)).toBe(`custom (${scheme.header})`);
  });
});
