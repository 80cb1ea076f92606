/**
 * VER-compatible-within-major against stand-ins: the reference server behind a rewriting
 * proxy that changes one thing since the clean server's shapes were taken. A safe change
 * (an added field) passes; a changed id type, a 404 become 400, or an error body that lost
 * `type` fails; a baseline of another major version, or none, skips; a read-only run
 * compares what it could observe. And `merge-reports --baseline` judges the shapes shards
 * recorded without one as a run with it would.
 */
import { describe, expect, it } from 'vitest';
import { runChecks } from '../src/engine/run.js';
import type { CheckResult } from '../src/model/result.js';
import type { TargetProfile } from '../src/model/profile.js';
import type { ShapeBaseline } from '../src/model/shape.js';
import { buildReport } from '../src/report/model.js';
import { judgeRecorded } from '../src/engine/rejudge.js';
import type { Report } from '../src/report/model.js';
import type { ShapeSnapshot } from '../src/model/shape.js';
import { compatibleWithinMajor } from '../suites/09-versioning/compatibility.js';
import { cleanShapes } from './support/clean-shapes.js';
import { jsonOf, withJson, type ProxiedResponse, type Rewrites } from './support/rewriting-proxy.js';
import { startTarget, startVariant, type Target } from './support/target.js';

/** The check's results on every collection of a target (closed afterwards), compared with `baseline`. */
async function judged(start: Promise<Target>, baseline: ShapeBaseline | undefined, adjust: (p: TargetProfile) => TargetProfile = (p) => p): Promise<CheckResult[]> {
  const target = await start;
  try {
    return (await runChecks({ profile: adjust(target.profile), ...(baseline !== undefined && { inputs: { baseline } }), checks: [compatibleWithinMajor], seed: 1, client: target.client })).results;
  } finally {
    await target.close();
  }
}

const verdicts = (results: readonly CheckResult[]): Record<string, string> => Object.fromEntries(results.map((r) => [r.collection, r.status]));
const messages = (results: readonly CheckResult[]): string => results.map((r) => `${r.collection}: ${r.message}`).join('\n');

/** Rewrites every JSON object answer of the item routes (not listings) with `change`. */
function itemJson(change: (body: Record<string, unknown>) => Record<string, unknown>): Rewrites {
  return {
    response(res): ProxiedResponse {
      const body = jsonOf(res);
      return body !== null && typeof body === 'object' && !Array.isArray(body) && typeof body.id === 'string' ? withJson(res, change(body)) : res;
    },
  };
}

