/**
 * Configs that describe real APIs: a collection paged by number (`page` from 1 and
 * `per_page`), sorted by a field plus a separate `order` parameter, with integer ids and
 * no declared cap, or a cap. A conforming stand-in passes; one that ignores `page`, or
 * `order`, or answers an unbounded list, fails the check whose rule it breaks.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runChecks } from '../src/engine/run.js';
import type { CollectionProfile, TargetProfile } from '../src/model/profile.js';
import { worstFinding } from '../src/model/result.js';
import { catalogue } from '../suites/catalogue.js';
import { testProfile } from './support/profile.js';

interface NotesOptions {
  /** Always answers the first page. */
  readonly ignorePage?: boolean;
  /** Sorts ascending whatever `order` says. */
  readonly ignoreOrder?: boolean;
  /** No maximum: any `per_page` is served in full. */
  readonly uncapped?: boolean;
  /** Items there before the run (not restprobe's). */
  readonly preexisting?: number;
  /** The maximum `per_page` (declared in the profile unless uncapped); default {@link cap}. */
  readonly cap?: number;
  /** The page size without `per_page`; default 5. Infinity: every item. */
  readonly defaultPerPage?: number;
  /** A `per_page` above the cap is served as the cap (clamped), not refused. */
  readonly clamp?: boolean;
  /** Without `per_page`, the first page is the last: later pages are empty (the rest is dropped). */
  readonly truncated?: boolean;
  /** Without `per_page`, later pages start this many items further on (those between are dropped). */
  readonly skipBetweenPages?: number;
  /** Paged by `offset` (from 0) instead of page number. */
  readonly byOffset?: boolean;
  /** Another writer: each listing without a label adds an item of theirs once it is answered. */
  readonly busy?: boolean;
  /** A page number past the last page answers 404 "Invalid page." (Django REST framework's PageNumberPagination). */
  readonly pastEnd404?: boolean;
}

