/**
 * HttpClient against a hostile server: every misbehaviour becomes the right
 * RestprobeError code, quickly, and nothing hangs.
 */
import { getEventListeners } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHostileServer, type HostileServer } from '../../test/support/hostile-server.js';
import { RestprobeError, type RestprobeErrorCode } from '../errors.js';
import { HttpClient, type ClientOptions } from './client.js';

const timeoutMs = 300;
const options: ClientOptions = { timeoutMs, maxBodyBytes: 1 << 20, connections: 4, maxRequests: 1_000 };
/** For tests that are not about the deadline: a loaded machine may take far longer than 300 ms to answer. */
const patientOptions: ClientOptions = { ...options, timeoutMs: 10_000 };
/** Each test's own limit: a hang fails the test instead of the suite. */
const fast = { timeout: 5_000 };

let server: HostileServer;
/** Its deadline is `timeoutMs`: for the tests about the deadline. */
let client: HttpClient;
let patient: HttpClient;

beforeAll(async () => {
  server = await startHostileServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  client = new HttpClient(options);
  patient = new HttpClient(patientOptions);
});
afterEach(async () => {
  await client.close();
  await patient.close();
});

const get = (path: string, c: HttpClient = patient) => c.send({ method: 'GET', url: server.url + path, headers: {} });

/**
 * The slack a bound on elapsed time gets: 250 ms, or more on a machine this test finds busy,
 * measured as 20 times a plain request's round trip here and now (a loaded CI runner is
 * slow everywhere, not only in the code under test).
 */
async function measuredSlack(): Promise<number> {
  const started = performance.now();
  // A path no test counts requests to.
  await get('/status?code=200');
  return Math.max(250, 20 * (performance.now() - started));
}

