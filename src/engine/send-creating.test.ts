/**
 * `ctx.sendCreating`: a POST that may create an item is tracked for cleanup, and one whose body
 * carries the collection's mark has its intent written to the ledger before it is sent, so a
 * run killed (or a request lost) between the target's create and its answer still leaves the
 * mark to find the item by.
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
/** Creates every POSTed thing; one labelled `…-hang` is never answered. */
const server = createServer((req, res) => {
  let text = '';
  req.on('data', (c: Buffer) => (text += c.toString()));
  req.on('end', () => {
    const id = /^\/things\/(\d+)$/.exec(req.url ?? '')?.[1];
    if (req.method === 'POST' && req.url === '/things') {
      const thing: Record<string, unknown> = { id: String(next++), ...(JSON.parse(text) as Record<string, unknown>) };
      things.set(String(thing['id']), thing);
      if (String(thing['label'] ?? '').endsWith('-hang')) return void held.push(res);
      return void res.writeHead(201, { location: `/things/${String(thing['id'])}`, 'content-type': 'application/json' }).end(JSON.stringify(thing));
    }
    if (req.method === 'DELETE' && id !== undefined && things.delete(id)) return void res.writeHead(204).end();
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

  it('a marked create that got no answer: listed as possibly made, with the mark to look for', async () => {
    const { outcome, events } = await run(true, '-hang');
    // The thing was made; only its answer never came.
    expect(things.size).toBe(1);
    things.clear();
    expect(events.find((e) => e.e === 'creating')).toMatchObject({ mark: { field: 'label' } });
    expect(outcome.leftovers).toEqual([expect.objectContaining({ certainty: 'possible', lastAnswer: expect.stringMatching(/^POST got no answer \(ERR_TIMEOUT\).*; look for label = restprobe-c0ffee00-[0-9a-f]+-hang$/) })]);
  });

  it('an unmarked create: no intent ahead (nothing to find it by), the item it made tracked and deleted', async () => {
    const { outcome, events } = await run(false);
    expect(events.some((e) => e.e === 'creating')).toBe(false);
    expect(events.some((e) => e.e === 'created')).toBe(true);
    expect(outcome.leftovers).toEqual([]);
    expect(things.size).toBe(0);
  });
});
