/**
 * Test support: a stand-in for a Django REST framework API, whose pages are not the
 * conventions' (§4): CursorPagination answers `{ "next": "<absolute URL with ?cursor=…>",
 * "previous": …, "results": [...] }`, PageNumberPagination `{ "count", "next", "previous",
 * "results" }`. Items are filtered by field (`?label=x`), ordered by `ordering` (`-name` is
 * descending, ties by id), paged by `page_size` (clamped to {@link drfMaxPageSize}).
 * Switches break one rule each, so a test can show the envelope leaves the checks strict.
 *
 * Routes: `GET|POST /api/items/`, `GET|PUT|PATCH|DELETE /api/items/<id>/`.
 */
import { createServer } from 'node:http';
import type { CollectionProfile, PageEnvelope, TargetProfile } from '../../src/model/profile.js';
import { listenOnLoopback } from './loopback.js';
import { testProfile } from './profile.js';

export interface DrfOptions {
  /** `cursor` (CursorPagination, the default) or `page` (PageNumberPagination). */
  readonly style?: 'cursor' | 'page';
  /** Every page's `next` points at the first page again: a walk that never ends. */
  readonly loopingNext?: boolean;
  /** `page_size` is not read: every page holds the default size. */
  readonly ignorePageSize?: boolean;
  /** Page style: `page` is not read, every request answers the first page. */
  readonly ignorePage?: boolean;
  /** The next URL carries the cursor in `after`, not in `cursor`. */
  readonly cursorInAfter?: boolean;
}

/** DRF's `max_page_size` in the stand-in; `page_size` above it is clamped, as DRF does. */
export const drfMaxPageSize = 10;
const defaultPageSize = 5;

type Item = { id: number; name: string; label: string | null; status: string };

export interface DrfServer {
  readonly url: string;
  /** A profile with the `items` collection; `envelope` as the config would give it, or none. */
  profile(envelope?: PageEnvelope): TargetProfile;
  /** How many items are stored now. */
  count(): number;
  close(): Promise<void>;
}

/** The cursor DRF would send: an opaque encoding of a position. */
const encodeCursor = (offset: number): string => Buffer.from(`o=${offset}`).toString('base64url');
function decodeCursor(cursor: string): number | undefined {
  const m = /^o=(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m === null ? undefined : Number(m[1]);
}

export async function startDrfServer(options: DrfOptions = {}): Promise<DrfServer> {
  const style = options.style ?? 'cursor';
  const items: Item[] = [];
  let nextId = 1;
  const fields = (body: Record<string, unknown>): Omit<Item, 'id'> => ({
    name: typeof body['name'] === 'string' ? body['name'] : '',
    label: typeof body['label'] === 'string' ? body['label'] : null,
    status: typeof body['status'] === 'string' ? body['status'] : 'open',
  });
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const origin = `http://${req.headers.host}`;
      const url = new URL(req.url ?? '/', origin);
      const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
        const json = body === undefined ? '' : JSON.stringify(body);
        res.writeHead(status, { ...(json && { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' }), ...headers }).end(json);
      };
      const problem = (status: number, detail: string) => send(status, { type: 'about:blank', title: status === 404 ? 'Not Found' : 'Bad Request', status, detail });
      let body: Record<string, unknown> = {};
      try {
        body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
      } catch {
        return problem(400, 'JSON parse error');
      }
      if (url.pathname === '/api/items/' && req.method === 'POST') {
        if (typeof body['name'] !== 'string') return problem(400, 'name is required');
        const item = { id: nextId++, ...fields(body) };
        items.push(item);
        return send(201, item, { location: `${origin}/api/items/${item.id}/` });
      }
      if (url.pathname === '/api/items/' && req.method === 'GET') {
        const q = url.searchParams;
        const asked = q.has('page_size') && !options.ignorePageSize ? Number(q.get('page_size')) : defaultPageSize;
        if (!Number.isInteger(asked) || asked < 1) return problem(400, 'page_size must be a positive integer');
        const size = Math.min(asked, drfMaxPageSize);
        const ordering = q.get('ordering') ?? 'id';
        const field = ordering.replace(/^-/, '');
        if (field !== 'id' && field !== 'name') return problem(400, `cannot order by ${field}`);
        const matching = items
          .filter((i) => (['label', 'status'] as const).every((f) => !q.has(f) || i[f] === q.get(f)))
          .sort((a, b) => (field === 'name' ? a.name.localeCompare(b.name) : 0) || a.id - b.id);
        if (ordering.startsWith('-')) matching.reverse();
        const nextUrl = (set: Record<string, string>) => {
          const next = new URL(url);
          for (const [k, v] of Object.entries(set)) next.searchParams.set(k, v);
          return next.toString();
        };
        if (style === 'page') {
          const page = q.has('page') && !options.ignorePage ? Number(q.get('page')) : 1;
          if (!Number.isInteger(page) || page < 1) return problem(404, 'Invalid page.');
          const results = matching.slice((page - 1) * size, page * size);
          const more = page * size < matching.length;
          return send(200, { count: matching.length, next: more ? nextUrl({ page: String(page + 1) }) : null, previous: page > 1 ? nextUrl({ page: String(page - 1) }) : null, results });
        }
        const offset = q.has('cursor') ? decodeCursor(q.get('cursor')!) : 0;
        if (offset === undefined) return problem(404, 'Invalid cursor');
        const results = matching.slice(offset, offset + size);
        const more = offset + size < matching.length;
        const cursorParam = options.cursorInAfter ? 'after' : 'cursor';
        const next = more ? nextUrl({ [cursorParam]: encodeCursor(options.loopingNext ? 0 : offset + size) }) : null;
        return send(200, { next, previous: offset > 0 ? nextUrl({ cursor: encodeCursor(Math.max(0, offset - size)) }) : null, results });
      }
      const id = /^\/api\/items\/(\d+)\/$/.exec(url.pathname)?.[1];
      const item = items.find((i) => String(i.id) === id);
      if (id === undefined || item === undefined) return problem(404, 'Not found.');
      if (req.method === 'GET') return send(200, item);
      if (req.method === 'PUT' || req.method === 'PATCH') {
        if (req.method === 'PUT' && typeof body['name'] !== 'string') return problem(400, 'name is required');
        Object.assign(item, req.method === 'PUT' ? fields(body) : fields({ ...item, ...body }));
        return send(200, item);
      }
      if (req.method === 'DELETE') {
        items.splice(items.indexOf(item), 1);
        return send(204);
      }
      send(405, { type: 'about:blank', title: 'Method Not Allowed', status: 405 });
    });
  });
  const { url, close } = await listenOnLoopback(server);
  const collection = (envelope?: PageEnvelope): CollectionProfile => ({
    name: 'items',
    path: '/api/items/',
    itemPath: '/api/items/{id}/',
    idField: 'id',
    idType: 'integer',
    createBody: { name: 'restprobe item', status: 'open' },
    replaceBody: { name: 'restprobe item, replaced', status: 'closed' },
    patchBody: { status: 'closed' },
    volatileFields: [],
    newId: 'none',
    pagination: { style, param: 'cursor', limitParam: 'page_size', offsetParam: 'offset', pageParam: 'page', firstPage: 1, sortParam: 'ordering', maxLimit: drfMaxPageSize, ...(envelope && { envelope }) },
    filters: ['label', 'status'],
    sorts: ['name'],
    markField: 'label',
    children: [],
  });
  return { url, profile: (envelope) => ({ ...testProfile(url, { keyHeader: null }), collections: [collection(envelope)] }), count: () => items.length, close };
}
