/**
 * `npm run bench`: how fast restprobe is, measured in one run so ratios hold on a noisy
 * machine. Prints a table and writes reports/bench.json. Not a test: nothing here fails
 * on a slow machine; the figures are compared with their targets in the output.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, totalmem, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readExportLines } from '../src/cli/export-lines.js';
import { loadProfile } from '../src/config/load.js';
import { loadOpenApi } from '../src/document/load.js';
import { runChecks } from '../src/engine/run.js';
import { HttpClient } from '../src/http/client.js';
import type { TargetProfile } from '../src/model/profile.js';
import { defaultProbeRateLimit, faultCatalogue, startReferenceServer, type Fault } from '../reference-server/src/index.js';
import { catalogue, receiverCatalogue } from '../suites/catalogue.js';
import { compatibleWithinMajor } from '../suites/09-versioning/compatibility.js';
import { shapeBaselineOf } from '../src/report/shape-baseline.js';
import { resultName, worstFinding } from '../src/model/result.js';
import type { FixtureReady } from './fixture-server.js';
import type { HttpFigures } from './http-child.js';
import { autocannonRate, median, medianRatio } from './measure.js';

const here = dirname(fileURLToPath(import.meta.url));
/** The package root, from `dist/bench/`. */
const root = join(here, '..', '..');
const referenceConfig = join(root, 'fixtures', 'reference.config.json');

interface Fixture extends FixtureReady {
  readonly child: ChildProcess;
}

function startFixture(kind: 'minimal' | 'reference', arg = ''): Promise<Fixture> {
  const child = fork(join(here, 'fixture-server.js'), [kind, arg], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (ready: FixtureReady) => resolve({ ...ready, child }));
    child.once('exit', (code) => reject(new Error(`fixture ${kind} exited (${code})`)));
  });
}

const stop = (f: Fixture) => f.child.kill('SIGTERM');

/** `node bin/restprobe.js …`: milliseconds from spawning the process to its exit, its exit code and its stdout. */
function timeCli(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<{ ms: number; code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let ms = 0;
    let code: number | null = null;
    const started = performance.now();
    const child = spawn(process.execPath, [join(root, 'bin', 'restprobe.js'), ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.once('error', reject);
    child.once('exit', (c) => {
      ms = performance.now() - started;
      code = c;
    });
    // 'close' comes after 'exit', once stdout is drained: the timing is the exit's.
    child.once('close', () => resolve({ ms, code, stdout }));
  });
}

interface Served {
  /** What `restprobe serve` prints as `export NAME=value` lines (the API key, the base URL, the node URLs). */
  readonly env: Record<string, string>;
  stop(): Promise<void>;
}

/** `restprobe serve --port 0 --nodes 2 --tls` (and `flags`), ready when it has printed its export lines, as scripts/start.js starts it. */
function serveReference(flags: readonly string[] = []): Promise<Served> {
  const child = spawn(process.execPath, [join(root, 'bin', 'restprobe.js'), 'serve', '--port', '0', '--nodes', '2', '--tls', ...flags], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (!out.includes('RESTPROBE_NODE_URLS=')) return;
      const env = readExportLines(out);
      const stop = () => {
        child.kill('SIGTERM');
        return exited;
      };
      resolve({ env, stop });
    });
    child.once('exit', (code) => reject(new Error(`restprobe serve exited (${code}) before it was ready:\n${out}`)));
  });
}

interface RunReport {
  readonly durationMs: number;
  readonly requests: number;
  readonly checks: { id: string; collection?: string; evidence: { requestCount: number } }[];
}

/**
 * `restprobe run` against `served` as npm start runs it (over HTTPS, the second node and the
 * plain-HTTP URL given, the answers held to the server's own document), reports to `dir`:
 * its wall time and its JSON report. It must exit 0.
 */
async function runAgainst(served: Served, dir: string): Promise<{ ms: number; report: RunReport }> {
  const { env } = served;
  const base = env['RESTPROBE_BASE_URL']!.replace(/\/+$/, '');
  const nodes = (env['RESTPROBE_NODE_URLS'] ?? '').split(',').slice(1).flatMap((url) => ['--node', url]);
  const tls = [...(env['RESTPROBE_CA_FILE'] ? ['--ca', env['RESTPROBE_CA_FILE']] : []), ...(env['RESTPROBE_PLAIN_HTTP_URL'] ? ['--plain-http-url', env['RESTPROBE_PLAIN_HTTP_URL']] : [])];
  const args = ['run', base, '-c', referenceConfig, '--openapi', `${base}/openapi.json`, '--report-dir', dir, '--seed', String(runSeed), ...nodes, ...tls];
  const { ms, code } = await timeCli(args, { ...process.env, ...env });
  if (code !== 0) throw new Error(`restprobe run exited ${code}`);
  return { ms, report: JSON.parse(await readFile(join(dir, 'restprobe-report.json'), 'utf8')) as RunReport };
}

