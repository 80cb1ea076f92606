/**
 * `--baseline`: a run compared with an earlier report fails only on what got worse. Runs
 * `restprobe run` in-process against reference servers that share one API key, clean
 * and with one fault.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunOptions } from '../src/cli/run-command.js';
import type { Report } from '../src/report/model.js';
import { faultCatalogue } from '../reference-server/src/faults.js';
import { startReferenceServer, type ReferenceServer } from '../reference-server/src/index.js';
import { runInProcess, type InProcessRun } from './support/run-in-process.js';
import { referenceConfig } from './support/target.js';

const fault = 'errors-as-plain-json';
const apiKey = 'k7Qd2c9e41XbZ0aLw3Vn8TfR5uYs6';
const savedKey = process.env['RESTPROBE_API_KEY'];
let clean: ReferenceServer;
let faulty: ReferenceServer;
let cleanRun: InProcessRun;
let faultyRun: InProcessRun;

const reportOf = async (run: InProcessRun): Promise<Report> => JSON.parse(await readFile(join(run.dir, 'restprobe-report.json'), 'utf8')) as Report;
const reportPath = (run: InProcessRun): string => join(run.dir, 'restprobe-report.json');
const run = (server: ReferenceServer, opts: Partial<RunOptions> = {}): Promise<InProcessRun> => runInProcess(server.url, { config: referenceConfig, seed: '5', ...opts });
const names = (changes: readonly { name: string }[] | undefined): string[] => (changes ?? []).map((c) => c.name);

beforeAll(async () => {
  process.env['RESTPROBE_API_KEY'] = apiKey;
  [clean, faulty] = await Promise.all([startReferenceServer({ port: 0, apiKey }), startReferenceServer({ port: 0, apiKey, faults: [fault] })]);
  cleanRun = await run(clean, { format: 'json' });
  expect(cleanRun.code).toBe(0);
}, 60_000);
afterAll(async () => {
  if (savedKey === undefined) delete process.env['RESTPROBE_API_KEY'];
  else process.env['RESTPROBE_API_KEY'] = savedKey;
  await Promise.all([clean?.close(), faulty?.close()]);
});

describe('--baseline', () => {
  it("against a server that gained one fault, fails on that fault's checks and lists nothing else as new", async () => {
    faultyRun = await run(faulty, { baseline: reportPath(cleanRun) });
    expect(faultyRun.error).toBeUndefined();
    expect(faultyRun.code).toBe(1);
    const report = await reportOf(faultyRun);
    const failing = report.checks.filter((c) => c.status === 'fail');
    // The checks the fault trips that this run judges (no rate-limit keys here: the 429's check skips).
    const judged = new Set(report.checks.filter((c) => c.status !== 'skip').map((c) => c.id));
    const detects = faultCatalogue.find((f) => f.name === fault)!.detects.filter((id) => judged.has(id));
    expect(failing.length).toBeGreaterThan(0);
    expect(new Set(failing.map((c) => c.id))).toEqual(new Set(detects));
    expect(report.baseline?.newFailures).toEqual(failing.map((c) => ({ name: c.collection === undefined ? c.id : `${c.id} [${c.collection}]`, was: 'pass', now: 'fail' })));
    expect([report.baseline?.fixed, report.baseline?.stillFailing, report.baseline?.vanished, report.baseline?.nowSkipped]).toEqual([[], [], [], []]);
    expect(faultyRun.out).toContain(`New failures (${failing.length})`);
    const md = await readFile(join(faultyRun.dir, 'restprobe-report.md'), 'utf8');
    expect(md).toContain(`## Compared with the baseline\n\nagainst the baseline of ${cleanRun && (await reportOf(cleanRun)).startedAt}: ${failing.length} new failures`);
  });

  it('known failures pass the run; fixed ones are listed', async () => {
    const again = await run(faulty, { baseline: reportPath(faultyRun), format: 'json' });
    expect(again.code).toBe(0);
    const known = (await reportOf(again)).baseline!;
    expect(names(known.newFailures)).toEqual([]);
    expect(names(known.stillFailing)).toEqual(names((await reportOf(faultyRun)).baseline?.newFailures));
    const fixed = await run(clean, { baseline: reportPath(faultyRun), format: 'json' });
    expect(fixed.code).toBe(0);
    expect(names((await reportOf(fixed)).baseline?.fixed)).toEqual(names(known.stillFailing));
    expect(fixed.out).toMatch(/Fixed \(\d+\)/);
  });

  it('lost coverage fails the run: checks judged in the baseline that now skip (a read-only run)', async () => {
    const readOnly = await run(clean, { baseline: reportPath(cleanRun), readOnly: true, format: 'json' });
    expect(readOnly.code).toBe(1);
    const comparison = (await reportOf(readOnly)).baseline!;
    expect(comparison.newFailures).toEqual([]);
    expect(comparison.nowSkipped.length).toBeGreaterThan(10);
    // The clean server passes all but the offset-shift check, which only warns.
    expect(comparison.nowSkipped.filter((c) => !(c.was === 'pass' && c.now === 'skip'))).toEqual([{ name: 'END-offset-shift-under-inserts [members]', was: 'warn', now: 'skip' }]);
    expect(comparison.vanished).toEqual([]);
    // Checks the selection leaves out have not vanished: the run's order says what was selected.
    const fewer = await run(clean, { baseline: reportPath(cleanRun), only: ['LIM'], format: 'json' });
    expect((await reportOf(fewer)).baseline?.vanished).toEqual([]);
    expect(fewer.code).toBe(0);
  });

  it('a breaking change within v2 (a field retyped) fails the run on VER-compatible-within-major alone, worded in every format', async () => {
    const retyped = await startReferenceServer({ port: 0, apiKey, faults: ['field-retyped'] });
    try {
      const ran = await run(retyped, { baseline: reportPath(cleanRun) });
      expect(ran.code).toBe(1);
      const report = await reportOf(ran);
      // The clean run recorded shapes (and skipped: it had no baseline), for this run to compare with.
      expect((await reportOf(cleanRun)).checks.filter((c) => c.id === 'VER-compatible-within-major').map((c) => [c.collection, c.status, c.configKey, c.data?.['shapes'] !== undefined])).toEqual([
        ['events', 'skip', '--baseline', true],
        ['members', 'skip', '--baseline', true],
        ['projects', 'skip', '--baseline', true],
      ]);
      const failing = report.checks.filter((c) => c.status === 'fail');
      expect(new Set(failing.map((c) => c.id))).toEqual(new Set(['VER-compatible-within-major']));
      // Events are read from the listing, which may have been empty when the clean run looked.
      expect(failing.map((c) => c.collection)).toEqual(expect.arrayContaining(['members', 'projects']));
      expect(names(report.baseline?.newFailures)).toEqual(failing.map((c) => `VER-compatible-within-major [${c.collection}]`));
      const projects = failing.find((c) => c.collection === 'projects')!;
      expect(projects.evidence.found).toContain('GET /v2/projects/{id} (item) $.updated_at: was string, is now number');
      expect(ran.out).toContain('$.updated_at: was string, is now number');
      expect(await readFile(join(ran.dir, 'restprobe-report.md'), 'utf8')).toContain('$.updated_at: was string, is now number');
    } finally {
      await retyped.close();
    }
  });

  it('a baseline that is not a report ends the run with exit 2 before any check', async () => {
    const bad = join(cleanRun.dir, 'not-a-report.json');
    await writeFile(bad, JSON.stringify({ checks: 'none' }));
    const ran = await run(clean, { baseline: bad });
    expect(ran.code).toBe(2);
    expect(ran.error?.message).toMatch(/^--baseline .*not-a-report\.json: not a restprobe report of schemaVersion 7/);
    expect(ran.out).toBe('');
  });
});