describe('VER-compatible-within-major', () => {
  it('without a baseline records every collection’s shapes and skips, naming --baseline', async () => {
    const results = await judged(startTarget(), undefined);
    expect(verdicts(results)).toEqual({ projects: 'skip', members: 'skip', events: 'skip' });
    expect(results.every((r) => r.configKey === '--baseline' && r.data?.['shapes'] !== undefined)).toBe(true);
    const projects = results.find((r) => r.collection === 'projects')!.data!['shapes'] as ShapeSnapshot;
    expect(Object.keys(projects.probes).sort()).toEqual(['create', 'invalid create', 'item', 'list', 'missing item']);
    expect(projects.version).toBe('2');
    expect(projects.probes['item']).toMatchObject({ request: 'GET /v2/projects/{id}', status: 200, body: { '$.id': { types: ['string'] }, '$.created_at': { types: ['string'] } } });
    expect(projects.probes['missing item']).toMatchObject({ status: 404, body: { '$.type': { types: ['string'] }, '$.status': { types: ['number'] } } });
    // Events take no DELETE: nothing is created, the listing's first item (if any) is read.
    expect(Object.keys((results.find((r) => r.collection === 'events')!.data!['shapes'] as ShapeSnapshot).probes)).not.toContain('create');
  });

  it('passes a target that added an optional field, and notes the addition', async () => {
    const results = await judged(startVariant(itemJson((b) => ({ ...b, revision_hint: 'r1' }))), await cleanShapes());
    expect(verdicts(results), messages(results)).toEqual({ projects: 'pass', members: 'pass', events: 'pass' });
    expect(results.find((r) => r.collection === 'projects')!.evidence.notes).toContain('safe change since the baseline: GET /v2/projects/{id} (item) $.revision_hint: added (string)');
  });

  it('fails a target whose ids became integers, naming the field and both types', async () => {
    let n = 0;
    const results = await judged(startVariant(itemJson((b) => ({ ...b, id: ++n }))), await cleanShapes());
    const projects = results.find((r) => r.collection === 'projects')!;
    expect(projects.status, messages(results)).toBe('fail');
    expect(projects.evidence.found).toContain('POST /v2/projects (create) $.id: was string, is now number');
    expect(projects.message).toMatch(/^\d+ breaking changes? in projects since the baseline of .* within major version 2: .*; expected the same status codes, fields and types/);
    expect(projects.evidence.exchanges.length).toBeGreaterThan(0);
  });

  it('fails a target whose missing item answers 400, not 404', async () => {
    const rewrites: Rewrites = { response: (res, req) => (req.method === 'GET' && res.status === 404 && /^\/v2\/\w+\/[^/?]+$/.test(req.path) ? { ...res, status: 400 } : res) };
    const results = await judged(startVariant(rewrites), await cleanShapes());
    expect(verdicts(results), messages(results)).toEqual({ projects: 'fail', members: 'fail', events: 'fail' });
    expect(results[0]!.evidence.found).toMatch(/^GET \/v2\/\w+\/\{id\} \(an id no item has\) \(missing item\) answered 404, now 400$/);
  });

  it('fails a target whose error bodies lost `type`', async () => {
    const rewrites: Rewrites = {
      response(res) {
        const body = jsonOf(res);
        if (!res.headers['content-type']?.startsWith('application/problem+json') || body === undefined) return res;
        const { type: _type, ...rest } = body;
        return withJson(res, rest);
      },
    };
    const results = await judged(startVariant(rewrites), await cleanShapes());
    expect(verdicts(results), messages(results)).toEqual({ projects: 'fail', members: 'fail', events: 'fail' });
    expect(results.find((r) => r.collection === 'projects')!.evidence.found).toContain('GET /v2/projects/{id} (an id no item has) (missing item) $.type: removed (was string)');
  });

  it('ends as an error, not a breaking change, when a probe finds the target unavailable (503 after retries)', async () => {
    const rewrites: Rewrites = { response: (res, req) => (req.method === 'GET' && /^\/v2\/members(\?|$)/.test(req.path) ? { ...res, status: 503, body: '' } : res) };
    const results = await judged(startVariant(rewrites), await cleanShapes());
    expect(verdicts(results), messages(results)).toEqual({ projects: 'pass', members: 'error', events: 'pass' });
    expect(results.find((r) => r.collection === 'members')!.message).toMatch(/GET \/v2\/members answered 503 \(the target unavailable, after retries\)/);
  });

  it('skips against a baseline taken on another major version: breaking changes are what a new one is for', async () => {
    const clean = await cleanShapes();
    const v1: ShapeBaseline = { ...clean, collections: Object.fromEntries(Object.entries(clean.collections).map(([name, s]) => [name, { ...s, version: '1' }])) };
    const results = await judged(startTarget(), v1);
    expect(verdicts(results)).toEqual({ projects: 'skip', members: 'skip', events: 'skip' });
    expect(results[0]!.message).toMatch(/was taken on major version 1, this run is on 2: breaking changes are allowed across major versions/);
    expect(results[0]!.configKey).toBeUndefined();
  });

  it('on a read-only run does not hold the item it reads (another item than the one the baseline created) to the created item’s fields', async () => {
    // An API that leaves out empty fields, with stored projects whose description is empty.
    const omitNulls: Rewrites = { response: (res) => (jsonOf(res)?.id === undefined ? res : withJson(res, Object.fromEntries(Object.entries(jsonOf(res)).filter(([, v]) => v !== null)))) };
    const results = await judged(startVariant(omitNulls, [], { seedProjects: 3 }), await cleanShapes(), (p) => ({ ...p, safety: { ...p.safety, readOnly: true } }));
    expect(verdicts(results), messages(results)).toEqual({ projects: 'pass', members: 'pass', events: 'pass' });
    const notes = results.find((r) => r.collection === 'projects')!.evidence.notes;
    expect(notes).toContain('not compared: GET /v2/projects/{id} (item): not sent this run');
    expect((results.find((r) => r.collection === 'projects')!.data!['shapes'] as ShapeSnapshot).probes['listed item']).toMatchObject({ request: "GET /v2/projects/{id} (the listing's first item)", status: 200 });
  });

  it('on a read-only run compares what it could observe and notes what it could not', async () => {
    const results = await judged(startTarget(), await cleanShapes(), (p) => ({ ...p, safety: { ...p.safety, readOnly: true } }));
    expect(verdicts(results), messages(results)).toEqual({ projects: 'pass', members: 'pass', events: 'pass' });
    expect(results.find((r) => r.collection === 'projects')!.evidence.notes).toContain('not compared: POST /v2/projects (create): not sent this run');
  });
});

describe('merge-reports --baseline', () => {
  /** What merge-reports --baseline does with a shard's report: the engine judges what it recorded, through the check's own code. */
  const withShapesJudged = async (shard: Report): Promise<Report> => (shard.baseline !== undefined ? shard : { ...shard, checks: judgeRecorded(shard.checks, [compatibleWithinMajor], { baseline: await cleanShapes() }, 'merge-reports --baseline') });

  it('judges the shapes a shard recorded without a baseline, as a run with it would', async () => {
    let n = 0;
    const results = await judged(startVariant(itemJson((b) => ({ ...b, id: ++n }))), undefined);
    const shard = buildReport({ baseUrl: 'http://x.test', startedAt: new Date(), durationMs: 1, seed: 1, strict: false, version: '0.0.0', results, shard: { index: 1, total: 1 } });
    const whole = await withShapesJudged(shard);
    const projects = whole.checks.find((r) => r.collection === 'projects')!;
    expect(projects).toMatchObject({ status: 'fail', evidence: { found: expect.stringContaining('$.id: was string, is now number') } });
    expect(projects.configKey).toBeUndefined();
    expect(projects.evidence.notes).toContain('judged by merge-reports --baseline from the shapes this shard recorded (its exchanges are kept as summaries)');
    // A shard that ran with --baseline judged for itself.
    expect((await withShapesJudged({ ...shard, baseline: { against: { startedAt: '', toolVersion: '', baseUrl: '' }, newFailures: [], fixed: [], stillFailing: [], vanished: [], nowSkipped: [] } })).checks).toEqual(shard.checks);
  });
});
