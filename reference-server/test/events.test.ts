/** Events: an append-only collection, created and read, never replaced, patched or deleted. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../src/index.js';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ port: 0 });
});
afterAll(async () => server.close());

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { 'x-api-key': server.secrets.RESTPROBE_API_KEY, accept: 'application/json', ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

it('creates and reads events; PUT, PATCH and DELETE on one answer 405 with Allow', async () => {
  const created = await call('POST', '/v2/events', { kind: 'deploy', note: 'v1.2' });
  expect(created.status).toBe(201);
  const location = created.headers.get('location')!;
  expect((await call('GET', location)).status).toBe(200);
  for (const method of ['PUT', 'PATCH', 'DELETE']) {
    const res = await call(method, location, method === 'DELETE' ? undefined : { kind: 'x' });
    expect(res.status, method).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  }
  const page = (await (await call('GET', '/v2/events?kind=deploy')).json()) as { data: { note: string }[] };
  expect(page.data.map((e) => e.note)).toEqual(['v1.2']);
});
