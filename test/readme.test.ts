/**
 * The README holds together (issue 27): short, its figures the catalogues' own, its minimal
 * config one that runs, and every relative link in it and in docs/ resolving to a file and,
 * for `#anchor`, to a heading there.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultCatalogue, startReferenceServer, type ReferenceServer } from '../reference-server/src/index.js';
import { catalogue, receiverCatalogue } from '../suites/catalogue.js';
import { headingAnchors, prose, relativeLinks } from './support/markdown.js';
import { runInProcess } from './support/run-in-process.js';
import { repoRoot } from './support/target.js';

const readmePath = join(repoRoot, 'README.md');
const readme = readFileSync(readmePath, 'utf8');
const docs = readdirSync(join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(repoRoot, 'docs', f));

/** About 200 lines: what a newcomer reads before the links take over. */
const maxReadmeLines = 200;

describe('README.md', () => {
  it(`is at most ${maxReadmeLines} lines`, () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(maxReadmeLines);
  });

  it('states the number of checks (receiver-mode too) and of reference faults as the catalogues have them', () => {
    const checks = [...readme.matchAll(/\b(\d+)\s+checks\b/g)].map(([, n]) => Number(n));
    const receiverChecks = [...readme.matchAll(/\b(\d+)\s+receiver-mode\s+checks\b/g)].map(([, n]) => Number(n));
    const faults = [...readme.matchAll(/\b(\d+)\s+(?:(?:named|reference)\s+)*faults\b/g)].map(([, n]) => Number(n));
    expect(checks.length, 'the README names the number of checks').toBeGreaterThan(0);
    expect(faults.length, 'the README names the number of faults').toBeGreaterThan(0);
    expect(checks, `README.md says ${checks.join(', ')} checks; the catalogue has ${catalogue.length} (npm run docs:checks writes the figures)`).toEqual(checks.map(() => catalogue.length));
    expect(receiverChecks, `README.md says ${receiverChecks.join(', ')} receiver-mode checks; there are ${receiverCatalogue.length}`).toEqual(receiverChecks.map(() => receiverCatalogue.length));
    expect(faults, `README.md says ${faults.join(', ')} faults; the fault catalogue has ${faultCatalogue.length}`).toEqual(faults.map(() => faultCatalogue.length));
  });

  it('gives no times: they are measured in docs/performance.md', () => {
    expect(prose(readme).match(/\b\d+(?:[.,]\d+)?\s*(?:ms|s|sec|seconds?|min|minutes?|hours?)\b/gi) ?? []).toEqual([]);
  });

  it('says how to install, start the main job and run the tests on a fresh machine, as .ci/run does', () => {
    for (const step of ['npm ci', 'npm start', 'npm test', 'reports/', 'chromium', 'apt-get', '.ci/run']) expect(readme).toContain(step);
    const ci = readFileSync(join(repoRoot, '.ci', 'run'), 'utf8');
    expect(ci).toMatch(/apt-get install -y[^\n]* chromium/);
    expect(ci).toMatch(/^npm ci$/m);
    expect(ci).toMatch(/^npm test$/m);
  });
});

describe("the README's minimal config", () => {
  let server: ReferenceServer;
  const saved = process.env.STAGING_API_KEY;
  beforeAll(async () => {
    server = await startReferenceServer({ port: 0 });
  });
  afterAll(async () => {
    await server.close();
    if (saved === undefined) delete process.env.STAGING_API_KEY;
    else process.env.STAGING_API_KEY = saved;
  });

  it('runs against the reference server: read and write checks judged, nothing left', async () => {
    const block = /^```json\n([\s\S]*?)^```/m.exec(readme);
    expect(block, 'a ```json block in README.md').not.toBeNull();
    const file = join(await mkdtemp(join(tmpdir(), 'restprobe-readme-')), 'restprobe.config.json');
    await writeFile(file, block![1]!);
    process.env.STAGING_API_KEY = server.secrets.RESTPROBE_API_KEY;
    const ran = await runInProcess(server.url, { config: file, format: 'json', only: ['END-get-collection-200', 'END-post-201-location', 'ERR-unknown-path-404'] });
    expect(ran.error?.message, ran.out).toBeUndefined();
    expect(ran.code, ran.out).toBe(0);
    const report = JSON.parse(readFileSync(join(ran.dir, 'restprobe-report.json'), 'utf8')) as { summary: Record<string, number>; leftovers: unknown[] };
    expect(report.summary).toMatchObject({ pass: 3, fail: 0, warn: 0, skip: 0, error: 0 });
    expect(report.leftovers).toEqual([]);
  });
});

describe('links in README.md and docs/', () => {
  const files = [readmePath, ...docs];
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (file: string): Set<string> => {
    if (!anchorsOf.has(file)) anchorsOf.set(file, headingAnchors(readFileSync(file, 'utf8')));
    return anchorsOf.get(file)!;
  };

  it.each(files.map((f) => [relative(repoRoot, f), f] as const))('%s: every relative link resolves, anchors to a heading', (_name, file) => {
    const broken: string[] = [];
    for (const link of relativeLinks(readFileSync(file, 'utf8'))) {
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path === '' ? file : join(dirname(file), decodeURIComponent(path));
      if (relative(repoRoot, target).startsWith('..')) broken.push(`${link}: outside the repository`);
      else if (!existsSync(target)) broken.push(`${link}: no such file`);
      else if (anchor !== undefined && target.endsWith('.md') && !anchors(target).has(anchor)) broken.push(`${link}: no heading with that anchor`);
    }
    expect(broken).toEqual([]);
  });

  it('finds the links it checks (a heading anchor and a cross-file link)', () => {
    expect(relativeLinks(readme)).toContain('docs/cli.md');
    expect(anchors(join(repoRoot, 'docs', 'cli.md'))).toContain('serve-the-reference-server');
  });
});

describe('restprobe --help', () => {
  it('names only docs pages that exist, and names the CLI and config references', async () => {
    const help = (await Promise.all([['--help'], ['run', '--help']].map((args) => helpText(args)))).join('\n');
    const pages = [...help.matchAll(/\bdocs\/[\w.-]+\.md\b/g)].map(([page]) => page);
    expect(pages).toEqual(expect.arrayContaining(['docs/cli.md', 'docs/config.md']));
    expect(pages.filter((page) => !existsSync(join(repoRoot, page)))).toEqual([]);
  });
});

/** What `restprobe <args>` prints, from the built CLI (`npm test` builds first). */
function helpText(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [join(repoRoot, 'bin', 'restprobe.js'), ...args], { cwd: repoRoot, timeout: 30_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });
}
