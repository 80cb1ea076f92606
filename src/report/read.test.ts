import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hostileResult, sampleReport, sampleResults } from '../../test/support/report-samples.js';
import { isRestprobeError } from '../errors.js';
import { renderJson } from './json.js';
import type { Report } from './model.js';
import { readReport, reportValidator } from './read.js';
import { shapeOf } from '../check-kit/shapes.js';

/** A report with every optional field set. */
const shapes = { version: '2', probes: { 'missing item': { request: 'GET /v2/projects/{id} (an id no item has)', status: 404, body: shapeOf({ type: 'about:blank', status: 404, errors: [{ field: 'x' }], note: null }) } } };
const withShapes = { ...sampleResults[0]!, id: 'VER-compatible-within-major', collection: 'projects', status: 'skip' as const, data: { shapes } };
const full: Report = {
  ...sampleReport(true, [...sampleResults, hostileResult, withShapes]),
  leftovers: [{ url: 'http://x.test/v2/projects/7', owner: 'END-get-item-200 [projects]', lastAnswer: 'DELETE answered 503' }],
  damage: { after: 'ERR-bad-input-no-5xx', before: ['GET / → 200'], now: ['GET / → 500'] },
  cleanupBeyondCap: 2,
  shard: { index: 1, total: 2 },
  baseline: {
    against: { startedAt: '2025-01-01T00:00:00.000Z', toolVersion: '0.1.0', baseUrl: 'http://x.test' },
    newFailures: [{ name: 'ERR-unknown-path-404', was: 'pass', now: 'fail' }],
    fixed: [],
    stillFailing: [],
    vanished: [{ name: 'END-get-item-200 [members]', was: 'pass' }],
    nowSkipped: [{ name: 'END-get-item-200', was: 'pass', now: 'skip' }],
  },
};

const problems = (data: unknown): string[] => {
  const validate = reportValidator();
  validate(data);
  return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
};

describe('the report schema', () => {
  it('holds the reports restprobe builds, every optional field included', () => {
    expect(problems(JSON.parse(renderJson(sampleReport())))).toEqual([]);
    expect(problems(JSON.parse(renderJson(full)))).toEqual([]);
  });

  it('refuses what a consumer could not rely on: a missing field, an unknown status, an undocumented field, a bad date', () => {
    const json = JSON.parse(renderJson(sampleReport())) as Record<string, unknown> & { checks: Record<string, unknown>[] };
    expect(problems({ ...json, checks: undefined })).toContain(" must have required property 'checks'");
    expect(problems({ ...json, checks: [{ ...json.checks[0], status: 'flaky' }] })).toContain('/checks/0/status must be equal to one of the allowed values');
    expect(problems({ ...json, extra: 1 })).toContain(' must NOT have additional properties');
    expect(problems({ ...json, startedAt: 'yesterday' })).toContain('/startedAt must match format "date-time"');
    expect(problems({ ...json, schemaVersion: 8 })).toContain('/schemaVersion must be equal to constant');
    expect(problems({ ...json, checks: [{ ...json.checks[0], data: { shapes: { probes: 'none' } } }] })).toContain('/checks/0/data/shapes/probes must be object');
  });
});

describe('readReport', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'restprobe-read-'));
  });
  const file = async (name: string, text: string): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };
  const failure = async (path: string): Promise<{ code: string; message: string; problems: readonly string[] }> => {
    const err = await readReport(path, '--baseline').catch((e: unknown) => e);
    if (!isRestprobeError(err)) throw new Error(`expected a RestprobeError, got ${String(err)}`);
    return err;
  };

  it('reads a report, a version-6 one as version 7, and a version-1 to -5 one (no failureCauses) too', async () => {
    expect(await readReport(await file('full.json', renderJson(full)), '--baseline')).toEqual(full);
    const v6 = await readReport(await file('v6.json', JSON.stringify({ ...JSON.parse(renderJson(full)), schemaVersion: 6 })), '--baseline');
    expect(v6).toEqual(full);
    for (const version of [1, 2, 3, 4, 5]) {
      const { failureCauses: _none, ...old } = { ...JSON.parse(renderJson(sampleReport())), schemaVersion: version };
      const read = await readReport(await file(`v${version}.json`, JSON.stringify(old)), '--baseline');
      expect([read.schemaVersion, read.failureCauses]).toEqual([7, []]);
    }
  });

  it("reads a version-4 result's shapes as the data it recorded (data.shapes), so an older report still serves as --baseline", async () => {
    const { data: _now, ...v4Result } = withShapes;
    const v4 = { ...JSON.parse(renderJson(full)), schemaVersion: 4, checks: JSON.parse(renderJson(full)).checks.map((c: { id: string }) => (c.id === 'VER-compatible-within-major' ? { ...v4Result, shapes } : c)) };
    const read = await readReport(await file('v4-shapes.json', JSON.stringify(v4)), '--baseline');
    expect(read).toEqual(full);
    expect(read.checks.find((c) => c.id === 'VER-compatible-within-major')?.data).toEqual({ shapes });
  });

  it('says which file and what is wrong, with exit code 2', async () => {
    const missing = await failure(join(dir, 'nope.json'));
    expect(missing).toMatchObject({ code: 'ERR_REPORT_INVALID', message: expect.stringMatching(/^--baseline .*nope\.json: cannot read it \(ENOENT\)$/) });
    expect((await failure(await file('text.json', 'not json'))).message).toMatch(/text\.json: not JSON/);
    const broken = await failure(await file('broken.json', JSON.stringify({ ...JSON.parse(renderJson(sampleReport())), summary: { pass: 'many' } })));
    expect(broken.message).toMatch(/broken\.json: not a restprobe report of schemaVersion 7/);
    expect(broken.problems).toContain('summary.pass: must be an integer (found string "many")');
  });
});
