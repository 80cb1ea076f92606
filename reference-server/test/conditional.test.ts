/**
 * Validators, conditional requests, cache headers and nodes on the clean reference server:
 * strong ETags from the representation bytes, If-None-Match (weak comparison, 304),
 * If-Match (strong comparison, 412), Cache-Control and Vary, and two nodes over one store.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../src/index.js';
import { rawExchange, startHarness, type Exchange, type Harness } from './client.js';

/** Two nodes over one store; `call` asks node 0 unless told otherwise. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness([], { nodes: 2 });
});
afterAll(async () => {
  await h.close();
});

const strongTag = /^"[A-Za-z0-9_-]{27}"$/;

/** The ETag the conventions derive from a representation's bytes. */
function tagOf(text: string): string {
  return `"${createHash('sha256').update(text, 'utf8').digest('base64url').slice(0, 27)}"`;
}

function etag(res: Exchange): string {
  const tag = res.headers['etag'];
  if (tag === undefined) throw new Error(`no ETag on ${res.status}`);
  return tag;
}

function expectPreconditionFailed(res: Exchange): void {
  expect(res.status).toBe(412);
  expect(res.headers['content-type']).toBe('application/problem+json');
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['etag']).toBeUndefined();
  expect(res.json()).toMatchObject({ type: 'about:blank', title: 'Precondition Failed', status: 412, detail: expect.any(String) });
}

/** Raw request bytes with the API key; `Connection: close` so the exchange ends with the response. */
function rawRequest(method: string, path: string, headers: Record<string, string> = {}): string {
  const lines = Object.entries({ 'X-API-Key': h.server.secrets.RESTPROBE_API_KEY, ...headers }).map(([n, v]) => `${n}: ${v}\r\n`);
  return `${method} ${path} HTTP/1.1\r\nHost: x\r\n${lines.join('')}Connection: close\r\n\r\n`;
}

/** Status line, header names → values (lower-case), and whatever follows the header section. */
function parseRaw(raw: string): { statusLine: string; headers: Record<string, string>; rest: string } {
  const end = raw.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { statusLine, headers, rest: raw.slice(end + 4) };
}

