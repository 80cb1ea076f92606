/**
 * `npm run bench`: how fast restprobe is, measured in one run so ratios hold on a noisy
 * machine. Prints a table and writes reports/bench.json. Not a test: nothing here fails
 * on a slow machine; the figures are compared with their targets in the output.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, totalmem, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadProfile } from '../src/config/load.js';
import { executeCheck } from '../src/engine/execute.js';
import { HttpClient } from '../src/http/client.js';
import type { TargetProfile } from '../src/model/profile.js';
import { faultCatalogue, startReferenceServer } from '../reference-server/src/index.js';
import { catalogue } from '../suites/catalogue.js';
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

async function profileFor(url: string, apiKey: string, extra: object = {}): Promise<TargetProfile> {
  const dir = await mkdtemp(join(tmpdir(), 'restprobe-bench-'));
  const config = join(dir, 'config.json');
  const base = JSON.parse(await readFile(referenceConfig, 'utf8')) as Record<string, unknown>;
  await writeFile(config, JSON.stringify({ ...base, ...extra }));
  return loadProfile({ configPath: config, baseUrl: url, env: { RESTPROBE_API_KEY: apiKey } });
}

/** CLI start to reports written, against a reference server in another process. */
async function fullRun(): Promise<{ fullRunMs: number; requestsPerRun: number }> {
  const ref = await startFixture('reference');
  try {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-bench-'));
    const started = performance.now();
    const code = await new Promise<number | null>((resolve) => {
      spawn(process.execPath, [join(root, 'bin', 'restprobe.js'), 'run', ref.url, '-c', referenceConfig, '--report-dir', dir], {
        env: { ...process.env, RESTPROBE_API_KEY: ref.apiKey },
        stdio: 'ignore',
      }).once('exit', resolve);
    });
    const fullRunMs = performance.now() - started;
    if (code !== 0) throw new Error(`the full run exited ${code}`);
    const report = JSON.parse(await readFile(join(dir, 'restprobe-report.json'), 'utf8')) as { checks: { evidence: { requestCount: number } }[] };
    return { fullRunMs, requestsPerRun: report.checks.reduce((n, c) => n + c.evidence.requestCount, 0) };
  } finally {
    stop(ref);
  }
}

/** Every fault run and judged, as the fault matrix test does. */
async function faultMatrix(): Promise<number> {
  const started = performance.now();
  for (const fault of faultCatalogue) {
    const server = await startReferenceServer({ port: 0, faults: [fault.name] });
    const profile = await profileFor(server.url, server.secrets.RESTPROBE_API_KEY);
    const client = new HttpClient({ timeoutMs: 5000, maxBodyBytes: profile.http.maxBodyBytes, connections: 4, maxRequests: 100_000 });
    for (const id of fault.detects) {
      const check = catalogue.find((c) => c.id === id);
      if (check) await executeCheck(check, { profile, client, seed: 1 });
    }
    await client.close();
    await server.close();
  }
  return performance.now() - started;
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
  log('restprobe bench: measuring (about a minute)…');
  const run = await fullRun();
  log(`  full run done`);
  const faultMatrixMs = await faultMatrix();
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
    faultMatrixMs: round(faultMatrixMs),
    httpVsAutocannon: round(http.harnessVsAutocannon, 2),
    undiciVsAutocannon: round(http.undiciVsAutocannon, 2),
    walk10kMs: round(walk10k.ms),
    walk100kMs: round(walk100k.ms),
    walk100kRssMb: round(walk100k.peakRssMb),
    refServerVsNodeHttp: round(server.ratio, 2),
    requestsPerRun: run.requestsPerRun,
  };
  const targets: Record<keyof typeof figures, [string, (v: number) => boolean]> = {
    fullRunMs: ['≤ 3000', (v) => v <= 3000],
    faultMatrixMs: ['≤ 60000', (v) => v <= 60_000],
    httpVsAutocannon: ['≥ 0.8', (v) => v >= 0.8],
    undiciVsAutocannon: ['reported', () => true],
    walk10kMs: ['reported', () => true],
    walk100kMs: ['≤ 5000', (v) => v <= 5000],
    walk100kRssMb: ['≤ 200', (v) => v <= 200],
    refServerVsNodeHttp: ['≥ 0.5', (v) => v >= 0.5],
    requestsPerRun: ['reported', () => true],
  };
  const machine = { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, memoryGb: round(totalmem() / 2 ** 30, 1), node: process.version, platform: process.platform };
  const detail = {
    harnessRps: round(http.harness),
    undiciRps: round(http.undici),
    autocannonRps: round(http.autocannon),
    referenceRps: round(server.reference),
    nodeHttpRps: round(server.nodeHttp),
    walk10kRssMb: round(walk10k.peakRssMb),
  };
  await mkdir(join(root, 'reports'), { recursive: true });
  await writeFile(join(root, 'reports', 'bench.json'), `${JSON.stringify({ ...figures, detail, machine, measuredAt: new Date().toISOString() }, null, 2)}\n`);

  log('');
  log(`${'figure'.padEnd(22)}${'value'.padStart(10)}  ${'target'.padEnd(10)} met`);
  for (const [key, value] of Object.entries(figures) as [keyof typeof figures, number][]) {
    const [target, met] = targets[key];
    log(`${key.padEnd(22)}${String(value).padStart(10)}  ${target.padEnd(10)} ${met(value) ? 'yes' : 'NO'}`);
  }
  log('');
  log(`harness ${detail.harnessRps} req/s, bare undici ${detail.undiciRps}, autocannon ${detail.autocannonRps}; reference ${detail.referenceRps} vs node:http ${detail.nodeHttpRps}`);
  log(`machine: ${machine.cores} × ${machine.cpu}, ${machine.memoryGb} GiB, Node ${machine.node}`);
  log(`written: reports/bench.json (bench took ${round((performance.now() - started) / 1000, 1)} s)`);
}

await main();
