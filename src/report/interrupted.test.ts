import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleResults } from '../../test/support/report-samples.js';
import { exitCodeOfReport } from '../cli/exit-code.js';
import { isRestprobeError } from '../errors.js';
import type { NotRun } from '../engine/run.js';
import { renderAllure } from './allure.js';
import { readBaseline } from './baseline.js';
import { renderGithubAnnotations } from './github.js';
import { renderHtml } from './html.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import { mergeReports } from './merge.js';
import { buildReport, type Report } from './model.js';
import { reportValidator } from './read.js';
import { renderSummary } from './terminal.js';
import { leftoverLines, verdict } from './wording.js';

const notRun: NotRun[] = [
  { id: 'END-put-idempotent', section: 'END', title: 'PUT twice is PUT once', rule: 'PUT MUST be idempotent.', severity: 'must', collection: 'projects' },
  // A section no result of the run is in: it still gets its testsuite.
  { id: 'LIM-rate-limit-headers', section: 'LIM', title: 'Rate limits are announced', rule: 'Responses SHOULD carry RateLimit fields.', severity: 'should' },
];

const interrupted = (over: Partial<Parameters<typeof buildReport>[0]> = {}): Report =>
  buildReport({
    baseUrl: 'http://127.0.0.1:8080',
    startedAt: new Date('2025-01-02T03:04:05.000Z'),
    durationMs: 2345,
    seed: 42,
    strict: false,
    version: '0.1.0',
    // Passes only: an interrupted run is never green, whatever it found before.
    results: sampleResults.filter((r) => r.status === 'pass'),
    leftovers: [
      { url: 'http://127.0.0.1:8080/v2/projects/7', owner: 'END-get-item-200 [projects]', lastAnswer: 'DELETE answered 503', certainty: 'certain' },
      { url: 'http://127.0.0.1:8080/v2/projects', owner: 'END-get-item-200 [members]', lastAnswer: 'POST got no answer (ERR_TIMEOUT)', certainty: 'possible' },
    ],
    interruption: { signal: 'SIGINT', notRun, mark: 'restprobe-1a2b3c4d' },
    ...over,
  });

describe('an interrupted run in every format', () => {
  const report = interrupted();

  it('the JSON report says so in a field the schema documents, and the verdict is interrupted, exit 130', () => {
    const json = JSON.parse(renderJson(report));
    expect(json.interrupted).toEqual({ signal: 'SIGINT', notRun, mark: 'restprobe-1a2b3c4d' });
    const validate = reportValidator();
    expect(validate(json), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(verdict(report)).toBe('interrupted');
    expect(exitCodeOfReport(report)).toBe(130);
  });

  it('the terminal, Markdown (and so the job summary) and HTML headlines say interrupted, never passed', () => {
    const terminal = renderSummary(report, { color: false });
    expect(terminal).toMatch(/^INTERRUPTED {2}2 pass · 0 fail · 0 warn · 0 skip · 0 error · 2 not run {2}in 2\.3 s/m);
    expect(terminal).toContain('interrupted by SIGINT: 2 of 4 checks not run; the items the run created carry marks starting restprobe-1a2b3c4d');
    const md = renderMarkdown(report);
    expect(md.split('\n')[0]).toBe('# restprobe: ⏹️ interrupted (2 of 4 checks not run)');
    expect(md).toContain('## Not run (2): the run was interrupted');
    const html = renderHtml(report);
    expect(html).toContain('<title>restprobe: interrupted · http://127.0.0.1:8080</title>');
    expect(html).toContain('<span class="verdict interrupted" id="verdict">interrupted</span>');
    for (const text of [terminal, md]) expect(text).not.toMatch(/passed/i);
  });

  it('JUnit lists every check not run as skipped with the reason, in its section', () => {
    const junit = renderJunit(report);
    expect(junit).toMatch(/<testsuites name="restprobe" tests="4" failures="0" errors="0" skipped="2" /);
    expect(junit.match(/<skipped message="not run: the run was interrupted"\/>/g)).toHaveLength(2);
    expect(junit).toMatch(/<testsuite name="LIM 8 Limits" tests="1" failures="0" errors="0" skipped="1" /);
    expect(junit).toContain('name="END-put-idempotent [projects]: PUT twice is PUT once"');
    expect(junit).toContain('<property name="interrupted" value="SIGINT"/>');
  });

  it('Allure has each check not run as a skipped test, and the signal in its environment; GitHub gets an error annotation', () => {
    const files = renderAllure(report);
    const results = files.filter((f) => f.path.endsWith('-result.json')).map((f) => JSON.parse(f.content) as { status: string; statusDetails: { message?: string } });
    expect(results.filter((r) => r.status === 'skipped' && r.statusDetails.message === 'not run: the run was interrupted')).toHaveLength(2);
    expect(files.find((f) => f.path.endsWith('environment.properties'))?.content).toMatch(/interrupted\s*=\s*SIGINT/);
    expect(renderGithubAnnotations(report)).toMatch(/^::error title=restprobe interrupted::interrupted by SIGINT: 2 of 4 checks not run/);
  });

  it('leftovers say which are certainly there and which possibly', () => {
    expect(leftoverLines(report)).toEqual([
      'certain: http://127.0.0.1:8080/v2/projects/7 (END-get-item-200 [projects]): DELETE answered 503',
      'possible: http://127.0.0.1:8080/v2/projects (END-get-item-200 [members]): POST got no answer (ERR_TIMEOUT)',
    ]);
  });

  it('merged shards stay interrupted when one was', () => {
    const shard = (index: number, r: Report): Report => ({ ...r, shard: { index, total: 2 } });
    const whole = mergeReports([shard(1, interrupted({ results: sampleResults.slice(0, 2) })), shard(2, interrupted({ results: sampleResults.slice(2), interruption: undefined }))]);
    expect(whole.interrupted).toEqual({ signal: 'SIGINT', notRun, mark: 'restprobe-1a2b3c4d' });
  });

  it('is refused as a baseline, saying why', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'restprobe-baseline-')), 'restprobe-report.json');
    await writeFile(path, renderJson(report));
    const err = await readBaseline(path).catch((e: unknown) => e);
    expect(isRestprobeError(err, 'ERR_REPORT_INVALID')).toBe(true);
    expect((err as Error).message).toBe(`--baseline ${path}: the run that wrote it was interrupted by SIGINT (2 of 4 checks not run), expected a whole run's report; give the report of a run that ended`);
  });
});
