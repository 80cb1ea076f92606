/**
 * The clean reference server's listings: labels, filters, sorts, cursor pages (keyset,
 * bound to listing, filters and sort), limits, the offset-paged members collection, and
 * bulk data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../src/index.js';
import { startHarness, type Exchange, type Harness } from './client.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** A label no other test uses, so each test lists only its own items from the shared server. */
let labels = 0;
const freshLabel = (): string => `t${++labels}-${Math.random().toString(36).slice(2, 8)}`;

type Item = Record<string, any> & { id: string };

function fields(res: Exchange): string[] {
  expect(res.status).toBe(400);
  expect(res.headers['content-type']).toBe('application/problem+json');
  return (res.json().errors as { field: string }[]).map((e) => e.field);
}

async function create(path: string, body: Record<string, unknown>, on: Harness = h): Promise<Item> {
  const res = await on.call('POST', path, { json: body });
  expect(res.status).toBe(201);
  return res.json();
}

/** Creates one item per name, in order, all with one label. */
async function createAll(path: string, label: string, names: readonly string[], extra: (i: number) => Record<string, unknown> = () => ({})): Promise<Item[]> {
  const items: Item[] = [];
  for (const [i, name] of names.entries()) items.push(await create(path, { name, label, ...extra(i) }));
  return items;
}

const idsOf = (items: readonly { id: string }[]): string[] => items.map((i) => i.id);

/**
 * Follows next_cursor to the end. Between pages, `between(pageNumber)` may write. Checks
 * the page shape and that a cursor never leads to an empty page (without writes).
 */
