/**
 * Issue 24: `collections[].pagination.envelope` lets the config say where an API's pages keep
 * their items and next page (Django REST framework's `results` and `next` URL). The page-shape
 * checks still judge by the conventions and fail; every other page check reads the items
 * through the envelope and judges them, as strictly as a conforming page's. Without the
 * envelope those checks cannot read the pages (ERR_SETUP).
 *
 * Dependents are run one at a time, without the checks they depend on: a dependency that is
 * not selected does not block, so each verdict here is the check's own finding.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProfile } from '../src/config/load.js';
import { runChecks } from '../src/engine/run.js';
import { RestprobeError } from '../src/errors.js';
import type { PageEnvelope, TargetProfile } from '../src/model/profile.js';
import { resultName, worstFinding, type CheckResult } from '../src/model/result.js';
import { catalogue } from '../suites/catalogue.js';
import { startDrfServer, type DrfOptions, type DrfServer } from './support/drf-server.js';

/** DRF's CursorPagination: the items in `results`, the next page's URL in `next`. */
const drfCursor: PageEnvelope = { items: '/results', next: '/next', nextIs: 'url' };
/** DRF's PageNumberPagination: only the items need saying (page style reads no next cursor). */
const drfPages: PageEnvelope = { items: '/results', next: '/next_cursor', nextIs: 'cursor' };

/** The checks that walk pages or read their items, each judged alone. */
const walkChecks = ['END-pagination-complete-walk', 'END-filter-matches', 'END-sort-honoured', 'END-sort-ties-deterministic', 'END-cursor-tamper-400', 'LIM-limit-capped', 'LIM-default-page-bounded'];
/** The checks whose rule is the page shape. */
const shapeChecks = ['END-get-collection-200', 'END-pagination-terminates'];

let server: DrfServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: DrfOptions = {}): Promise<DrfServer> {
  server = await startDrfServer(options);
  return server;
}

interface Judged {
  readonly verdicts: Record<string, string>;
  /** Every result as `ID [collection]: status message`, to explain a mismatch and to match messages. */
  readonly explain: string;
  readonly results: readonly CheckResult[];
}

/** Each check run on its own: its worst finding, and every result's message. */
async function judge(profile: TargetProfile, ids: readonly string[]): Promise<Judged> {
  const verdicts: Record<string, string> = {};
  const results: CheckResult[] = [];
  for (const id of ids) {
    const run = await runChecks({ profile, checks: catalogue.filter((c) => c.id === id), seed: 1 });
    expect(run.leftovers, `${id} left items behind`).toEqual([]);
    results.push(...run.results);
    verdicts[id] = worstFinding(run.results)?.status ?? 'none';
  }
  return { verdicts, results, explain: results.map((r) => `${resultName(r.id, r.collection)}: ${r.status} ${r.errorCode ?? ''} ${r.message}`).join('\n') };
}

const all = (ids: readonly string[], status: string): Record<string, string> => Object.fromEntries(ids.map((id) => [id, status]));