async function rejectsWith(promise: Promise<unknown>, code: RestprobeErrorCode): Promise<RestprobeError> {
  const err = await promise.then(
    (res) => {
      throw new Error(`expected ${code}, got a response: ${JSON.stringify(res).slice(0, 200)}`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RestprobeError);
  expect((err as RestprobeError).code, (err as Error).message).toBe(code);
  return err as RestprobeError;
}

/** A port on 127.0.0.1 that nothing listens on (bound, read, then released). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe('HttpClient against a hostile server', () => {
  it('reports the final response after a 1xx interim one', fast, async () => {
    const res = await get('/early-hints');
    expect(res.status).toBe(200);
    expect(res.headers['link']).toBeUndefined();
    expect(res.body.toString('utf8')).toBe('{"final":true}');
  });

  it('reassembles a body that arrives in many chunks', fast, async () => {
    const res = await get('/big?bytes=300000');
    expect(res.body.length).toBe(300000);
    expect((JSON.parse(res.body.toString('utf8')) as { data: string }).data).toBe('b'.repeat(300000 - 11));
  });

  it('an endless stream of 1xx interim responses → ERR_TIMEOUT', fast, async () => {
    const started = performance.now();
    await rejectsWith(get('/endless-interim', client), 'ERR_TIMEOUT');
    expect(performance.now() - started).toBeLessThan(timeoutMs * 4 + (await measuredSlack()));
  });

  it('keeps a small body without the socket read it arrived in', fast, async () => {
    const res = await get('/fat-headers');
    expect(res.body.toString('utf8')).toBe('{}');
    // The read held 12 KiB of header bytes; the kept body may share at most a pool slab.
    expect(res.body.buffer.byteLength).toBeLessThanOrEqual(8192);
  });

  it('a request undici refuses before sending (Proxy-Authorization through a proxy) → ERR_PROTOCOL, and the client still closes', fast, async () => {
    const proxied = new HttpClient({ ...options, proxy: `http://127.0.0.1:${await freePort()}` });
    await rejectsWith(proxied.send({ method: 'GET', url: `${server.url}/echo`, headers: { 'proxy-authorization': 'Basic eDp5' } }), 'ERR_PROTOCOL');
    await proxied.close();
  });

  it('answers a plain request', fast, async () => {
    const res = await get('/echo');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({ method: 'GET', url: '/echo' });
  });

  it('non-HTTP bytes → ERR_PROTOCOL', fast, async () => {
    const err = await rejectsWith(get('/garbage'), 'ERR_PROTOCOL');
    expect(err.message).toContain('/garbage');
  });

  it('an endless body → ERR_BODY_TOO_LARGE, without reading past the cap', fast, async () => {
    const started = performance.now();
    const err = await rejectsWith(get('/huge'), 'ERR_BODY_TOO_LARGE');
    expect(err.message).toContain('1048576');
    // The cap stops the read; a client that kept reading would never finish.
    expect(performance.now() - started).toBeLessThan(4_000);
  });

  it('a body that drips forever → ERR_TIMEOUT (the deadline covers the whole body)', fast, async () => {
    const err = await rejectsWith(get('/slow-drip', client), 'ERR_TIMEOUT');
    expect(err.message).toContain(`${timeoutMs} ms`);
  });

  it('no response headers → ERR_TIMEOUT', fast, async () => {
    await rejectsWith(get('/no-headers', client), 'ERR_TIMEOUT');
  });

  it('a reset mid-body → ERR_PROTOCOL', fast, async () => {
    await rejectsWith(get('/reset'), 'ERR_PROTOCOL');
  });

  it('does not follow redirects: a 302 is reported as it is', fast, async () => {
    const before = server.requestCount('/redirect-loop');
    const res = await get('/redirect-loop');
    expect(res.status).toBe(302);
    expect(res.headers['location']).toBe('/redirect-loop');
    expect(server.requestCount('/redirect-loop') - before).toBe(1);
  });

  it('a refused connection → ERR_TARGET_UNREACHABLE', fast, async () => {
    const port = await freePort();
    await rejectsWith(client.send({ method: 'GET', url: `http://127.0.0.1:${port}/`, headers: {} }), 'ERR_TARGET_UNREACHABLE');
  });

  it('a refused connection on "localhost" (both address families tried) → ERR_TARGET_UNREACHABLE', fast, async () => {
    const port = await freePort();
    await rejectsWith(client.send({ method: 'GET', url: `http://localhost:${port}/`, headers: {} }), 'ERR_TARGET_UNREACHABLE');
  });

  it('spends its request budget, then refuses with ERR_REQUEST_BUDGET', fast, async () => {
    const small = new HttpClient({ ...options, maxRequests: 2 });
    try {
      expect((await get('/echo', small)).status).toBe(200);
      expect((await get('/echo', small)).status).toBe(200);
      const before = server.requestCount('/echo');
      await rejectsWith(get('/echo', small), 'ERR_REQUEST_BUDGET');
      expect(server.requestCount('/echo')).toBe(before); // never sent
      expect(small.requestCount).toBe(2);
    } finally {
      await small.close();
    }
  });

  it('failed requests count against the budget too', fast, async () => {
    const small = new HttpClient({ ...options, maxRequests: 1 });
    try {
      await rejectsWith(get('/garbage', small), 'ERR_PROTOCOL');
      await rejectsWith(get('/echo', small), 'ERR_REQUEST_BUDGET');
    } finally {
      await small.close();
    }
  });

  it('keeps connections alive: 20 sequential requests use far fewer than 20 connections', fast, async () => {
    const before = server.connectionCount();
    for (let i = 0; i < 20; i++) expect((await get('/echo')).status).toBe(200);
    // undici may open a second connection while the first is being released; never one per request.
    expect(server.connectionCount() - before).toBeLessThanOrEqual(options.connections);
  });

  it('stays usable after every kind of failure', fast, async () => {
    for (const path of ['/garbage', '/huge', '/slow-drip', '/no-headers', '/reset']) await get(path, client).catch(() => undefined);
    expect((await get('/echo', client)).status).toBe(200);
  });

  it('close() returns promptly while a request to a silent server is in flight', fast, async () => {
    const own = new HttpClient(options);
    const before = server.requestCount('/no-headers');
    const pending = get('/no-headers', own).catch((e: unknown) => e);
    // Let the request reach the server before closing.
    while (server.requestCount('/no-headers') === before) await new Promise((r) => setImmediate(r));
    await own.close();
    expect(await pending).toBeInstanceOf(RestprobeError);
  });
});

describe('HttpClient deadline and cancellation', () => {
  /** Rejects with ERR_TIMEOUT in about timeoutMs (undici's coarse timers took ~1 s; the slack is for a loaded CI machine). */
  async function timesOutOnTime(path: string): Promise<void> {
    const slack = await measuredSlack();
    const started = performance.now();
    const err = await rejectsWith(get(path, client), 'ERR_TIMEOUT');
    const elapsed = performance.now() - started;
    expect(err.message).toContain(`no complete response within ${timeoutMs} ms (http.timeoutMs)`);
    expect(elapsed).toBeGreaterThanOrEqual(timeoutMs - 10);
    expect(elapsed).toBeLessThan(timeoutMs + slack);
  }

  it('a silent server: ERR_TIMEOUT within the timeout and a little slack', fast, async () => {
    await timesOutOnTime('/no-headers');
  });

  it('a body that drips forever: ERR_TIMEOUT within the timeout and a little slack (the whole body is bounded)', fast, async () => {
    await timesOutOnTime('/slow-drip');
  });

  it('the deadline counts from startedAt', fast, async () => {
    const slack = await measuredSlack();
    const started = performance.now();
    const pending = client.send({ method: 'GET', url: `${server.url}/no-headers`, headers: {}, startedAt: started - 200 });
    await rejectsWith(pending, 'ERR_TIMEOUT');
    expect(performance.now() - started).toBeLessThan(timeoutMs - 200 + slack);
  });

  it('an already-aborted signal: rejects without sending or spending budget', fast, async () => {
    const reason = new RestprobeError('ERR_TIMEOUT', 'check deadline passed');
    const before = server.requestCount('/echo');
    const err = await client.send({ method: 'GET', url: `${server.url}/echo`, headers: {}, signal: AbortSignal.abort(reason) }).catch((e: unknown) => e);
    expect(err).toBe(reason);
    expect(client.requestCount).toBe(0);
    expect(server.requestCount('/echo')).toBe(before);
  });

  it('an already-aborted signal with a foreign reason: ERR_TIMEOUT "aborted"', fast, async () => {
    const err = await rejectsWith(client.send({ method: 'GET', url: `${server.url}/echo`, headers: {}, signal: AbortSignal.abort() }), 'ERR_TIMEOUT');
    expect(err.message).toBe(`GET ${server.url}/echo: aborted`);
    expect(client.requestCount).toBe(0);
  });

  it('aborting mid-exchange rejects promptly with the reason, and the client stays usable', fast, async () => {
    const slow = new HttpClient({ ...options, timeoutMs: 4_000 });
    try {
      const ac = new AbortController();
      const before = server.requestCount('/no-headers');
      const pending = slow.send({ method: 'GET', url: `${server.url}/no-headers`, headers: {}, signal: ac.signal }).catch((e: unknown) => e);
      while (server.requestCount('/no-headers') === before) await new Promise((r) => setImmediate(r));
      const reason = new RestprobeError('ERR_TIMEOUT', 'check deadline passed');
      const slack = await measuredSlack();
      const aborted = performance.now();
      ac.abort(reason);
      expect(await pending).toBe(reason);
      expect(performance.now() - aborted).toBeLessThan(slack);
      expect(getEventListeners(ac.signal, 'abort')).toHaveLength(0);
      expect((await slow.send({ method: 'GET', url: `${server.url}/echo`, headers: {} })).status).toBe(200);
    } finally {
      await slow.close();
    }
  });

  it('aborting mid-body rejects promptly', fast, async () => {
    const ac = new AbortController();
    const slack = await measuredSlack();
    const pending = patient.send({ method: 'GET', url: `${server.url}/slow-drip`, headers: {}, signal: ac.signal }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 150));
    const aborted = performance.now();
    ac.abort();
    const err = (await pending) as RestprobeError;
    expect(err).toBeInstanceOf(RestprobeError);
    expect(err.code).toBe('ERR_TIMEOUT');
    expect(err.message).toContain('aborted');
    expect(performance.now() - aborted).toBeLessThan(slack);
    expect((await get('/echo')).status).toBe(200);
  });

  it('200 sequential requests on one signal leave no abort listener behind', fast, async () => {
    const ac = new AbortController();
    for (let i = 0; i < 200; i++) {
      const res = await client.send({ method: 'GET', url: `${server.url}/echo`, headers: {}, signal: ac.signal });
      expect(res.status).toBe(200);
    }
    // Failures settle too: a timeout and a protocol error.
    await client.send({ method: 'GET', url: `${server.url}/no-headers`, headers: {}, signal: ac.signal }).catch(() => undefined);
    await client.send({ method: 'GET', url: `${server.url}/garbage`, headers: {}, signal: ac.signal }).catch(() => undefined);
    expect(getEventListeners(ac.signal, 'abort').length).toBe(0);
  });

  it('a request that times out while still queued is rejected on time and never sent', fast, async () => {
    const one = new HttpClient({ ...options, timeoutMs: 4_000, connections: 1 });
    try {
      const ac = new AbortController();
      const silentBefore = server.requestCount('/no-headers');
      const echoBefore = server.requestCount('/echo');
      // The only connection waits on a silent server; the second request queues behind it.
      const hog = one.send({ method: 'GET', url: `${server.url}/no-headers`, headers: {}, signal: ac.signal }).catch((e: unknown) => e);
      while (server.requestCount('/no-headers') === silentBefore) await new Promise((r) => setImmediate(r));
      const slack = await measuredSlack();
      const started = performance.now();
      const queued = one.send({ method: 'GET', url: `${server.url}/echo`, headers: {}, startedAt: started - 3_700 });
      await rejectsWith(queued, 'ERR_TIMEOUT');
      expect(performance.now() - started).toBeLessThan(300 + slack);
      // Free the connection: undici starts the queued request, which is aborted at once.
      ac.abort();
      await hog;
      expect((await one.send({ method: 'GET', url: `${server.url}/big?bytes=10`, headers: {} })).status).toBe(200);
      expect(server.requestCount('/echo')).toBe(echoBefore);
    } finally {
      await one.close();
    }
  });

  it('close() returns promptly after a timed-out request', fast, async () => {
    const own = new HttpClient(options);
    await rejectsWith(get('/no-headers', own), 'ERR_TIMEOUT');
    const slack = await measuredSlack();
    const started = performance.now();
    await own.close();
    expect(performance.now() - started).toBeLessThan(slack);
  });
});

describe('the dispatchers the client loads on their own', () => {
  it('are the classes undici\'s index exports (a start-up saving that must not drift from the package)', async () => {
    const index = await import('undici');
    const own = await import('./undici-dispatchers.js');
    expect(own.Agent).toBe(index.Agent);
    expect(own.ProxyAgent).toBe(index.ProxyAgent);
  });
});