async function walk(
  path: string,
  limit: number,
  options: { on?: Harness; between?: (page: number) => Promise<void> } = {},
): Promise<{ items: Item[]; pages: number }> {
  const on = options.on ?? h;
  const items: Item[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const url: string = `${path}${sep}limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const res = await on.call('GET', url);
    expect(res.status, res.text).toBe(200);
    const page = res.json();
    expect(Object.keys(page)).toEqual(['data', 'next_cursor']);
    expect(page.data.length).toBeLessThanOrEqual(limit);
    if (options.between === undefined) {
      if (cursor !== null) expect(page.data.length).toBeGreaterThan(0);
      if (page.next_cursor !== null) expect(page.data).toHaveLength(limit);
    }
    items.push(...page.data);
    cursor = page.next_cursor;
    pages++;
    if (cursor !== null) await options.between?.(pages);
  } while (cursor !== null);
  return { items, pages };
}

describe('label', () => {
  it('is an optional string of at most 100 characters: default null, PUT resets, PATCH keeps', async () => {
    const plain = await create('/v2/projects', { name: 'p' });
    expect(plain.label).toBeNull();
    const labelled = await create('/v2/projects', { name: 'p', label: 'x'.repeat(100) });
    expect(labelled.label).toBe('x'.repeat(100));
    const path = `/v2/projects/${labelled.id}`;
    expect((await h.call('PATCH', path, { json: { name: 'q' } })).json().label).toBe('x'.repeat(100));
    expect((await h.call('PUT', path, { json: { name: 'q' } })).json().label).toBeNull();
    expect((await h.call('PATCH', path, { json: { label: 'back' } })).json().label).toBe('back');
    expect((await h.call('PATCH', path, { json: { label: null } })).json().label).toBeNull();
    for (const label of ['y'.repeat(101), 5, true, ['a']]) {
      const res = await h.call('POST', '/v2/projects', { json: { name: 'p', label } });
      expect(res.status).toBe(422);
      expect(res.json().errors).toEqual([{ field: 'label', message: expect.any(String) }]);
    }
  });
});

describe('filters', () => {
  it('match exactly, combine with AND, and hold across pages', async () => {
    const label = freshLabel();
    const other = freshLabel();
    const items = await createAll('/v2/projects', label, ['a', 'b', 'c', 'd', 'e', 'f', 'g'], (i) => ({ status: i % 3 === 0 ? 'archived' : 'active' }));
    await createAll('/v2/projects', other, ['x', 'y'], () => ({ status: 'archived' }));

    const mine = await walk(`/v2/projects?label=${label}`, 2);
    expect(idsOf(mine.items)).toEqual(idsOf(items));
    const archived = await walk(`/v2/projects?label=${label}&status=archived`, 1);
    expect(idsOf(archived.items)).toEqual(idsOf(items.filter((p) => p.status === 'archived')));
    expect(archived.items.map((p) => p.name)).toEqual(['a', 'd', 'g']);
    const active = await walk(`/v2/projects?status=active&label=${label}`, 3);
    expect(active.items.every((p) => p.status === 'active' && p.label === label)).toBe(true);
    expect(active.items).toHaveLength(4);
    expect((await h.call('GET', `/v2/projects?label=${freshLabel()}`)).json()).toEqual({ data: [], next_cursor: null });
    // Case matters, and the empty label is a value like any other.
    expect((await h.call('GET', `/v2/projects?label=${label.toUpperCase()}`)).json().data).toEqual([]);
    expect((await h.call('GET', '/v2/projects?label=')).status).toBe(200);
  });

  it('refuses bad and repeated filter values with 400', async () => {
    expect(fields(await h.call('GET', '/v2/projects?status=closed'))).toEqual(['status']);
    expect(fields(await h.call('GET', '/v2/projects?label=a&label=b'))).toEqual(['label']);
    expect(fields(await h.call('GET', '/v2/members?role=admin'))).toEqual(['role']);
    expect(fields(await h.call('GET', '/v2/members?label=a&label=b'))).toEqual(['label']);
  });
});

describe('sort', () => {
  it('orders by created_at (default) or name, ascending or descending', async () => {
    const label = freshLabel();
    const items = await createAll('/v2/projects', label, ['delta', 'alpha', 'Charlie', 'bravo']);
    const list = async (sort: string): Promise<string[]> =>
      (await h.call('GET', `/v2/projects?label=${label}${sort === '' ? '' : `&sort=${sort}`}`)).json().data.map((p: Item) => p.name);
    expect(await list('')).toEqual(['delta', 'alpha', 'Charlie', 'bravo']);
    expect(await list('created_at')).toEqual(['delta', 'alpha', 'Charlie', 'bravo']);
    expect(await list('-created_at')).toEqual(['bravo', 'Charlie', 'alpha', 'delta']);
    // Names compare by code units: upper case before lower case.
    expect(await list('name')).toEqual(['Charlie', 'alpha', 'bravo', 'delta']);
    expect(await list('-name')).toEqual(['delta', 'bravo', 'alpha', 'Charlie']);
    // Walking page by page gives the same order.
    expect((await walk(`/v2/projects?label=${label}&sort=-name`, 1)).items.map((p) => p.name)).toEqual(['delta', 'bravo', 'alpha', 'Charlie']);
    expect(idsOf((await walk(`/v2/projects?label=${label}&sort=-created_at`, 3)).items)).toEqual(idsOf(items).reverse());
  });

  it('breaks ties by creation: ascending for ascending sorts, descending for descending ones', async () => {
    const label = freshLabel();
    const items = await createAll('/v2/projects', label, ['b', 'same', 'a', 'same', 'same', 'c', 'same']);
    const ties = idsOf(items.filter((p) => p.name === 'same'));
    const [b, , a, , , c] = idsOf(items);
    const asc = [a, b, c, ...ties];
    const desc = [...[...ties].reverse(), c, b, a];
    for (let i = 0; i < 3; i++) {
      expect(idsOf((await h.call('GET', `/v2/projects?label=${label}&sort=name`)).json().data)).toEqual(asc);
      expect(idsOf((await h.call('GET', `/v2/projects?label=${label}&sort=-name`)).json().data)).toEqual(desc);
    }
    for (const limit of [1, 2, 3]) {
      expect(idsOf((await walk(`/v2/projects?label=${label}&sort=name`, limit)).items)).toEqual(asc);
      expect(idsOf((await walk(`/v2/projects?label=${label}&sort=-name`, limit)).items)).toEqual(desc);
    }
  });

  it('refuses an unknown sort with 400 on sort', async () => {
    for (const sort of ['colour', '', '-', '--name', 'name,created_at', '+name', 'NAME', 'id', 'description']) {
      const res = await h.call('GET', `/v2/projects?sort=${encodeURIComponent(sort)}`);
      expect(fields(res)).toEqual(['sort']);
      expect(res.json().errors[0].message).toContain('"-name"');
    }
    expect(fields(await h.call('GET', '/v2/projects?sort=name&sort=name'))).toEqual(['sort']);
    expect(fields(await h.call('GET', '/v2/members?sort=role'))).toEqual(['sort']);
    const project = await create('/v2/projects', { name: 'p' });
    expect(fields(await h.call('GET', `/v2/projects/${project.id}/tasks?sort=name`))).toEqual(['sort']);
  });
});

describe('cursor pages', () => {
  it('end with next_cursor null exactly when nothing follows, never with a cursor to an empty page', async () => {
    const label = freshLabel();
    expect((await h.call('GET', `/v2/projects?label=${label}`)).json()).toEqual({ data: [], next_cursor: null });
    await createAll('/v2/projects', label, ['a', 'b', 'c', 'd']);
    for (const limit of [1, 2, 3, 4, 5]) {
      const { items, pages } = await walk(`/v2/projects?label=${label}`, limit);
      expect(items).toHaveLength(4);
      expect(pages).toBe(Math.ceil(4 / limit));
    }
    const exact = (await h.call('GET', `/v2/projects?label=${label}&limit=4`)).json();
    expect(exact.next_cursor).toBeNull();
  });

  it('are bound to the listing, the filters and the sort they were issued for', async () => {
    const label = freshLabel();
    const [p1, p2] = await createAll('/v2/projects', label, ['a', 'b', 'c'], (i) => ({ status: i === 1 ? 'archived' : 'active' }));
    const base = `/v2/projects?label=${label}`;
    const cursor = encodeURIComponent((await h.call('GET', `${base}&limit=1`)).json().next_cursor);
    // The same listing, even with parameters in another order or the default sort spelled out.
    expect((await h.call('GET', `/v2/projects?cursor=${cursor}&limit=5&label=${label}`)).status).toBe(200);
    expect((await h.call('GET', `${base}&sort=created_at&cursor=${cursor}`)).status).toBe(200);
    for (const other of [
      `/v2/projects?cursor=${cursor}`,
      `/v2/projects?label=${freshLabel()}&cursor=${cursor}`,
      `${base}&status=active&cursor=${cursor}`,
      `${base}&sort=-created_at&cursor=${cursor}`,
      `${base}&sort=name&cursor=${cursor}`,
      `/v2/projects/${p1?.id}/tasks?cursor=${cursor}`,
    ]) {
      const res = await h.call('GET', other);
      expect(fields(res), other).toEqual(['cursor']);
    }
    // Tasks cursors are bound to their project.
    for (let i = 0; i < 3; i++) await create(`/v2/projects/${p1?.id}/tasks`, { title: `t${i}` });
    const taskCursor = encodeURIComponent((await h.call('GET', `/v2/projects/${p1?.id}/tasks?limit=1`)).json().next_cursor);
    expect((await h.call('GET', `/v2/projects/${p1?.id}/tasks?cursor=${taskCursor}`)).json().data).toHaveLength(2);
    expect(fields(await h.call('GET', `/v2/projects/${p2?.id}/tasks?cursor=${taskCursor}`))).toEqual(['cursor']);
    expect(fields(await h.call('GET', `/v2/projects?cursor=${taskCursor}`))).toEqual(['cursor']);
    expect(fields(await h.call('GET', `/v2/projects/${p1?.id}/tasks?done=false&cursor=${taskCursor}`))).toEqual(['cursor']);
  });

  it('refuse tampered, forged and garbage cursors with 400, never 5xx', async () => {
    const label = freshLabel();
    await createAll('/v2/projects', label, ['a', 'b', 'c']);
    const path = `/v2/projects?label=${label}&sort=name`;
    const cursor: string = (await h.call('GET', `${path}&limit=1`)).json().next_cursor;
    const [payload = '', mac = ''] = cursor.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const reencoded = (value: unknown): string => `${Buffer.from(JSON.stringify(value)).toString('base64url')}.${mac}`;
    // The last character of the tag carries 2 spare bits: changing only those must not pass.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const spareBitsFlipped = `${payload}.${mac.slice(0, -1)}${alphabet[alphabet.indexOf(mac.at(-1) ?? 'A') ^ 1]}`;
    expect(Buffer.from(spareBitsFlipped.split('.')[1] ?? '', 'base64url')).toEqual(Buffer.from(mac, 'base64url'));
    const bad = [
      'garbage',
      '',
      '.',
      '..',
      `${payload}.`,
      `.${mac}`,
      reencoded({ ...claims, k: ['a', 0] }),
      reencoded({ ...claims, k: null }),
      reencoded({ ...claims, l: '/v2/members' }),
      reencoded('x'),
      // Always a different tag: a tag that already ends in AA would otherwise come back unchanged.
      `${payload}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BA' : 'AA'}`,
      `${payload.slice(0, -1)}.${mac}`,
      `${cursor}.${mac}`,
      spareBitsFlipped,
      Buffer.from('2').toString('base64url'),
      '%00%ff',
      'é'.repeat(300),
      'a'.repeat(10_000),
    ];
    for (const c of bad) {
      const res = await h.call('GET', `${path}&cursor=${encodeURIComponent(c)}`);
      expect(fields(res), c.slice(0, 40)).toEqual(['cursor']);
    }
    expect(fields(await h.call('GET', `${path}&cursor=a&cursor=b`))).toEqual(['cursor']);
    // Every error at once.
    const all = await h.call('GET', '/v2/projects?cursor=x&limit=0&sort=x&status=x');
    expect(fields(all).sort()).toEqual(['cursor', 'limit', 'sort', 'status']);
  });

  it('never skip or repeat an item that exists for the whole walk, whatever is written between pages', async () => {
    const label = freshLabel();
    const names = ['m', 'c', 'x', 'a', 'q', 'f', 'k', 'b', 'z', 'h', 'n', 'e'];
    for (const sort of ['created_at', '-created_at', 'name', '-name']) {
      const items = await createAll('/v2/projects', label, names);
      const doomed = new Set<string>();
      const added: Item[] = [];
      const { items: seen } = await walk(`/v2/projects?label=${label}&sort=${sort}`, 3, {
        async between(page) {
          // Delete one item (alternately seen and not yet seen), insert one.
          const victim = items[(page * 5) % items.length];
          if (victim !== undefined && !doomed.has(victim.id)) {
            doomed.add(victim.id);
            expect((await h.call('DELETE', `/v2/projects/${victim.id}`)).status).toBe(204);
          }
          added.push(await create('/v2/projects', { name: `${names[page] ?? 'n'}${page}`, label }));
        },
      });
      const seenIds = idsOf(seen);
      expect(new Set(seenIds).size, sort).toBe(seenIds.length);
      const stayed = idsOf(items).filter((id) => !doomed.has(id));
      expect(stayed.filter((id) => !seenIds.includes(id)), sort).toEqual([]);
      expect(doomed.size).toBeGreaterThan(1);
      expect(seen.every((p) => p.label === label)).toBe(true);
      // Clean up for the next sort.
      for (const id of [...stayed, ...idsOf(added)]) await h.call('DELETE', `/v2/projects/${id}`);
      expect((await h.call('GET', `/v2/projects?label=${label}`)).json().data).toEqual([]);
    }
  });

  it('let an item whose sort value changed move, without repeating the others', async () => {
    const label = freshLabel();
    const items = await createAll('/v2/projects', label, ['a', 'b', 'c', 'd', 'e']);
    const { items: seen } = await walk(`/v2/projects?label=${label}&sort=name`, 2, {
      async between(page) {
        if (page === 1) await h.call('PATCH', `/v2/projects/${items[4]?.id}`, { json: { name: 'A' } });
      },
    });
    expect(seen.map((p) => p.name)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('walk tasks too, sorted and filtered', async () => {
    const project = await create('/v2/projects', { name: 'p' });
    const base = `/v2/projects/${project.id}/tasks`;
    const tasks: Item[] = [];
    for (const title of ['t3', 't1', 't2', 't1']) tasks.push(await create(base, { title, done: title === 't1' }));
    expect(idsOf((await walk(base, 1)).items)).toEqual(idsOf(tasks));
    expect((await walk(`${base}?sort=-title`, 1)).items.map((t) => t.title)).toEqual(['t3', 't2', 't1', 't1']);
    expect(idsOf((await walk(`${base}?done=true&sort=title`, 1)).items)).toEqual([tasks[1]?.id, tasks[3]?.id]);
  });
});

describe('limit', () => {
  it('defaults to 10 and takes up to 100 on every collection', async () => {
    const { call, createProject, close } = await startHarness();
    try {
      for (let i = 0; i < 101; i++) await createProject({ name: `p${i}` });
      const first = (await call('GET', '/v2/projects')).json();
      expect(first.data).toHaveLength(10);
      const full = (await call('GET', '/v2/projects?limit=100')).json();
      expect(full.data).toHaveLength(100);
      expect(typeof full.next_cursor).toBe('string');
      const last = (await call('GET', `/v2/projects?limit=100&cursor=${encodeURIComponent(full.next_cursor)}`)).json();
      expect(last.data).toHaveLength(1);
      expect(last.next_cursor).toBeNull();
      expect((await call('GET', '/v2/projects?limit=007')).json().data).toHaveLength(7);
    } finally {
      await close();
    }
  });

  it('refuses a limit above the maximum with 400 naming the maximum', async () => {
    const project = await create('/v2/projects', { name: 'p' });
    // Members have a smaller cap than projects and tasks, as real APIs' collections differ.
    for (const [path, cap] of [['/v2/projects', 100], ['/v2/members', 20], [`/v2/projects/${project.id}/tasks`, 100]] as const) {
      for (const limit of [String(cap + 1), '1000', `0${cap + 1}`, '9'.repeat(40)]) {
        const res = await h.call('GET', `${path}?limit=${limit}`);
        expect(fields(res)).toEqual(['limit']);
        expect(res.json().detail).toContain(String(cap));
        expect(res.json().errors[0].message).toMatch(new RegExp(`at most ${cap}\\b`));
      }
    }
  });

  it.each(['0', '00', '-1', '-100', '1.5', '1e1', 'abc', '', ' 5', '5 ', '+5', '0x10', 'Infinity', 'NaN'])(
    'refuses limit=%j with 400 on limit, on both pagination styles',
    async (limit) => {
      for (const path of ['/v2/projects', '/v2/members']) {
        const res = await h.call('GET', `${path}?limit=${encodeURIComponent(limit)}`);
        expect(fields(res)).toEqual(['limit']);
      }
    },
  );

  it('refuses a repeated limit', async () => {
    expect(fields(await h.call('GET', '/v2/projects?limit=5&limit=5'))).toEqual(['limit']);
    expect(fields(await h.call('GET', '/v2/members?limit=5&limit=6'))).toEqual(['limit']);
  });
});

describe('members', () => {
  it('are created, read, replaced, patched and deleted like projects', async () => {
    const res = await h.call('POST', '/v2/members', { json: { name: 'Ann', id: 'mine', created_at: 'then' } });
    expect(res.status).toBe(201);
    const member = res.json();
    expect(Object.keys(member)).toEqual(['id', 'name', 'role', 'label', 'created_at', 'updated_at']);
    expect(member).toMatchObject({ name: 'Ann', role: 'viewer', label: null });
    expect(member.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['location']).toBe(`/v2/members/${member.id}`);
    const path = `/v2/members/${member.id}`;
    expect((await h.call('GET', path)).json()).toEqual(member);

    const patched = (await h.call('PATCH', path, { json: { role: 'owner', label: 'l' } })).json();
    expect(patched).toMatchObject({ name: 'Ann', role: 'owner', label: 'l' });
    const replaced = (await h.call('PUT', path, { json: { name: 'Bea' } })).json();
    expect(replaced).toMatchObject({ id: member.id, name: 'Bea', role: 'viewer', label: null, created_at: member.created_at });
    const putCreated = await h.call('PUT', '/v2/members/chosen-id', { json: { name: 'Cy', role: 'editor' } });
    expect(putCreated.status).toBe(201);
    expect(putCreated.headers['location']).toBe('/v2/members/chosen-id');

    expect((await h.call('DELETE', path)).status).toBe(204);
    expect((await h.call('GET', path)).status).toBe(404);
    expect((await h.call('DELETE', path)).status).toBe(404);
    expect((await h.call('DELETE', '/v2/members/chosen-id')).status).toBe(204);
  });

  it('go through the same validation, problem, credential and negotiation pipeline', async () => {
    const invalid = await h.call('POST', '/v2/members', { json: { name: '  ', role: 'admin', label: 'x'.repeat(101) } });
    expect(invalid.status).toBe(422);
    expect(invalid.headers['content-type']).toBe('application/problem+json');
    expect(invalid.json().errors.map((e: { field: string }) => e.field)).toEqual(['name', 'role', 'label']);
    expect((await h.call('POST', '/v2/members', { json: {} })).status).toBe(422);
    expect((await h.call('GET', '/v2/members', { auth: false })).status).toBe(401);
    expect((await h.call('GET', '/v2/members', { headers: { accept: 'text/html' } })).status).toBe(406);
    expect((await h.call('POST', '/v2/members', { body: 'name=x', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect((await h.call('POST', '/v2/members', { body: '{"name":', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await h.call('DELETE', '/v2/members')).status).toBe(405);
    const options = await h.call('OPTIONS', '/v2/members', { auth: false });
    expect(options.headers['allow']).toBe('GET, HEAD, POST, OPTIONS');
    expect((await h.call('GET', '/v2/members/nobody')).status).toBe(404);
  });

  it('are listed by offset: disjoint, complete pages with the total, filtered and sorted', async () => {
    const label = freshLabel();
    const names = ['eve', 'bob', 'dan', 'amy', 'cat', 'bob', 'fay'];
    const members = await createAll('/v2/members', label, names, (i) => ({ role: ['owner', 'editor', 'viewer'][i % 3] }));
    const page = async (query: string): Promise<{ data: Item[]; total: number }> => {
      const res = await h.call('GET', `/v2/members?label=${label}&${query}`);
      expect(res.status, res.text).toBe(200);
      const body = res.json();
      expect(Object.keys(body)).toEqual(['data', 'total']);
      return body;
    };
    const collected: Item[] = [];
    for (let offset = 0; offset < 7; offset += 3) {
      const p = await page(`limit=3&offset=${offset}`);
      expect(p.total).toBe(7);
      collected.push(...p.data);
    }
    expect(idsOf(collected)).toEqual(idsOf(members));
    expect(await page('offset=7')).toEqual({ data: [], total: 7 });
    expect(await page('offset=1000000&limit=20')).toEqual({ data: [], total: 7 });
    expect(await page(`offset=${'9'.repeat(30)}`)).toEqual({ data: [], total: 7 });
    expect((await page('offset=0')).data).toHaveLength(7);

    const byName = (await page('sort=name')).data;
    expect(byName.map((m) => m.name)).toEqual(['amy', 'bob', 'bob', 'cat', 'dan', 'eve', 'fay']);
    expect(byName[1]?.id).toBe(members[1]?.id); // the earlier "bob" first
    const byNameDesc = (await page('sort=-name&limit=3&offset=3')).data;
    expect(byNameDesc.map((m) => m.name)).toEqual(['cat', 'bob', 'bob']);
    expect(byNameDesc[1]?.id).toBe(members[5]?.id); // the later "bob" first
    expect((await page('sort=-created_at&limit=2')).data.map((m) => m.name)).toEqual(['fay', 'bob']);

    const owners = await page('role=owner');
    expect(owners.total).toBe(3);
    expect(owners.data.map((m) => m.name)).toEqual(['eve', 'amy', 'fay']);
    expect((await page('role=owner&limit=1&offset=1')).data.map((m) => m.name)).toEqual(['amy']);
    expect((await page('role=editor&sort=-name')).data.map((m) => m.name)).toEqual(['cat', 'bob']);
  });

  it('refuse a bad offset with 400 on offset', async () => {
    for (const offset of ['-1', '1.5', 'abc', '', ' 1', '1e3']) {
      expect(fields(await h.call('GET', `/v2/members?offset=${encodeURIComponent(offset)}`))).toEqual(['offset']);
    }
    expect(fields(await h.call('GET', '/v2/members?offset=1&offset=2'))).toEqual(['offset']);
    const both = await h.call('GET', '/v2/members?offset=-1&limit=101&role=x&sort=x');
    expect(fields(both).sort()).toEqual(['limit', 'offset', 'role', 'sort']);
  });
});

describe('bulk data', () => {
  it('refuses a seedProjects that is not an integer from 0 to 1 000 000', async () => {
    for (const seedProjects of [-1, 1.5, Number.NaN, 1_000_001]) {
      await expect(startReferenceServer({ seedProjects })).rejects.toThrow(/seedProjects must be an integer/);
    }
  });

  // How fast seeding and walking are is bench/bench.ts's to measure, not a test's.
  it('seeds 100 000 projects and walks them at limit 100, in order, each once', async () => {
    const bulk = await startHarness([], { seedProjects: 100_000 });
    try {
      const first = (await bulk.call('GET', '/v2/projects?limit=100')).json();
      expect(first.data[0]).toMatchObject({ name: 'seed-000001', label: 'seed', status: 'active', description: null });
      expect(Date.parse(first.data[0].created_at)).toBeLessThanOrEqual(Date.now());
      const newest = (await bulk.call('GET', '/v2/projects?sort=-created_at&limit=1')).json();
      expect(newest.data[0].name).toBe('seed-100000');
      // A project created now comes after every seed.
      const late = await create('/v2/projects', { name: 'late' }, bulk);
      expect(Date.parse(late.created_at)).toBeGreaterThan(Date.parse(newest.data[0].created_at));

      const { items, pages } = await walk('/v2/projects?label=seed', 100, { on: bulk });
      expect(pages).toBe(1000);
      expect(items).toHaveLength(100_000);
      expect(items.every((p, i) => p.name === `seed-${String(i + 1).padStart(6, '0')}`)).toBe(true);
      expect(new Set(idsOf(items)).size).toBe(100_000);

      // Sorted by name from deep inside, descending: a binary search, not a scan.
      const deep = (await bulk.call('GET', '/v2/projects?sort=-name&limit=2')).json();
      expect(deep.data.map((p: Item) => p.name)).toEqual(['seed-100000', 'seed-099999']);
      const next = (await bulk.call('GET', `/v2/projects?sort=-name&limit=2&cursor=${encodeURIComponent(deep.next_cursor)}`)).json();
      expect(next.data.map((p: Item) => p.name)).toEqual(['seed-099998', 'seed-099997']);
    } finally {
      await bulk.close();
    }
  }, 20_000);
});
