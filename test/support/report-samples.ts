/**
 * Test support: check results of every status for the report writers' tests, some with
 * hostile text (markup, control characters, pipes) of the kind a target may send.
 */
import type { CheckResult, Evidence, ExchangeRecord } from '../../src/model/result.js';
import type { Secret } from '../../src/model/profile.js';
import { buildReport, type Report } from '../../src/report/model.js';

export const sampleSecret: Secret = { envName: 'RESTPROBE_API_KEY', value: 'sk-live-0123456789' };

export const sampleExchange = (status: number, extra: Partial<ExchangeRecord['request']> = {}): ExchangeRecord => ({
  request: { method: 'GET', url: 'http://127.0.0.1:8080/restprobe-no-such-path', headers: { accept: 'application/json' }, ...extra },
  response: { status, headers: { 'content-type': 'text/html' }, body: '<h1>Not here</h1>' },
  durationMs: 12,
  curl: "curl -sS -i -X GET 'http://127.0.0.1:8080/restprobe-no-such-path' -H 'accept: application/json'",
});

export const sampleEvidence = (over: Partial<Evidence> = {}): Evidence => ({ exchanges: [], requestCount: 0, notes: [], ...over });

export const sampleResult = (over: Partial<CheckResult> & Pick<CheckResult, 'id' | 'section' | 'status'>): CheckResult => ({
  title: 'A title',
  rule: 'The target MUST do the thing.',
  severity: 'must',
  message: '',
  durationMs: 5,
  evidence: sampleEvidence(),
  ...over,
});

/** One result of each status, out of order, with hostile text in the failure. */
export const sampleResults: CheckResult[] = [
  sampleResult({ id: 'VER-deprecation-header', section: 'VER', status: 'warn', severity: 'should', message: 'found no Sunset header, expected one on /v1' }),
  sampleResult({
    id: 'ERR-unknown-path-404',
    section: 'ERR',
    status: 'fail',
    title: 'An unknown path answers <404> & "problem"',
    message: 'found status 200 | text/html, expected 404\u0007 with application/problem+json',
    durationMs: 1500,
    evidence: sampleEvidence({ expected: '404', found: '200 `text/html`', exchanges: [sampleExchange(200)], requestCount: 1 }),
  }),
  sampleResult({ id: 'END-get-item-200', section: 'END', status: 'skip', message: 'no collection configured', configKey: 'collections' }),
  sampleResult({ id: 'CON-https-hsts', section: 'CON', status: 'pass', message: 'ok' }),
  sampleResult({ id: 'AUT-missing-credentials-401', section: 'AUT', status: 'error', message: 'target unreachable: ECONNREFUSED 127.0.0.1:8080' }),
  sampleResult({ id: 'CON-accept-406', section: 'CON', status: 'pass' }),
];

/** The report of {@link sampleResults}. */
export const sampleReport = (strict = false, results: readonly CheckResult[] = sampleResults): Report =>
  buildReport({ baseUrl: 'http://127.0.0.1:8080', startedAt: new Date('2025-01-02T03:04:05.000Z'), durationMs: 2345, seed: 42, strict, version: '0.1.0', results });

/** Markup a hostile target may answer with: each would run script or add an element if it were not escaped. */
export const hostileMarkup = [
  '<script>document.title="pwned"</script>',
  '<img src=x onerror="document.title=\'pwned\'">',
  '</pre></details></section><h1 id="injected">injected</h1>',
  '"><svg onload="document.title=\'pwned\'">',
  "'><iframe srcdoc='<script>parent.document.title=1</script>'>",
  '<!-- unclosed comment',
  '<style>body{display:none}</style>',
].join('\n');

/** A failing result whose every text a target could influence holds {@link hostileMarkup}. */
export const hostileResult: CheckResult = sampleResult({
  id: 'ERR-no-html-error-bodies',
  collection: '<b id="injected-collection">x</b>',
  section: 'ERR',
  status: 'fail',
  title: 'Error bodies are not HTML',
  message: `found ${hostileMarkup}`,
  evidence: sampleEvidence({
    expected: 'application/problem+json',
    found: hostileMarkup,
    notes: [hostileMarkup],
    requestCount: 1,
    focus: 0,
    property: { seed: 7, numRuns: 25, path: '3:1', counterexample: hostileMarkup, shrunk: true },
    exchanges: [
      {
        request: { method: 'POST', url: `http://127.0.0.1:8080/v2/projects?q=${encodeURIComponent('<script>')}`, headers: { 'x-evil': hostileMarkup.replace(/\n/g, ' ') }, body: hostileMarkup },
        response: { status: 500, headers: { 'content-type': 'text/html', 'x-evil': ['"><script>1</script>', 'two'] }, body: hostileMarkup },
        durationMs: 3,
        curl: `curl -sS -i -X POST 'http://127.0.0.1:8080/v2/projects' --data-binary '</pre><script>document.title="pwned"</script>'`,
      },
    ],
  }),
});
