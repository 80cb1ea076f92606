/**
 * `--shard i/n` and `merge-reports`: two shards of a run against a server with a fault,
 * merged (by the built CLI), give the whole run's verdicts, blocked dependents included,
 * in every format, with no secret in any file.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunOptions } from '../src/cli/run-command.js';
import type { Report } from '../src/report/model.js';
import { startReferenceServer, type ReferenceServer } from '../reference-server/src/index.js';
import { runInProcess } from './support/run-in-process.js';
import { referenceConfig, repoRoot } from './support/target.js';

const apiKey = 'Zq4Wm9Lr2Tx7Vb1Nc6Hs3Kd8Pf5Gj0';
const savedKey = process.env['RESTPROBE_API_KEY'];
let faulty: ReferenceServer;

const read = async (dir: string): Promise<Report> => JSON.parse(await readFile(join(dir, 'restprobe-report.json'), 'utf8')) as Report;
const verdicts = (report: Report): Record<string, string> =>
  Object.fromEntries(report.checks.map((c) => [c.collection === undefined ? c.id : `${c.id} [${c.collection}]`, [c.status, c.errorCode ?? '', c.rootCause ?? ''].join(' | ')]));
const run = (opts: Partial<RunOptions>) => runInProcess(faulty.url, { config: referenceConfig, seed: '9', format: 'json', ...opts });

beforeAll(async () => {
  process.env['RESTPROBE_API_KEY'] = apiKey;
  faulty = await startReferenceServer({ port: 0, apiKey, faults: ['etag-missing'] });
});
afterAll(async () => {
  if (savedKey === undefined) delete process.env['RESTPROBE_API_KEY'];
  else process.env['RESTPROBE_API_KEY'] = savedKey;
  await faulty?.close();
});

describe('--shard and merge-reports', () => {
  it("two shards merged equal the whole run's verdicts, and merge-reports exits as the whole run", async () => {
    const whole = await run({});
    const [one, two] = [await run({ shard: '1/2' }), await run({ shard: '2/2' })];
    expect([whole.code, one.error?.message, two.error?.message]).toEqual([1, undefined, undefined]);
    const [first, second] = [await read(one.dir), await read(two.dir)];
    expect(first.shard).toEqual({ index: 1, total: 2 });
    expect(first.checks.length).toBeGreaterThan(10);
    expect(second.checks.length).toBeGreaterThan(10);
    expect(one.out).toMatch(/^restprobe \S+ → \S+ · \d+ checks \(shard 1\/2\) · seed 9\n/);

    const out = await mkdtemp(join(tmpdir(), 'restprobe-merged-'));
    const merged = await promisify(execFile)(process.execPath, [join(repoRoot, 'bin', 'restprobe.js'), 'merge-reports', one.dir, join(two.dir, 'restprobe-report.json'), '--report-dir', out, '--format', 'json,junit,md,html,allure'], { env: { ...process.env, NO_COLOR: '1' } }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(1);
    expect(merged.stdout).toContain('restprobe: merged 2 shards');
    const report = await read(out);
    expect(verdicts(report)).toEqual(verdicts(await read(whole.dir)));
    expect(report.rootCauses).toContainEqual(expect.objectContaining({ cause: 'END-etag-present failed' }));
    expect(report.shard).toBeUndefined();
    expect(new Set(report.runOrder)).toEqual(new Set([...first.runOrder, ...second.runOrder]));
    const files = await readdir(out, { recursive: true });
    expect(files).toEqual(expect.arrayContaining(['restprobe-report.json', 'restprobe-junit.xml', 'restprobe-report.md', 'restprobe-report.html', 'allure-results']));
    const texts = await Promise.all(files.filter((f) => f.includes('.')).map((f) => readFile(join(out, f), 'utf8')));
    expect(texts.join('\n')).not.toContain(apiKey);
  });

  it('merge-reports --baseline judges the response shapes shards recorded without one (VER-compatible-within-major)', async () => {
    const [clean, retyped] = await Promise.all([startReferenceServer({ port: 0, apiKey }), startReferenceServer({ port: 0, apiKey, faults: ['field-retyped'] })]);
    try {
      const on = (server: ReferenceServer, opts: Partial<RunOptions>) => runInProcess(server.url, { config: referenceConfig, seed: '9', format: 'json', only: ['VER'], ...opts });
      const baseline = await on(clean, {});
      const shards = [await on(retyped, { shard: '1/2' }), await on(retyped, { shard: '2/2' })];
      expect(shards.map((r) => r.code)).toEqual([0, 0]);
      const { mergeCommand } = await import('../src/cli/merge-command.js');
      const out = await mkdtemp(join(tmpdir(), 'restprobe-merged-'));
      const code = await mergeCommand(shards.map((r) => r.dir), { reportDir: out, format: 'json', baseline: join(baseline.dir, 'restprobe-report.json') }, new PassThrough() as unknown as NodeJS.WriteStream);
      expect(code).toBe(1);
      const report = await read(out);
      const failing = report.checks.filter((c) => c.status === 'fail');
      expect(new Set(failing.map((c) => c.id))).toEqual(new Set(['VER-compatible-within-major']));
      expect(failing.find((c) => c.collection === 'projects')?.evidence.found).toContain('$.updated_at: was string, is now number');
    } finally {
      await Promise.all([clean.close(), retyped.close()]);
    }
  });

  it('a shard without --seed, and shards that are not one run, are usage errors', async () => {
    const unseeded = await runInProcess(faulty.url, { config: referenceConfig, shard: '1/2' });
    expect(unseeded.code).toBe(2);
    expect(unseeded.error?.message).toMatch(/--shard 1\/2 needs --seed n, the same in every shard/);
    const { mergeCommand } = await import('../src/cli/merge-command.js');
    const only = await run({ shard: '1/3', only: ['RES', 'LIM'] });
    const err = await mergeCommand([only.dir], { reportDir: await mkdtemp(join(tmpdir(), 'restprobe-merged-')), format: 'json' }).catch((e: unknown) => e);
    expect(String(err)).toContain('merge-reports: shard 2 of 3 is missing');
  });
});
