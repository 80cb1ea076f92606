/**
 * A target that requires conditional writes (RFC 6585 §3: 428 Precondition Required to a
 * PUT, PATCH or DELETE of an item without a precondition, as drf-extensions'
 * APIETAGProcessor answers) conforms to the conventions: restprobe sends its writes to its
 * own items again with the item's ETag, judges what the conditional write got, shows the
 * request as it finally left, and leaves nothing behind. The checks that judge preconditions
 * still catch a server that ignores them.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanUpLedger } from '../src/engine/ledger-cleanup.js';
import { ledgerFileName, LedgerFile, readLedgerFile } from '../src/engine/ledger-file.js';
import { Ledger } from '../src/engine/ledger.js';
import { runChecks } from '../src/engine/run.js';
import { resultName, worstFinding } from '../src/model/result.js';
import { catalogue } from '../suites/catalogue.js';
import { pathOf, type ProxiedResponse, type Rewrites } from './support/rewriting-proxy.js';
import { cleanDocument } from './support/clean-document.js';
import { cleanServerExceptions, cleanServerInstanceExceptions, startVariant } from './support/target.js';

const preconditionRequired = (method: string): ProxiedResponse => ({
  status: 428,
  headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store' },
  body: JSON.stringify({ type: 'about:blank', title: 'Precondition Required', status: 428, detail: `${method} of an item requires If-Match` }),
});

/** The collections' items (not sessions, keys or subscriptions): a precondition required on every write, checked before anything else, credentials too. */
const item = /^\/v2\/(projects|members)\/[^/]+(\/tasks\/[^/]+)?$/;
const requiresPreconditions: Rewrites = {
  request: (req) =>
    ['PUT', 'PATCH', 'DELETE'].includes(req.method) && item.test(pathOf(req)) && !['if-match', 'if-unmodified-since', 'if-none-match'].some((h) => req.headers[h] !== undefined)
      ? preconditionRequired(req.method)
      : req,
};

describe('a target that requires a precondition on every write of an item (428 Precondition Required)', () => {
  it('passes the whole catalogue as the clean server does (the OpenAPI document checks too: a 428, like a 412, comes from the precondition machinery), shows the conditional writes, and leaves nothing behind', async () => {
    const target = await startVariant(requiresPreconditions);
    try {
      const { results, leftovers } = await runChecks({ profile: target.profile, inputs: { openapi: await cleanDocument() }, checks: catalogue, seed: 1, client: target.client });
      const odd = results
        .filter((r) => r.status !== 'pass' && r.status !== 'skip' && cleanServerExceptions[r.id]?.status !== r.status && cleanServerInstanceExceptions[resultName(r.id, r.collection)]?.status !== r.status)
        .map((r) => `${resultName(r.id, r.collection)}: ${r.status} ${r.message}`);
      expect(odd).toEqual([]);
      expect(leftovers).toEqual([]);
      // Each check that wrote says so once per method: its writes went again, conditional on the item's ETag, and cleanup's too.
      const notes = results.flatMap((r) => r.evidence.notes);
      for (const method of ['PUT', 'PATCH', 'DELETE']) {
        expect(notes.some((n) => new RegExp(`^${method} /v2/projects/\\S+ answered 428 Precondition Required: the target requires conditional writes, so restprobe sends its ${method} requests to its own items again with If-Match: "[^"]+" after a GET of the item \\(200\\)$`).test(n)), method).toBe(true);
      }
      expect(notes.some((n) => /^cleanup: DELETE \/v2\/members\/\S+ answered 428 Precondition Required/.test(n))).toBe(true);
      // A PUT that creates an item asks for it only if it is still absent.
      expect(notes.some((n) => /^PUT \/v2\/projects\/\S+ answered 428 .* again with If-None-Match: \* after a GET of the item \(404\)$/.test(n))).toBe(true);
    } finally {
      await target.close();
    }
  });

  it('still fails a server that requires If-Match but ignores its value (a lost update)', async () => {
    const target = await startVariant(requiresPreconditions, ['if-match-ignored']);
    try {
      const ids = ['END-if-match-412', 'END-if-match-delete-412'];
      const { results } = await runChecks({ profile: target.profile, checks: catalogue.filter((c) => ids.includes(c.id)), seed: 1, client: target.client });
      expect(Object.fromEntries(ids.map((id) => [id, worstFinding(results.filter((r) => r.id === id))!.status]))).toEqual({ 'END-if-match-412': 'fail', 'END-if-match-delete-412': 'fail' });
    } finally {
      await target.close();
    }
  });

  it("is cleaned up after by `restprobe cleanup` too: a killed run's item is deleted with If-Match", async () => {
    const target = await startVariant(requiresPreconditions);
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-428-'));
    const file = LedgerFile.open(dir, { baseUrl: target.profile.baseUrl, version: '0.1.0', secrets: target.profile.secrets });
    const journal = LedgerFile.resume(dir, target.profile.secrets);
    try {
      const key = target.server.secrets.RESTPROBE_API_KEY;
      const made = await fetch(`${target.profile.baseUrl}/v2/projects`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'restprobe probe' }) });
      const url = `${target.profile.baseUrl}/v2/projects/${((await made.json()) as { id: string }).id}`;
      new Ledger(target.profile, file).record(url, 'END-get-item-200 [projects]');
      file.close();
      const notes: string[] = [];
      const outcome = await cleanUpLedger(target.profile, await readLedgerFile(join(dir, ledgerFileName)), target.client, journal, (line) => notes.push(line));
      expect(outcome.deleted).toEqual([url]);
      expect(outcome.left).toEqual([]);
      expect(notes.join('\n')).toMatch(/DELETE \/v2\/projects\/\S+ answered 428 Precondition Required: .* again with If-Match: "[^"]+"/);
      expect((await fetch(url, { headers: { 'x-api-key': key } })).status).toBe(404);
    } finally {
      journal.close();
      await target.close();
    }
  });
});
