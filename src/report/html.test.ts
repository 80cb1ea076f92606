import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hostileMarkup, hostileResult, sampleEvidence, sampleReport, sampleResult, sampleResults, sampleSecret } from '../../test/support/report-samples.js';
import { html } from './html-escape.js';
import { htmlTextLimit, renderHtml } from './html.js';
import { scrubSecrets } from '../secrets-scrub.js';

const page = renderHtml(sampleReport());

/** The text between an opening tag and its end tag, for each such element. */
const elements = (source: string, tag: string): string[] => [...source.matchAll(new RegExp(`<${tag}[^>]*>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => m[1] ?? '');

describe('renderHtml', () => {
  it('is one self-contained page: nothing to fetch, and a CSP that allows only its own style and script', () => {
    expect(page).not.toMatch(/\b(src|href)="(https?:)?\/\//);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)?.[1] ?? '';
    expect(csp).toContain("default-src 'none'");
    const hash = (s: string): string => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;
    const [style] = elements(page, 'style');
    const [script] = elements(page, 'script');
    expect(csp).toContain(`style-src ${hash(style!)}`);
    expect(csp).toContain(`script-src ${hash(script!)}`);
  });

  it('charts every section with its counts and share of judged checks that passed', () => {
    const row = (label: string): string => new RegExp(`<tr class="[^"]*"[^>]*><td class="label">${label}</td>[\\s\\S]*?</tr>`).exec(page)?.[0] ?? '';
    const counts = (r: string): string[] => [...r.matchAll(/data-status="(\w+)">(\d+)</g)].map((m) => `${m[1]}=${m[2]}`);
    expect(counts(row('CON 1 Constraints'))).toEqual(['pass=2', 'fail=0', 'warn=0', 'skip=0', 'error=0']);
    expect(row('CON 1 Constraints')).toContain('<td class="pct">100%</td>');
    expect(row('ERR 7 Errors')).toContain('<td class="pct">0%</td>');
    expect(row('END 4 Endpoints')).toContain('<td class="pct">not judged</td>');
    expect(counts(row('Total'))).toEqual(['pass=2', 'fail=1', 'warn=1', 'skip=1', 'error=1']);
    expect(row('Total')).toContain('<rect class="pass" x="0.000" y="0" width="33.333"');
  });

  it('shows every check with its verdict, and a failure open with its evidence and curl', () => {
    expect(page.match(/<details class="check /g)).toHaveLength(sampleResults.length);
    const failing = /<details class="check fail"[\s\S]*?<\/details>\n<\/div><\/details>/.exec(page)?.[0] ?? '';
    expect(failing).toContain('id="check-ERR-unknown-path-404"');
    expect(failing).toContain(' open>');
    expect(failing).toContain('<pre class="expected">404</pre>');
    expect(failing).toContain('<pre class="found">200 `text/html`</pre>');
    expect(failing).toContain('<pre class="body">&lt;h1&gt;Not here&lt;/h1&gt;</pre>');
    expect(failing).toContain(`<pre class="curl" id="check-ERR-unknown-path-404-curl-1">curl -sS -i -X GET &#39;http://127.0.0.1:8080/restprobe-no-such-path&#39; -H &#39;accept: application/json&#39;</pre>`);
    expect(failing).toContain('data-copy="check-ERR-unknown-path-404-curl-1"');
    expect(page).toMatch(/<details class="check pass" id="check-CON-https-hsts"[^>]*data-section="CON"[^>]*>/);
    expect(page).toContain('no collection configured (enable with: collections)');
  });

  it("shows a passing check's exchanges, kept as summaries, as one line each: no empty curl to copy", () => {
    const pass = sampleResult({ id: 'END-get-item-200', section: 'END', status: 'pass', evidence: sampleEvidence({ requestCount: 1, exchanges: [{ request: { method: 'GET', url: 'http://x.test/v2/a/1', headers: {} }, response: { status: 200, headers: {} }, durationMs: 2, curl: '' }] }) });
    const text = renderHtml(sampleReport(false, [pass]));
    expect(text).toContain('<div class="exchange-line">1. GET http://x.test/v2/a/1 → 200 (2 ms)</div>');
    expect(text).not.toContain('button type="button" class="copy"');
  });

  it('groups what could not run by root cause, linking each check', () => {
    expect(page).toContain('<strong>target unreachable: ECONNREFUSED 127.0.0.1:8080</strong>: 1 check could not run (<a href="#check-AUT-missing-credentials-401">AUT-missing-credentials-401</a>)');
  });

  it('keeps hostile text as text: no element, attribute or script of the target reaches the markup', () => {
    const hostile = renderHtml(sampleReport(false, [hostileResult]));
    expect(hostile.match(/<script\b/g)).toHaveLength(1);
    expect(hostile.match(/<style\b/g)).toHaveLength(1);
    for (const tag of ['<img', '<svg onload', '<iframe', '<h1 id="injected"', '<b id=', '<!--']) expect(hostile).not.toContain(tag);
    expect(hostile).toContain(html(hostileMarkup.split('\n')[0]!));
    // A collection name folds into the fragment id; the name itself is shown escaped.
    expect(hostile).toContain('id="check-ERR-no-html-error-bodies-b-id-injected-collection-x-b"');
    expect(hostile).toContain('ERR-no-html-error-bodies [&lt;b id=&quot;injected-collection&quot;&gt;x&lt;/b&gt;]');
  });

  it('lists a baseline comparison, regressions first', () => {
    const baseline = {
      against: { startedAt: '2025-01-01T00:00:00.000Z', toolVersion: '0.1.0', baseUrl: 'http://x.test' },
      newFailures: [{ name: 'ERR-unknown-path-404', was: 'pass', now: 'fail' }],
      fixed: [{ name: 'END-get-item-200 [projects]', was: 'fail', now: 'pass' }],
      stillFailing: [],
      vanished: [],
      nowSkipped: [],
    } as const;
    const text = renderHtml({ ...sampleReport(), baseline });
    expect(text).toContain('<h3>New failures (1)</h3><ul><li>ERR-unknown-path-404 (was pass, now fail)</li></ul>\n<h3>Fixed (1)</h3>');
    expect(text).toContain('1 new failure · 1 fixed · 0 still failing');
    // The check itself carries its standing, beside its verdict.
    expect(text).toContain('<summary><span class="badge fail">fail</span><span class="tag">new failure</span><span class="name">ERR-unknown-path-404</span>');
    expect(text).toContain('<summary><span class="badge pass">pass</span><span class="name">CON-https-hsts</span>');
  });

  it('cuts a huge body for the page and says where the whole is', () => {
    const body = 'x'.repeat(htmlTextLimit * 3);
    const big = { ...hostileResult, evidence: { ...hostileResult.evidence, exchanges: [{ ...hostileResult.evidence.exchanges[0]!, response: { status: 500, headers: {}, body } }] } };
    const text = renderHtml(sampleReport(false, [big]));
    expect(text.length).toBeLessThan(htmlTextLimit * 2 + 40_000);
    expect(text).toContain(`${htmlTextLimit * 2} more characters: the whole text is in restprobe-report.json`);
  });

  it('a secret in the evidence is caught by the scrub in its HTML form too', () => {
    const value = `${sampleSecret.value}'"<&`;
    const leaky = { ...hostileResult, message: `echoed ${value}` };
    const scrubbed = scrubSecrets(renderHtml(sampleReport(false, [leaky])), [{ envName: 'KEY', value }]);
    expect(scrubbed).not.toContain(sampleSecret.value);
    expect(scrubbed).toContain('echoed $KEY');
  });
});