/**
 * With `--limited` only (it takes about eleven minutes): one full run against the reference
 * server with every client but the probe keys limited to 20 requests per 10 s (`serve
 * --rate-limit 20/10s`), as a team's staging behind a gateway limits it.
 */
async function limitedRun(): Promise<{ ms: number; requests: number }> {
  const served = await serveReference(['--rate-limit', '20/10s']);
  const dir = await mkdtemp(join(tmpdir(), 'restprobe-bench-'));
  try {
    const { ms, report } = await runAgainst(served, dir);
    return { ms, requests: report.requests };
  } finally {
    await served.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * With `--suite` only (it takes about seven minutes): the project's own tests, `vitest run`
 * as `npm test` runs it after the build (which this bench has just done), spawn to exit.
 * The suite must pass.
 */
async function testSuite(): Promise<{ ms: number; passed: boolean }> {
  const started = performance.now();
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('error', reject);
    child.once('exit', resolve);
  });
  // A failed suite is reported, not thrown: the other figures of the bench still stand.
  return { ms: performance.now() - started, passed: code === 0 };
}

/** Runs of `restprobe run` and of `restprobe checks --json` whose median is reported. */
const cliRuns = 5;
/** A fixed seed, so every run sends the same property cases and the runs compare. */
const runSeed = 1;

/**
 * `restprobe run` as `npm start` runs it: a fresh two-node reference server over HTTPS started
 * first (not timed), then `node bin/restprobe.js run URL -c fixtures/reference.config.json --node
 * URL2 …` with the server's exported variables, timed from spawning the process to its exit: start-up,
 * imports, preflight, every check through runChecks, and the three reports written.
 * The median of {@link cliRuns} runs, each against its own server. The report's own
 * `durationMs` (runChecks alone) is kept too, to tell the engine from the rest.
 */
