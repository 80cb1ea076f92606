import { describe, expect, it } from 'vitest';
import { base64Cores, scrubSecrets } from './secrets-scrub.js';

describe('scrubSecrets', () => {
  it('replaces every occurrence with $ENV_NAME', () => {
    expect(scrubSecrets('a k3y-1 b k3y-1', [{ envName: 'KEY', value: 'k3y-1' }])).toBe('a $KEY b $KEY');
  });

  it('catches the secret in its JSON, XML, HTML and URL encodings', () => {
    const value = "p&ss\"w/r'd";
    const text = [JSON.stringify({ v: value }), `<x a="p&amp;ss&quot;w/r&apos;d"/>`, '<pre>p&amp;ss&quot;w/r&#39;d</pre>', `?k=${encodeURIComponent(value)}`].join(' ');
    expect(scrubSecrets(text, [{ envName: 'PW', value }])).toBe('{"v":"$PW"} <x a="$PW"/> <pre>$PW</pre> ?k=$PW');
  });

  it('catches the secret as a form body encodes it (space as +, ! and ~ escaped)', () => {
    const value = 'pa ss!w~rd';
    expect(scrubSecrets(`client_secret=${new URLSearchParams({ v: value }).toString().slice(2)}&x=1`, [{ envName: 'CS', value }])).toBe('client_secret=$CS&x=1');
  });

  it('replaces a longer secret whole before a shorter one inside it', () => {
    const secrets = [{ envName: 'SHORT', value: 'abcd' }, { envName: 'LONG', value: 'abcdefgh' }];
    expect(scrubSecrets('abcdefgh abcd', secrets)).toBe('$LONG $SHORT');
  });

  it('finds each of many secrets, whichever one a text holds and in whatever form', () => {
    const secrets = Array.from({ length: 12 }, (_v, i) => ({ envName: `S${i}`, value: `sk_${i}_Zq8Wm3Rt7Yp2Xc5Vb9Nl` }));
    const basic = Buffer.from(`id:${secrets[7]!.value}`).toString('base64');
    expect(scrubSecrets(`Authorization: Basic ${basic}`, secrets)).not.toContain(basic.slice(8, 24));
    expect(scrubSecrets(`a ${secrets[11]!.value} b ${encodeURIComponent(secrets[3]!.value)} c`, secrets)).toBe('a $S11 b $S3 c');
    // A short secret (under 8 characters) is found too, beside long ones.
    expect(scrubSecrets('pin 4711x', [...secrets, { envName: 'PIN', value: '4711x' }])).toBe('pin $PIN');
  });

  it('leaves values shorter than 4 characters alone', () => {
    expect(scrubSecrets('the abc', [{ envName: 'TINY', value: 'abc' }])).toBe('the abc');
  });
});

describe('scrubSecrets on pieces of a secret', () => {
  const secret = { envName: 'TOKEN', value: 'tok_9f8e7d6c5b4a3f2e1d0c9b8a' };

  it('replaces a cut-off prefix or tail of 8 or more characters', () => {
    expect(scrubSecrets(`echoed "Bearer ${secret.value.slice(0, 17)}…"`, [secret])).toBe('echoed "Bearer $TOKEN…"');
    expect(scrubSecrets(`…${secret.value.slice(-9)} end`, [secret])).toBe('…$TOKEN end');
    expect(scrubSecrets(`a ${secret.value.slice(5, 13)} b`, [secret])).toBe('a $TOKEN b');
  });

  it('leaves runs shorter than 8 characters, and text that only looks alike', () => {
    expect(scrubSecrets(`a ${secret.value.slice(0, 7)} b`, [secret])).toBe(`a ${secret.value.slice(0, 7)} b`);
    expect(scrubSecrets('tok_9f8-e7d6c5b', [secret])).toBe('tok_9f8-e7d6c5b');
  });

  it('no 8-character run of the secret survives anywhere in a large text', () => {
    const pieces = Array.from({ length: 2000 }, (_, i) => `x${i} ${secret.value.slice(i % 10, 10 + (i % 15))} y`).join('\n');
    const out = scrubSecrets(pieces, [secret]);
    for (let i = 0; i + 8 <= secret.value.length; i++) expect(out).not.toContain(secret.value.slice(i, i + 8));
  });

  it('scrubs pieces of the JSON-encoded form too', () => {
    const quoted = { envName: 'PW', value: 'pa"ss\\word-0123456789' };
    const json = JSON.stringify({ v: quoted.value }).slice(0, 18);
    expect(scrubSecrets(json, [quoted])).not.toMatch(/ss\\\\word|word-01/);
  });
});

