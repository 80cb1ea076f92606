/**
 * Issue 24, mechanism 1: a failure must not silence the checks behind it, and one cause is
 * one verdict. On the reference server behind a rewriting proxy that changes what real APIs
 * change:
 * - pages in Django REST framework's envelope (`results`, `next` as a URL): the page-shape
 *   check fails, and with `pagination.envelope` configured every walk still judges the items;
 *   without it, the walks are blocked by that one failure, not failed again;
 * - a 201 without Location, and a gateway that drops Idempotency-Key: END-post-201-location
 *   fails, and the idempotency check still judges (by the id in the body) and finds the key
 *   ignored, a violation of its own; only the check that follows the Location is blocked;
 * - Express's default HTML 404 page: five error checks fail for one cause, which every
 *   report shows once ("one fix, 5 findings"), and GitHub gets one annotation for it.
 */
import { describe, expect, it } from 'vitest';
import { runChecks } from '../src/engine/run.js';
import { resultName, worstFinding, type CheckResult } from '../src/model/result.js';
import type { CollectionProfile, TargetProfile } from '../src/model/profile.js';
import { buildReport } from '../src/report/model.js';
import { renderGithubAnnotations } from '../src/report/github.js';
import { catalogue } from '../suites/catalogue.js';
import { jsonOf, pathOf, queryOf, withJson, type Rewrites } from './support/rewriting-proxy.js';
import { startVariant } from './support/target.js';

const projects = '/v2/projects';

/** Runs `ids` together (so dependencies apply) on the variant, on the projects collection only. */
async function run(rewrites: Rewrites, ids: readonly string[], change: (c: CollectionProfile) => CollectionProfile = (c) => c): Promise<{ verdicts: Record<string, string>; results: CheckResult[]; explain: string }> {
  const target = await startVariant(rewrites);
  try {
    const profile: TargetProfile = { ...target.profile, collections: target.profile.collections.filter((c) => c.name === 'projects').map(change) };
    const checks = catalogue.filter((c) => ids.includes(c.id));
    const { results } = await runChecks({ profile, checks, seed: 1, client: target.client });
    const verdicts = Object.fromEntries(ids.map((id) => [id, describeVerdict(worstFinding(results.filter((r) => r.id === id)))]));
    return { verdicts, results, explain: results.map((r) => `${resultName(r.id, r.collection)}: ${r.status} ${r.message}`).join('\n') };
  } finally {
    await target.close();
  }
}

const every = (ids: readonly string[], verdict: string): Record<string, string> => Object.fromEntries(ids.map((id) => [id, verdict]));

const describeVerdict = (r: CheckResult | undefined): string => (r === undefined ? 'absent' : r.errorCode === 'ERR_BLOCKED' ? 'blocked' : r.status);

/** The projects listing as DRF's CursorPagination answers it: `results`, and `next` a URL carrying the cursor. */
const drfPages: Rewrites = {
  response(res, req) {
    if (req.method !== 'GET' || pathOf(req) !== projects || res.status !== 200) return res;
    const page = jsonOf(res) as { data: unknown[]; next_cursor: string | null };
    const query = queryOf(req);
    if (page.next_cursor !== null) query.set('cursor', page.next_cursor);
    return withJson(res, { next: page.next_cursor === null ? null : `http://${req.headers['host']}${projects}?${query}`, previous: null, results: page.data });
  },
};

/** Checks that walk the pages (END-pagination-terminates judges their shape too). */
const shapeChecks = ['END-get-collection-200', 'END-pagination-terminates'];
const walks = ['END-pagination-complete-walk', 'END-filter-matches', 'END-sort-honoured', 'END-cursor-tamper-400', 'LIM-default-page-bounded'];

describe('a listing in another envelope fails the page-shape check once', () => {
  it('with pagination.envelope configured, every walk judges the items and passes', async () => {
    const envelope = { items: '/results', next: '/next', nextIs: 'url' as const };
    const got = await run(drfPages, [...shapeChecks, ...walks], (c) => ({ ...c, pagination: { ...c.pagination, envelope } }));
    // END-pagination-terminates judges the shape of every page: the same finding again.
    expect(got.verdicts, got.explain).toEqual({ 'END-get-collection-200': 'fail', 'END-pagination-terminates': 'blocked', ...every(walks, 'pass') });
  });

  it('without it, the walks cannot read the pages: blocked by that failure, not failed again', async () => {
    const got = await run(drfPages, [...shapeChecks, ...walks]);
    expect(got.verdicts, got.explain).toEqual({ 'END-get-collection-200': 'fail', ...every(['END-pagination-terminates', ...walks], 'blocked') });
    expect(got.results.filter((r) => r.status === 'fail').map((r) => r.rootCause)).toEqual(['GET /v2/projects answers no page of results']);
  });
});

describe('a 201 without Location does not hide what the checks after it find', () => {
  const noLocationNoKey: Rewrites = {
    request: (req) => {
      const { 'idempotency-key': _dropped, ...headers } = req.headers;
      return { ...req, headers };
    },
    response: (res, req) => {
      if (req.method !== 'POST') return res;
      const { location: _gone, ...headers } = res.headers;
      return { ...res, headers };
    },
  };

  it('the idempotency check judges by the id in the body and finds the key ignored; the tolerant reader passes; only the Location follower is blocked', async () => {
    const ids = ['END-post-201-location', 'END-post-location-resolves', 'END-idempotency-key-replay', 'VER-tolerant-reader'];
    const got = await run(noLocationNoKey, ids);
    expect(got.verdicts, got.explain).toEqual({ 'END-post-201-location': 'fail', 'END-post-location-resolves': 'blocked', 'END-idempotency-key-replay': 'fail', 'VER-tolerant-reader': 'pass' });
    expect(got.results.find((r) => r.id === 'END-idempotency-key-replay')!.message).toMatch(/second resource/);
  });
});

describe('an HTML 404 page fails five error checks for one cause', () => {
  const expressNotFound: Rewrites = {
    response: (res, req) =>
      res.status !== 404 ? res : { ...res, headers: { ...res.headers, 'content-type': 'text/html; charset=utf-8' }, body: `<!DOCTYPE html>\n<html lang="en"><head><title>Error</title></head><body><pre>Cannot ${req.method} ${pathOf(req)}</pre></body></html>` },
  };
  const errorChecks = ['ERR-unknown-path-404', 'ERR-unknown-id-404', 'ERR-problem-json-content-type', 'ERR-problem-members', 'ERR-problem-status-matches'];

  it('one root cause with its five checks, in the report and in one GitHub annotation', async () => {
    const got = await run(expressNotFound, errorChecks);
    expect(got.verdicts, got.explain).toEqual(every(errorChecks, 'fail'));
    const report = buildReport({ baseUrl: 'http://127.0.0.1', startedAt: new Date(), durationMs: 1, seed: 1, strict: false, version: 'test', results: got.results });
    const failed = got.results.map((r) => resultName(r.id, r.collection));
    expect(report.failureCauses).toEqual([{ cause: 'error responses are not labelled application/problem+json', checks: expect.arrayContaining(failed) }]);
    expect(report.failureCauses[0]!.checks).toHaveLength(5);
    const annotations = renderGithubAnnotations(report).trimEnd().split('\n');
    expect(annotations).toHaveLength(1);
    expect(annotations[0]).toMatch(/^::error title=restprobe%3A one cause%2C 5 findings::error responses are not labelled application\/problem\+json%0AChecks: /);
  });
});
