import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { sampleReport, sampleResult, sampleResults, sampleSecret } from '../../test/support/report-samples.js';
import { publishReports } from '../cli/publish.js';
import { renderGithubAnnotations } from './github.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { renderSummary } from './terminal.js';

describe('renderGithubAnnotations', () => {
  it('an error per failure, then one per root cause of the checks that could not run, naming them, then a warning per warning; a pass says nothing', () => {
    const lines = renderGithubAnnotations(sampleReport()).trimEnd().split('\n');
    expect(lines.map((l) => /^::(\w+) title=([^:]*)::/.exec(l)?.slice(1, 3))).toEqual([
      ['error', 'restprobe ERR-unknown-path-404'],
      ['error', 'restprobe%3A 1 check could not run'],
      ['warning', 'restprobe VER-deprecation-header'],
    ]);
    expect(lines[1]).toContain('%0AChecks: AUT-missing-credentials-401');
    expect(lines[0]).toBe(
      "::error title=restprobe ERR-unknown-path-404::found status 200 | text/html, expected 404 with application/problem+json%0ARule: The target MUST do the thing.%0AReproduce: curl -sS -i -X GET 'http://127.0.0.1:8080/restprobe-no-such-path' -H 'accept: application/json'",
    );
  });

  it('ten annotations of a level at most, as GitHub shows: the largest cause first, the last naming how many more the job summary lists', () => {
    const failures = Array.from({ length: 12 }, (_, i) => sampleResult({ id: `ERR-f${String(i).padStart(2, '0')}`, section: 'ERR', status: 'fail', message: `found ${i}` }));
    const blocked = Array.from({ length: 5 }, (_, i) => sampleResult({ id: `END-b${i}`, section: 'END', status: 'error', errorCode: 'ERR_BLOCKED', message: 'not run: it depends on END-get-collection-200 failed', rootCause: 'END-get-collection-200 failed' }));
    const lines = renderGithubAnnotations(sampleReport(false, [...blocked, ...failures])).trimEnd().split('\n');
    const titles = lines.map((l) => /^::error title=([^:]*)::/.exec(l)?.[1]);
    expect(titles).toHaveLength(10);
    expect(titles.slice(0, 9)).toEqual(Array.from({ length: 9 }, (_, i) => `restprobe ERR-f0${i}`));
    // Three failures and the one cause of the five blocked checks are past the limit.
    expect(titles[9]).toBe('restprobe%3A 4 more');
    expect(lines[9]).toContain('4 more findings (ERR-f09; ERR-f10; ERR-f11; 5 checks could not run) are in the job summary and the reports');
  });

  it('failures with one cause are one annotation naming its checks, the largest cause first, in every report (one fix, five findings)', () => {
    const cause = 'error responses are not labelled application/problem+json';
    const html404 = ['ERR-unknown-path-404', 'ERR-unknown-id-404', 'ERR-problem-json-content-type', 'ERR-problem-body-members', 'ERR-problem-status-matches'] as const;
    const results = [
      sampleResult({ id: 'END-post-201-location', section: 'END', status: 'fail', message: 'found 200, expected 201' }),
      ...html404.map((id) => sampleResult({ id, section: 'ERR', status: 'fail', message: `${id}: found text/html`, rootCause: cause })),
      sampleResult({ id: 'VER-deprecation-header', section: 'VER', severity: 'should', status: 'warn', message: 'found text/html too', rootCause: cause }),
    ];
    const report = sampleReport(false, results);
    expect(report.failureCauses).toEqual([{ cause, checks: expect.arrayContaining([...html404, 'VER-deprecation-header']) }]);
    expect(report.failureCauses[0]!.checks).toHaveLength(6);
    const lines = renderGithubAnnotations(report).trimEnd().split('\n');
    // One annotation for the cause (the warning it shares included), then the other failure; no warning line of its own.
    expect(lines.map((l) => /^::(\w+) title=([^:]*)::/.exec(l)?.slice(1, 3))).toEqual([
      ['error', 'restprobe%3A one cause%2C 6 findings'],
      ['error', 'restprobe END-post-201-location'],
    ]);
    expect(lines[0]).toContain(`${cause}%0AChecks: ERR-`);
    const line = `${cause}: one fix, 6 findings (`;
    expect(renderSummary(report, { color: false })).toContain(`Findings, by root cause\n  ${line}`);
    expect(renderMarkdown(report)).toContain(`## Findings, by root cause\n\n- ${line}`);
    expect(renderHtml(report)).toMatch(/<section id="failure-causes" class="causes"><h2>Findings, by root cause<\/h2><ul>\n<li><strong>error responses are not labelled application\/problem\+json<\/strong>: one fix, 6 findings \(<a href="#/);
    // A single failure with a cause is no group.
    expect(sampleReport(false, results.slice(0, 2)).failureCauses).toEqual([]);
  });

  it('escapes what would end a command or a property: a target cannot start a command of its own', () => {
    const hostile = sampleResult({ id: 'ERR-x', collection: 'a,b:c', section: 'ERR', status: 'fail', message: '50% done\r\n::add-mask::x\n::error::forged' });
    const [line, ...rest] = renderGithubAnnotations(sampleReport(false, [hostile])).trimEnd().split('\n');
    expect(rest).toEqual([]);
    expect(line).toMatch(/^::error title=restprobe ERR-x \[a%2Cb%3Ac\]::50%25 done%0D%0A::add-mask::x%0A::error::forged%0ARule: /);
  });

  it('against a baseline: regressions are errors, known failures warnings', () => {
    const report = {
      ...sampleReport(),
      baseline: {
        against: { startedAt: '2025-01-01T00:00:00.000Z', toolVersion: '0.1.0', baseUrl: 'http://x.test' },
        newFailures: [],
        fixed: [],
        stillFailing: [{ name: 'ERR-unknown-path-404', was: 'fail', now: 'fail' }],
        vanished: [{ name: 'END-gone [projects]', was: 'pass' }],
        nowSkipped: [{ name: 'END-get-item-200', was: 'pass', now: 'skip' }],
      },
    } as const;
    const lines = renderGithubAnnotations(report).trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('::error title=restprobe END-gone [projects]::coverage lost: judged pass in the baseline, not run now');
    expect(lines[1]).toMatch(/^::error title=restprobe END-get-item-200::coverage lost: no collection configured/);
    expect(lines[2]).toMatch(/^::warning title=restprobe ERR-unknown-path-404::known failure \(in the baseline too\): found status 200/);
  });
});

describe('publishReports', () => {
  it('prints annotations for --format github and appends the Markdown to $GITHUB_STEP_SUMMARY, scrubbed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-gh-'));
    const summaryFile = join(dir, 'step-summary.md');
    const leaky = sampleResult({ id: 'AUT-leak', section: 'AUT', status: 'fail', message: `echoed ${sampleSecret.value}` });
    const report = sampleReport(false, [...sampleResults, leaky]);
    const out = new PassThrough();
    let printed = '';
    out.on('data', (c) => (printed += c));
    const env = { GITHUB_STEP_SUMMARY: summaryFile };
    const paths = await publishReports(report, { dir, formats: ['json', 'github'], secrets: [sampleSecret] }, out, env);
    await publishReports(report, { dir, formats: ['json'], secrets: [sampleSecret] }, out, env);
    expect(paths).toEqual([join(dir, 'restprobe-report.json'), `${summaryFile} (GitHub job summary)`]);
    expect(printed).toContain('::error title=restprobe AUT-leak::echoed $RESTPROBE_API_KEY');
    expect(printed.match(/^::/gm)).toHaveLength(4);
    const summary = await readFile(summaryFile, 'utf8');
    expect(summary.match(/^# restprobe: ❌ failed/gm)).toHaveLength(2);
    expect(summary).toContain('**Message:** echoed $RESTPROBE\\_API\\_KEY');
    expect(summary + printed).not.toContain(sampleSecret.value);
    expect(await publishReports(report, { dir, formats: [], secrets: [] }, out, { GITHUB_STEP_SUMMARY: '' })).toEqual([]);
  });
});
