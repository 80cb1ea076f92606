import { describe, expect, it } from 'vitest';
import { REDACTED, isCredentialHeader, redactHeaders, redactJsonText } from './redact.js';

describe('redactHeaders', () => {
  it('redacts the credential headers by name, whatever their case', () => {
    const out = redactHeaders({
      Authorization: 'Bearer abc',
      'X-API-Key': 'k',
      'api-key': 'k',
      'Proxy-Authorization': 'Basic x',
      cookie: 'sid=1',
      'set-cookie': ['a=1', 'b=2'],
      'content-type': 'application/json',
    });
    expect(out).toEqual({
      Authorization: REDACTED,
      'X-API-Key': REDACTED,
      'api-key': REDACTED,
      'Proxy-Authorization': REDACTED,
      cookie: REDACTED,
      'set-cookie': REDACTED,
      'content-type': 'application/json',
    });
  });

  it('redacts the configured credential header too', () => {
    expect(redactHeaders({ 'x-tenant-key': 'k', accept: '*/*' }, ['X-Tenant-Key'])).toEqual({ 'x-tenant-key': REDACTED, accept: '*/*' });
    expect(isCredentialHeader('X-TENANT-KEY', ['x-tenant-key'])).toBe(true);
    expect(isCredentialHeader('x-request-id')).toBe(false);
  });
});

describe('redactJsonText', () => {
  it('redacts secret-named members and keeps the rest', () => {
    const text = JSON.stringify({ access_token: 'at', refresh_token: 'rt', client_secret: 'cs', password: 'pw', apiKey: 'k', api_key: 7, name: 'n', expires_in: 3600 });
    expect(JSON.parse(redactJsonText(text))).toEqual({
      access_token: REDACTED,
      refresh_token: REDACTED,
      client_secret: REDACTED,
      password: REDACTED,
      apiKey: REDACTED,
      api_key: REDACTED,
      name: 'n',
      expires_in: 3600,
    });
  });

  it('redacts inside nested objects and arrays', () => {
    const text = JSON.stringify({ data: [{ user: { name: 'a', password: 'p1' } }, { session: { Cookie: 'c' } }], meta: { authorization: 'Bearer x' } });
    expect(JSON.parse(redactJsonText(text))).toEqual({
      data: [{ user: { name: 'a', password: REDACTED } }, { session: { Cookie: REDACTED } }],
      meta: { authorization: REDACTED },
    });
  });

  it('redacts every value a secret-named member holds, not only strings', () => {
    const text = JSON.stringify({ tokens: ['t-one', 't-two'], credentials: { user: 'u', pass: 'p-three' }, password_set: true, secret: null });
    const out = redactJsonText(text);
    for (const value of ['t-one', 't-two', 'p-three']) expect(out).not.toContain(value);
    // Booleans and null say nothing secret.
    expect(JSON.parse(out)).toMatchObject({ password_set: true, secret: null });
  });

  it('returns the text unchanged when nothing is secret (byte for byte)', () => {
    const text = '{ "a" : 1,\n  "b": [true, null, "x"] }';
    expect(redactJsonText(text)).toBe(text);
  });

  it('passes non-JSON through unchanged', () => {
    for (const text of ['', 'not json', '<html>password=hunter2</html>', '{"access_token": "cut off', 'access_token=abc&x=1']) {
      expect(redactJsonText(text)).toBe(text);
    }
  });

  it('handles JSON scalars', () => {
    for (const text of ['"password"', '42', 'null', 'true']) expect(redactJsonText(text)).toBe(text);
  });

  it('does not throw on 10 000 levels of nesting', () => {
    const depth = 10_000;
    const arrays = '['.repeat(depth) + ']'.repeat(depth);
    const objects = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    for (const text of [arrays, objects]) {
      let out = '';
      expect(() => (out = redactJsonText(text))).not.toThrow();
      expect(() => JSON.parse(out)).not.toThrow();
    }
  });

  it('does not throw on deep nesting next to a secret member (JSON.stringify would overflow the stack)', () => {
    // 100 000 levels: a 200 kB body, well under the body cap; the stack overflows at far less.
    for (const depth of [10_000, 100_000]) {
      const deep = '['.repeat(depth) + ']'.repeat(depth);
      const text = `{"access_token":"at-deep-1","rest":${deep}}`;
      let out = '';
      expect(() => (out = redactJsonText(text))).not.toThrow();
      expect(out).not.toContain('at-deep-1');
      expect(JSON.parse(out)).toMatchObject({ access_token: REDACTED });
    }
  });

  it('never shows a secret member it was too deep to inspect', () => {
    const depth = 200;
    const text = '{"a":'.repeat(depth) + '{"access_token":"at-deep-2"}' + '}'.repeat(depth);
    const out = redactJsonText(text);
    expect(out).not.toContain('at-deep-2');
    expect(() => JSON.parse(out)).not.toThrow();
  });
});
