import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult } from '../model/result.js';
import { sampleEvidence, sampleExchange, sampleReport, sampleResult, sampleResults, sampleSecret } from '../../test/support/report-samples.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import { buildReport, reportFailed, type Report } from './model.js';
import { renderCheckLine, renderSummary } from './terminal.js';
import { writeReports } from './write.js';

const secret = sampleSecret;
const exchange = sampleExchange;
const evidence = sampleEvidence;
const result = sampleResult;
const results = sampleResults;
const build = (strict = false): Report => sampleReport(strict);

describe('buildReport', () => {
  it('sorts checks by section order, then id, and counts per section', () => {
    const report = build();
    expect(report.checks.map((c) => c.id)).toEqual([
      'CON-accept-406',
      'CON-https-hsts',
      'END-get-item-200',
      'AUT-missing-credentials-401',
      'ERR-unknown-path-404',
      'VER-deprecation-header',
    ]);
    expect(report.summary).toEqual({ pass: 2, fail: 1, warn: 1, skip: 1, error: 1 });
    expect(report.sections.map((s) => [s.section, s.name, s.summary.pass])).toEqual([
      ['CON', '1 Constraints', 2],
      ['END', '4 Endpoints', 0],
      ['AUT', '5 Authentication', 0],
      ['ERR', '7 Errors', 0],
      ['VER', '9 Versioning', 0],
    ]);
    expect(report.startedAt).toBe('2025-01-02T03:04:05.000Z');
  });

  it('fails on a failure, and on a warning only when strict', () => {
    expect(reportFailed(build())).toBe(true);
    const warnOnly = (strict: boolean): Report =>
      buildReport({ ...{ baseUrl: 'x', startedAt: new Date(), durationMs: 0, seed: 1, version: '0' }, strict, results: results.filter((r) => r.status === 'warn') });
    expect(reportFailed(warnOnly(false))).toBe(false);
    expect(reportFailed(warnOnly(true))).toBe(true);
  });
});

describe('renderJson', () => {
  it('round-trips the report', () => {
    const report = build();
    const text = renderJson(report);
    expect(JSON.parse(text)).toEqual(report);
    expect(text).toContain('\n  "schemaVersion": 7,');
    // The run's cost: every check's requests summed.
    expect(report.requests).toBe(report.checks.reduce((n, c) => n + c.evidence.requestCount, 0));
    expect(text).toContain(`\n  "requests": ${report.requests},`);
  });
});

describe('renderJunit', () => {
  const xml = renderJunit(build());
  const attr = (tag: string, name: string): string[] =>
    [...xml.matchAll(new RegExp(`<${tag} [^>]*?${name}="([^"]*)"`, 'g'))].map((m) => m[1] ?? '');

  it('has one testsuite per section with the right counts', () => {
    expect(attr('testsuite', 'name')).toEqual(['CON 1 Constraints', 'END 4 Endpoints', 'AUT 5 Authentication', 'ERR 7 Errors', 'VER 9 Versioning']);
    expect(xml).toMatch(/<testsuites name="restprobe" tests="6" failures="1" errors="1" skipped="1" time="2\.345"/);
    expect(xml).toContain('<testsuite name="CON 1 Constraints" tests="2" failures="0" errors="0" skipped="0"');
    expect(xml.match(/<testcase /g)).toHaveLength(6);
  });

  it('renders each outcome', () => {
    expect(xml).toContain('<testcase classname="restprobe.ERR" name="ERR-unknown-path-404: An unknown path answers &lt;404&gt; &amp; &quot;problem&quot;" time="1.500">');
    expect(xml).toContain('<skipped message="no collection configured (enable with: collections)"/>');
    expect(xml).toContain('<error message="target unreachable: ECONNREFUSED 127.0.0.1:8080" type="error">');
    expect(xml).toMatch(/<failure message="found status 200 \| text\/html, expected 404 with application\/problem\+json" type="must">[^<]*Expected: 404\nFound: 200 `text\/html`/);
    expect(xml).toContain("curl -sS -i -X GET 'http://127.0.0.1:8080/restprobe-no-such-path'");
    expect(xml).toContain('<system-out>WARN: found no Sunset header');
  });

  it('strips characters XML cannot hold', () => {
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
  });

  it('turns warnings into failures under --strict', () => {
    const strict = renderJunit(build(true));
    expect(strict).toMatch(/<testsuites [^>]*failures="2"/);
    expect(strict).toContain('<failure message="WARN: found no Sunset header');
  });
});

