/**
 * `ctx.sendCreating`: a POST that may create an item is tracked for cleanup, and has its intent
 * written to the ledger before it is sent, with the collection's mark (given to a JSON body that
 * has none), so a run killed (or a request lost) between the target's create and its answer
 * still leaves the mark to find the item by.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineCheck } from '../model/check.js';
import type { TargetProfile } from '../model/profile.js';
import { testProfile, thingsCollection } from '../../test/support/profile.js';
import type { LedgerEvent, LedgerJournal } from './ledger.js';
import { runChecks } from './run.js';

const things = new Map<string, Record<string, unknown>>();
const held: ServerResponse[] = [];
let next = 1;
/** Creates every POSTed thing, reads it, and lists them by label; a create labelled `…-hang` is never answered, one labelled `…-drop` is dropped unmade. */
const server = createServer((req, res) => {
  let text = '';
  req.on('data', (c: Buffer) => (text += c.toString()));
  req.on('end', () => {
    const id = /^\/things\/(\d+)$/.exec(req.url ?? '')?.[1];
    if (req.method === 'POST' && req.url === '/things') {
      const thing: Record<string, unknown> = { id: String(next++), ...(JSON.parse(text) as Record<string, unknown>) };
      if (String(thing['label'] ?? '').endsWith('-drop')) return void req.socket.destroy();
      things.set(String(thing['id']), thing);
      if (String(thing['label'] ?? '').endsWith('-hang')) return void held.push(res);
      return void res.writeHead(201, { location: `/things/${String(thing['id'])}`, 'content-type': 'application/json' }).end(JSON.stringify(thing));
    }
    if (req.method === 'DELETE' && id !== undefined && things.delete(id)) return void res.writeHead(204).end();
    if (req.method === 'GET' && id !== undefined && things.has(id)) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(things.get(id)));
    const listing = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && listing.pathname === '/things') {
      const data = [...things.values()].filter((t) => !listing.searchParams.has('label') || t['label'] === listing.searchParams.get('label'));
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
    }
    res.writeHead(404, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ status: 404, title: 'Not Found' }));
  });
});

const collection = thingsCollection;
let profile: TargetProfile;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  profile = { ...testProfile(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), collections: [collection] };
});
afterAll(async () => {
  for (const res of held) res.destroy();
  await new Promise((resolve) => server.close(resolve));
});

/** A check that POSTs one thing through `sendCreating`: marked (ending `suffix`) or not. */
const poster = (marked: boolean, suffix = '') =>
  defineCheck({
    id: 'CON-sends-a-create',
    title: 'sends a create',
    rule: 'Sends one POST that creates.',
    severity: 'must',
    needs: [],
    async run(ctx) {
      await ctx.sendCreating(collection, { method: 'POST', path: '/things', json: { name: 'x', ...(marked && { label: `${ctx.newMark()}${suffix}` }) } });
    },
  });

async function run(marked: boolean, suffix = '') {
  const events: LedgerEvent[] = [];
  const journal: LedgerJournal = { run: 'c0ffee00', write: (e) => void events.push(e) };
  const outcome = await runChecks({ profile, checks: [poster(marked, suffix)], seed: 1, journal });
  return { outcome, events };
}

