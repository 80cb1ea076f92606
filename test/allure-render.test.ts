/**
 * Allure results as a user renders them: `--format allure` writes allure-results/ (through
 * the secret scrub), and Allure 3's own CLI (`allure generate`, the npm package, no Java)
 * reads every result and renders the report.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { writeReports } from '../src/report/write.js';
import { hostileResult, sampleReport, sampleResult, sampleResults, sampleSecret } from './support/report-samples.js';
import { repoRoot } from './support/target.js';

const allureBin = join(repoRoot, 'node_modules', '.bin', 'allure');

describe('Allure results', () => {
  it('are written scrubbed, and Allure 3 renders every result with its status', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-allure-'));
    const leaky = sampleResult({ id: 'AUT-leak', section: 'AUT', status: 'fail', message: `echoed ${sampleSecret.value}`, evidence: { ...hostileResult.evidence, notes: [`key ${sampleSecret.value}`] } });
    const report = sampleReport(false, [...sampleResults, hostileResult, leaky]);
    const paths = await writeReports(report, { dir, formats: ['allure'], secrets: [sampleSecret] });
    expect(paths).toEqual([join(dir, 'allure-results')]);
    const names = await readdir(join(dir, 'allure-results'));
    expect(names.filter((n) => n.endsWith('-result.json'))).toHaveLength(report.checks.length);
    const written = await Promise.all(names.map((n) => readFile(join(dir, 'allure-results', n), 'utf8')));
    expect(written.join('\n')).not.toContain(sampleSecret.value);
    expect(written.join('\n')).toContain('echoed $RESTPROBE_API_KEY');

    const out = join(dir, 'allure-report');
    await promisify(execFile)(process.execPath, [allureBin, 'generate', join(dir, 'allure-results'), '-o', out], { cwd: dir, timeout: 60_000 });
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { stats: Record<string, number>; status: string };
    // pass and a non-failing warning are passed; an error is broken.
    expect(summary.stats).toEqual({ total: 8, passed: 3, failed: 3, broken: 1, skipped: 1 });
    expect(summary.status).toBe('failed');
    const rendered = JSON.parse(await readFile(join(out, 'test-results.json'), 'utf8')) as { byId: Record<string, { name: string; status: string }> };
    expect(Object.values(rendered.byId).map((t) => t.name).sort()).toEqual(report.checks.map((r) => `${r.collection === undefined ? r.id : `${r.id} [${r.collection}]`}: ${r.title}`).sort());
  }, 60_000);
});
