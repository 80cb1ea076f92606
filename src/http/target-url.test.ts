import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitUrl } from './target-url.js';

/** What WHATWG URL parsing gives, or 'throws': the reference splitUrl must match. */
function parsed(url: string): { origin: string; path: string } | 'throws' {
  try {
    const u = new URL(url);
    return { origin: u.origin, path: u.pathname + u.search };
  } catch {
    return 'throws';
  }
}

function split(url: string): ReturnType<typeof parsed> {
  try {
    return splitUrl(url);
  } catch (err) {
    expect(err).toBeInstanceOf(TypeError);
    return 'throws';
  }
}

describe('splitUrl', () => {
  it('splits a plain URL without changing it', () => {
    expect(splitUrl('http://127.0.0.1:8080/v2/projects?limit=5&cursor=a%2Fb')).toEqual({ origin: 'http://127.0.0.1:8080', path: '/v2/projects?limit=5&cursor=a%2Fb' });
    expect(splitUrl('https://api.example.com')).toEqual({ origin: 'https://api.example.com', path: '/' });
  });

  it('gives what the URL parser gives where the parser rewrites', () => {
    for (const url of [
      'HTTP://API.Example.com:80/a',
      'http://h/a/../b',
      'http://h/a/%2E%2e/b',
      'http://h/a b',
      'http://h/é',
      'http://h/a#frag',
      'http://h/a?',
      'http://h/a?x=\'1\'',
      'http://h/a\\b',
      'http://[::1]:8080/x',
      'https://h:443/x',
    ]) {
      expect(split(url), url).toEqual(parsed(url));
    }
  });

  it('refuses what is not a URL, as the parser does', () => {
    expect(() => splitUrl('http://a b/x')).toThrow(TypeError);
    expect(() => splitUrl('/relative')).toThrow(TypeError);
  });

  it('matches the URL parser on any URL built from awkward characters', () => {
    const scheme = fc.constantFrom('http', 'https', 'HTTP');
    const host = fc.constantFrom('127.0.0.1', 'LocalHost', 'api.example.com', '[::1]', 'a%41b', 'bad host', 'u@h');
    const port = fc.constantFrom('', ':80', ':443', ':8080', ':99999');
    const rest = fc.string({ unit: fc.constantFrom('/', '.', '%', '2', 'e', 'E', '?', '#', ' ', '\t', 'é', '\\', "'", '`', '{', 'a', '@', ':', '&', '=', '~') });
    fc.assert(
      fc.property(scheme, host, port, rest, (s, h, p, r) => {
        const url = `${s}://${h}${p}${r}`;
        expect(split(url)).toEqual(parsed(url));
      }),
      { numRuns: 2000 },
    );
  });
});