describe('ETag', () => {
  it('is strong and derived only from the representation bytes, for items and collection pages', async () => {
    const project = await h.createProject({ name: 'tagged' });
    const item = await h.call('GET', `/v2/projects/${project.id}`);
    expect(item.status).toBe(200);
    expect(etag(item)).toMatch(strongTag);
    expect(etag(item)).toBe(tagOf(item.text));

    const page = await h.call('GET', '/v2/projects?limit=5');
    expect(page.status).toBe(200);
    expect(etag(page)).toBe(tagOf(page.text));

    const root = await h.call('GET', '/v2');
    expect(etag(root)).toBe(tagOf(root.text));
  });

  it('is stable while the resource is unchanged, and the same on HEAD', async () => {
    const project = await h.createProject();
    const path = `/v2/projects/${project.id}`;
    const first = await h.call('GET', path);
    const second = await h.call('GET', path);
    const head = await h.call('HEAD', path);
    expect(etag(second)).toBe(etag(first));
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(etag(head)).toBe(etag(first));
  });

  it('changes with every write, and write responses carry the ETag of the representation they return', async () => {
    const created = await h.call('POST', '/v2/projects', { json: { name: 'v1' } });
    expect(created.status).toBe(201);
    expect(etag(created)).toBe(tagOf(created.text));
    const path = `/v2/projects/${created.json().id}`;
    expect(etag(await h.call('GET', path))).toBe(etag(created));

    const patched = await h.call('PATCH', path, { json: { name: 'v2' } });
    expect(patched.status).toBe(200);
    expect(etag(patched)).not.toBe(etag(created));
    expect(etag(await h.call('GET', path))).toBe(etag(patched));

    // RFC 9110 §9.3.4: no validator on a PUT response, since the stored item adds id and timestamps.
    const put = await h.call('PUT', path, { json: { name: 'v3' } });
    expect(put.headers['etag']).toBeUndefined();
    expect(etag(await h.call('GET', path))).not.toBe(etag(patched));

    const putCreated = await h.call('PUT', '/v2/projects/etag-put-create', { json: { name: 'p' } });
    expect(putCreated.status).toBe(201);
    expect(putCreated.headers['etag']).toBeUndefined();

    // A collection page's tag moves when its content does.
    const before = etag(await h.call('GET', '/v2/projects?limit=100'));
    await h.createProject();
    expect(etag(await h.call('GET', '/v2/projects?limit=100'))).not.toBe(before);
  });

  it('is absent where there is no representation: DELETE 204, errors', async () => {
    const project = await h.createProject();
    const deleted = await h.call('DELETE', `/v2/projects/${project.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.headers['etag']).toBeUndefined();
    const missing = await h.call('GET', `/v2/projects/${project.id}`);
    expect(missing.status).toBe(404);
    expect(missing.headers['etag']).toBeUndefined();
  });
});

describe('If-None-Match (GET, HEAD)', () => {
  it('answers 304 with exactly the ETag, Cache-Control, Vary and Date a 200 would carry, and no content', async () => {
    const project = await h.createProject();
    const path = `/v2/projects/${project.id}`;
    const ok = await h.call('GET', path);
    const raw = parseRaw(await rawExchange(h.server.port, rawRequest('GET', path, { 'If-None-Match': etag(ok) })));
    expect(raw.statusLine).toBe('HTTP/1.1 304 Not Modified');
    expect(Object.keys(raw.headers).sort()).toEqual(['cache-control', 'connection', 'date', 'etag', 'vary']);
    expect(raw.headers['etag']).toBe(etag(ok));
    expect(raw.headers['cache-control']).toBe(ok.headers['cache-control']);
    expect(raw.headers['vary']).toBe(ok.headers['vary']);
    expect(raw.headers['date']).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    expect(raw.rest).toBe('');

    const res = await h.call('GET', path, { headers: { 'if-none-match': etag(ok) } });
    expect(res.status).toBe(304);
    expect(res.text).toBe('');
  });

  it('compares weakly: W/ of the current tag matches; a list matches if any member does; * matches', async () => {
    const project = await h.createProject();
    const path = `/v2/projects/${project.id}`;
    const tag = etag(await h.call('GET', path));
    for (const value of [`W/${tag}`, `"nope", ${tag}`, `"a,b" ,  W/"x", ${tag}`, '*', `, ${tag} ,`]) {
      const res = await h.call('GET', path, { headers: { 'if-none-match': value } });
      expect(res.status, value).toBe(304);
      expect(res.headers['etag']).toBe(tag);
    }
    for (const value of ['"nope"', 'W/"nope", "other"', '""']) {
      const res = await h.call('GET', path, { headers: { 'if-none-match': value } });
      expect(res.status, value).toBe(200);
      expect(res.json()).toEqual(project);
    }
  });

  it('works on HEAD and on collection pages, and a changed page answers 200 with its new tag', async () => {
    const project = await h.createProject();
    const head = await h.call('HEAD', `/v2/projects/${project.id}`, { headers: { 'if-none-match': etag(await h.call('GET', `/v2/projects/${project.id}`)) } });
    expect(head.status).toBe(304);

    const page = await h.call('GET', '/v2/projects?limit=100');
    expect((await h.call('GET', '/v2/projects?limit=100', { headers: { 'if-none-match': etag(page) } })).status).toBe(304);
    await h.createProject();
    const changed = await h.call('GET', '/v2/projects?limit=100', { headers: { 'if-none-match': etag(page) } });
    expect(changed.status).toBe(200);
    expect(etag(changed)).not.toBe(etag(page));
  });

  it('is evaluated only after credentials, Accept and 404', async () => {
    const project = await h.createProject();
    const path = `/v2/projects/${project.id}`;
    const tag = etag(await h.call('GET', path));
    expect((await h.call('GET', path, { auth: false, headers: { 'if-none-match': tag } })).status).toBe(401);
    expect((await h.call('GET', path, { headers: { 'if-none-match': tag, accept: 'text/html' } })).status).toBe(406);
    expect((await h.call('GET', '/v2/projects/nothing-here', { headers: { 'if-none-match': '*' } })).status).toBe(404);
  });

  it('refuses a malformed list with 400: * mixed with tags, unquoted tags, lower-case w/', async () => {
    const project = await h.createProject();
    for (const value of ['*, "x"', '"x", *', 'abc', 'w/"x"', '"x" "y"', '"unterminated']) {
      const res = await h.call('GET', `/v2/projects/${project.id}`, { headers: { 'if-none-match': value } });
      expect(res.status, value).toBe(400);
      expect(res.headers['content-type']).toBe('application/problem+json');
    }
  });
});

describe('If-Match (PUT, PATCH, DELETE)', () => {
  it('lets the write through on the current tag, in a list, or with *', async () => {
    const project = await h.createProject({ name: 'a' });
    const path = `/v2/projects/${project.id}`;
    let tag = etag(await h.call('GET', path));
    const patched = await h.call('PATCH', path, { json: { name: 'b' }, headers: { 'if-match': tag } });
    expect(patched.status).toBe(200);
    expect(patched.json().name).toBe('b');
    tag = etag(patched);
    const put = await h.call('PUT', path, { json: { name: 'c' }, headers: { 'if-match': `"old", ${tag}` } });
    expect(put.status).toBe(200);
    expect((await h.call('PATCH', path, { json: { name: 'd' }, headers: { 'if-match': '*' } })).status).toBe(200);
    const current = etag(await h.call('GET', path));
    expect((await h.call('DELETE', path, { headers: { 'if-match': current } })).status).toBe(204);
    expect((await h.call('GET', path)).status).toBe(404);
  });

  it('answers 412 to a stale or weak tag and leaves the resource unchanged (PUT, PATCH, DELETE)', async () => {
    const project = await h.createProject({ name: 'kept', description: 'kept too' });
    const path = `/v2/projects/${project.id}`;
    const stale = etag(await h.call('GET', path));
    await h.call('PATCH', path, { json: { name: 'moved on' } });
    const now = await h.call('GET', path);
    for (const ifMatch of [stale, `W/${etag(now)}`, '"unknown"', '']) {
      expectPreconditionFailed(await h.call('PUT', path, { json: { name: 'lost' }, headers: { 'if-match': ifMatch } }));
      expectPreconditionFailed(await h.call('PATCH', path, { json: { name: 'lost' }, headers: { 'if-match': ifMatch } }));
      expectPreconditionFailed(await h.call('DELETE', path, { headers: { 'if-match': ifMatch } }));
      const after = await h.call('GET', path);
      expect(after.text).toBe(now.text);
      expect(etag(after)).toBe(etag(now));
    }
  });

  it('answers 412 to PUT on a missing id with any If-Match, * included, and creates nothing', async () => {
    for (const ifMatch of ['*', '"whatever"']) {
      expectPreconditionFailed(await h.call('PUT', '/v2/projects/if-match-missing', { json: { name: 'n' }, headers: { 'if-match': ifMatch } }));
      expect((await h.call('GET', '/v2/projects/if-match-missing')).status).toBe(404);
    }
  });

  it('is ignored when the unconditional answer is an error other than 412', async () => {
    const project = await h.createProject();
    const path = `/v2/projects/${project.id}`;
    expect((await h.call('PATCH', '/v2/projects/no-such-id', { json: { name: 'n' }, headers: { 'if-match': '"x"' } })).status).toBe(404);
    expect((await h.call('DELETE', '/v2/projects/no-such-id', { headers: { 'if-match': '*' } })).status).toBe(404);
    // An id PUT can never create is 404, not 412.
    expect((await h.call('PUT', `/v2/projects/${'x'.repeat(65)}`, { json: { name: 'n' }, headers: { 'if-match': '*' } })).status).toBe(404);
    expect((await h.call('PATCH', path, { auth: false, json: { name: 'n' }, headers: { 'if-match': '"x"' } })).status).toBe(401);
    expect((await h.call('PATCH', path, { body: '{"name":"n"}', headers: { 'if-match': '"x"', 'content-type': 'text/plain' } })).status).toBe(415);
    expect((await h.call('PATCH', path, { body: '{"name":', headers: { 'if-match': '"x"', 'content-type': 'application/json' } })).status).toBe(400);
  });

  it('is evaluated before the body is validated: stale tag and bad body → 412; current tag and bad body → 422', async () => {
    const project = await h.createProject();
    const path = `/v2/projects/${project.id}`;
    const tag = etag(await h.call('GET', path));
    expectPreconditionFailed(await h.call('PATCH', path, { json: { name: '' }, headers: { 'if-match': '"stale"' } }));
    expect((await h.call('PATCH', path, { json: { name: '' }, headers: { 'if-match': tag } })).status).toBe(422);
  });

  it('refuses * mixed with tags with 400, and changes nothing', async () => {
    const project = await h.createProject();
    const path = `/v2/projects/${project.id}`;
    const before = await h.call('GET', path);
    const res = await h.call('PATCH', path, { json: { name: 'n' }, headers: { 'if-match': `*, ${etag(before)}` } });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect((await h.call('GET', path)).text).toBe(before.text);
  });

  it('If-None-Match: * on PUT creates only when the id is free', async () => {
    const created = await h.call('PUT', '/v2/projects/create-only', { json: { name: 'first' }, headers: { 'if-none-match': '*' } });
    expect(created.status).toBe(201);
    expectPreconditionFailed(await h.call('PUT', '/v2/projects/create-only', { json: { name: 'second' }, headers: { 'if-none-match': '*' } }));
    expect((await h.call('GET', '/v2/projects/create-only')).json().name).toBe('first');
  });

  it('If-Match on GET: 412 unless it names the current representation; If-None-Match on DELETE: 412 when it matches', async () => {
    const project = await h.createProject();
    const path = `/v2/projects/${project.id}`;
    const tag = etag(await h.call('GET', path));
    expectPreconditionFailed(await h.call('GET', path, { headers: { 'if-match': '"stale"' } }));
    expect((await h.call('GET', path, { headers: { 'if-match': tag } })).status).toBe(200);
    expectPreconditionFailed(await h.call('DELETE', path, { headers: { 'if-none-match': `W/${tag}` } }));
    expect((await h.call('GET', path)).status).toBe(200);
  });

  it('applies to tasks too', async () => {
    const project = await h.createProject();
    const task = await h.call('POST', `/v2/projects/${project.id}/tasks`, { json: { title: 't' } });
    const path = `/v2/tasks/${task.json().id}`;
    expectPreconditionFailed(await h.call('PATCH', path, { json: { done: true }, headers: { 'if-match': '"stale"' } }));
    expect((await h.call('PATCH', path, { json: { done: true }, headers: { 'if-match': etag(task) } })).status).toBe(200);
  });
});

describe('Cache-Control and Vary', () => {
  it('credentialed reads (200, 304) are private, no-cache and vary by Accept', async () => {
    const project = await h.createProject();
    for (const path of ['/v2', '/v2/projects', `/v2/projects/${project.id}`]) {
      for (const method of ['GET', 'HEAD']) {
        const res = await h.call(method, path);
        expect(res.status).toBe(200);
        expect(res.headers['cache-control'], `${method} ${path}`).toBe('private, no-cache');
        expect(res.headers['vary'], `${method} ${path}`).toBe('Accept');
        const revalidated = await h.call(method, path, { headers: { 'if-none-match': etag(res) } });
        expect(revalidated.status).toBe(304);
        expect(revalidated.headers['cache-control']).toBe('private, no-cache');
        expect(revalidated.headers['vary']).toBe('Accept');
      }
    }
  });

  it('writes, errors and OPTIONS are no-store, without Vary', async () => {
    const created = await h.call('POST', '/v2/projects', { json: { name: 'n' } });
    const path = `/v2/projects/${created.json().id}`;
    const answers = [
      created,
      await h.call('PUT', path, { json: { name: 'm' } }),
      await h.call('PATCH', path, { json: { name: 'o' } }),
      await h.call('GET', path, { headers: { accept: 'text/html' } }),
      await h.call('GET', path, { auth: false }),
      await h.call('PATCH', path, { json: { name: 'p' }, headers: { 'if-match': '"stale"' } }),
      await h.call('DELETE', path),
      await h.call('GET', path),
      await h.call('OPTIONS', path, { auth: false }),
    ];
    for (const res of answers) {
      expect(res.headers['cache-control'], String(res.status)).toBe('no-store');
      expect(res.headers['vary'], String(res.status)).toBeUndefined();
    }
  });
});

describe('nodes', () => {
  it('share one store and agree on ETags, API key and cursors', async () => {
    const { urls } = h.server;
    expect(urls).toHaveLength(2);
    expect(urls[0]).toBe(h.server.url);
    expect(new Set(urls).size).toBe(2);

    const created = await h.call('POST', '/v2/projects', { json: { name: 'everywhere' } });
    const path = `/v2/projects/${created.json().id}`;
    const [a, b] = [await h.call('GET', path, { node: 0 }), await h.call('GET', path, { node: 1 })];
    expect(b.status).toBe(200);
    expect(b.text).toBe(a.text);
    expect(etag(b)).toBe(etag(a));

    // A tag from one node validates on the other.
    expect((await h.call('GET', path, { node: 1, headers: { 'if-none-match': etag(a) } })).status).toBe(304);
    const written = await h.call('PATCH', path, { node: 1, json: { name: 'moved' }, headers: { 'if-match': etag(a) } });
    expect(written.status).toBe(200);
    expectPreconditionFailed(await h.call('PATCH', path, { node: 0, json: { name: 'lost' }, headers: { 'if-match': etag(a) } }));
    expect((await h.call('GET', path, { node: 0 })).json().name).toBe('moved');

    // A cursor from one node resumes on the other.
    await h.createProject();
    const first = (await h.call('GET', '/v2/projects?limit=1', { node: 0 })).json();
    expect(first.next_cursor).toEqual(expect.any(String));
    const next = await h.call('GET', `/v2/projects?limit=1&cursor=${encodeURIComponent(first.next_cursor)}`, { node: 1 });
    expect(next.status).toBe(200);
    expect(next.json().data[0].id).not.toBe(first.data[0].id);
  });

  it('take consecutive ports from an explicit one, and close() closes them all', async () => {
    let server;
    for (let attempt = 0; server === undefined; attempt++) {
      const port = await freePort();
      try {
        server = await startReferenceServer({ port, nodes: 3 });
        expect(server.urls).toEqual([port, port + 1, port + 2].map((p) => `http://127.0.0.1:${p}`));
        expect(server.port).toBe(port);
      } catch (error) {
        if (attempt >= 4) throw error; // the neighbouring ports were taken: try elsewhere
      }
    }
    const key = server.secrets.RESTPROBE_API_KEY;
    for (const url of server.urls) expect((await fetch(`${url}/v2`, { headers: { 'x-api-key': key } })).status).toBe(200);
    await server.close();
    for (const url of server.urls) await expect(fetch(`${url}/v2`)).rejects.toThrow();
  });

  it('refuses a node count outside 1-8', async () => {
    for (const nodes of [0, 9, 1.5, -1]) {
      await expect(startReferenceServer({ nodes })).rejects.toThrow(/nodes must be an integer from 1 to 8/);
    }
  });

  it('default to one', async () => {
    const server = await startReferenceServer();
    expect(server.urls).toEqual([server.url]);
    await server.close();
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
