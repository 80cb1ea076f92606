/**
 * The clean reference server: every convention it implements, observed over HTTP.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultCatalogue, startReferenceServer } from '../src/index.js';
import { rawExchange, startHarness, type Exchange, type Harness } from './client.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

function expectProblem(res: Exchange, status: number): Record<string, any> {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe('application/problem+json');
  expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text)));
  expect(res.headers['cache-control']).toBe('no-store');
  const body = res.json();
  expect(body).toMatchObject({ status, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
  return body;
}

function fields(res: Exchange): string[] {
  return (res.json().errors as { field: string }[]).map((e) => e.field);
}

describe('startReferenceServer', () => {
  it('binds 127.0.0.1 with a random base64url API key', () => {
    expect(h.server.url).toBe(`http://127.0.0.1:${h.server.port}`);
    expect(h.server.secrets.RESTPROBE_API_KEY).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(h.server.faults).toEqual([]);
  });

  it('refuses an unknown fault and lists the valid ones', async () => {
    await expect(startReferenceServer({ faults: ['no-such-fault'] })).rejects.toThrow(
      new RegExp(`Unknown fault: no-such-fault\\. Valid faults: ${faultCatalogue[0]?.name}`),
    );
  });

  it('uses a given API key', async () => {
    const server = await startReferenceServer({ apiKey: 'k-123' });
    const res = await fetch(`${server.url}/v2`, { headers: { authorization: 'Bearer k-123' } });
    expect(res.status).toBe(200);
    await server.close();
  });
});

describe('routing', () => {
  it('GET /v2 links to the collections', async () => {
    const res = await h.call('GET', '/v2');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ _links: { projects: '/v2/projects', members: '/v2/members', events: '/v2/events', api_keys: '/v2/api-keys' } });
  });

  it('answers an unknown path with a 404 problem, before credentials', async () => {
    const body = expectProblem(await h.call('GET', '/nowhere', { auth: false }), 404);
    expect(body).toMatchObject({ type: 'about:blank', title: 'Not Found' });
    expectProblem(await h.call('GET', '/v2/projects/', {}), 404);
    expectProblem(await h.call('GET', '/v2/tasks', {}), 404);
  });

  it('answers OPTIONS without credentials: Allow, Accept-Post, Accept-Patch', async () => {
    const collection = await h.call('OPTIONS', '/v2/projects', { auth: false });
    expect(collection.status).toBe(204);
    expect(collection.text).toBe('');
    expect(collection.headers['allow']).toBe('GET, HEAD, POST, OPTIONS');
    expect(collection.headers['accept-post']).toBe('application/json');
    expect(collection.headers['accept-patch']).toBeUndefined();
    expect(collection.headers['content-type']).toBeUndefined();
    expect(collection.headers['content-length']).toBeUndefined();

    const item = await h.call('OPTIONS', '/v2/tasks/x', { auth: false });
    expect(item.headers['allow']).toBe('GET, HEAD, PUT, PATCH, DELETE, OPTIONS');
    expect(item.headers['accept-patch']).toBe('application/merge-patch+json, application/json');
    expect(item.headers['accept-post']).toBeUndefined();
  });

  it('answers an unsupported method with 405 and Allow, before credentials', async () => {
    const res = await h.call('DELETE', '/v2/projects', { auth: false });
    expectProblem(res, 405);
    expect(res.headers['allow']).toBe('GET, HEAD, POST, OPTIONS');
    const action = await h.call('PUT', '/v2/tasks/x/completion', { json: {} });
    expect(action.headers['allow']).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('answers odd paths and queries with 4xx, never 5xx', async () => {
    const paths = [
      '/v2/projects/%00',
      '/v2/projects/..%2f',
      '/v2/projects/..',
      '/v2/projects/%E0%A4%A',
      `/v2/projects/${'a'.repeat(5000)}`,
      '/v2/projects?limit=%ZZ&&&=&cursor',
      '/v2/projects/%2e%2e/tasks',
      '/v2//projects',
    ];
    for (const path of paths) {
      for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
        const res = await h.call(method, path, method === 'PUT' || method === 'PATCH' ? { json: { name: 'n' } } : {});
        expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${method} ${path}`).toBeLessThan(500);
      }
    }
    // Unknown query parameters are ignored, however odd.
    expect((await h.call('GET', '/v2/projects?x=%00&status[]=1&%ZZ')).status).toBe(200);
  });

  it('answers a request Node cannot parse with a problem body', async () => {
    const raw = await rawExchange(h.server.port, `GET /v2 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(raw).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(raw).toContain('Content-Type: application/problem+json');
    expect(raw).toContain('"status":431');
  });
});

describe('API keys', () => {
  it('mints a key shown once and never cached, which authenticates until it is deleted', async () => {
    const minted = await h.call('POST', '/v2/api-keys', { json: { name: 'ci' } });
    expect(minted.status).toBe(201);
    expect(minted.headers['cache-control']).toBe('no-store');
    expect(minted.headers['pragma']).toBe('no-cache');
    const { id, key, prefix } = minted.json() as { id: string; key: string; prefix: string };
    expect(minted.headers['location']).toBe(`/v2/api-keys/${id}`);
    expect(key.startsWith(prefix)).toBe(true);
    const shown = await h.call('GET', `/v2/api-keys/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.text).not.toContain(key);
    expect((await h.call('GET', '/v2/projects', { auth: false, headers: { 'x-api-key': key } })).status).toBe(200);
    expect((await h.call('DELETE', `/v2/api-keys/${id}`)).status).toBe(204);
    expect((await h.call('GET', '/v2/projects', { auth: false, headers: { 'x-api-key': key } })).status).toBe(401);
    expect((await h.call('GET', `/v2/api-keys/${id}`)).status).toBe(404);
  });

  it('refuses a key without a name with 422 on "name"', async () => {
    const res = await h.call('POST', '/v2/api-keys', { json: {} });
    expect(expectProblem(res, 422)).toMatchObject({ errors: [{ field: 'name' }] });
  });
});

describe('authentication', () => {
  it('challenges a request without credentials', async () => {
    const res = await h.call('GET', '/v2/projects', { auth: false });
    expect(expectProblem(res, 401)).toMatchObject({ type: 'about:blank', title: 'Unauthorized' });
    expect(res.headers['www-authenticate']).toBe('Bearer realm="restprobe-reference"');
  });

  it('refuses a wrong key with invalid_token, and never echoes keys', async () => {
    const res = await h.call('GET', '/v2/projects', { auth: false, headers: { 'x-api-key': 'secret-guess' } });
    expectProblem(res, 401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="restprobe-reference", error="invalid_token"');
    expect(res.text).not.toContain('secret-guess');
    const both = await h.call('GET', '/v2', { headers: { authorization: 'Bearer wrong' } });
    expect(both.status).toBe(401);
    expect(both.text).not.toContain(h.server.secrets.RESTPROBE_API_KEY);
  });

  it('accepts the key as X-API-Key or as a Bearer token', async () => {
    const key = h.server.secrets.RESTPROBE_API_KEY;
    expect((await h.call('GET', '/v2', { auth: false, headers: { 'x-api-key': key } })).status).toBe(200);
    expect((await h.call('GET', '/v2', { auth: false, headers: { authorization: `bearer ${key}` } })).status).toBe(200);
  });
});

describe('negotiation', () => {
  it.each([
    ['text/html', 406],
    ['application/problem+json', 406],
    ['application/json;q=0', 406],
    ['application/json;q=0, */*', 406],
    ['text/html, application/xml;q=0.9', 406],
    ['garbage', 406],
    ['*/*', 200],
    ['application/*;q=0.5', 200],
    ['text/html, application/json;q=0.1', 200],
    ['application/json; charset=utf-8', 200],
    ['APPLICATION/JSON', 200],
    ['text/html;level="a,b", */*;q=0.2', 200],
  ])('Accept: %s → %i', async (accept, status) => {
    const res = await h.call('GET', '/v2/projects', { headers: { accept } });
    expect(res.status).toBe(status);
    if (status === 406) expectProblem(res, 406);
  });

  it('refuses a body in another media type with 415 and says what it takes', async () => {
    const post = await h.call('POST', '/v2/projects', { body: '{"name":"x"}', headers: { 'content-type': 'text/plain' } });
    expectProblem(post, 415);
    expect(post.headers['accept-post']).toBe('application/json');
    const project = await h.createProject();
    const patch = await h.call('PATCH', `/v2/projects/${project.id}`, { body: '{}', headers: { 'content-type': 'text/plain' } });
    expectProblem(patch, 415);
    expect(patch.headers['accept-patch']).toBe('application/merge-patch+json, application/json');
    expectProblem(await h.call('POST', '/v2/projects', { body: '{"name":"x"}' }), 415);
    const mergeOnPost = await h.call('POST', '/v2/projects', {
      body: '{"name":"x"}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expectProblem(mergeOnPost, 415);
  });

  it('takes application/json with parameters, in any case, and merge patches on PATCH', async () => {
    const post = await h.call('POST', '/v2/projects', {
      body: '{"name":"x"}',
      headers: { 'content-type': 'Application/JSON; charset=UTF-8' },
    });
    expect(post.status).toBe(201);
    const patch = await h.call('PATCH', `/v2/projects/${post.json().id}`, {
      body: '{"status":"archived"}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(patch.status).toBe(200);
    expect(patch.json().status).toBe('archived');
  });
});

describe('request bodies', () => {
  it('refuses a declared body over 1 MiB with 413', async () => {
    const res = await h.call('POST', '/v2/projects', { json: { name: 'x', pad: 'a'.repeat(1024 * 1024) } });
    expect(expectProblem(res, 413)).toMatchObject({ title: 'Content Too Large' });
  });

  it('cuts off a chunked body at 1 MiB with 413', async () => {
    async function* chunks(): AsyncIterable<Buffer> {
      yield Buffer.from('{"name":"x","pad":"');
      for (let i = 0; i < 40; i++) yield Buffer.alloc(64 * 1024, 'a');
      yield Buffer.from('"}');
    }
    const res = await h.call('POST', '/v2/projects', { body: Readable.from(chunks()), headers: { 'content-type': 'application/json' } });
    expectProblem(res, 413);
  });

  it('answers malformed JSON with 400', async () => {
    for (const body of ['{"name":', '{name: "x"}', "{'name':'x'}", '\u00ff', Buffer.from([0xc3, 0x28])]) {
      const res = await h.call('POST', '/v2/projects', { body, headers: { 'content-type': 'application/json' } });
      expect(expectProblem(res, 400).type).toBe('urn:restprobe:problem:malformed-json');
    }
  });

  it('answers an empty body with 400', async () => {
    const res = await h.call('POST', '/v2/projects', { body: '', headers: { 'content-type': 'application/json' } });
    expect(expectProblem(res, 400).type).toBe('urn:restprobe:problem:body-required');
  });

  it('answers a body that is not an object with 422 on (body)', async () => {
    for (const json of [[], 'x', 1, null, true]) {
      const res = await h.call('POST', '/v2/projects', { body: JSON.stringify(json), headers: { 'content-type': 'application/json' } });
      expectProblem(res, 422);
      expect(fields(res)).toEqual(['(body)']);
    }
  });

  it('survives deeply nested and wide unknown fields', async () => {
    const depth = 200_000;
    const nested = `{"name":"deep","extra":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const res = await h.call('POST', '/v2/projects', { body: nested, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(201);
    expect(res.json()).not.toHaveProperty('extra');
    const wide = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]));
    expect((await h.call('POST', '/v2/projects', { json: { ...wide, name: 'wide' } })).status).toBe(201);
  });
});

describe('validation', () => {
  it('gives one error per bad field, named by its property', async () => {
    const res = await h.call('POST', '/v2/projects', { json: { name: 7, description: 3, status: 'closed' } });
    const body = expectProblem(res, 422);
    expect(body.type).toBe('urn:restprobe:problem:validation-failed');
    expect(fields(res).sort()).toEqual(['description', 'name', 'status']);
    for (const e of body.errors) expect(e.message).toEqual(expect.any(String));
  });

  it.each([
    [{}, 'name'],
    [{ name: '   ' }, 'name'],
    [{ name: 'x'.repeat(201) }, 'name'],
    [{ name: ['x'] }, 'name'],
    [{ name: { a: 1 } }, 'name'],
    [{ name: true }, 'name'],
    [{ name: 'x', description: 'd'.repeat(2001) }, 'description'],
  ])('refuses %j on %s', async (json, field) => {
    const res = await h.call('POST', '/v2/projects', { json });
    expectProblem(res, 422);
    expect(fields(res)).toEqual([field]);
  });

  it('accepts names at the limits, counting characters', async () => {
    expect((await h.call('POST', '/v2/projects', { json: { name: 'x'.repeat(200) } })).status).toBe(201);
    expect((await h.call('POST', '/v2/projects', { json: { name: '😀'.repeat(200) } })).status).toBe(201);
    expect((await h.call('POST', '/v2/projects', { json: { name: ` ${'x'.repeat(200)} ` } })).status).toBe(201);
  });
});

describe('projects', () => {
  it('POST creates with server-chosen id, defaults, 201 and Location', async () => {
    const res = await h.call('POST', '/v2/projects', {
      json: { name: 'Alpha', id: 'mine', created_at: 'then', updated_at: 'then', project_id: 'p', colour: 'red' },
    });
    expect(res.status).toBe(201);
    const project = res.json();
    expect(Object.keys(project)).toEqual(['id', 'name', 'description', 'status', 'label', 'created_at', 'updated_at', '_links']);
    // An active project has no action open: its _links name only itself.
    expect(project._links).toEqual({ self: `/v2/projects/${project.id}` });
    expect(project.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(project).toMatchObject({ name: 'Alpha', description: null, status: 'active', label: null });
    expect(new Date(project.created_at).toISOString()).toBe(project.created_at);
    expect(project.updated_at).toBe(project.created_at);
    expect(res.headers['location']).toBe(`/v2/projects/${project.id}`);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['cache-control']).toBe('no-store');

    const got = await h.call('GET', res.headers['location'] ?? '');
    expect(got.status).toBe(200);
    expect(got.json()).toEqual(project);
  });

  it('restoration is a noun action open only while the project is archived', async () => {
    const project = await h.createProject({ status: 'archived' });
    const path = `/v2/projects/${project.id}/restoration`;
    expect(project._links).toEqual({ self: `/v2/projects/${project.id}`, restoration: path });
    expectProblem(await h.call('GET', path), 404);
    const first = await h.call('POST', path);
    expect([first.status, first.headers['location']]).toEqual([201, path]);
    expect(first.json()).toEqual({ project_id: project.id, restored_at: expect.any(String) });
    expect((await h.call('POST', path, { json: {} })).json()).toEqual(first.json());
    expect((await h.call('GET', path)).json()).toEqual(first.json());
    const restored = (await h.call('GET', `/v2/projects/${project.id}`)).json();
    expect([restored.status, restored._links]).toEqual(['active', { self: `/v2/projects/${project.id}` }]);
    // Archived again: the restoration is open again, and the old one is gone.
    expect((await h.call('PATCH', `/v2/projects/${project.id}`, { json: { status: 'archived' } })).json()._links.restoration).toBe(path);
    expectProblem(await h.call('GET', path), 404);
    const active = await h.createProject();
    expectProblem(await h.call('POST', `/v2/projects/${active.id}/restoration`), 409);
    expectProblem(await h.call('POST', '/v2/projects/missing/restoration'), 404);
  });

  it('sends only deliberate headers', async () => {
    const project = await h.createProject();
    const res = await h.call('GET', `/v2/projects/${project.id}`);
    expect(Object.keys(res.headers).sort()).toEqual(
      ['cache-control', 'connection', 'content-length', 'content-type', 'date', 'etag', 'keep-alive', 'vary'].sort(),
    );
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text)));
  });

  it('HEAD sends the headers of GET and no body', async () => {
    const project = await h.createProject({ description: 'héad' });
    const get = await h.call('GET', `/v2/projects/${project.id}`);
    const head = await h.call('HEAD', `/v2/projects/${project.id}`);
    expect(head.status).toBe(200);
    // undici closes the connection after a HEAD, so hop-by-hop headers differ.
    const endToEnd = ({ date: _d, connection: _c, 'keep-alive': _k, ...rest }: Record<string, string>) => rest;
    const getHeaders = endToEnd(get.headers);
    const headHeaders = endToEnd(head.headers);
    expect(head.text).toBe('');
    expect(headHeaders).toEqual(getHeaders);
    // On the wire: nothing follows the header section.
    const raw = await rawExchange(
      h.server.port,
      `HEAD /v2/projects/${project.id} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${h.server.secrets.RESTPROBE_API_KEY}\r\nConnection: close\r\n\r\n`,
    );
    expect(raw.endsWith('\r\n\r\n')).toBe(true);
    expect(raw).toContain(`Content-Length: ${get.headers['content-length']}`);
  });

  it('PUT replaces: omitted optional fields reset, updated_at moves only on change', async () => {
    const project = await h.createProject({ description: 'd', status: 'archived' });
    const put = await h.call('PUT', `/v2/projects/${project.id}`, { json: { name: 'Renamed', id: 'other' } });
    expect(put.status).toBe(200);
    const replaced = put.json();
    expect(replaced).toMatchObject({ id: project.id, name: 'Renamed', description: null, status: 'active' });
    expect(replaced.created_at).toBe(project.created_at);
    expect(replaced.updated_at > project.updated_at).toBe(true);

    const again = await h.call('PUT', `/v2/projects/${project.id}`, { json: { name: 'Renamed' } });
    expect(again.json()).toEqual(replaced);
    expect((await h.call('GET', `/v2/projects/${project.id}`)).json()).toEqual(replaced);
  });

  it('PUT creates a missing id (201 + Location), and refuses impossible ids with 404', async () => {
    const put = await h.call('PUT', '/v2/projects/chosen_ID-1', { json: { name: 'Mine' } });
    expect(put.status).toBe(201);
    expect(put.headers['location']).toBe('/v2/projects/chosen_ID-1');
    expect(put.json()).toMatchObject({ id: 'chosen_ID-1', name: 'Mine', status: 'active' });
    expectProblem(await h.call('PUT', '/v2/projects/has.dot', { json: { name: 'x' } }), 404);
    expectProblem(await h.call('PUT', `/v2/projects/${'a'.repeat(65)}`, { json: { name: 'x' } }), 404);
    expectProblem(await h.call('PUT', '/v2/projects/new-one', { json: { description: 'no name' } }), 422);
  });

  it('PATCH merges: unsent fields kept, null clears, name null refused', async () => {
    const project = await h.createProject({ description: 'keep me', status: 'archived' });
    const path = `/v2/projects/${project.id}`;
    const renamed = await h.call('PATCH', path, { json: { name: 'New' } });
    expect(renamed.status).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'New', description: 'keep me', status: 'archived' });
    const cleared = await h.call('PATCH', path, { json: { description: null, status: null } });
    expect(cleared.json()).toMatchObject({ name: 'New', description: null, status: 'active' });
    const refused = await h.call('PATCH', path, { json: { name: null } });
    expectProblem(refused, 422);
    expect(fields(refused)).toEqual(['name']);
    const unchanged = await h.call('PATCH', path, { json: {} });
    expect(unchanged.json()).toEqual(cleared.json());
    expectProblem(await h.call('PATCH', '/v2/projects/missing', { json: {} }), 404);
  });

  it('DELETE answers 204 without content, then the item is gone; a repeat is 404', async () => {
    const project = await h.createProject();
    const path = `/v2/projects/${project.id}`;
    const del = await h.call('DELETE', path);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect(del.headers['content-type']).toBeUndefined();
    expect(del.headers['content-length']).toBeUndefined();
    expectProblem(await h.call('GET', path), 404);
    expectProblem(await h.call('DELETE', path), 404);
  });

  it('GET of an unknown id is a 404 problem', async () => {
    expect(expectProblem(await h.call('GET', '/v2/projects/unknown'), 404).title).toBe('Not Found');
  });

  it('handles concurrent creates', async () => {
    const created = await Promise.all(Array.from({ length: 50 }, (_, i) => h.createProject({ name: `c${i}` })));
    expect(new Set(created.map((p) => p.id)).size).toBe(50);
  });
});

describe('pagination', () => {
  async function walk(path: string, limit: number): Promise<{ ids: string[]; pages: number }> {
    const ids: string[] = [];
    let pages = 0;
    let cursor: string | null = null;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const url: string = `${path}${sep}limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
      const res = await h.call('GET', url);
      expect(res.status).toBe(200);
      const page = res.json();
      expect(Object.keys(page)).toEqual(['data', 'next_cursor']);
      expect(page.data.length).toBeLessThanOrEqual(limit);
      ids.push(...page.data.map((p: { id: string }) => p.id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor !== null);
    return { ids, pages };
  }

  it('walks every item once, in creation order, with a default and a capped limit', async () => {
    const { server, call, close } = await startHarness();
    try {
      const ids: string[] = [];
      for (let i = 0; i < 25; i++) {
        const res = await call('POST', '/v2/projects', { json: { name: `p${i}`, status: i % 2 ? 'archived' : 'active' } });
        ids.push(res.json().id);
      }
      const first = (await call('GET', '/v2/projects')).json();
      expect(first.data).toHaveLength(10);
      expect(typeof first.next_cursor).toBe('string');
      const all = (await call('GET', '/v2/projects?limit=100&unknown=1')).json();
      expect(all.data.map((p: { id: string }) => p.id)).toEqual(ids);
      expect(all.next_cursor).toBeNull();
      const archived = (await call('GET', '/v2/projects?status=archived&limit=100')).json();
      expect(archived.data).toHaveLength(12);
      void server;
    } finally {
      await close();
    }
  });

  it('never skips or repeats across writes between pages', async () => {
    const base = await h.call('GET', '/v2/projects?limit=100');
    const before = new Set(base.json().data.map((p: { id: string }) => p.id));
    const mine: string[] = [];
    for (let i = 0; i < 6; i++) mine.push((await h.createProject({ name: `page${i}` })).id);
    const { ids, pages } = await walk('/v2/projects', 3);
    expect(pages).toBeGreaterThan(1);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => mine.includes(id))).toEqual(mine);

    // Insert and delete in the middle of a walk.
    const page1 = (await h.call('GET', '/v2/projects?limit=2')).json();
    const deletedAhead = ids.find((id) => !page1.data.some((p: { id: string }) => p.id === id) && !mine.includes(id) && before.has(id));
    if (deletedAhead !== undefined) await h.call('DELETE', `/v2/projects/${deletedAhead}`);
    const added = await h.createProject({ name: 'late' });
    const rest = await h.call('GET', `/v2/projects?limit=100&cursor=${encodeURIComponent(page1.next_cursor)}`);
    const restIds: string[] = rest.json().data.map((p: { id: string }) => p.id);
    expect(restIds).toContain(added.id);
    expect(restIds.some((id) => page1.data.some((p: { id: string }) => p.id === id))).toBe(false);
  });

  it.each(['0', '101', 'abc', '1.5', '-1', '', '1e1', ' 5'])('refuses limit=%s with 400 on limit', async (limit) => {
    const res = await h.call('GET', `/v2/projects?limit=${encodeURIComponent(limit)}`);
    expect(expectProblem(res, 400).type).toBe('urn:restprobe:problem:invalid-query-parameter');
    expect(fields(res)).toEqual(['limit']);
  });

  it('refuses forged, tampered and foreign cursors with 400 on cursor', async () => {
    await h.createProject();
    await h.createProject();
    const page = (await h.call('GET', '/v2/projects?limit=1')).json();
    const cursor: string = page.next_cursor;
    const [payload = '', mac = ''] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify({ scope: '/v2/projects', after: 0 })).toString('base64url');
    const project = await h.createProject();
    const bad = [
      'garbage',
      `${forged}.${mac}`,
      `${payload}.${mac.slice(0, -2)}AA`,
      `${payload}x.${mac}`,
      `${cursor}.extra`,
      'a'.repeat(4000),
    ];
    for (const c of bad) {
      const res = await h.call('GET', `/v2/projects?cursor=${encodeURIComponent(c)}`);
      expectProblem(res, 400);
      expect(fields(res)).toEqual(['cursor']);
    }
    const foreign = await h.call('GET', `/v2/projects/${project.id}/tasks?cursor=${encodeURIComponent(cursor)}`);
    expect(fields(foreign)).toEqual(['cursor']);
  });

  it('refuses bad filters and repeated parameters with 400', async () => {
    expect(fields(await h.call('GET', '/v2/projects?status=closed'))).toEqual(['status']);
    expect(fields(await h.call('GET', '/v2/projects?limit=1&limit=2'))).toEqual(['limit']);
    const project = await h.createProject();
    expect(fields(await h.call('GET', `/v2/projects/${project.id}/tasks?done=yes`))).toEqual(['done']);
    const both = await h.call('GET', '/v2/projects?status=x&limit=x');
    expect(fields(both).sort()).toEqual(['limit', 'status']);
  });
});

describe('tasks', () => {
  it('are created and listed under their project, addressed at the top level', async () => {
    const project = await h.createProject();
    const tasksPath = `/v2/projects/${project.id}/tasks`;
    const res = await h.call('POST', tasksPath, { json: { title: 'Write', project_id: 'ignored' } });
    expect(res.status).toBe(201);
    const task = res.json();
    expect(Object.keys(task)).toEqual(['id', 'project_id', 'title', 'done', 'created_at', 'updated_at', '_links']);
    expect(task).toMatchObject({ project_id: project.id, title: 'Write', done: false });
    // _links name only the actions open in the task's state: completion while it is not done.
    expect(task._links).toEqual({ self: `/v2/tasks/${task.id}`, project: `/v2/projects/${project.id}`, completion: `/v2/tasks/${task.id}/completion` });
    expect(res.headers['location']).toBe(`/v2/tasks/${task.id}`);
    const done = (await h.call('POST', tasksPath, { json: { title: 'Done already', done: true } })).json();
    expect(Object.keys(done._links)).toEqual(['self', 'project']);

    const list = (await h.call('GET', tasksPath)).json();
    expect(list.data.map((t: { title: string }) => t.title)).toEqual(['Write', 'Done already']);
    expect((await h.call('GET', `${tasksPath}?done=true`)).json().data).toHaveLength(1);
    expect((await h.call('GET', `/v2/tasks/${task.id}`)).json()).toEqual(task);
  });

  it('answer 404 under a missing project', async () => {
    expectProblem(await h.call('GET', '/v2/projects/missing/tasks'), 404);
    expectProblem(await h.call('POST', '/v2/projects/missing/tasks', { json: { title: 't' } }), 404);
  });

  it('validate title and done', async () => {
    const project = await h.createProject();
    const res = await h.call('POST', `/v2/projects/${project.id}/tasks`, { json: { title: '', done: 'yes' } });
    expectProblem(res, 422);
    expect(fields(res).sort()).toEqual(['done', 'title']);
  });

  it('PUT-create needs project_id naming an existing project', async () => {
    const project = await h.createProject();
    expect(fields(await h.call('PUT', '/v2/tasks/t-1', { json: { title: 't' } }))).toEqual(['project_id']);
    expect(fields(await h.call('PUT', '/v2/tasks/t-1', { json: { title: 't', project_id: 'nope' } }))).toEqual(['project_id']);
    const created = await h.call('PUT', '/v2/tasks/t-1', { json: { title: 't', project_id: project.id } });
    expect(created.status).toBe(201);
    expect(created.headers['location']).toBe('/v2/tasks/t-1');
    const replaced = await h.call('PUT', '/v2/tasks/t-1', { json: { title: 'u' } });
    expect(replaced.json()).toMatchObject({ project_id: project.id, title: 'u', done: false });
  });

  it('completion is a noun action: 201 + Location, then 200 with the same completion', async () => {
    const project = await h.createProject();
    const task = (await h.call('POST', `/v2/projects/${project.id}/tasks`, { json: { title: 'Finish' } })).json();
    const path = `/v2/tasks/${task.id}/completion`;
    expectProblem(await h.call('GET', path), 404);
    const first = await h.call('POST', path);
    expect(first.status).toBe(201);
    expect(first.headers['location']).toBe(path);
    expect(first.json()).toEqual({ task_id: task.id, completed_at: expect.any(String) });
    const again = await h.call('POST', path, { json: {} });
    expect(again.status).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect((await h.call('GET', path)).json()).toEqual(first.json());
    expect((await h.call('GET', `/v2/tasks/${task.id}`)).json().done).toBe(true);
    await h.call('PATCH', `/v2/tasks/${task.id}`, { json: { done: false } });
    expectProblem(await h.call('GET', path), 404);
    expectProblem(await h.call('POST', '/v2/tasks/missing/completion'), 404);
  });

  it('are deleted with their project', async () => {
    const project = await h.createProject();
    const task = (await h.call('POST', `/v2/projects/${project.id}/tasks`, { json: { title: 'Gone' } })).json();
    expect((await h.call('DELETE', `/v2/projects/${project.id}`)).status).toBe(204);
    expectProblem(await h.call('GET', `/v2/tasks/${task.id}`), 404);
  });
});

describe('Idempotency-Key on POST', () => {
  it('replays the stored result for the same key and body: one resource', async () => {
    const headers = { 'idempotency-key': '"server-test-replay"' };
    const first = await h.call('POST', '/v2/projects', { json: { name: 'once', status: 'archived' }, headers });
    // Members in another order are the same body; a bare token names the same key as its sf-string.
    const again = await h.call('POST', '/v2/projects', { json: { status: 'archived', name: 'once' }, headers: { 'idempotency-key': 'server-test-replay' } });
    expect(first.status).toBe(201);
    expect([again.status, again.headers['location'], again.text]).toEqual([201, first.headers['location'], first.text]);
    const task = { 'idempotency-key': '"server-test-task"' };
    const t1 = await h.call('POST', `/v2/projects/${first.json().id}/tasks`, { json: { title: 't' }, headers: task });
    const t2 = await h.call('POST', `/v2/projects/${first.json().id}/tasks`, { json: { title: 't' }, headers: task });
    expect(t2.json().id).toBe(t1.json().id);
  });

  it('refuses the same key with another body with 422 problem+json, and creates nothing', async () => {
    const headers = { 'idempotency-key': '"server-test-mismatch"' };
    expect((await h.call('POST', '/v2/members', { json: { name: 'a' }, headers })).status).toBe(201);
    const other = await h.call('POST', '/v2/members', { json: { name: 'b' }, headers });
    expect(expectProblem(other, 422)).toMatchObject({ type: 'urn:restprobe:problem:idempotency-key-reused' });
  });

  it('keeps keys per client and per path, and frees a key whose request was refused', async () => {
    const headers = { 'idempotency-key': '"server-test-scope"' };
    const refused = await h.call('POST', '/v2/projects', { json: { name: 42 }, headers });
    expect(refused.status).toBe(422);
    const project = await h.call('POST', '/v2/projects', { json: { name: 'fixed' }, headers });
    expect(project.status).toBe(201);
    const member = await h.call('POST', '/v2/members', { json: { name: 'fixed' }, headers });
    expect(member.status).toBe(201);
    expect(member.json().id).not.toBe(project.json().id);
  });

  it('handles a POST without a key as usual', async () => {
    const a = await h.call('POST', '/v2/projects', { json: { name: 'same' } });
    const b = await h.call('POST', '/v2/projects', { json: { name: 'same' } });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.json().id).not.toBe(b.json().id);
  });
});