describe('renderMarkdown', () => {
  const md = renderMarkdown(build());

  it('has a verdict, totals and a per-section table', () => {
    // The title says how much was skipped: a "passed" never hides what was not checked.
    expect(md.startsWith('# restprobe: ❌ failed (1 of 6 checks skipped)\n')).toBe(true);
    expect(md).toContain('## Skipped (1 of 6)\n\n- enable with collections: 1 check (END-get-item-200)');
    expect(md).toContain('**Totals:** 2 pass · 1 fail · 1 warn · 1 skip · 1 error');
    expect(md).toContain('**Sent:** 1 request');
    expect(md).toContain('| Section | pass | fail | warn | skip | error |\n| --- | ---: | ---: | ---: | ---: | ---: |\n| CON 1 Constraints | 2 | 0 | 0 | 0 | 0 |');
    expect(md).toContain('| **Total** | 2 | 1 | 1 | 1 | 1 |');
  });

  it('lists failures and errors with rule, message, expected/found and a curl block', () => {
    expect(md).toContain('## Failures (2)');
    expect(md).toContain('### FAIL `ERR-unknown-path-404` — An unknown path answers \\<404\\> \\& "problem"');
    expect(md).toContain('- **Message:** found status 200 \\| text/html, expected 404 with application/problem+json');
    expect(md).toContain('- **Found:** `` 200 `text/html` ``');
    expect(md).toContain("```sh\ncurl -sS -i -X GET 'http://127.0.0.1:8080/restprobe-no-such-path' -H 'accept: application/json'\n```");
    expect(md).toContain('### ERROR `AUT-missing-credentials-401`');
    expect(md).toContain('## Warnings (1)\n\n- `VER-deprecation-header` found no Sunset header, expected one on /v1');
  });

  it('keeps every table row to six cells', () => {
    for (const line of md.split('\n').filter((l) => l.startsWith('| '))) {
      expect(line.replace(/\\\|/g, '').split('|')).toHaveLength(8);
    }
  });
});

describe('terminal', () => {
  const byId = (id: string): CheckResult => results.find((r) => r.id === id)!;

  it('renders one line per check', () => {
    expect(renderCheckLine(byId('CON-https-hsts'), { color: false })).toBe('✔ pass  CON-https-hsts');
    expect(renderCheckLine(byId('ERR-unknown-path-404'), { color: false })).toBe(
      '✘ FAIL  ERR-unknown-path-404 — found status 200 | text/html, expected 404 with application/problem+json',
    );
    expect(renderCheckLine(byId('END-get-item-200'), { color: false })).toBe('↷ skip  END-get-item-200 — no collection configured (enable with: collections)');
    expect(renderCheckLine(byId('AUT-missing-credentials-401'), { color: false })).toMatch(/^‼ ERROR AUT-missing-credentials-401 — /);
  });

  it("keeps a target's escape sequences off the terminal", () => {
    const hostile = result({ id: 'ERR-x', section: 'ERR', status: 'fail', message: 'found \x1b[2J\x1b]0;pwned\x07 body' });
    expect(renderCheckLine(hostile, { color: false })).toBe('✘ FAIL  ERR-x — found [2J]0;pwned body');
  });

  it('scrubs secrets from what it prints', () => {
    const leaky = result({ id: 'AUT-x', section: 'AUT', status: 'fail', message: `found ${secret.value}` });
    expect(renderCheckLine(leaky, { color: false, secrets: [secret] })).toBe('✘ FAIL  AUT-x — found $RESTPROBE_API_KEY');
  });

  it('colours only when asked', () => {
    expect(renderCheckLine(byId('ERR-unknown-path-404'), { color: true })).toContain('\x1b[1;31m✘ FAIL \x1b[0m');
    expect(renderSummary(build(), { color: false })).not.toContain('\x1b[');
  });

  it('summarises sections, failures with curl, and report paths', () => {
    const text = renderSummary(build(), { color: false, reportPaths: ['reports/restprobe-report.json'] });
    expect(text).toContain('Section               pass  fail  warn  skip  error');
    expect(text).toContain('CON 1 Constraints        2     0     0     0      0');
    expect(text).toContain('Total                    2     1     1     1      1');
    expect(text).toContain('Failures (2)\n  ‼ ERROR AUT-missing-credentials-401 — target unreachable');
    expect(text).toContain('  ✘ FAIL  ERR-unknown-path-404 — found status 200');
    expect(text).toContain("      $ curl -sS -i -X GET 'http://127.0.0.1:8080/restprobe-no-such-path'");
    expect(text).toContain('Reports\n  reports/restprobe-report.json');
    expect(text.split('\n').at(-1)).toBe('FAILED  2 pass · 1 fail · 1 warn · 1 skip · 1 error  in 2.3 s, 1 request (seed 42)');
  });
});

