/**
 * Runs end honestly, however they end (issue 23): an interrupted run says so in every
 * report format and exits 130; a second or third signal still leaves the reports and the
 * list of what is left; after SIGKILL, `restprobe cleanup` deletes what the run's ledger
 * still owns and the next run says an earlier one left items; an unwritable report
 * directory is a config error before the first request. The built CLI in a child process
 * against the reference server, behind a recording proxy.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../reference-server/src/index.js';
import { readLedgerFile } from '../src/engine/ledger-file.js';
import { reportValidator } from '../src/report/read.js';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy.js';
import { referenceConfig, repoRoot, testProbeRateLimit } from './support/target.js';

const bin = join(repoRoot, 'bin', 'restprobe.js');

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ port: 0, probeRateLimit: testProbeRateLimit });
});
afterAll(async () => server.close());

/** The run's items still on the reference server (tasks go with their project). */
async function itemsOnServer(): Promise<number> {
  const headers = { 'x-api-key': server.secrets.RESTPROBE_API_KEY };
  let n = 0;
  for (const path of ['/v2/projects', '/v2/members']) n += ((await (await fetch(`${server.url}${path}?limit=20`, { headers })).json()) as { data: unknown[] }).data.length;
  return n;
}

interface Child {
  readonly child: ChildProcess;
  readonly out: () => string;
  readonly err: () => string;
  readonly exit: Promise<number | null>;
}

function spawnRestprobe(args: string[], env: Record<string, string> = {}): Child {
  const child = spawn(process.execPath, [bin, ...args], { cwd: repoRoot, env: { ...process.env, ...server.secrets, NO_COLOR: '1', ...env } });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exit };
}

function restprobe(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: repoRoot, env: { ...process.env, ...server.secrets, NO_COLOR: '1' }, timeout: 60_000 }, (e, stdout, stderr) => {
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : -1) : 0, stdout, stderr });
    });
  });
}

async function until(what: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await what())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The reference config with many property runs: the run stays busy long after its first results. */
async function longConfig(dir: string): Promise<string> {
  const config = join(dir, 'long.json');
  await writeFile(config, JSON.stringify({ ...JSON.parse(await readFile(referenceConfig, 'utf8')), $schema: undefined, properties: { numRuns: 30 } }));
  return config;
}

const exists = (path: string): Promise<boolean> => stat(path).then(() => true, () => false);

