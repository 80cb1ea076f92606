import { describe, expect, it } from 'vitest';
import { normaliseBaseUrl } from './base-url.js';
import { loadProfile } from './load.js';
import { RestprobeError } from '../errors.js';

describe('URLs the user gives are never echoed with what they carry', () => {
  it('a base URL with a key in its query names the parameter, not its value', () => {
    const result = normaliseBaseUrl('http://127.0.0.1:1/?api_key=SECRETSECRET123#frag');
    expect(result).toEqual({ ok: false, problem: 'must not have a query or fragment (found ?api_key=…#…)' });
  });

  it.each([
    ['credentials', 'http://bob:Sup3rS3cretPw@127.0.0.1:1', /--plain-http-url: must not contain credentials \(found user:password@\)/],
    ['a key in its query', 'http://127.0.0.1:1/?token=Sup3rS3cretPw', /--plain-http-url: must not have a query or fragment \(found \?token=…\)/],
    ['https', 'https://127.0.0.1:1', /--plain-http-url: must be an http:\/\/ URL \(found https:\/\/\)/],
  ])('a --plain-http-url with %s is refused, saying why, without its secret', async (_what, plainHttpUrl, message) => {
    const err = await loadProfile({ baseUrl: 'https://127.0.0.1:2', plainHttpUrl, env: {} }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(RestprobeError);
    const text = [(err as RestprobeError).message, ...(err as RestprobeError).problems].join('\n');
    expect(text).toMatch(message);
    expect(text).not.toContain('Sup3rS3cretPw');
  });
});
