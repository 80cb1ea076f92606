import { describe, expect, it } from 'vitest';
import { hostileResult, sampleReport, sampleResults } from '../../test/support/report-samples.js';
import { renderAllure } from './allure.js';

interface AllureResult {
  name: string;
  fullName: string;
  historyId: string;
  status: string;
  description: string;
  statusDetails: { message?: string; trace?: string; expected?: string; actual?: string };
  labels: { name: string; value: string }[];
  parameters: { name: string; value: string; excluded?: boolean }[];
  attachments: { name: string; source: string; type: string }[];
  start: number;
  stop: number;
}

const files = renderAllure(sampleReport(false, [...sampleResults, hostileResult]));
const results = files.filter((f) => f.path.endsWith('-result.json')).map((f) => JSON.parse(f.content) as AllureResult);
const byName = (prefix: string): AllureResult => results.find((r) => r.name.startsWith(prefix))!;
const label = (r: AllureResult, name: string): string[] => r.labels.filter((l) => l.name === name).map((l) => l.value);

describe('renderAllure', () => {
  it('writes one test per result, each status mapped, under allure-results/', () => {
    expect(files.every((f) => f.path.startsWith('allure-results/'))).toBe(true);
    expect(results).toHaveLength(sampleResults.length + 1);
    expect(Object.fromEntries(results.map((r) => [r.fullName, r.status]))).toEqual({
      'restprobe:VER-deprecation-header': 'passed',
      'restprobe:ERR-unknown-path-404': 'failed',
      'restprobe:END-get-item-200': 'skipped',
      'restprobe:CON-https-hsts': 'passed',
      'restprobe:AUT-missing-credentials-401': 'broken',
      'restprobe:CON-accept-406': 'passed',
      [`restprobe:ERR-no-html-error-bodies [${hostileResult.collection}]`]: 'failed',
    });
    // Under --strict a should-level warning fails.
    const strict = renderAllure(sampleReport(true)).map((f) => f.content).filter((c) => c.includes('"fullName":"restprobe:VER-deprecation-header"'));
    expect(JSON.parse(strict[0]!).status).toBe('failed');
  });

  it('labels each test with its section, severity and check id; the rule is its description', () => {
    const failing = byName('ERR-unknown-path-404');
    expect(label(failing, 'suite')).toEqual(['ERR 7 Errors']);
    expect(label(failing, 'severity')).toEqual(['critical']);
    expect(label(failing, 'checkId')).toEqual(['ERR-unknown-path-404']);
    expect(label(byName('VER-deprecation-header'), 'severity')).toEqual(['normal']);
    expect(label(byName('VER-deprecation-header'), 'tag')).toEqual(['warning']);
    expect(failing.description).toBe('The target MUST do the thing.');
    expect(failing.statusDetails).toMatchObject({ expected: '404', actual: '200 `text/html`', message: expect.stringContaining('found status 200') });
    expect(byName('END-get-item-200').statusDetails.message).toBe('no collection configured (enable with: collections)');
    expect(failing.stop - failing.start).toBe(1500);
  });

  it("attaches the curl that reproduces the verdict, and each exchange as Allure's HTTP exchange; the seed is a parameter kept out of the history key", () => {
    const failing = byName('ERR-unknown-path-404');
    expect(failing.attachments.map((a) => [a.name, a.type, a.source.replace(/^.*-attachment/, '')])).toEqual([
      ['curl (reproduces the verdict)', 'text/plain', '.txt'],
      ['1. GET http://127.0.0.1:8080/restprobe-no-such-path → 200 (12 ms)', 'application/vnd.allure.http+json', '.httpexchange'],
    ]);
    const content = (source: string): string => files.find((f) => f.path === `allure-results/${source}`)!.content;
    expect(content(failing.attachments[0]!.source)).toBe(sampleResults[1]!.evidence.exchanges[0]!.curl);
    expect(JSON.parse(content(failing.attachments[1]!.source))).toEqual({
      schemaVersion: 1,
      request: { method: 'GET', url: 'http://127.0.0.1:8080/restprobe-no-such-path', headers: [{ name: 'accept', value: 'application/json' }] },
      response: { status: 200, headers: [{ name: 'content-type', value: 'text/html' }], body: { value: '<h1>Not here</h1>', encoding: 'utf8', truncated: false, contentType: 'text/html' } },
    });
    expect(failing.parameters).toEqual([{ name: 'seed', value: '42', excluded: true }, { name: 'target', value: 'http://127.0.0.1:8080', excluded: true }]);
    const property = byName('ERR-no-html-error-bodies');
    expect(property.parameters).toContainEqual({ name: 'seed', value: '7', excluded: true });
    expect(property.attachments.map((a) => a.name)).toContain('property replay');
  });

  it('keeps a result the same test across runs: its history id depends on its name, not the seed', () => {
    const again = renderAllure({ ...sampleReport(false, [...sampleResults, hostileResult]), seed: 99 });
    const historyIds = (list: typeof files): string[] => list.filter((f) => f.path.endsWith('-result.json')).map((f) => (JSON.parse(f.content) as AllureResult).historyId).sort();
    expect(historyIds(again)).toEqual(historyIds(files));
    expect(new Set(historyIds(files)).size).toBe(results.length);
  });

  it('writes the environment and categories', () => {
    const env = files.find((f) => f.path === 'allure-results/environment.properties')!.content;
    expect(env).toContain('target=http://127.0.0.1:8080');
    expect(env).toContain('seed=42');
    expect(JSON.parse(files.find((f) => f.path === 'allure-results/categories.json')!.content).map((c: { name: string }) => c.name)).toContain('Blocked by a failed dependency');
  });
});
