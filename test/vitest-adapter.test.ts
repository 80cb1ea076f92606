/**
 * `restprobe/vitest` as a team uses it: a vitest run of its own (a child process, with the
 * committed config and test file under test/fixtures/vitest-adapter/) registers the
 * catalogue's ERR checks and one team-written check against the reference server, and
 * vitest's JSON reporter shows the verdicts.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultCatalogue, startReferenceServer, type ReferenceServer } from '../reference-server/src/index.js';
import { catalogue } from '../suites/catalogue.js';
import { repoRoot } from './support/target.js';

const fixtureDir = join(repoRoot, 'test', 'fixtures', 'vitest-adapter');
const adapter = join(repoRoot, 'dist', 'src', 'adapters', 'vitest.js');
const vitestBin = join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs');

interface JsonTest {
  readonly title: string;
  readonly fullName: string;
  readonly status: string;
  readonly failureMessages: readonly string[];
  readonly meta?: { restprobe?: { status: string } };
}
interface JsonReport {
  readonly testResults: readonly { readonly assertionResults: readonly JsonTest[] }[];
}

interface ChildRun {
  readonly code: number | null;
  readonly output: string;
  readonly report: JsonReport;
  readonly reportText: string;
  readonly apiKey: string;
}

const dirs: string[] = [];
const servers: ReferenceServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** The fixture's vitest run against a fresh reference server with `faults` (and vitest's own `args`, such as `-t`). */
async function runFixture(faults: readonly string[], args: readonly string[] = []): Promise<ChildRun> {
  const server = await startReferenceServer({ port: 0, nodes: 2, faults });
  servers.push(server);
  const tmp = await mkdtemp(join(tmpdir(), 'restprobe-vitest-adapter-'));
  dirs.push(tmp);
  const outFile = join(tmp, 'out.json');
  // The parent vitest's own variables would confuse the child's.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS'));
  const child = spawn(
    process.execPath,
    [vitestBin, 'run', '--config', join(fixtureDir, 'vitest.config.ts'), '--root', fixtureDir, '--reporter=json', `--outputFile=${outFile}`, ...args],
    {
      cwd: fixtureDir,
      env: {
        ...env,
        ...server.secrets,
        RESTPROBE_BASE_URL: server.url,
        RESTPROBE_ADAPTER: adapter,
        RESTPROBE_VITEST_CACHE: join(tmp, 'cache'),
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  const reportText = await readFile(outFile, 'utf8').catch((err: unknown) => {
    throw new Error(`the child vitest wrote no report (exit ${code}):\n${output}`, { cause: err });
  });
  return { code, output, report: JSON.parse(reportText) as JsonReport, reportText, apiKey: server.secrets.RESTPROBE_API_KEY };
}

const testsOf = (run: ChildRun): JsonTest[] => run.report.testResults.flatMap((f) => f.assertionResults);
const byId = (run: ChildRun, id: string): JsonTest | undefined => testsOf(run).find((t) => t.title.startsWith(`${id} — `));
const errChecks = catalogue.filter((c) => c.section === 'ERR');

describe('restprobe/vitest', { timeout: 60_000 }, () => {
  let clean: ChildRun;
  let faulty: ChildRun;
  let filtered: ChildRun;
  // All runs at once: each has its own server and temp dir.
  beforeAll(async () => {
    [clean, faulty, filtered] = await Promise.all([runFixture([]), runFixture(['errors-as-plain-json']), runFixture(['errors-as-plain-json'], ['-t', 'ERR-unknown-path-404'])]);
  }, 90_000);

  it('runs the selected catalogue checks and a team check as vitest tests, which pass on a clean server', () => {
    const tests = testsOf(clean);
    expect(tests.map((t) => t.title.split(' — ')[0]).sort()).toEqual([...errChecks.map((c) => c.id), 'END-team-projects-list'].sort());
    for (const check of errChecks) {
      const t = byId(clean, check.id);
      expect(t?.title).toBe(`${check.id} — ${check.title}`);
      expect(t?.fullName).toBe(`restprobe ${check.id} — ${check.title}`);
    }
    expect(byId(clean, 'END-team-projects-list')?.fullName).toBe('team checks END-team-projects-list — Our projects list answers 200');
    expect(tests.filter((t) => t.status !== 'passed').map((t) => `${t.title}: ${t.status} ${t.failureMessages.join('\n')}`)).toEqual([]);
    expect(tests.every((t) => t.meta?.restprobe?.status === 'pass')).toBe(true);
    expect(clean.code, clean.output).toBe(0);
  });

  it('fails the tests of the rules a fault breaks, with the rule and a reproducing curl, and leaks no secret', () => {
    // errors-as-plain-json breaks three §7 checks, all `must` (and the 429's, outside the ERR section the fixture runs).
    const detects = faultCatalogue.find((f) => f.name === 'errors-as-plain-json')!.detects.filter((id) => id.startsWith('ERR-'));
    const failed = testsOf(faulty).filter((t) => t.status === 'failed');
    expect(failed.map((t) => t.title.split(' — ')[0]).sort()).toEqual([...detects].sort());
    for (const id of detects) {
      const message = byId(faulty, id)!.failureMessages.join('\n');
      const rule = catalogue.find((c) => c.id === id)!.rule;
      expect(message).toMatch(/^CheckFailed: /);
      expect(message).toContain(`Rule: ${rule}`);
      expect(message).toMatch(/\nReproduce: curl .*'http:\/\/127\.0\.0\.1:\d+\//);
      expect(byId(faulty, id)!.meta?.restprobe?.status).toBe('fail');
    }
    // The content-type check names what it found.
    expect(byId(faulty, 'ERR-problem-json-content-type')!.failureMessages.join('\n')).toContain('application/json');
    expect(testsOf(faulty).filter((t) => t.status === 'passed').length).toBe(testsOf(faulty).length - detects.length);
    expect(byId(faulty, 'END-team-projects-list')?.status).toBe('passed');
    expect(faulty.code).toBe(1);
    for (const run of [clean, faulty]) {
      expect(run.apiKey.length).toBeGreaterThan(8);
      expect(run.reportText).not.toContain(run.apiKey);
      expect(run.output).not.toContain(run.apiKey);
    }
  });

  it('with -t, the engine runs the check of the test vitest runs, and that test maps its verdict; the others are skipped with none', () => {
    // A test whose check the engine did not run would fail with "has no instance to run", not with the fault's verdict.
    expect(byId(filtered, 'ERR-unknown-path-404')).toMatchObject({ status: 'failed', meta: { restprobe: { status: 'fail' } } });
    const others = testsOf(filtered).filter((t) => !t.title.startsWith('ERR-unknown-path-404 — '));
    expect(others.length).toBe(errChecks.length);
    expect(others.filter((t) => t.status !== 'skipped' || t.meta?.restprobe !== undefined).map((t) => t.title)).toEqual([]);
    expect(filtered.code).toBe(1);
  });
});
