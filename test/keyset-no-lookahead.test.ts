/**
 * A keyset cursor without lookahead: every non-empty page carries `next_cursor` (the last id),
 * and the walk ends on an empty page, which the conventions allow. A cursor there says nothing
 * of whether items follow, so LIM-limit-capped must follow it before it takes a page for capped.
 * An offset list that another writer grows between the check's reads must not pass for capped
 * either.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runChecks } from '../src/engine/run.js';
import type { CollectionProfile, TargetProfile } from '../src/model/profile.js';
import { catalogue } from '../suites/catalogue.js';
import { testProfile, thingsCollection } from './support/profile.js';

const capped = catalogue.filter((c) => c.id === 'LIM-limit-capped');

interface Options {
  /** The most items a page holds; none by default (no cap at all). */
  readonly cap?: number;
  readonly style: 'cursor' | 'offset';
  /** Items there before the run, no label. */
  readonly seeded: number;
  /** An item another writer adds after each unfiltered listing read (offset style). */
  readonly growsOnRead?: boolean;
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function startKeyset(o: Options): Promise<string> {
  let nextId = 1;
  const items: Record<string, unknown>[] = Array.from({ length: o.seeded }, () => ({ id: nextId++, name: 'seeded' }));
  const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { ...(body !== undefined && { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' }), ...headers });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += String(c)));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const one = /^\/things\/(\d+)$/.exec(url.pathname);
      if (req.method === 'POST' && url.pathname === '/things') {
        const item = { ...(JSON.parse(text || '{}') as Record<string, unknown>), id: nextId++ };
        items.push(item);
        return send(res, 201, item, { location: `/things/${item.id}` });
      }
      if (one && req.method === 'GET') {
        const item = items.find((i) => i.id === Number(one[1]));
        return item ? send(res, 200, item) : send(res, 404, { type: 'about:blank', title: 'Not Found', status: 404 });
      }
      if (one && req.method === 'DELETE') {
        const at = items.findIndex((i) => i.id === Number(one[1]));
        if (at >= 0) items.splice(at, 1);
        return send(res, 204);
      }
      if (req.method === 'GET' && url.pathname === '/things') {
        const label = url.searchParams.get('label');
        const listed = items.filter((i) => label === null || i['label'] === label);
        const asked = Number(url.searchParams.get('limit') ?? 10);
        const limit = o.cap === undefined ? asked : Math.min(asked, o.cap);
        if (o.style === 'cursor') {
          const after = Number(url.searchParams.get('cursor') ?? 0);
          const page = listed.filter((i) => (i.id as number) > after).slice(0, limit);
          // No lookahead: a non-empty page always names its last id.
          return send(res, 200, { data: page, next_cursor: page.length > 0 ? String(page.at(-1)!.id) : null });
        }
        const offset = Number(url.searchParams.get('offset') ?? 0);
        send(res, 200, { data: listed.slice(offset, offset + limit) });
        if (o.growsOnRead === true && label === null) items.push({ id: nextId++, name: 'another writer' });
        return;
      }
      send(res, 404, { type: 'about:blank', title: 'Not Found', status: 404 });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function profileFor(url: string, style: Options['style']): TargetProfile {
  const things: CollectionProfile = { ...thingsCollection, pagination: { ...thingsCollection.pagination, style, maxLimit: 5 } };
  return { ...testProfile(url), http: { ...testProfile(url).http, timeoutMs: 2_000 }, collections: [things] };
}

async function verdict(o: Options): Promise<string> {
  const url = await startKeyset(o);
  const [result] = (await runChecks({ profile: profileFor(url, o.style), checks: capped, seed: 1 })).results;
  return `${result!.status}${result!.message ? `: ${result!.message}` : ''}`;
}

describe('LIM-limit-capped on lists that show no cap at first sight', () => {
  it('a keyset cursor without lookahead and no cap: the cursor on a short page is followed, the collection filled past the declared maximum, and the uncapped page fails', async () => {
    // Before, the cursor on the first page (3 items) was taken for "more follow", and the check passed.
    expect(await verdict({ style: 'cursor', seeded: 3 })).toMatch(/^fail: GET \/things\?.* → 200 application\/json: 6 items for limit=6, expected at most the maximum 5/);
  });

  it('the same cursor with a cap of 5 passes', async () => {
    expect(await verdict({ style: 'cursor', seeded: 3, cap: 5 })).toBe('pass');
  });

  it('an offset list with no cap that another writer grows after each read: the new items at the next offset are not taken for a capped page, and the uncapped page fails', async () => {
    // Before, the item added after the first read stood at offset 3 on both reads there, and the check passed.
    expect(await verdict({ style: 'offset', seeded: 3, growsOnRead: true })).toMatch(/^fail: .*items for limit=6, expected at most the maximum 5/);
  });
});