describe('an interrupted run', () => {
  it('one SIGINT at a random moment: every format says interrupted, JUnit skips the checks not run with the reason, exit 130, the last line names the mark', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-int-'));
    const summary = join(dir, 'step-summary.md');
    const after = 1 + Math.floor(Math.random() * 40);
    const run = spawnRestprobe(['run', server.url, '-c', await longConfig(dir), '--report-dir', join(dir, 'reports'), '--format', 'json,junit,md,html,allure,github'], { GITHUB_STEP_SUMMARY: summary });
    await until(() => (run.out().match(/^(✔|✘|⚠|↷|‼) /gm)?.length ?? 0) >= after);
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(130);
    const reports = join(dir, 'reports');
    const report = JSON.parse(await readFile(join(reports, 'restprobe-report.json'), 'utf8'));
    const validate = reportValidator();
    expect(validate(report), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(report.interrupted).toMatchObject({ signal: 'SIGINT', mark: expect.stringMatching(/^restprobe-[0-9a-f]{8}$/) });
    const notRun: { id: string; collection?: string }[] = report.interrupted.notRun;
    expect(notRun.length).toBeGreaterThan(0);
    expect(report.checks.length + notRun.length).toBe(report.runOrder.length);
    // Markdown, the GitHub job summary, HTML, JUnit, Allure, annotations, the terminal.
    expect(await readFile(join(reports, 'restprobe-report.md'), 'utf8')).toMatch(/^# restprobe: ⏹️ interrupted \(\d+ of \d+ checks not run\)/);
    expect(await readFile(summary, 'utf8')).toMatch(/^# restprobe: ⏹️ interrupted/);
    expect(await readFile(join(reports, 'restprobe-report.html'), 'utf8')).toContain('<title>restprobe: interrupted · ');
    const junit = await readFile(join(reports, 'restprobe-junit.xml'), 'utf8');
    expect(junit).toMatch(new RegExp(`<testsuites name="restprobe" tests="${report.runOrder.length}" `));
    expect(junit.match(/<skipped message="not run: the run was interrupted"\/>/g)).toHaveLength(notRun.length);
    const allure = join(reports, 'allure-results');
    expect(await readFile(join(allure, 'environment.properties'), 'utf8')).toMatch(/interrupted\s*=\s*SIGINT/);
    const allureResults = await Promise.all((await readdir(allure)).filter((f) => f.endsWith('-result.json')).map((f) => readFile(join(allure, f), 'utf8')));
    expect(allureResults.filter((r) => r.includes('not run: the run was interrupted'))).toHaveLength(notRun.length);
    expect(run.out()).toContain('::error title=restprobe interrupted::interrupted by SIGINT');
    expect(run.out()).toMatch(/^INTERRUPTED {2}.* · \d+ not run {2}in /m);
    const lastLine = run.err().trim().split('\n').at(-1)!;
    expect(lastLine).toMatch(new RegExp(`^restprobe: interrupted by SIGINT after \\d+ of ${report.runOrder.length} checks; .*marks starting ${report.interrupted.mark}`));
    // The running checks finished and deleted what they created.
    expect(report.leftovers).toEqual([]);
    expect(await itemsOnServer()).toBe(0);
    // An interrupted run's report is no baseline.
    const baseline = await restprobe(['run', server.url, '-c', referenceConfig, '--report-dir', join(dir, 'next'), '--only', 'ERR-unknown-path-404', '--baseline', join(reports, 'restprobe-report.json')]);
    expect(baseline.code).toBe(2);
    expect(baseline.stderr).toMatch(/--baseline .*restprobe-report\.json: the run that wrote it was interrupted by SIGINT/);
  });
});

describe('signals after the checks end', () => {
  let gateway: RecordingProxy;
  let refuseDeletes = true;
  beforeAll(async () => {
    // A gateway that refuses every DELETE: the run leaves items, and lists them. Its GETs take
    // a tenth of a second, so the run is still among its checks when the signal that follows
    // its first POST arrives, however loaded the machine (its checks send a dozen GETs after it).
    gateway = await startRecordingProxy(server.url, { intercept: (req) => (req.method === 'DELETE' && refuseDeletes ? 403 : undefined), delayMs: (req) => (req.method === 'GET' ? 100 : 0) });
  });
  afterAll(async () => gateway.close());

  /** A run through the gateway, stopped by one SIGTERM, whose GitHub job summary is a FIFO nobody reads yet: it waits there, after the report files. */
  async function heldAtTheSummary(dir: string): Promise<{ run: Child; fifo: string; reports: string }> {
    refuseDeletes = true;
    const fifo = join(dir, 'summary.fifo');
    execFileSync('mkfifo', [fifo]);
    const reports = join(dir, 'reports');
    const run = spawnRestprobe(['run', gateway.url, '-c', referenceConfig, '--report-dir', reports, '--only', 'END-get-item-200,END-etag-stable,END-if-match-412'], { GITHUB_STEP_SUMMARY: fifo });
    const posts = gateway.requests.filter((r) => r.method === 'POST').length;
    await until(() => gateway.requests.filter((r) => r.method === 'POST').length > posts);
    run.child.kill('SIGTERM');
    await until(() => exists(join(reports, 'restprobe-report.json')));
    return { run, fifo, reports };
  }

  it('a second signal while the reports are written stops nothing: the terminal summary, the job summary and the leftover list all come', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-int2-'));
    const { run, fifo, reports } = await heldAtTheSummary(dir);
    run.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    expect(run.child.exitCode).toBeNull();
    expect(run.child.signalCode).toBeNull();
    let summary = '';
    createReadStream(fifo).on('data', (d) => (summary += d.toString()));
    expect(await run.exit).toBe(130);
    expect(run.out()).toContain('the checks have ended; writing the reports');
    const report = JSON.parse(await readFile(join(reports, 'restprobe-report.json'), 'utf8'));
    expect(report.leftovers.length).toBeGreaterThan(0);
    for (const l of report.leftovers) {
      expect(l).toMatchObject({ certainty: 'certain', lastAnswer: 'DELETE answered 403' });
      expect(run.out()).toContain(`certain: ${l.url}`);
      expect(summary).toContain(l.url);
    }
    expect(summary).toMatch(/^# restprobe: ⏹️ interrupted/);
    refuseDeletes = false;
    expect((await restprobe(['cleanup', reports, '-c', referenceConfig])).code).toBe(0);
    expect(await itemsOnServer()).toBe(0);
  });

  it('a third signal quits at once, naming the ledger that lists what is left, and cleanup deletes it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-int3-'));
    const { run, fifo, reports } = await heldAtTheSummary(dir);
    // One at a time: a signal sent while the same one is pending is merged into it.
    run.child.kill('SIGTERM');
    await until(() => run.out().includes('the checks have ended'));
    run.child.kill('SIGTERM');
    await until(() => run.out().includes('quitting at once'));
    // The write it was blocked in ends (a process cannot exit while a thread waits on a FIFO); the quit went on at once all the same.
    createReadStream(fifo).resume();
    expect(await run.exit).toBe(130);
    expect(run.out()).not.toMatch(/^INTERRUPTED/m);
    expect(run.out()).toMatch(/quitting at once; what the run created and did not delete is listed in .*restprobe-ledger\.jsonl \(marks start restprobe-[0-9a-f]{8}\); restprobe cleanup .* deletes it/);
    const listed = (await readLedgerFile(join(reports, 'restprobe-ledger.jsonl'))).flatMap((r) => r.outstanding);
    expect(listed.length).toBe(await itemsOnServer());
    expect(listed.length).toBeGreaterThan(0);
    refuseDeletes = false;
    const cleaned = await restprobe(['cleanup', reports, '-c', referenceConfig]);
    expect(cleaned.code).toBe(0);
    expect(cleaned.stdout.match(/^deleted {2}/gm)).toHaveLength(listed.length);
    expect(await itemsOnServer()).toBe(0);
  });
});