describe('ctx.sendCreating', () => {
  it('a marked create: its intent (with the mark) is written before it is sent, and settled by the item it made, which is deleted', async () => {
    const { outcome, events } = await run(true);
    const intent = events.find((e) => e.e === 'creating');
    expect(intent).toMatchObject({ mark: { field: 'label', value: expect.stringMatching(/^restprobe-c0ffee00-/) } });
    expect(events.find((e) => e.e === 'created')).toMatchObject({ n: (intent as { n: number }).n });
    expect(outcome.leftovers).toEqual([]);
    expect(things.size).toBe(0);
  });

  it("a marked create that got no answer: its check's cleanup finds the item by its mark and deletes it", async () => {
    const { outcome, events } = await run(true, '-hang');
    const intent = events.find((e) => e.e === 'creating') as { n: number; mark: { value: string } };
    expect(intent).toMatchObject({ mark: { field: 'label', value: expect.stringMatching(/^restprobe-c0ffee00-[0-9a-f]+-hang$/) } });
    expect(events.find((e) => e.e === 'unlocated')).toMatchObject({ n: intent.n, certainty: 'possible', why: expect.stringMatching(/^POST got no answer \(ERR_TIMEOUT\)/) });
    // The thing was made; only its answer never came. Found by its mark, it became the intent's entry and was deleted.
    expect(events.find((e) => e.e === 'created')).toMatchObject({ n: intent.n, proof: { field: 'label', value: intent.mark.value } });
    expect(things.size).toBe(0);
    expect(outcome.leftovers).toEqual([]);
  });

  it('a marked create that got no answer and is not found by its mark: still listed as possibly made (it may yet arrive), for restprobe cleanup', async () => {
    const { outcome, events } = await run(true, '-drop');
    const intent = events.find((e) => e.e === 'creating') as { n: number };
    expect(events.find((e) => e.e === 'unlocated')).toMatchObject({ n: intent.n, why: expect.stringMatching(/^POST got no answer \(ERR_PROTOCOL\)/) });
    expect(events.some((e) => e.e === 'not-created')).toBe(false);
    expect(outcome.leftovers).toEqual([expect.objectContaining({ certainty: 'possible', lastAnswer: expect.stringMatching(/^POST got no answer \(ERR_PROTOCOL\).*; look for label = restprobe-c0ffee00-[0-9a-f]+-drop$/) })]);
  });

  it('a create without a mark: given a fresh one, written ahead, and settled by the item it made, which is deleted', async () => {
    const { outcome, events } = await run(false);
    const intent = events.find((e) => e.e === 'creating');
    expect(intent).toMatchObject({ mark: { field: 'label', value: expect.stringMatching(/^restprobe-c0ffee00-[0-9a-f]{8}$/) } });
    expect(events.find((e) => e.e === 'created')).toMatchObject({ n: (intent as { n: number }).n });
    expect(outcome.leftovers).toEqual([]);
    expect(things.size).toBe(0);
  });

  it('a mark-field value that is no mark of the run (the create body\'s own) is replaced by one: anyone\'s item may carry it', async () => {
    const plain = defineCheck({ ...poster(false), id: 'CON-sends-a-plain-label', async run(ctx) {
      await ctx.sendCreating(collection, { method: 'POST', path: '/things', json: { name: 'x', label: 'restprobe probe' } });
    } });
    const events: LedgerEvent[] = [];
    await runChecks({ profile, checks: [plain], seed: 1, journal: { run: 'c0ffee00', write: (e) => void events.push(e) } });
    expect(events.find((e) => e.e === 'creating')).toMatchObject({ mark: { field: 'label', value: expect.stringMatching(/^restprobe-c0ffee00-[0-9a-f]{8}$/) } });
    expect(things.size).toBe(0);
  });

  it('a body sent as text: its intent carries the mark written in it, or none, and is written all the same', async () => {
    const sent: (string | undefined)[] = [];
    const texts = defineCheck({
      id: 'CON-sends-text-creates',
      title: 'sends creates as text',
      rule: 'Sends two POSTs as text.',
      severity: 'must',
      needs: [],
      async run(ctx) {
        for (const body of [JSON.stringify({ name: 'x', label: ctx.newMark() }), JSON.stringify({ name: 'y' })]) {
          sent.push(body);
          await ctx.sendCreating(collection, { method: 'POST', path: '/things', body, headers: { 'content-type': 'application/json' } });
        }
      },
    });
    const events: LedgerEvent[] = [];
    const outcome = await runChecks({ profile, checks: [texts], seed: 1, journal: { run: 'c0ffee00', write: (e) => void events.push(e) } });
    const intents = events.filter((e) => e.e === 'creating');
    expect(intents).toHaveLength(2);
    expect(intents[0]).toMatchObject({ mark: { field: 'label', value: (JSON.parse(sent[0]!) as { label: string }).label } });
    expect(intents[1]).not.toHaveProperty('mark');
    expect(outcome.leftovers).toEqual([]);
    expect(things.size).toBe(0);
  });
});
