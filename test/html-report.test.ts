/**
 * The HTML report in a real browser: headless Chromium (Debian's `chromium`; .ci/run
 * installs it) loads the report of a whole run against the reference server with two
 * faults, and the tests read its DOM, use its filters, links and copy button, and load a
 * report full of hostile markup. Screenshots go to test-output/html-report/ for a person
 * to look at. Without Chromium the file is skipped, except on CI, where it fails.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChecks } from '../src/engine/run.js';
import { resultName } from '../src/model/result.js';
import { renderHtml } from '../src/report/html.js';
import { buildReport, type Report } from '../src/report/model.js';
import { scrubSecrets } from '../src/secrets-scrub.js';
import { catalogue } from '../suites/catalogue.js';
import { chromiumPath, launchChromium, type Browser, type Page } from './support/chromium.js';
import { hostileMarkup, hostileResult, sampleReport, sampleResults } from './support/report-samples.js';
import { repoRoot, startTarget } from './support/target.js';

const outDir = join(repoRoot, 'test-output', 'html-report');
const haveChromium = chromiumPath() !== undefined;
if (!haveChromium && process.env['CI']) throw new Error('CI needs chromium for the HTML report test: apt-get install -y chromium (.ci/run does)');

/** Writes a report's page (scrubbed, as writeReports does) and opens it. */
async function load(browser: Browser, report: Report, name: string, secrets: { envName: string; value: string }[] = []): Promise<Page> {
  const path = join(outDir, name);
  await writeFile(path, scrubSecrets(renderHtml(report), secrets));
  return browser.open(pathToFileURL(path).href);
}