describe('writeReports', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'restprobe-report-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes each format once, scrubbing a secret planted in a header and a body', async () => {
    const leaky = result({
      id: 'AUT-leak',
      section: 'AUT',
      status: 'fail',
      message: `found the key ${secret.value} echoed back`,
      evidence: evidence({
        exchanges: [exchange(200, { headers: { 'x-api-key': secret.value }, body: JSON.stringify({ key: secret.value, quoted: `"${secret.value}"` }) })],
        requestCount: 1,
      }),
    });
    const report = buildReport({ baseUrl: 'http://x.test', startedAt: new Date(), durationMs: 1, seed: 7, strict: false, version: '0.1.0', results: [leaky] });
    const out = join(dir, 'nested', 'reports');
    const paths = await writeReports(report, { dir: out, formats: ['md', 'json', 'html', 'junit', 'json'], secrets: [secret] });
    expect(paths).toEqual(['restprobe-report.json', 'restprobe-junit.xml', 'restprobe-report.md', 'restprobe-report.html'].map((f) => join(out, f)));
    for (const path of paths) {
      const text = await readFile(path, 'utf8');
      expect(text, path).not.toContain(secret.value);
      // Markdown shows the reference as text, its underscores escaped.
      expect(text.replace(/\\_/g, '_'), path).toContain('$RESTPROBE_API_KEY');
    }
    const json = JSON.parse(await readFile(paths[0]!, 'utf8')) as Report;
    expect(json.checks[0]?.evidence.exchanges[0]?.request.headers['x-api-key']).toBe('$RESTPROBE_API_KEY');
  });
});

describe('reports for people are capped', () => {
  it('a 1.2 MB curl line: the terminal, Markdown and JUnit show its start and where the rest is; the JSON keeps it whole', async () => {
    const huge = `curl -sS -i -X POST 'http://x.test/v2/projects' --data-binary '${'x'.repeat(1_200_000)}'`;
    const big = result({
      id: 'ERR-bad-input-no-5xx',
      section: 'ERR',
      status: 'fail',
      message: `POST /v2/projects → 500 for oversized body ${'y'.repeat(50_000)}`,
      evidence: evidence({ exchanges: [{ ...exchange(500), curl: huge }], requestCount: 1 }),
    });
    const report = buildReport({ baseUrl: 'http://x.test', startedAt: new Date(), durationMs: 1, seed: 7, strict: false, version: '0.1.0', results: [big] });
    for (const [name, text] of [['terminal', renderSummary(report, { color: false })], ['markdown', renderMarkdown(report)], ['junit', renderJunit(report)]] as const) {
      expect(text.length, name).toBeLessThan(20_000);
      expect(text, name).toContain('more characters: the whole text is in restprobe-report.json');
    }
    expect(renderJson(report)).toContain(huge.slice(-1000));
  });
});

describe('the run\'s cost in every report', () => {
  it('says the requests and, when the run waited, how long and how often', () => {
    const report = buildReport({ baseUrl: 'http://127.0.0.1:9', startedAt: new Date(0), durationMs: 165_000, seed: 1, strict: false, version: '0.0.0', results: sampleResults, requests: { total: 509, run: 3 }, waits: { count: 11, wallMs: 110_000 } });
    expect(report).toMatchObject({ requests: 509, runRequests: 3, waits: { count: 11, wallMs: 110_000 } });
    expect(renderMarkdown(report)).toContain('**Sent:** 509 requests, waited 110.0 s (11 waits)');
    expect(renderSummary(report, { color: false, secrets: [] })).toContain('509 requests, waited 110.0 s (11 waits)');
    expect(renderJunit(report)).toContain('<property name="requests" value="509"/>');
    expect(renderJunit(report)).toContain('<property name="waitedMs" value="110000"/>');
  });
});

describe('the Markdown report reads in order of what matters', () => {
  it('what was left on the target first, then failures before the checks that could not run, failures before errors in the list', () => {
    const report = { ...sampleReport(), leftovers: [{ url: 'http://127.0.0.1:8080/v2/projects/7', owner: 'END-x', lastAnswer: 'DELETE answered 500', certainty: 'certain' as const }] };
    const md = renderMarkdown(report);
    const at = (heading: string) => md.indexOf(heading);
    expect(at('## Left on the target (1)')).toBeGreaterThan(-1);
    expect(at('## Left on the target')).toBeLessThan(at('## Failures'));
    expect(at('## Failures')).toBeLessThan(at('## Could not run, by root cause'));
    expect(md.indexOf('### FAIL')).toBeLessThan(md.indexOf('### ERROR'));
  });
});
