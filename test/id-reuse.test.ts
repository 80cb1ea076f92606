/**
 * A target that reuses ids (the next id is max + 1, so a deleted id comes back): restprobe
 * deletes only what it created and still owns. Its own DELETE ends its ownership, and
 * cleanup proves an item is still restprobe's (by the mark it set) before deleting it.
 */
import { createServer, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runChecks } from '../src/engine/run.js';
import { CheckFailure, defineCheck } from '../src/model/check.js';
import type { TargetProfile } from '../src/model/profile.js';
import { testProfile, thingsCollection } from './support/profile.js';
import { catalogue } from '../suites/catalogue.js';

interface Reusing {
  readonly url: string;
  readonly items: Map<number, Record<string, unknown>>;
  readonly deletes: string[];
  close(): Promise<void>;
}

/** With `adoptsIntegerIds`, a POST that carries an integer id no item has keeps it (a model reused for input, as FastAPI tutorials with SQLModel write), 422 for any other id, 409 for a taken one. */
async function startReusing({ adoptsIntegerIds = false } = {}): Promise<Reusing> {
  const items = new Map<number, Record<string, unknown>>([[1, { id: 1, label: 'theirs' }], [2, { id: 2, label: 'theirs' }]]);
  const deletes: string[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const send = (status: number, body?: unknown, headers: Record<string, string> = {}) =>
        res.writeHead(status, body === undefined ? headers : { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers }).end(body === undefined ? undefined : JSON.stringify(body));
      const segment = (req.url ?? '').split('/')[2];
      // An integer-id API refuses a malformed id as bad input.
      if (segment !== undefined && !/^\d+$/.test(segment)) return send(400, { status: 400, detail: 'ids are integers' });
      const id = Number(segment);
      if (req.method === 'POST') {
        const body = JSON.parse(text || '{}') as Record<string, unknown>;
        const sent = body['id'];
        if (adoptsIntegerIds && sent !== undefined && !Number.isInteger(sent)) return send(422, { status: 422, detail: 'id must be an integer' });
        if (adoptsIntegerIds && items.has(sent as number)) return send(409, { status: 409, detail: 'duplicate key' });
        const next = adoptsIntegerIds && sent !== undefined ? (sent as number) : Math.max(0, ...items.keys()) + 1;
        items.set(next, { ...body, id: next });
        return send(201, items.get(next), { location: `/things/${next}` });
      }
      if (req.method === 'GET') return items.has(id) ? send(200, items.get(id)) : send(404, { status: 404 });
      if (req.method === 'DELETE') {
        deletes.push(req.url ?? '');
        return items.delete(id) ? send(204) : send(404, { status: 404 });
      }
      send(405, { status: 405 });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    items,
    deletes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const things = thingsCollection;

let target: Reusing;
let profile: TargetProfile;
beforeEach(async () => {
  target = await startReusing();
  profile = { ...testProfile(target.url), collections: [things], http: { timeoutMs: 2_000, maxBodyBytes: 1 << 20, concurrency: 4, maxRetryWaitMs: 60_000 } };
});
afterEach(async () => target.close());

describe('a target that reuses ids', () => {
  it('an item the check deleted itself is never deleted again, though its id now names another check\'s item', async () => {
    // No mark field: only ownership protects the second item here.
    const unmarked = { ...profile, collections: [{ ...things, markField: undefined, filters: [] }] };
    // Latches, not sleeps: the second check creates (and gets id 3 back) only after the first
    // deleted its item, and the first ends (and cleans up) only after that.
    let deleted!: () => void;
    const afterDelete = new Promise<void>((resolve) => (deleted = resolve));
    let reused!: () => void;
    const afterReuse = new Promise<void>((resolve) => (reused = resolve));
    const deletesItself = defineCheck({ id: 'END-deletes-itself', title: 't', rule: 'r MUST', severity: 'must', needs: ['writable'], async run(ctx, { writable }) {
      const item = await ctx.create(writable);
      await ctx.http.send({ method: 'DELETE', url: item.url });
      deleted();
      await afterReuse;
    } });
    const holds = defineCheck({ id: 'END-holds-an-item', title: 't', rule: 'r MUST', severity: 'must', needs: ['writable'], async run(ctx, { writable }) {
      await afterDelete;
      const item = await ctx.create(writable);
      reused();
      await sleep(50);
      const res = await ctx.http.send({ method: 'GET', url: item.url });
      if (res.status !== 200) throw new CheckFailure(`my item ${item.url} answered ${res.status}, expected 200`);
    } });
    const { results, leftovers } = await runChecks({ profile: unmarked, checks: [deletesItself, holds], seed: 1 });
    expect(results.map((r) => [r.id, r.status]).sort()).toEqual([['END-deletes-itself', 'pass'], ['END-holds-an-item', 'pass']]);
    // Both items had id 3: one DELETE by the first check itself, one by the second's cleanup.
    expect(target.deletes).toEqual(['/things/3', '/things/3']);
    expect([...target.items.values()].map((i) => i['label'])).toEqual(['theirs', 'theirs']);
    expect(leftovers).toEqual([]);
  });

  it('cleanup does not delete an item that took over the id of restprobe\'s, and touches nothing else', async () => {
    const swapped = defineCheck({ id: 'END-loses-its-item', title: 't', rule: 'r MUST', severity: 'must', needs: ['writable'], async run(ctx, { writable }) {
      const item = await ctx.create(writable);
      // Someone else deletes it and creates their own, which gets the same id.
      target.items.delete(Number(item.id));
      target.items.set(Number(item.id), { id: Number(item.id), label: 'someone else' });
    } });
    const { results, leftovers } = await runChecks({ profile, checks: [swapped], seed: 1 });
    expect(results[0]!.status).toBe('pass');
    expect(results[0]!.evidence.notes.join('\n')).toMatch(/not deleting .*\/things\/3: it now holds an item restprobe did not create \(label "someone else"/);
    expect(target.deletes).toEqual([]);
    expect([...target.items.values()].map((i) => i['label'])).toEqual(['theirs', 'theirs', 'someone else']);
    expect(leftovers).toEqual([]);
  });
});

describe('collections[].idType', () => {
  it('integer ids: the unknown-id probe asks for an integer, so a 400 for a malformed id is not taken for a missing 404; undeclared, with nothing listed to show the shape, an unknown integer is asked too, noted', async () => {
    const check = catalogue.filter((c) => c.id === 'ERR-unknown-id-404');
    const asStrings = await runChecks({ profile, checks: check, seed: 1 });
    expect(asStrings.results[0]).toMatchObject({ status: 'pass', evidence: { notes: expect.arrayContaining([expect.stringMatching(/→ 400 .*an unknown integer got 404 \(say collections\[\]\.idType: integer\)$/)]) } });
    const asIntegers = await runChecks({ profile: { ...profile, collections: [{ ...things, idType: 'integer' }] }, checks: check, seed: 1 });
    expect(asIntegers.results[0]!.status).toBe('pass');
  });

  it('integer ids: END-post-server-chooses-id sends a client id as an integer no item has, so a server that adopts one (and refuses a string with 422) fails', async () => {
    const adopting = await startReusing({ adoptsIntegerIds: true });
    try {
      const check = catalogue.filter((c) => c.id === 'END-post-server-chooses-id');
      const { results } = await runChecks({ profile: { ...profile, baseUrl: adopting.url, collections: [{ ...things, idType: 'integer' }] }, checks: check, seed: 1 });
      expect(results[0]).toMatchObject({ status: 'fail', message: expect.stringMatching(/"id" is the client's "\d+", expected an id the server chose/) });
      // The server that ignores a client-sent id passes.
      const ignoring = await runChecks({ profile: { ...profile, collections: [{ ...things, idType: 'integer' }] }, checks: check, seed: 1 });
      expect(ignoring.results[0]!.status).toBe('pass');
    } finally {
      await adopting.close();
    }
  });
});
