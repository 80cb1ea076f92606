/**
 * One Accept parser decides both whether JSON is acceptable (406) and which version the
 * header scheme serves. The cases are those where the two parsers it replaced disagreed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedVersion, acceptsJson } from '../src/media-types.js';
import { startHarness, type Harness } from './client.js';

const vendor = 'application/vnd.restprobe+json';

describe('acceptedVersion', () => {
  it.each([
    // A range the client refuses chooses no version (the old version parser ignored q).
    [`${vendor}; version=1; q=0, application/json`, undefined],
    // A malformed range is ignored by both uses (the old version parser read it).
    [`${vendor}; version=1; q=2, application/json`, undefined],
    // A quoted `;` or `,` stays inside its parameter (the old version parser cut there).
    [`${vendor}; profile="a;version=7"; version=1`, '1'],
    [`${vendor}; profile="x,y"; version=1`, '1'],
    // The range the client prefers decides (the old version parser took the first).
    [`${vendor}; version=1; q=0.5, ${vendor}; version=2`, '2'],
    [`${vendor}; version=2, ${vendor}; version=1`, '2'],
    [`${vendor}; Version="1"`, '1'],
    ['application/json', undefined],
    [undefined, undefined],
  ])('%s: %s', (accept, version) => {
    expect(acceptedVersion(accept)).toBe(version);
  });
});

describe('acceptsJson', () => {
  it.each([
    [`${vendor}; version=1; q=0`, false],
    [`${vendor}; version=1; q=0, application/json`, true],
    [`${vendor}; profile="x,y"; version=1`, true],
    ['application/json;q=0, */*', false],
    ['text/html, application/*;q=0.1', true],
    ['text/html', false],
    ['', true],
  ])('%s: %s', (accept, accepts) => {
    expect(acceptsJson(accept)).toBe(accepts);
  });
});

describe('under the header scheme', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness([], { versioning: 'header' });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('serves the version of the range the 406 check accepted', async () => {
    const refusedV1 = await h.call('GET', '/projects', { headers: { accept: `${vendor}; version=1; q=0, application/json` } });
    expect([refusedV1.status, refusedV1.headers['deprecation']]).toEqual([200, undefined]);
    const quoted = await h.call('GET', '/projects', { headers: { accept: `${vendor}; profile="a;version=7"; version=1` } });
    expect([quoted.status, quoted.headers['deprecation']]).toEqual([200, '@1735689600']);
    expect((await h.call('GET', '/projects', { headers: { accept: `${vendor}; version=1; q=0` } })).status).toBe(406);
  });
});