describe('a killed run', () => {
  it('SIGKILL mid-way: the next run says an earlier one left items, and restprobe cleanup deletes every one of them', async () => {
    let killed = false;
    // DELETEs held a while, so the killed run holds items; after the kill none of them reaches the server.
    const gateway = await startRecordingProxy(server.url, { delayMs: (req) => (req.method === 'DELETE' ? 300 : 0), intercept: () => (killed ? 'reset' : undefined) });
    try {
      const dir = await mkdtemp(join(tmpdir(), 'restprobe-kill-'));
      const reports = join(dir, 'reports');
      const run = spawnRestprobe(['run', gateway.url, '-c', await longConfig(dir), '--report-dir', reports]);
      const posts = 10 + Math.floor(Math.random() * 60);
      await until(async () => gateway.requests.filter((r) => r.method === 'POST').length >= posts && (await itemsOnServer()) >= 3);
      run.child.kill('SIGKILL');
      killed = true;
      await run.exit;
      const left = await itemsOnServer();
      expect(left).toBeGreaterThan(0);
      killed = false;
      const ledger = await readFile(join(reports, 'restprobe-ledger.jsonl'), 'utf8');
      for (const secret of Object.values(server.secrets)) expect(ledger).not.toContain(secret);
      const next = await restprobe(['run', gateway.url, '-c', referenceConfig, '--report-dir', reports, '--only', 'ERR-unknown-path-404']);
      expect(next.stdout).toMatch(/^restprobe: an earlier run in .* \(started .*, killed before its cleanup ended, marks restprobe-[0-9a-f]{8}\) left \d+ items? on .* listed in .*restprobe-ledger\.jsonl; restprobe cleanup .* deletes them$/m);
      // The next run kept the earlier run's ledger.
      expect((await readLedgerFile(join(reports, 'restprobe-ledger.jsonl'))).flatMap((r) => r.outstanding).length).toBeGreaterThanOrEqual(left);
      const cleaned = await restprobe(['cleanup', reports, '-c', referenceConfig]);
      expect(cleaned.stderr).toBe('');
      expect(cleaned.code, cleaned.stdout).toBe(0);
      expect(cleaned.stdout).toMatch(/^restprobe cleanup: deleted \d+, \d+ already gone or never created; 0 left on the target/m);
      expect(await itemsOnServer()).toBe(0);
      // Nothing more to do: the ledger owns nothing now.
      expect((await restprobe(['cleanup', reports, '-c', referenceConfig])).stdout).toMatch(/nothing to delete/);
    } finally {
      await gateway.close();
    }
  });

  it.each(['VER-tolerant-reader', 'ERR-bad-input-no-5xx', 'EVT-event-id'])('SIGKILL while a create of %s is unanswered: the ledger has the mark it was sent with, and cleanup finds and deletes the item', async (check) => {
    // Every POST reaches the server; no create's answer in a collection comes back (a webhook subscription's does), so the run knows the item only by what it wrote ahead.
    const gateway = await startRecordingProxy(server.url, { holdAnswer: (req, status) => req.method === 'POST' && status < 300 && /\/(projects|members)$/.test(req.url ?? '') });
    try {
      const dir = await mkdtemp(join(tmpdir(), 'restprobe-kill-create-'));
      const reports = join(dir, 'reports');
      const run = spawnRestprobe(['run', gateway.url, '-c', referenceConfig, '--report-dir', reports, '--only', check]);
      await until(async () => (await itemsOnServer()) >= 1);
      run.child.kill('SIGKILL');
      await run.exit;
      const cleaned = await restprobe(['cleanup', reports, '-c', referenceConfig]);
      expect(cleaned.code).toBe(0);
      expect(cleaned.stdout).toMatch(/^restprobe cleanup: deleted [1-9]\d*, \d+ already gone or never created; 0 left on the target/m);
      expect(await itemsOnServer()).toBe(0);
      await rm(dir, { recursive: true, force: true });
    } finally {
      await gateway.close();
    }
  });
});