async function fullRun(): Promise<{ fullRunMs: number; engineMs: number; requestsPerRun: number; requestsPerCheck: Record<string, number>; checks: number }> {
  const wall: number[] = [];
  const engine: number[] = [];
  const requests: number[] = [];
  /** Each check instance's request counts over the runs (`END-get-item-200 [projects]`). */
  const perCheck = new Map<string, number[]>();
  let checks = 0;
  for (let i = 0; i < cliRuns; i++) {
    const served = await serveReference();
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-bench-'));
    try {
      const { ms, report } = await runAgainst(served, dir);
      wall.push(ms);
      engine.push(report.durationMs);
      // As the target sees them: every check's (retries and cleanup included) and the run's own (health phase, shared fixtures).
      requests.push(report.requests);
      for (const c of report.checks) {
        const name = resultName(c.id, c.collection);
        perCheck.set(name, [...(perCheck.get(name) ?? []), c.evidence.requestCount]);
      }
      checks = report.checks.length;
    } finally {
      await served.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }
  // Most requests first: where a run's cost is.
  const requestsPerCheck = Object.fromEntries([...perCheck].map(([name, counts]) => [name, median(counts)] as const).sort(([a, x], [b, y]) => y - x || a.localeCompare(b)));
  return { fullRunMs: median(wall), engineMs: median(engine), requestsPerRun: median(requests), requestsPerCheck, checks };
}

/**
 * `node bin/restprobe.js checks --json`, from spawning the process to its exit, median of
 * {@link cliRuns} runs; and a bare `node -e 0` the same way, the floor under any command.
 */
async function checksCommand(): Promise<{ checksCommandMs: number; nodeStartMs: number }> {
  const listed: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < cliRuns; i++) {
    const { ms, code, stdout } = await timeCli(['checks', '--json']);
    if (code !== 0) throw new Error(`restprobe checks --json exited ${code}`);
    const entries = JSON.parse(stdout) as unknown[];
    // The catalogue and the receiver-mode checks: `restprobe checks` lists both.
    const checks = catalogue.length + receiverCatalogue.length;
    if (entries.length !== checks) throw new Error(`restprobe checks --json listed ${entries.length} checks, the catalogues have ${checks}`);
    listed.push(ms);
    const started = performance.now();
    await new Promise((resolve) => spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' }).once('exit', resolve));
    bare.push(performance.now() - started);
  }
  return { checksCommandMs: median(listed), nodeStartMs: median(bare) };
}

/** As test/support/target.ts's (not in the build): the projects listing's cap, declared in the profile, so the cap checks fill 21 items, not 101. */
const testProjectsMaxLimit = 20;

/**
 * A fresh two-node reference server with `faults` (over HTTPS when one only shows there),
 * its profile and a client, as test/support/target.ts builds them.
 */
async function referenceTarget(faults: readonly Fault[]): Promise<{ profile: TargetProfile; client: HttpClient; close(): Promise<void> }> {
  const tls = faults.some((f) => f.overTls === true);
  // The probe keys' quota is serve's default, as in the tests and the reference config.
  const server = await startReferenceServer({ port: 0, faults: faults.map((f) => f.name), nodes: 2, probeRateLimit: defaultProbeRateLimit, webhookSchedule: 'short', projectsMaxLimit: testProjectsMaxLimit, tls });
  const loaded = await loadProfile({ configPath: referenceConfig, baseUrl: server.url, env: { ...server.secrets }, ...(server.caPath !== undefined && { ca: server.caPath }) });
  const collections = loaded.collections.map((c) => (c.name === 'projects' ? { ...c, pagination: { ...c.pagination, maxLimit: testProjectsMaxLimit } } : c));
  const profile: TargetProfile = { ...loaded, collections, nodes: server.urls.slice(1), ...(server.plainUrl !== undefined && { plainHttpUrl: server.plainUrl }) };
  const client = new HttpClient({ timeoutMs: 5_000, maxBodyBytes: profile.http.maxBodyBytes, connections: 4, maxRequests: 50_000, ...(profile.http.ca !== undefined && { ca: profile.http.ca }) });
  return { profile, client, close: async () => (await client.close(), await server.close()) };
}

/**
 * On each reference fault, the whole catalogue through runChecks against a fresh two-node
 * server, as test/fault-matrix.test.ts runs it (that test's support is not in the build, so
 * the target is built here the same way): each property check's own random cases, and the
 * clean server's response shapes as the baseline. Each check the fault names must fail (warn, for a
 * SHOULD rule) on some collection, or the bench stops.
 */
async function faultMatrix(): Promise<{ ms: number; faults: number }> {
  const started = performance.now();
  const clean = await referenceTarget([]);
  const { shapeBaseline, openapi } = await (async () => {
    try {
      const { results } = await runChecks({ profile: clean.profile, checks: [compatibleWithinMajor], seed: 1, client: clean.client });
      // The clean server's own document, which the DOC checks hold every fault's answers to.
      return { shapeBaseline: shapeBaselineOf({ startedAt: new Date().toISOString(), checks: results }), openapi: await loadOpenApi(`${clean.profile.baseUrl}/openapi.json`) };
    } finally {
      await clean.close();
    }
  })();
  for (const fault of faultCatalogue) {
    const target = await referenceTarget([fault]);
    try {
      const { results } = await runChecks({ profile: target.profile, inputs: { baseline: shapeBaseline, openapi }, checks: catalogue, seed: 1, client: target.client });
      const missed = fault.detects.filter((id) => {
        const expected = catalogue.find((c) => c.id === id)?.severity === 'must' ? 'fail' : 'warn';
        return worstFinding(results.filter((r) => r.id === id))?.status !== expected;
      });
      if (missed.length > 0) throw new Error(`fault ${fault.name}: ${missed.join(', ')} did not trip`);
    } finally {
      await target.close();
    }
  }
  return { ms: performance.now() - started, faults: faultCatalogue.length };
}

/**
 * The harness's HTTP layer vs autocannon (and bare undici), in a process of its own so
 * the heap of the other phases does not weigh on it. The server runs in another.
 */
async function httpVsAutocannon(): Promise<HttpFigures> {
  const server = await startFixture('minimal', JSON.stringify({ data: [{ id: 'a', name: 'bench' }], next_cursor: null }));
  try {
    const child = fork(join(here, 'http-child.js'), [server.url], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    return await new Promise((resolve, reject) => {
      child.once('message', (m: HttpFigures) => resolve(m));
      child.once('exit', (code) => reject(new Error(`the HTTP comparison exited (${code})`)));
    });
  } finally {
    stop(server);
  }
}

/** A cursor walk over `items` seeded projects at the maximum page size, in its own process. */
async function cursorWalk(items: number): Promise<{ ms: number; peakRssMb: number; seen: number }> {
  const ref = await startFixture('reference', String(items));
  try {
    const child = fork(join(here, 'walk-child.js'), [ref.url, ref.apiKey!, String(items)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    return await new Promise((resolve, reject) => {
      child.once('message', (m: { ms: number; peakRssMb: number; seen: number }) => resolve(m));
      child.once('exit', (code) => reject(new Error(`the walk exited (${code})`)));
    });
  } finally {
    stop(ref);
  }
}

/**
 * Reference server GET-item throughput vs bare node:http sending the same JSON, 50
 * connections, the same request headers. The two take turns over five rounds; the ratio
 * is the median of the rounds' ratios.
 */
async function refServerVsNodeHttp(): Promise<{ reference: number; nodeHttp: number; ratio: number }> {
  const ref = await startFixture('reference');
  try {
    const headers = { 'x-api-key': ref.apiKey!, 'content-type': 'application/json', accept: 'application/json' };
    const created = await fetch(`${ref.url}/v2/projects`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench', description: 'throughput' }) });
    const itemUrl = new URL(created.headers.get('location')!, ref.url).toString();
    const json = await (await fetch(itemUrl, { headers })).text();
    const bare = await startFixture('minimal', json);
    try {
      const run = (url: string, seconds: number) => autocannonRate(url, 50, seconds, headers);
      await run(itemUrl, 1); // warm-up: JIT warm on both servers
      await run(bare.url, 1);
      const reference: number[] = [];
      const nodeHttp: number[] = [];
      for (let round = 0; round < 5; round++) {
        reference.push(await run(itemUrl, 1));
        nodeHttp.push(await run(bare.url, 1));
      }
      return { reference: median(reference), nodeHttp: median(nodeHttp), ratio: medianRatio(reference, nodeHttp) };
    } finally {
      stop(bare);
    }
  } finally {
    stop(ref);
  }
}

const round = (n: number, digits = 0) => Number(n.toFixed(digits));

async function main(): Promise<void> {
  const started = performance.now();
  const log = (s: string) => process.stdout.write(`${s}\n`);
  const limited = process.argv.includes('--limited');
  log(`restprobe bench: measuring (about ${limited ? 20 : 10} minutes)…`);
  const run = await fullRun();
  log(`  full run done (${cliRuns} runs)`);
  // The short start-up figure next, on the machine as idle as the full runs found it, not after the suite's minutes of load.
  const checks = await checksCommand();
  log(`  checks command done (${cliRuns} runs)`);
  const behindLimiter = limited ? await limitedRun() : undefined;
  if (behindLimiter) log(`  run behind a 20 requests / 10 s limiter done`);
  const suite = process.argv.includes('--suite') ? await testSuite() : undefined;
  if (suite) log(`  test suite done${suite.passed ? '' : ': it FAILED (its failures are above); its time is reported, but is not a passing run'}`);
  const matrix = await faultMatrix();
  log(`  fault matrix done`);
  const http = await httpVsAutocannon();
  log(`  HTTP layer vs autocannon done`);
  const walk10k = await cursorWalk(10_000);
  const walk100k = await cursorWalk(100_000);
  if (walk10k.seen !== 10_000 || walk100k.seen !== 100_000) throw new Error(`walks saw ${walk10k.seen} and ${walk100k.seen} items`);
  log(`  cursor walks done`);
  const server = await refServerVsNodeHttp();

  const figures = {
    fullRunMs: round(run.fullRunMs),
    checksCommandMs: round(checks.checksCommandMs),
    faultMatrixMs: round(matrix.ms),
    httpVsAutocannon: round(http.harnessVsAutocannon, 2),
    undiciVsAutocannon: round(http.undiciVsAutocannon, 2),
    walk10kMs: round(walk10k.ms),
    walk100kMs: round(walk100k.ms),
    walk100kRssMb: round(walk100k.peakRssMb),
    refServerVsNodeHttp: round(server.ratio, 2),
    requestsPerRun: run.requestsPerRun,
    ...(behindLimiter && { limitedRunMs: round(behindLimiter.ms), limitedRunRequests: behindLimiter.requests }),
    ...(suite && { testSuiteMs: round(suite.ms), testSuitePassed: suite.passed ? 1 : 0 }),
  };
  const targets: Record<keyof typeof figures | 'limitedRunMs' | 'limitedRunRequests' | 'testSuiteMs' | 'testSuitePassed', [string, (v: number) => boolean]> = {
    fullRunMs: ['≤ 3000', (v) => v <= 3000],
    checksCommandMs: ['≤ 300', (v) => v <= 300],
    faultMatrixMs: ['reported', () => true],
    httpVsAutocannon: ['≥ 0.8', (v) => v >= 0.8],
    undiciVsAutocannon: ['reported', () => true],
    walk10kMs: ['reported', () => true],
    walk100kMs: ['≤ 5000', (v) => v <= 5000],
    walk100kRssMb: ['≤ 200', (v) => v <= 200],
    refServerVsNodeHttp: ['≥ 0.5', (v) => v >= 0.5],
    requestsPerRun: ['≤ 900', (v) => v <= 900],
    // Twice as fast as the slowest such run when issue 29 was filed (942 s).
    limitedRunMs: ['≤ 471000', (v) => v <= 471_000],
    limitedRunRequests: ['reported', () => true],
    testSuiteMs: ['≤ 90000', (v) => v <= 90_000],
    testSuitePassed: ['1 (passed)', (v) => v === 1],
  };
  /** How to measure what this bench did not (each takes minutes). */
  const optIn: Partial<Record<keyof typeof targets, string>> = { limitedRunMs: '--limited', testSuiteMs: '--suite' };
  const machine = { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, memoryGb: round(totalmem() / 2 ** 30, 1), node: process.version, platform: process.platform };
  const detail = {
    fullRunEngineMs: round(run.engineMs),
    fullRunChecks: run.checks,
    nodeStartMs: round(checks.nodeStartMs),
    faultMatrixFaults: matrix.faults,
    harnessRps: round(http.harness),
    undiciRps: round(http.undici),
    autocannonRps: round(http.autocannon),
    referenceRps: round(server.reference),
    nodeHttpRps: round(server.nodeHttp),
    walk10kRssMb: round(walk10k.peakRssMb),
  };
  await mkdir(join(root, 'reports'), { recursive: true });
  await writeFile(join(root, 'reports', 'bench.json'), `${JSON.stringify({ ...figures, detail, requestsPerCheck: run.requestsPerCheck, machine, measuredAt: new Date().toISOString() }, null, 2)}\n`);

  log('');
  log(`${'figure'.padEnd(22)}${'value'.padStart(10)}  ${'target'.padEnd(10)} met`);
  for (const [key, [target, met]] of Object.entries(targets) as [keyof typeof targets, (typeof targets)[keyof typeof targets]][]) {
    const value = (figures as Partial<Record<keyof typeof targets, number>>)[key];
    if (value === undefined && optIn[key] === undefined) continue;
    if (value === undefined) log(`${key.padEnd(22)}${'—'.padStart(10)}  ${target.padEnd(10)} not measured: npm run bench -- ${optIn[key]}`);
    else log(`${key.padEnd(22)}${String(value).padStart(10)}  ${target.padEnd(10)} ${met(value) ? 'yes' : 'NO'}`);
  }
  log('');
  const heaviest = Object.entries(run.requestsPerCheck).slice(0, 5).map(([name, n]) => `${name} ${n}`);
  log(`requests per run: ${figures.requestsPerRun}; the most: ${heaviest.join(', ')} (every check's in bench.json)`);
  log(`full run: runChecks ${detail.fullRunEngineMs} ms of ${figures.fullRunMs} ms (${detail.fullRunChecks} checks, seed ${runSeed}); bare node start ${detail.nodeStartMs} ms`);
  log(`harness ${detail.harnessRps} req/s, bare undici ${detail.undiciRps}, autocannon ${detail.autocannonRps}; reference ${detail.referenceRps} vs node:http ${detail.nodeHttpRps}`);
  log(`machine: ${machine.cores} × ${machine.cpu}, ${machine.memoryGb} GiB, Node ${machine.node}`);
  log(`written: reports/bench.json (bench took ${round((performance.now() - started) / 1000, 1)} s)`);
}

await main();
