/**
 * Test support: a tiny items API on 127.0.0.1:0 standing in for a user's target, with
 * switches for what real APIs do that the reference server does not. It records every
 * request and keeps its items in memory, so a test can see what a run left behind.
 *
 * Routes: `POST /things` (201 + Location, or `createStatus`), `GET|DELETE /things/:id`,
 * `GET /things` (a page), and `GET /slow` (answers after `slowMs`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { CollectionProfile } from '../../src/model/profile.js';
import { testProfile, type TestProfileOptions } from './profile.js';
import type { TargetProfile } from '../../src/model/profile.js';

export interface ItemsServerOptions {
  /** Status of every POST /things; default 201 (and the item is stored). */
  readonly createStatus?: number;
  /** How long GET /slow takes; default 2000 ms. */
  readonly slowMs?: number;
}

export interface ItemsServer {
  readonly url: string;
  /** `METHOD /path` of every request, in arrival order. */
  readonly requests: readonly string[];
  /** The ids of the items stored now. */
  items(): string[];
  /** A profile with one writable collection, `things`, at this server. */
  profile(options?: TestProfileOptions): TargetProfile;
  close(): Promise<void>;
}

export const thingsCollection = (): CollectionProfile => ({
  name: 'things',
  path: '/things',
  itemPath: '/things/{id}',
  idField: 'id',
  createBody: { name: 'restprobe thing' },
  volatileFields: [],
  newId: 'uuid',
  pagination: { style: 'cursor', param: 'cursor', limitParam: 'limit', offsetParam: 'offset', pageParam: 'page', firstPage: 1, sortParam: 'sort' },
  filters: [],
  sorts: [],
  children: [],
});

export async function startItemsServer(options: ItemsServerOptions = {}): Promise<ItemsServer> {
  const items = new Map<string, Record<string, unknown>>();
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let nextId = 1;
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
  };
  let busy = false;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      requests.push(`${req.method} ${path}`);
      const id = /^\/things\/([^/]+)$/.exec(path)?.[1];
      if (req.method === 'POST' && path === '/things') {
        const status = options.createStatus ?? 201;
        if (status !== 201) return json(res, status, { type: 'about:blank', title: 'failed', status, detail: 'create failed' });
        const item = { id: String(nextId++), ...(JSON.parse(Buffer.concat(chunks).toString() || '{}') as object) };
        items.set(item.id, item);
        return json(res, 201, item, { location: `/things/${item.id}` });
      }
      if (req.method === 'GET' && path === '/things') return json(res, 200, { data: [...items.values()], next_cursor: null });
      // 503 with Retry-After: 0 to every other request: the polite client retries it once.
      if (req.method === 'GET' && path === '/busy-once') return (busy = !busy) ? json(res, 503, { status: 503 }, { 'retry-after': '0' }) : json(res, 200, {});
      if (req.method === 'GET' && path === '/slow') {
        const t = setTimeout(() => json(res, 200, {}), options.slowMs ?? 2000);
        timers.add(t);
        return;
      }
      if (id !== undefined && req.method === 'GET') return items.has(id) ? json(res, 200, items.get(id)) : json(res, 404, { status: 404 });
      if (id !== undefined && req.method === 'DELETE') {
        const had = items.delete(id);
        return had ? (res.writeHead(204), res.end()) : json(res, 404, { status: 404 });
      }
      json(res, 404, { status: 404 });
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    items: () => [...items.keys()],
    profile: (o = {}) => ({ ...testProfile(url, o), collections: [thingsCollection()] }),
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
