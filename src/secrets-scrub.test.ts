import { describe, expect, it } from 'vitest';
import { scrubSecrets } from './secrets-scrub.js';

describe('scrubSecrets', () => {
  it('replaces every occurrence with $ENV_NAME', () => {
    expect(scrubSecrets('a k3y-1 b k3y-1', [{ envName: 'KEY', value: 'k3y-1' }])).toBe('a $KEY b $KEY');
  });

  it('catches the secret in its JSON, XML and URL encodings', () => {
    const value = 'p&ss"w/rd';
    const text = [JSON.stringify({ v: value }), `<x a="p&amp;ss&quot;w/rd"/>`, `?k=${encodeURIComponent(value)}`].join(' ');
    expect(scrubSecrets(text, [{ envName: 'PW', value }])).toBe('{"v":"$PW"} <x a="$PW"/> ?k=$PW');
  });

  it('replaces a longer secret whole before a shorter one inside it', () => {
    const secrets = [{ envName: 'SHORT', value: 'abcd' }, { envName: 'LONG', value: 'abcdefgh' }];
    expect(scrubSecrets('abcdefgh abcd', secrets)).toBe('$LONG $SHORT');
  });

  it('leaves values shorter than 4 characters alone', () => {
    expect(scrubSecrets('the abc', [{ envName: 'TINY', value: 'abc' }])).toBe('the abc');
  });
});
