/**
 * LIM-credentialed-not-public on stand-ins whose personalised listing says `no-cache`: RFC
 * 9111 §3.5 keeps a shared cache from reusing a response to a request with Authorization
 * unless public, s-maxage or must-revalidate allows it, so a Bearer API that says only
 * `no-cache` keeps it to one user; an API key in X-API-Key gets no such protection.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runChecks } from '../src/engine/run.js';
import { catalogue } from '../suites/catalogue.js';
import { testProfile, thingsCollection } from './support/profile.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A listing of no items, answered with `cacheControl`, to any request that carries the key in `header`. */
async function judged(header: 'Authorization' | 'X-API-Key', cacheControl: string) {
  server = createServer((req, res) => {
    if (req.headers[header.toLowerCase()] === undefined) return void res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': cacheControl }).end(JSON.stringify({ data: [], next_cursor: null }));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const base = testProfile(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { keyHeader: header, readOnly: true });
  const { createBody: _, ...readOnly } = thingsCollection;
  const profile = { ...base, collections: [{ ...readOnly, personalised: true }] };
  const { results } = await runChecks({ profile, checks: catalogue.filter((c) => c.id === 'LIM-credentialed-not-public'), seed: 1 });
  return results[0]!;
}

describe('a personalised listing answered Cache-Control: no-cache', () => {
  it('passes for a Bearer token in Authorization, which no shared cache reuses, and says why', async () => {
    const result = await judged('Authorization', 'no-cache');
    expect(result.status, result.message).toBe('pass');
    expect(result.evidence.notes.join('\n')).toMatch(/Cache-Control "no-cache": sent with Authorization, so no shared cache reuses it \(RFC 9111 §3\.5\)/);
  });

  it('fails with must-revalidate, which lets shared caches reuse it all the same', async () => {
    const result = await judged('Authorization', 'no-cache, must-revalidate');
    expect(result.status).toBe('fail');
    expect(result.message).toMatch(/must-revalidate lets shared caches reuse it/);
  });

  it('fails for a key in X-API-Key, which RFC 9111 §3.5 does not cover', async () => {
    const result = await judged('X-API-Key', 'no-cache');
    expect(result.status).toBe('fail');
    expect(result.message).toMatch(/the key travels in X-API-Key, not Authorization/);
  });

  it('passes with private whatever carries the key', async () => {
    for (const header of ['Authorization', 'X-API-Key'] as const) expect((await judged(header, 'private, no-cache')).status).toBe('pass');
  });
});

describe('a personalised listing answered Cache-Control: private="Set-Cookie"', () => {
  it('fails for a key in X-API-Key: a private that names fields keeps only those from shared caches, not the content (RFC 9111 §5.2.2.7)', async () => {
    const result = await judged('X-API-Key', 'private="Set-Cookie", max-age=60');
    expect(result.status).toBe('fail');
    expect(result.evidence.notes.join('\n')).toMatch(/a private naming fields keeps only those from shared caches, not the content/);
  });
});

/** The listing answered `cacheControl` and `extra` headers (a CDN's own). */
async function judgedWith(extra: Record<string, string>, header: 'Authorization' | 'X-API-Key' = 'X-API-Key') {
  server = createServer((req, res) => {
    if (req.headers[header.toLowerCase()] === undefined) return void res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'private, max-age=60', ...extra }).end(JSON.stringify({ data: [], next_cursor: null }));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const base = testProfile(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { keyHeader: header, readOnly: true });
  const { createBody: _, ...readOnly } = thingsCollection;
  const { results } = await runChecks({ profile: { ...base, collections: [{ ...readOnly, personalised: true }] }, checks: catalogue.filter((c) => c.id === 'LIM-credentialed-not-public'), seed: 1 });
  return results[0]!;
}

describe('a personalised listing answered private, with a header for CDNs beside it', () => {
  it('fails where CDN-Cache-Control or Surrogate-Control lets the CDN store it (RFC 9213: it overrides Cache-Control there)', async () => {
    for (const extra of [{ 'cdn-cache-control': 'max-age=600' }, { 'surrogate-control': 'max-age=600' }] as Record<string, string>[]) {
      const result = await judgedWith(extra);
      expect([result.status, result.message]).toEqual(['fail', expect.stringMatching(/which lets a CDN store it whatever Cache-Control says/)]);
      await new Promise<void>((resolve) => server!.close(() => resolve()));
      server = undefined;
    }
  });

  it('passes where that header says no-store or private', async () => {
    expect((await judgedWith({ 'cdn-cache-control': 'no-store' })).status).toBe('pass');
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    expect((await judgedWith({ 'cdn-cache-control': 'private, max-age=600' })).status).toBe('pass');
  });

  it('passes for a request with Authorization, which no CDN reuses without public, s-maxage or must-revalidate (RFC 9111 §3.5), and says why; with s-maxage it fails', async () => {
    const bearer = await judgedWith({ 'cdn-cache-control': 'max-age=600' }, 'Authorization');
    expect(bearer.status, bearer.message).toBe('pass');
    expect(bearer.evidence.notes.join('\n')).toMatch(/sent with Authorization, so no CDN reuses it/);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    expect((await judgedWith({ 'cdn-cache-control': 's-maxage=600' }, 'Authorization')).status).toBe('fail');
  });
});