const cap = 10;
let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A page-numbered notes API: `GET /notes?page=2&per_page=5&label=x&sort=created_at&order=desc`. */
async function startNotes(options: NotesOptions = {}): Promise<{ profile: TargetProfile; count: () => number; created: () => number }> {
  const max = options.cap ?? cap;
  type Note = { id: number; label: string | null; name: string; created_at: string };
  const notes: Note[] = [];
  let next = 1;
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const add = (body: Record<string, unknown>): Note => {
    const note = { id: next++, label: typeof body['label'] === 'string' ? body['label'] : null, name: String(body['name'] ?? ''), created_at: new Date((clock += 1000)).toISOString() };
    notes.push(note);
    return note;
  };
  for (let i = 0; i < (options.preexisting ?? 0); i++) add({ name: `theirs ${i}` });
  /** Items the other writer added (options.busy). */
  let meanwhile = 0;
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
        const json = body === undefined ? '' : JSON.stringify(body);
        res.writeHead(status, { ...(json && { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' }), ...headers }).end(json);
      };
      const bad = (detail: string) => send(400, { type: 'about:blank', title: 'Bad Request', status: 400, detail });
      const id = /^\/notes\/(\d+)$/.exec(url.pathname)?.[1];
      if (url.pathname === '/notes' && req.method === 'POST') {
        const note = add(JSON.parse(text || '{}') as Record<string, unknown>);
        return send(201, note, { location: `/notes/${note.id}` });
      }
      if (url.pathname === '/notes' && req.method === 'GET') {
        const q = url.searchParams;
        const asked = q.has('per_page') ? Number(q.get('per_page')) : (options.defaultPerPage ?? 5);
        const perPage = options.clamp && asked > max ? max : asked;
        const page = q.has('page') ? Number(q.get('page')) : 1;
        if (!(Number.isInteger(perPage) || perPage === Infinity) || perPage < 1 || (!options.uncapped && perPage > max && q.has('per_page'))) return bad(`per_page must be an integer from 1 to ${max}`);
        if (!Number.isInteger(page) || page < 1) return bad('page must be an integer of 1 or more');
        const order = q.get('order') ?? 'asc';
        if (order !== 'asc' && order !== 'desc') return bad('order must be asc or desc');
        const sort = q.get('sort') ?? 'created_at';
        if (sort !== 'created_at' && sort !== 'name') return bad('sort must be created_at or name');
        const label = q.get('label');
        // Ties on name go by id, so the order is total.
        const matching = notes.filter((n) => label === null || n.label === label).sort((a, b) => (sort === 'name' ? a.name.localeCompare(b.name) : 0) || a.id - b.id);
        const sorted = order === 'desc' && !options.ignoreOrder ? [...matching].reverse() : matching;
        const byDefault = !q.has('per_page');
        const from = options.byOffset ? Number(q.get('offset') ?? 0) : options.ignorePage || page === 1 ? 0 : (page - 1) * perPage + (byDefault ? (options.skipBetweenPages ?? 0) : 0);
        const dropped = options.truncated && byDefault && (options.byOffset ? from > 0 : page > 1);
        if (options.pastEnd404 && page > Math.max(1, Math.ceil(matching.length / perPage))) return send(404, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'Invalid page.' });
        send(200, { data: dropped ? [] : sorted.slice(from, from + perPage), page, per_page: perPage, total: matching.length });
        if (options.busy && label === null) {
          add({ name: 'theirs, meanwhile' });
          meanwhile++;
        }
        return;
      }
      const note = notes.find((n) => String(n.id) === id);
      if (id !== undefined && req.method === 'GET') return note ? send(200, note) : send(404, { status: 404, title: 'Not Found', type: 'about:blank' });
      if (id !== undefined && req.method === 'DELETE') {
        if (!note) return send(404, { status: 404, title: 'Not Found', type: 'about:blank' });
        notes.splice(notes.indexOf(note), 1);
        return send(204);
      }
      send(404, { status: 404, title: 'Not Found', type: 'about:blank' });
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  const notesCollection: CollectionProfile = {
    name: 'notes',
    path: '/notes',
    itemPath: '/notes/{id}',
    idField: 'id',
    idType: 'integer',
    methods: ['GET', 'POST', 'DELETE'],
    createBody: { name: 'restprobe note' },
    volatileFields: [],
    newId: 'none',
    pagination: { style: options.byOffset ? 'offset' : 'page', param: 'cursor', limitParam: 'per_page', offsetParam: 'offset', pageParam: 'page', firstPage: 1, sortParam: 'sort', orderParam: 'order', ...(!options.uncapped && { maxLimit: max }) },
    filters: ['label'],
    sorts: ['created_at', 'name'],
    markField: 'label',
    children: [],
  };
  return { profile: { ...testProfile(url, { keyHeader: null }), collections: [notesCollection] }, count: () => notes.length, created: () => next - 1 - (options.preexisting ?? 0) - meanwhile };
}

const ids = ['END-get-collection-200', 'END-offset-pages-disjoint', 'END-offset-shift-under-inserts', 'END-sort-honoured', 'END-sort-ties-deterministic', 'LIM-limit-capped', 'LIM-default-page-bounded', 'LIM-limit-invalid-400'];

/** Each check's worst verdict over its runs, by id. */
async function verdicts(profile: TargetProfile, only: readonly string[] = ids): Promise<Record<string, string>> {
  const { results, leftovers } = await runChecks({ profile, checks: catalogue.filter((c) => only.includes(c.id)), seed: 3 });
  expect(leftovers).toEqual([]);
  return Object.fromEntries(only.map((id) => [id, worstFinding(results.filter((r) => r.id === id))?.status ?? 'none']));
}

/** What a conforming page-numbered collection gets. */
const conforming = {
  'END-get-collection-200': 'pass',
  'END-offset-pages-disjoint': 'pass',
  // Page numbers shift under inserts as offsets do: reported, never failed.
  'END-offset-shift-under-inserts': 'warn',
  'END-sort-honoured': 'pass',
  'END-sort-ties-deterministic': 'pass',
  'LIM-limit-capped': 'pass',
  'LIM-default-page-bounded': 'pass',
  'LIM-limit-invalid-400': 'pass',
};

describe('a collection paged by number, sorted with a separate order parameter', () => {
  it('conforming: passes, walks page numbers from 1, sends the direction in order, and leaves only what was there', async () => {
    const notes = await startNotes({ preexisting: 3 });
    expect(await verdicts(notes.profile)).toEqual(conforming);
    expect(notes.count()).toBe(3);
  });

  it("conforming, and answering a page number past the last page 404 (Django REST framework's PageNumberPagination): passes the same, nothing taken for a broken page", async () => {
    const notes = await startNotes({ preexisting: 3, pastEnd404: true });
    expect(await verdicts(notes.profile)).toEqual(conforming);
    expect(notes.count()).toBe(3);
  });

  it('a page parameter the API ignores fails the disjoint-pages check', async () => {
    const notes = await startNotes({ ignorePage: true });
    expect(await verdicts(notes.profile, ['END-offset-pages-disjoint'])).toEqual({ 'END-offset-pages-disjoint': 'fail' });
  });

  it('an order parameter the API ignores fails the sort check', async () => {
    const notes = await startNotes({ ignoreOrder: true });
    expect(await verdicts(notes.profile, ['END-sort-honoured'])).toEqual({ 'END-sort-honoured': 'fail' });
  });

  it('a default page smaller than a high cap shows the bound: the cap checks fill past the default page, not past the cap', async () => {
    const notes = await startNotes({ cap: 60, defaultPerPage: 10 });
    expect(await verdicts(notes.profile, ['LIM-limit-capped', 'LIM-default-page-bounded'])).toEqual({ 'LIM-limit-capped': 'pass', 'LIM-default-page-bounded': 'pass' });
    // Eleven items split the default page of 10; the refused per_page=61 needs none.
    expect(notes.created()).toBe(11);
    expect(notes.count()).toBe(0);
  });

  it('a default page of 20 (Spring Data\'s) is shown by 21 items, one of 25 by 26: the fill stops at the first step past the default', async () => {
    for (const [defaultPerPage, items] of [[20, 21], [25, 26]] as const) {
      const notes = await startNotes({ cap: 60, defaultPerPage });
      expect(await verdicts(notes.profile, ['LIM-default-page-bounded'])).toEqual({ 'LIM-default-page-bounded': 'pass' });
      expect(notes.created()).toBe(items);
      expect(notes.count()).toBe(0);
      await new Promise<void>((resolve) => server!.close(() => resolve()));
      server = undefined;
    }
  });

  it('a collection that already lists more than a default page shows the bound as it is: nothing is created, and a read-only run judges it too', async () => {
    const notes = await startNotes({ cap: 60, defaultPerPage: 10, preexisting: 25 });
    expect(await verdicts(notes.profile, ['LIM-default-page-bounded'])).toEqual({ 'LIM-default-page-bounded': 'pass' });
    expect(await verdicts({ ...notes.profile, safety: { ...notes.profile.safety, readOnly: true } }, ['LIM-default-page-bounded'])).toEqual({ 'LIM-default-page-bounded': 'pass' });
    expect(notes.created()).toBe(0);
  });

  it('on a fuller collection, a default page of every item fails at once; a first default page that is the last is filled and fails, or skips on a read-only run', async () => {
    const unbounded = await startNotes({ cap: 30, defaultPerPage: Infinity, preexisting: 40 });
    expect(await verdicts(unbounded.profile, ['LIM-default-page-bounded'])).toEqual({ 'LIM-default-page-bounded': 'fail' });
    expect(unbounded.created()).toBe(0);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    const truncated = await startNotes({ cap: 30, defaultPerPage: 10, preexisting: 40, truncated: true });
    expect(await verdicts(truncated.profile, ['LIM-default-page-bounded'])).toEqual({ 'LIM-default-page-bounded': 'fail' });
    const { results } = await runChecks({ profile: { ...truncated.profile, safety: { ...truncated.profile.safety, readOnly: true } }, checks: catalogue.filter((c) => c.id === 'LIM-default-page-bounded'), seed: 1 });
    expect(results.map((r) => [r.status, r.configKey])).toEqual([['skip', 'safety.readOnly']]);
  });

  it('a default page of every item is not taken for a bound when another writer adds items between two readings (offset pages): it is filled and fails', async () => {
    const notes = await startNotes({ byOffset: true, cap: 30, defaultPerPage: Infinity, preexisting: 5, busy: true });
    expect(await verdicts(notes.profile, ['LIM-default-page-bounded'])).toEqual({ 'LIM-default-page-bounded': 'fail' });
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    // The same writer beside a bounded default page: the bound shows as the collection is.
    const bounded = await startNotes({ byOffset: true, cap: 30, defaultPerPage: 10, preexisting: 25, busy: true });
    expect(await verdicts(bounded.profile, ['LIM-default-page-bounded'])).toEqual({ 'LIM-default-page-bounded': 'pass' });
    expect(bounded.created()).toBe(0);
  });

  it('default pages that skip items between them are not taken for a bound: the collection is filled and the check fails', async () => {
    const notes = await startNotes({ cap: 30, defaultPerPage: 10, preexisting: 40, skipBetweenPages: 5 });
    expect(await verdicts(notes.profile, ['LIM-default-page-bounded'])).toEqual({ 'LIM-default-page-bounded': 'fail' });
  });

  it('a default page as large as the cap is filled past the cap and passes; a default page of every item fails there', async () => {
    const atCap = await startNotes({ cap: 30, defaultPerPage: 30 });
    expect(await verdicts(atCap.profile, ['LIM-default-page-bounded'])).toEqual({ 'LIM-default-page-bounded': 'pass' });
    expect(atCap.created()).toBe(31);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    const unbounded = await startNotes({ cap: 30, defaultPerPage: Infinity });
    expect(await verdicts(unbounded.profile, ['LIM-default-page-bounded'])).toEqual({ 'LIM-default-page-bounded': 'fail' });
    expect(unbounded.created()).toBe(31);
  });

  it('a clamped per_page fills the collection past its cap; the default-page check beside it walks the same fill, whichever starts first', async () => {
    const orders = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const notes = await startNotes({ cap: 30, defaultPerPage: 2, clamp: true });
      // One check at a time, in the seed's order: some seeds put LIM-limit-capped's fill first.
      const profile = { ...notes.profile, http: { ...notes.profile.http, concurrency: 1 } };
      const { results, leftovers, order } = await runChecks({ profile, checks: catalogue.filter((c) => c.id === 'LIM-limit-capped' || c.id === 'LIM-default-page-bounded'), seed });
      orders.add(order[0]!);
      expect(leftovers).toEqual([]);
      expect(Object.fromEntries(results.map((r) => [r.id, r.status])), `seed ${seed}: ${results.map((r) => r.message).join(' | ')}`).toEqual({ 'LIM-limit-capped': 'pass', 'LIM-default-page-bounded': 'pass' });
      // One fill, grown to the cap + 1 for the clamp, shared by both.
      expect(notes.created()).toBe(31);
      await new Promise<void>((resolve) => server!.close(() => resolve()));
      server = undefined;
    }
    // Both orders were tried.
    expect(orders.size).toBe(2);
  });

  it('no cap declared: a huge per_page that is refused passes; one answered in full, past any cap, fails', async () => {
    const refused = await startNotes();
    const profile = { ...refused.profile, collections: refused.profile.collections.map((c) => ({ ...c, pagination: { ...c.pagination, maxLimit: undefined } })) };
    expect(await verdicts(profile, ['LIM-limit-capped', 'LIM-default-page-bounded'])).toEqual({ 'LIM-limit-capped': 'pass', 'LIM-default-page-bounded': 'skip' });
  });

  it('no cap declared and none kept: an unbounded list fails; too few items to tell is a skip naming the key', async () => {
    const few = await startNotes({ uncapped: true, preexisting: 5 });
    const { results } = await runChecks({ profile: few.profile, checks: catalogue.filter((c) => c.id === 'LIM-limit-capped'), seed: 3 });
    expect(results.map((r) => [r.status, r.configKey])).toEqual([['skip', 'collections[].pagination.maxLimit']]);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    const many = await startNotes({ uncapped: true, preexisting: 1_200 });
    expect(await verdicts(many.profile, ['LIM-limit-capped'])).toEqual({ 'LIM-limit-capped': 'fail' });
  });

  it('no cap declared and a large one kept (Spring Data clamps at 2 000): a huge per_page clamped, with a page after it, passes', async () => {
    const large = await startNotes({ cap: 1_000, clamp: true, preexisting: 1_200 });
    const profile = { ...large.profile, collections: large.profile.collections.map((c) => ({ ...c, pagination: { ...c.pagination, maxLimit: undefined } })) };
    expect(await verdicts(profile, ['LIM-limit-capped'])).toEqual({ 'LIM-limit-capped': 'pass' });
  });

  it('a declared cap, a read-only run and too few items to show it: a skip naming safety.readOnly, not a claim that no cap was declared', async () => {
    // It serves any per_page, so limit=11 shows 3 items: the declared cap of 10 cannot be seen.
    const few = await startNotes({ uncapped: true, preexisting: 3 });
    const profile = { ...few.profile, safety: { ...few.profile.safety, readOnly: true }, collections: few.profile.collections.map((c) => ({ ...c, pagination: { ...c.pagination, maxLimit: cap } })) };
    const { results } = await runChecks({ profile, checks: catalogue.filter((c) => c.id === 'LIM-limit-capped'), seed: 3 });
    expect(results.map((r) => [r.status, r.configKey])).toEqual([['skip', 'safety.readOnly']]);
    expect(results[0]!.message).toMatch(/lists 3 items, no more than its declared maximum of \d+, and restprobe may not fill it/);
  });
});
