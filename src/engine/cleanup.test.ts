/** Cleanup deletes several items at once, but a child always before the item it is under. */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HttpClient } from '../http/client.js';
import { testProfile } from '../../test/support/profile.js';
import { cleanUp } from './cleanup.js';
import { Ledger } from './ledger.js';

/** Each DELETE as it started and ended, on a server that takes 60 ms to delete an item, 150 ms a child under one. */
const deletes: { path: string; started: number; ended: number }[] = [];
let inFlight = 0;
let peak = 0;
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.method !== 'DELETE') return res.writeHead(404).end();
    const started = performance.now();
    peak = Math.max(peak, ++inFlight);
    setTimeout(() => {
      inFlight--;
      deletes.push({ path: req.url!, started, ended: performance.now() });
      res.writeHead(204).end();
    }, req.url!.includes('/subs/') ? 150 : 60);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('deletes up to `concurrency` items at once, and an item only once those under it are gone', async () => {
  const profile = testProfile(base);
  const ledger = new Ledger(profile);
  const owner = 'RES-nested-listing [things]';
  // Made in this order: the parent, then its children, then flat items.
  for (const path of ['/things/p', '/things/p/subs/c1', '/things/p/subs/c2', '/things/a', '/things/b', '/things/c', '/things/d']) ledger.record(`${base}${path}`, owner);
  const client = new HttpClient({ timeoutMs: 5_000, maxBodyBytes: 1 << 20, connections: 3, maxRequests: 100 });
  try {
    await cleanUp(ledger.toCleanUp(owner), { profile, send: (req) => client.send(req), ledger, note: () => undefined, scrub: (t) => t }, 3);
  } finally {
    await client.close();
  }
  expect(deletes.map((d) => d.path).sort()).toEqual(['/things/a', '/things/b', '/things/c', '/things/d', '/things/p', '/things/p/subs/c1', '/things/p/subs/c2']);
  expect(ledger.toCleanUp()).toEqual([]);
  // Never more than the pool; more than one at once (each DELETE takes long enough for the next to arrive, even on a loaded machine).
  expect(peak).toBeLessThanOrEqual(3);
  expect(peak).toBeGreaterThan(1);
  const at = (path: string) => deletes.find((d) => d.path === path)!;
  for (const child of ['/things/p/subs/c1', '/things/p/subs/c2']) expect(at('/things/p').started).toBeGreaterThanOrEqual(at(child).ended);
});

it('a failure with one item (its ledger line not written) is a note, and the others are still deleted', async () => {
  deletes.length = 0;
  const profile = testProfile(base);
  // A journal that cannot write when the first item is settled (a full disk).
  class FailingLedger extends Ledger {
    override gone(entry: Parameters<Ledger['gone']>[0], why?: Parameters<Ledger['gone']>[1]): void {
      if (entry.url.endsWith('/things/x')) throw new Error('ENOSPC: no space left on device');
      super.gone(entry, why);
    }
  }
  const ledger = new FailingLedger(profile);
  const owner = 'END-delete-204 [things]';
  for (const path of ['/things/x', '/things/y', '/things/z']) ledger.record(`${base}${path}`, owner);
  const notes: string[] = [];
  const client = new HttpClient({ timeoutMs: 5_000, maxBodyBytes: 1 << 20, connections: 3, maxRequests: 100 });
  try {
    await cleanUp(ledger.toCleanUp(owner), { profile, send: (req) => client.send(req), ledger, note: (line) => notes.push(line), scrub: (t) => t }, 3);
  } finally {
    await client.close();
  }
  expect(deletes.map((d) => d.path).sort()).toEqual(['/things/x', '/things/y', '/things/z']);
  expect(ledger.toCleanUp().map((e) => e.url)).toEqual([`${base}/things/x`]);
  expect(notes).toContainEqual(expect.stringMatching(/cleanup of .*\/things\/x failed: ENOSPC/));
});

it('puts an entry recorded `first` (a webhook subscription) ahead of its owner\'s other items, the rest newest first', () => {
  const ledger = new Ledger(testProfile(base));
  const owner = 'EVT-event-id';
  for (const [path, first] of [['/subs/s', true], ['/things/a', false], ['/things/b', false]] as const) ledger.record(`${base}${path}`, owner, { first });
  expect(ledger.toCleanUp(owner).map((e) => e.url.slice(base.length))).toEqual(['/subs/s', '/things/b', '/things/a']);
});