describe('versions', () => {
  it('serves the deprecated /v1 with Deprecation, a later Sunset and a deprecation Link; /v2 without them', async () => {
    const project = await h.createProject({ name: 'versioned' });
    const v1 = await h.call('GET', `/v1/projects/${project.id}`);
    expect(v1.status).toBe(200);
    expect(v1.headers['deprecation']).toBe('@1735689600');
    expect(new Date(v1.headers['sunset']!).getTime() / 1000).toBeGreaterThan(1735689600);
    expect(v1.headers['link']).toBe('</v2/deprecations/v1>; rel="deprecation"; type="application/json"');
    expect((await h.call('GET', '/v2/deprecations/v1')).json()).toMatchObject({ version: 1, successor: 2 });
    // The rename in transition: v1 sends the old name beside the new one, v2 only the new.
    expect(v1.json()).toMatchObject({ id: project.id, title: 'versioned', name: 'versioned' });
    const v2 = await h.call('GET', `/v2/projects/${project.id}`);
    expect(v2.json()).not.toHaveProperty('title');
    expect(v2.headers['deprecation']).toBeUndefined();
    expect(v2.headers['sunset']).toBeUndefined();
    const created = await h.call('POST', '/v1/projects', { json: { name: 'via v1' } });
    expect(created.headers['location']).toMatch(/^\/v1\/projects\//);
    expect((await h.call('GET', '/v1/projects')).json().data.every((p: Record<string, unknown>) => p['title'] === p['name'])).toBe(true);
  });

  it('answers the removed /v0 with 410 problem+json', async () => {
    expectProblem(await h.call('GET', '/v0/projects'), 410);
  });

  it('names the version in Accept under the header scheme, with Vary: Accept', async () => {
    const hh = await startHarness([], { versioning: 'header' });
    try {
      const vendor = (n: number) => ({ accept: `application/vnd.restprobe+json; version=${n}` });
      const created = await hh.call('POST', '/projects', { json: { name: 'header' } });
      expect([created.status, created.headers['location']]).toEqual([201, `/projects/${created.json().id}`]);
      const current = await hh.call('GET', `/projects/${created.json().id}`, { headers: vendor(2) });
      expect([current.status, current.headers['vary'], current.headers['deprecation'], current.headers['content-type']]).toEqual([200, 'Accept', undefined, 'application/json']);
      const old = await hh.call('GET', `/projects/${created.json().id}`, { headers: vendor(1) });
      expect(old.headers['deprecation']).toBe('@1735689600');
      expect(old.headers['link']).toBe('</deprecations/v1>; rel="deprecation"; type="application/json"');
      expect(old.json()).toMatchObject({ title: 'header', name: 'header' });
      expect((await hh.call('GET', '/deprecations/v1')).status).toBe(200);
      expectProblem(await hh.call('GET', '/projects', { headers: vendor(0) }), 410);
      expect((await hh.call('GET', '/projects', { headers: vendor(7) })).status).toBe(406);
      expect((await hh.call('GET', '/v2/projects')).status).toBe(404);
    } finally {
      await hh.close();
    }
  });

  it('names the version in X-API-Version under the x-api-version scheme, with Vary naming it', async () => {
    const hh = await startHarness([], { versioning: 'x-api-version' });
    try {
      const version = (n: number | string) => ({ 'x-api-version': String(n) });
      const created = await hh.call('POST', '/projects', { json: { name: 'custom' } });
      expect([created.status, created.headers['location']]).toEqual([201, `/projects/${created.json().id}`]);
      const current = await hh.call('GET', `/projects/${created.json().id}`, { headers: version(2) });
      expect([current.status, current.headers['vary'], current.headers['deprecation']]).toEqual([200, 'Accept, X-API-Version', undefined]);
      const old = await hh.call('GET', `/projects/${created.json().id}`, { headers: version(1) });
      expect([old.headers['deprecation'], old.headers['link']]).toEqual(['@1735689600', '</deprecations/v1>; rel="deprecation"; type="application/json"']);
      expect(old.json()).toMatchObject({ title: 'custom', name: 'custom' });
      expectProblem(await hh.call('GET', '/projects', { headers: version(0) }), 410);
      expectProblem(await hh.call('GET', '/projects', { headers: version('seven') }), 400);
      expect((await hh.call('GET', '/v2/projects')).status).toBe(404);
    } finally {
      await hh.close();
    }
  });

  it('names the version in ?v= under the query scheme, and keeps it in the links of an old version', async () => {
    const hh = await startHarness([], { versioning: 'query' });
    try {
      const created = await hh.call('POST', '/projects', { json: { name: 'queried' } });
      expect([created.status, created.headers['location']]).toEqual([201, `/projects/${created.json().id}`]);
      const current = await hh.call('GET', `/projects/${created.json().id}?v=2`);
      expect([current.status, current.headers['deprecation']]).toEqual([200, undefined]);
      const old = await hh.call('GET', `/projects/${created.json().id}?v=1`);
      expect([old.headers['deprecation'], old.headers['link']]).toEqual(['@1735689600', '</deprecations/v1>; rel="deprecation"; type="application/json"']);
      expect(old.json()).toMatchObject({ title: 'queried', name: 'queried' });
      const task = (await hh.call('POST', `/projects/${created.json().id}/tasks`, { json: { title: 't' } })).json();
      expect(task._links.project).toBe(`/projects/${created.json().id}`);
      expect((await hh.call('GET', `/tasks/${task.id}?v=1`)).json()._links.project).toBe(`/projects/${created.json().id}?v=1`);
      expect((await hh.call('GET', '/projects?v=1&limit=1')).json().data).toHaveLength(1);
      expectProblem(await hh.call('GET', '/projects?v=0'), 410);
      expectProblem(await hh.call('GET', '/projects?v=7'), 400);
    } finally {
      await hh.close();
    }
  });
});
