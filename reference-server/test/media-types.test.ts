/**
 * One Accept parser decides both whether JSON is acceptable (406) and which version the
 * header scheme serves. The cases are those where the two parsers it replaced disagreed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedVersion, acceptsJson, prefersCsv } from '../src/media-types.js';
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

describe('prefersCsv', () => {
  it.each([
    ['text/csv', true],
    ['text/html, application/xml;q=0.9, text/csv;q=0.8', true],
    ['text/*', true],
    ['application/json, text/csv;q=0.5', false],
    ['text/csv;q=0.5, */*', false],
    ['text/csv;q=0', false],
    ['*/*', false],
    [undefined, false],
  ])('%s: %s', (accept, prefers) => {
    expect(prefersCsv(accept)).toBe(prefers);
  });
});

describe('a listing as CSV, its second representation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness([]);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is chosen by an Accept that prefers it, with its own ETag and Vary: Accept; items stay JSON only', async () => {
    await h.createProject({ name: 'a "quoted", name' });
    const csv = await h.call('GET', '/v2/projects', { headers: { accept: 'text/csv' } });
    const json = await h.call('GET', '/v2/projects');
    expect([csv.status, csv.headers['content-type'], csv.headers['vary']]).toEqual([200, 'text/csv; charset=utf-8', 'Accept']);
    expect(csv.headers['etag']).not.toBe(json.headers['etag']);
    const [header, row] = csv.text.split('\r\n');
    expect(header).toMatch(/^id,name,/);
    expect(row).toContain('"a ""quoted"", name"');
    expect((await h.call('GET', `/v2/projects/${(json.json() as { data: { id: string }[] }).data[0]!.id}`, { headers: { accept: 'text/csv' } })).status).toBe(406);
  });
});