describe('a Django REST framework API with CursorPagination (results, next URL)', () => {
  it('with the envelope: the shape checks fail naming the shape, every walk check reads the items and passes', async () => {
    const drf = await start();
    const shape = await judge(drf.profile(drfCursor), shapeChecks);
    expect(shape.verdicts, shape.explain).toEqual(all(shapeChecks, 'fail'));
    for (const r of shape.results) {
      expect(r.message).toMatch(/"data" is missing, expected a "data" array of the page's items/);
      expect(r.message).toMatch(/the configured envelope \(collections\[\]\.pagination\.envelope\) is what the other page checks read/);
    }
    const walks = await judge(drf.profile(drfCursor), walkChecks);
    expect(walks.verdicts, walks.explain).toEqual(all(walkChecks, 'pass'));
    expect(drf.count()).toBe(0);
  });

  it('without the envelope: the walk checks cannot read the pages (ERR_SETUP naming the page), and the shape checks still fail', async () => {
    const drf = await start();
    const walks = await judge(drf.profile(), walkChecks);
    // LIM-limit-capped refuses nothing here, so it reads the page too.
    expect(walks.verdicts, walks.explain).toEqual(all(walkChecks, 'error'));
    for (const r of walks.results) expect(r.message, r.id).toMatch(/is not a page of results \("data" is missing\), so this check cannot read it/);
    expect((await judge(drf.profile(), ['END-get-collection-200'])).verdicts).toEqual({ 'END-get-collection-200': 'fail' });
  });

  it('the envelope does not make checks lax: a next URL that loops back fails the walk', async () => {
    const drf = await start({ loopingNext: true });
    const { verdicts, explain } = await judge(drf.profile(drfCursor), ['END-pagination-complete-walk']);
    expect(verdicts, explain).toEqual({ 'END-pagination-complete-walk': 'fail' });
    // Named as the envelope names it: the DRF page's "next", not the conventions' next_cursor.
    expect(explain).toMatch(/a loop \(2 pages, 1 of them bringing no unseen item\), expected next to become null after the last item/);
  });

  it('the envelope does not make checks lax: a page_size the API ignores fails the walk and the cap', async () => {
    const drf = await start({ ignorePageSize: true });
    const { verdicts, explain } = await judge(drf.profile(drfCursor), ['END-pagination-complete-walk']);
    expect(verdicts, explain).toEqual({ 'END-pagination-complete-walk': 'fail' });
    expect(explain).toMatch(/5 items for page_size=1, expected at most 1/);
  });

  it('a next URL without the cursor parameter makes the page unreadable: a setup error saying so', async () => {
    const drf = await start({ cursorInAfter: true });
    const { verdicts, explain } = await judge(drf.profile(drfCursor), ['END-pagination-complete-walk']);
    expect(verdicts, explain).toEqual({ 'END-pagination-complete-walk': 'error' });
    expect(explain).toMatch(/ERR_SETUP .*does not match the configured page envelope \("next" is "http:\/\/127\.0\.0\.1:\d+\/api\/items\/\?[^"]*after=[^"]*", a URL without a "cursor" query parameter, expected the next page's URL with its cursor in "cursor"/);
  });

  it('an envelope the pages do not match either is a setup error, not a finding', async () => {
    const drf = await start();
    const { verdicts, explain } = await judge(drf.profile({ ...drfCursor, items: '/content' }), ['END-filter-matches']);
    expect(verdicts, explain).toEqual({ 'END-filter-matches': 'error' });
    expect(explain).toMatch(/does not match the configured page envelope \("content" is missing, expected a "content" array of the page's items\)/);
  });
});

describe('a Django REST framework API with PageNumberPagination (count, next, previous, results)', () => {
  const pageChecks = ['END-offset-pages-disjoint', 'END-filter-matches', 'END-sort-honoured', 'END-sort-ties-deterministic', 'LIM-limit-capped', 'LIM-default-page-bounded'];

  it('read through items: /results, the page checks judge the items and pass; the shape check fails', async () => {
    const drf = await start({ style: 'page' });
    const { verdicts, explain } = await judge(drf.profile(drfPages), [...pageChecks, 'END-get-collection-200']);
    expect(verdicts, explain).toEqual({ ...all(pageChecks, 'pass'), 'END-get-collection-200': 'fail' });
  });

  it('a page number the API ignores still fails the disjoint-pages check', async () => {
    const drf = await start({ style: 'page', ignorePage: true });
    const { verdicts, explain } = await judge(drf.profile(drfPages), ['END-offset-pages-disjoint']);
    expect(verdicts, explain).toEqual({ 'END-offset-pages-disjoint': 'fail' });
  });
});

describe('the envelope in the config', () => {
  async function load(envelope: unknown): Promise<TargetProfile> {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-envelope-'));
    try {
      const path = join(dir, 'restprobe.config.json');
      await writeFile(path, JSON.stringify({ baseUrl: 'http://api.test', collections: [{ name: 'items', path: '/api/items/', pagination: { envelope } }] }));
      return await loadProfile({ configPath: path, env: {} });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  it('fills the keys left out with the conventions\' own; absent, the profile holds none', async () => {
    expect((await load({ items: '/results', nextIs: 'url' })).collections[0]!.pagination.envelope).toEqual({ items: '/results', next: '/next_cursor', nextIs: 'url' });
    expect((await load({ items: '' })).collections[0]!.pagination.envelope).toEqual({ items: '', next: '/next_cursor', nextIs: 'cursor' });
  });

  it('refuses a pointer that is no JSON Pointer, naming the key', async () => {
    const err = await load({ items: 'results', next: '/a~2b' }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(RestprobeError);
    expect((err as RestprobeError).problems).toEqual([
      'collections[0].pagination.envelope.items: must be a JSON Pointer (RFC 6901): "" or "/" followed by member names, with "~" written "~0" and "/" written "~1" (found string "results")',
      'collections[0].pagination.envelope.next: must be a JSON Pointer (RFC 6901): "" or "/" followed by member names, with "~" written "~0" and "/" written "~1" (found string "/a~2b")',
    ]);
  });
});