describe('an unwritable report directory', () => {
  it('is a config error at once, before the first request', async () => {
    const gateway = await startRecordingProxy(server.url);
    try {
      const started = performance.now();
      const ran = await restprobe(['run', gateway.url, '-c', referenceConfig, '--report-dir', '/proc/nope']);
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toMatch(/^restprobe: cannot write reports to \/proc\/nope \(E[A-Z]+\): choose another --report-dir/);
      expect(gateway.requests).toEqual([]);
    } finally {
      await gateway.close();
    }
  });
});

describe('a reader that goes away', () => {
  it('`restprobe run … | head`: the run goes on without its output, cleans up and writes every report, no stack trace', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-epipe-'));
    const reports = join(dir, 'reports');
    const run = spawnRestprobe(['run', server.url, '-c', referenceConfig, '--report-dir', reports, '--only', 'END,ERR']);
    // The reader closes after the first line, as head does.
    await until(() => run.out().includes('\n'));
    run.child.stdout!.destroy();
    const code = await run.exit;
    expect(run.err()).not.toMatch(/EPIPE|at .*\.js:\d+/);
    expect(code).toBe(0);
    const report = JSON.parse(await readFile(join(reports, 'restprobe-report.json'), 'utf8')) as { summary: { pass: number }; leftovers: unknown[] };
    expect(report.summary.pass).toBeGreaterThan(10);
    expect(report.leftovers).toEqual([]);
    expect(await itemsOnServer()).toBe(0);
    await rm(dir, { recursive: true, force: true });
  }, 120_000);
});