describe('scrubSecrets on encoded secrets', () => {
  const secret = { envName: 'CLIENT_SECRET', value: 'cs_Q7v2Lm9xR4tY8wZ1' };

  it('catches the secret base64- and base64url-encoded at every alignment, as an echoed Basic header holds it', () => {
    for (const id of ['a', 'ab', 'abc', 'restprobe-client']) {
      for (const encoding of ['base64', 'base64url'] as const) {
        const echoed = `{"seen":"Basic ${Buffer.from(`${id}:${secret.value}`).toString(encoding)}"}`;
        const out = scrubSecrets(echoed, [secret]);
        expect(out).toContain('$CLIENT_SECRET');
        for (const core of base64Cores(secret.value)) for (let i = 0; i + 8 <= core.length; i++) expect(out).not.toContain(core.slice(i, i + 8));
      }
    }
  });

  it('leaves base64 that shares only six bytes with a secret, and scrubs a cut echo holding nine', () => {
    const user = { envName: 'USERNAME', value: 'probe-user' };
    // A cursor whose key holds the run's mark: `restprobe-` shares `probe-` with the username.
    for (const pad of ['', 'a', 'ab']) {
      const cursor = Buffer.from(`{"k":["${pad}restprobe-d8a92c5a-280b0129"]}`).toString('base64url');
      expect(scrubSecrets(`GET /v2/projects?cursor=${cursor}`, [user])).toBe(`GET /v2/projects?cursor=${cursor}`);
    }
    // Cut after nine bytes of the secret, at each alignment: still scrubbed.
    for (const id of ['a', 'ab', 'abc']) {
      const whole = Buffer.from(`${id}:${secret.value}`).toString('base64');
      const cut = whole.slice(0, Math.ceil(((id.length + 1 + 9) * 8) / 6) + 1);
      expect(scrubSecrets(`Basic ${cut}…`, [secret])).toContain('$CLIENT_SECRET');
    }
  });

  it('gives three cores, one per alignment, each decided by the value alone', () => {
    const cores = base64Cores('0123456789').filter((_, i) => i % 3 === 0);
    expect(cores).toHaveLength(3);
    for (const [offset, core] of cores.entries()) {
      for (const pad of ['\0\0', '\xff\xff']) expect(Buffer.from(`${pad.slice(0, offset)}0123456789${pad}`, 'latin1').toString('base64')).toContain(core);
    }
  });
});

describe('scrubSecrets leaves ordinary words alone', () => {
  it('does not rewrite check ids or words that share 8 characters with a secret', () => {
    const secrets = [{ envName: 'CC_SECRET', value: 'cc-client-secret-5f3a9d' }, { envName: 'SPA_PASSWORD', value: 'any-password-123' }];
    const text = 'AUT-client-credentials-token failed; AUT-password-grant-refused passed; many-passwords; client-secret-missing';
    expect(scrubSecrets(text, secrets)).toBe(text);
  });

  it('still replaces a cut-off secret that reads as words, where it stands alone', () => {
    const secret = { envName: 'PHRASE', value: 'correct-horse-battery-staple' };
    expect(scrubSecrets('echoed "correct-horse-ba…"', [secret])).toBe('echoed "$PHRASE…"');
    expect(scrubSecrets('…battery-staple"', [secret])).toBe('…$PHRASE"');
  });

  it('replaces a secret cut where restprobe cut it, whatever an echo put before or after it', () => {
    const key = { envName: 'KEY', value: 'sk_live_echo_5f4e3d2c1b0a9f8e7d6c5b4a' };
    expect(scrubSecrets('{"seen_by":"ppppppsk_live_e…', [key])).toBe('{"seen_by":"pppppp$KEY…');
    expect(scrubSecrets('…echo_5f4e3d2c1b0a9f8e7d6c5b4aqqqq', [key])).toBe('…$KEYqqqq');
    // Not cut there: words that merely share a start with the secret stay.
    expect(scrubSecrets('ppppppsk_live_echoes', [key])).toBe('ppppppsk_live_echoes');
  });
});

describe('a JSON secret (a JWK)', () => {
  it("scrubs its members' pieces, never its structure: a member starting x- leaves a curl line's \"x- alone", () => {
    const jwk = JSON.stringify({ kty: 'EC', crv: 'P-256', x: 'x-Q3bT9mVw2LkPz8RfYh1NcD5sJuEa0GiKoXl4Wq7Zp', y: 'Hc8Jd2Ls9QwE4rTy6UiO0pA1sD3fG5hJ7kL9zX2cV4b', d: 'Mn5Bv7Cx9Za1Sd3Fg5Hj7Kl9Qw2Er4Ty6Ui8Op0As1D' });
    const secrets = [{ envName: 'JWT_KEY', value: jwk }];
    const html = '-H &quot;x-api-key: $API_KEY&quot;';
    expect(scrubSecrets(html, secrets)).toBe(html);
    // A member's piece, cut, is still scrubbed; so is the whole key.
    expect(scrubSecrets('d=Mn5Bv7Cx9Za1Sd3F…', secrets)).toBe('d=$JWT_KEY…');
    expect(scrubSecrets(`key ${jwk}`, secrets)).toBe('key $JWT_KEY');
  });
});