describe.skipIf(!haveChromium)('the HTML report in headless Chromium', () => {
  let browser: Browser;
  let report: Report;
  let page: Page;
  let apiKey: string;

  beforeAll(async () => {
    await mkdir(outDir, { recursive: true });
    const [launched, target] = await Promise.all([launchChromium(), startTarget(['unknown-path-html', 'etag-missing'])]);
    browser = launched;
    try {
      const startedAt = new Date();
      const run = await runChecks({ profile: target.profile, checks: catalogue, seed: 3, client: target.client });
      report = buildReport({ baseUrl: target.profile.baseUrl, startedAt, durationMs: Date.now() - startedAt.getTime(), seed: 3, strict: false, version: '0.1.0', results: run.results, order: run.order, leftovers: run.leftovers });
      apiKey = target.server.secrets.RESTPROBE_API_KEY ?? '';
    } finally {
      await target.close();
    }
    page = await load(browser, report, 'restprobe-report.html', target.profile.secrets.slice());
  }, 60_000);

  afterAll(async () => browser?.close());

  it('shows the verdict, the totals and one chart row per section, as in the report', async () => {
    const dom = await page.evaluate<{ verdict: string; totals: string[]; rows: string[][]; checks: number }>(`({
      verdict: document.getElementById('verdict').textContent,
      totals: [...document.querySelectorAll('#totals .badge')].map((b) => b.textContent),
      rows: [...document.querySelectorAll('table.chart tr.section')].map((tr) => [tr.querySelector('.label').textContent, ...[...tr.querySelectorAll('td.num')].map((td) => td.textContent)]),
      checks: document.querySelectorAll('details.check').length,
    })`);
    expect(dom.verdict).toBe('failed');
    expect(dom.totals).toEqual((['pass', 'fail', 'warn', 'skip', 'error'] as const).map((s) => `${report.summary[s]} ${s}`));
    expect(dom.rows).toEqual(report.sections.map((s) => [`${s.section} ${s.name}`, ...(['pass', 'fail', 'warn', 'skip', 'error'] as const).map((k) => String(s.summary[k]))]));
    expect(dom.checks).toBe(report.checks.length);
    // The script showed the filters (hidden without it, since they would do nothing).
    expect(await page.evaluate<string>(`getComputedStyle(document.getElementById('filters')).display`)).toBe('flex');
    expect(report.summary.fail).toBeGreaterThan(0);
    expect(page.errors).toEqual([]);
  });

  it("opens a failing check with its rule, expected and found, the target's HTML body as text, and the curl", async () => {
    const failing = report.checks.find((r) => r.id === 'ERR-unknown-path-404')!;
    expect(failing.status).toBe('fail');
    const dom = await page.evaluate<{ open: boolean; rule: string; found: string; bodies: string[]; curl: string }>(`(() => {
      const el = document.getElementById('check-ERR-unknown-path-404');
      return {
        open: el.open,
        rule: el.querySelector('dd').textContent,
        found: el.querySelector('pre.found')?.textContent ?? '',
        bodies: [...el.querySelectorAll('pre.body')].map((p) => p.textContent),
        curl: el.querySelector('pre.curl').textContent,
      };
    })()`);
    expect(dom.open).toBe(true);
    expect(dom.rule).toBe(failing.rule);
    expect(dom.found).toBe(failing.evidence.found);
    // The fault answers an HTML page: it is shown as its text, not rendered.
    expect(dom.bodies.join('\n')).toMatch(/<(html|h1|body|!doctype)/i);
    expect(dom.curl).toContain('curl ');
    expect(dom.curl).not.toContain(apiKey);
  });

  it('filters by status, section and name, and counts what it shows', async () => {
    const shown = (): Promise<{ count: string; visible: string[] }> =>
      page.evaluate(`({ count: document.getElementById('shown-count').textContent, visible: [...document.querySelectorAll('details.check:not([hidden])')].map((d) => d.dataset.status + ' ' + d.dataset.section) })`);
    const toggle = (kind: string, value: string): Promise<void> =>
      page.evaluate(`document.querySelector('#filters input[data-kind="${kind}"][value="${value}"]').click()`);
    expect((await shown()).count).toBe(`${report.checks.length} of ${report.checks.length} checks shown`);
    for (const s of ['pass', 'skip', 'warn']) await toggle('status', s);
    const problems = report.checks.filter((r) => r.status === 'fail' || r.status === 'error');
    let now = await shown();
    expect(now.visible).toHaveLength(problems.length);
    expect(now.count).toBe(`${problems.length} of ${report.checks.length} checks shown`);
    await page.screenshot(join(outDir, 'failures.png'), 1280, 3500);
    await toggle('section', 'ERR');
    now = await shown();
    expect(now.visible.every((v) => !v.endsWith(' ERR'))).toBe(true);
    expect(now.visible).toHaveLength(problems.filter((r) => r.section !== 'ERR').length);
    await page.evaluate(`(() => { const input = document.getElementById('filter-text'); input.value = 'etag'; input.dispatchEvent(new Event('input')); })()`);
    now = await shown();
    expect(now.visible.length).toBeGreaterThan(0);
    expect(now.visible.length).toBeLessThan(problems.length);
    const hiddenGroups = await page.evaluate<string[]>(`[...document.querySelectorAll('.section-group[hidden]')].map((g) => g.dataset.section)`);
    expect(hiddenGroups).toContain('ERR');
  });

  it('a root-cause link reveals and opens the blocked check, even when filters hide it', async () => {
    const cause = report.rootCauses.find((c) => c.cause === 'END-etag-present failed');
    expect(cause).toBeDefined();
    const name = cause!.checks[0]!;
    const opened = await page.evaluate<{ hidden: boolean; open: boolean; name: string }>(`(async () => {
      document.querySelector('#filters input[data-kind="status"][value="error"]').click();
      const link = [...document.querySelectorAll('#root-causes a')].find((a) => a.textContent === ${JSON.stringify(name)});
      link.click();
      await new Promise((r) => setTimeout(r, 50));
      const el = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      return { hidden: el.hidden, open: el.open, name: el.querySelector('.name').textContent };
    })()`);
    expect(opened).toEqual({ hidden: false, open: true, name });
  });

  it('the copy button puts the exact curl command on the clipboard', async () => {
    const copied = await page.evaluate<{ clipboard: string; shown: string; label: string }>(`(async () => {
      const button = document.querySelector('#check-ERR-unknown-path-404 button.copy');
      let clipboard = '';
      // Headless Chromium has no system clipboard: record what the page hands it.
      navigator.clipboard.writeText = async (value) => { clipboard = value; };
      button.click();
      await new Promise((r) => setTimeout(r, 50));
      return { clipboard, shown: document.getElementById(button.dataset.copy).textContent, label: button.textContent };
    })()`);
    expect(copied.label).toBe('Copied');
    expect(copied.clipboard).toBe(copied.shown);
    const focus = report.checks.find((r) => r.id === 'ERR-unknown-path-404')!.evidence.exchanges[0]!.curl;
    expect(copied.clipboard).toBe(focus);
  });

  it('without JavaScript (a viewer that strips it) every check is shown and the filters, which would do nothing, are not', async () => {
    const plain = await browser.open(pathToFileURL(join(outDir, 'restprobe-report.html')).href, { scripts: false });
    const dom = await plain.evaluate<{ filters: string; shown: number }>(`({
      filters: getComputedStyle(document.getElementById('filters')).display,
      shown: [...document.querySelectorAll('details.check')].filter((d) => d.getClientRects().length > 0).length,
    })`);
    expect(dom).toEqual({ filters: 'none', shown: report.checks.length });
  });

  it('hostile markup in every field stays text: no element, script or style of the target takes effect', async () => {
    const hostile = await load(browser, sampleReport(false, [...sampleResults, hostileResult]), 'hostile.html');
    const dom = await hostile.evaluate<{ title: string; injected: number; scripts: number; styles: number; bodyShown: boolean; found: string; name: string; visible: boolean }>(`({
      title: document.title,
      injected: document.querySelectorAll('img, iframe, svg[onload], #injected, #injected-collection, b').length,
      scripts: document.scripts.length,
      styles: document.querySelectorAll('style').length,
      bodyShown: document.body.innerText.includes('<script>document.title="pwned"</script>'),
      found: document.querySelector('details.check.fail pre.found').textContent,
      name: [...document.querySelectorAll('details.check .name')].map((n) => n.textContent).find((t) => t.startsWith('ERR-no-html')),
      visible: getComputedStyle(document.body).display !== 'none',
    })`);
    expect(dom).toEqual({
      title: expect.stringMatching(/^restprobe: failed/),
      injected: 0,
      scripts: 1,
      styles: 1,
      bodyShown: true,
      found: hostileMarkup,
      name: resultName(hostileResult.id, hostileResult.collection),
      visible: true,
    });
    expect(hostile.errors).toEqual([]);
    await hostile.screenshot(join(outDir, 'hostile.png'), 1280, 2500);
  });
});
