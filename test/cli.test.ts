/**
 * The CLI as a user runs it: the built `bin/restprobe.js` in a child process against the
 * reference server. `npm test` builds first.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../reference-server/src/index.js';
import { referenceConfig, repoRoot } from './support/target.js';
import { startRecordingProxy } from './support/recording-proxy.js';
import { reportValidator } from '../src/report/read.js';
import { refusedPort } from './support/refused-port.js';

const bin = join(repoRoot, 'bin', 'restprobe.js');

interface Ran { code: number; stdout: string; stderr: string }

function restprobe(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env: { ...process.env, NO_COLOR: '1', ...env }, cwd: repoRoot, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

async function reportFiles(dir: string): Promise<string> {
  const names = await readdir(dir);
  return (await Promise.all(names.map((n) => readFile(join(dir, n), 'utf8')))).join('\n');
}

let clean: ReferenceServer;
beforeAll(async () => {
  clean = await startReferenceServer({ port: 0, nodes: 2 });
});
afterAll(async () => clean.close());

describe('restprobe run', () => {
  it('passes the clean reference server, writes the reports, and leaks no secret', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-'));
    const ran = await restprobe(['run', clean.url, '-c', referenceConfig, '--report-dir', dir], clean.secrets);
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    const report = JSON.parse(await readFile(join(dir, 'restprobe-report.json'), 'utf8'));
    expect(report).toMatchObject({ schemaVersion: 7, tool: { name: 'restprobe' }, target: { baseUrl: clean.url } });
    // The documented report schema holds a whole run's report.
    const validate = reportValidator();
    expect(validate(report), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    for (const key of ['startedAt', 'durationMs', 'seed', 'summary', 'checks']) expect(report).toHaveProperty(key);
    const passing = report.checks.filter((c: { status: string; section: string }) => c.status === 'pass' && ['END', 'ERR'].includes(c.section));
    expect(passing.length).toBeGreaterThanOrEqual(15);
    expect(Object.keys(report.checks[0]).sort()).toEqual(expect.arrayContaining(['id', 'section', 'title', 'severity', 'status', 'message', 'durationMs', 'evidence']));
    // The reports, and the ledger of what the run created (all of it deleted: `restprobe cleanup` would find nothing).
    expect((await readdir(dir)).sort()).toEqual(['restprobe-junit.xml', 'restprobe-ledger.jsonl', 'restprobe-report.html', 'restprobe-report.json', 'restprobe-report.md']);
    expect(await reportFiles(dir)).not.toContain(clean.secrets.RESTPROBE_API_KEY);
    expect(ran.stdout).not.toContain(clean.secrets.RESTPROBE_API_KEY);
  });

  it('the same seed twice gives the same check order and the same verdicts in restprobe-report.json', async () => {
    const once = await mkdtemp(join(tmpdir(), 'restprobe-'));
    const twice = await mkdtemp(join(tmpdir(), 'restprobe-'));
    // A fault gives the verdicts something to disagree on: failures, blocked checks, passes.
    const faulty = await startReferenceServer({ port: 0, faults: ['etag-missing'] });
    try {
      for (const dir of [once, twice]) await restprobe(['run', faulty.url, '-c', referenceConfig, '--report-dir', dir, '--seed', '7', '--format', 'json'], faulty.secrets);
      const read = async (dir: string) => JSON.parse(await readFile(join(dir, 'restprobe-report.json'), 'utf8'));
      const [a, b] = [await read(once), await read(twice)];
      expect(a.seed).toBe(7);
      expect(b.runOrder).toEqual(a.runOrder);
      expect(a.runOrder).toHaveLength(a.checks.length);
      type Checks = { checks: { id: string; status: string; errorCode?: string; message: string }[] };
      // A rate-limit check that could not tell in time (its quota came back between requests on a loaded
      // machine) skips saying so: the seed fixes the order and the cases, not the machine's pace.
      const paced = new Set([a, b].flatMap((r: Checks) => r.checks.filter((c) => c.status === 'skip' && /quota came back in between|too slow to tell/.test(c.message)).map((c) => c.id)));
      const verdicts = (r: Checks) => r.checks.filter((c) => !paced.has(c.id)).map((c) => [c.id, c.status, c.errorCode ?? '']);
      expect(verdicts(b)).toEqual(verdicts(a));
      expect(paced.size, 'the checks left out').toBeLessThanOrEqual(2);
      expect(a.rootCauses).toContainEqual(expect.objectContaining({ cause: 'END-etag-present failed' }));
    } finally {
      await faulty.close();
    }
  });

  it('exits 1 on a fault, marks the check it names fail, with exchanges and a curl that names the secret by its variable', async () => {
    const faulty = await startReferenceServer({ port: 0, faults: ['errors-as-plain-json'] });
    try {
      const dir = await mkdtemp(join(tmpdir(), 'restprobe-'));
      const ran = await restprobe(['run', faulty.url, '-c', referenceConfig, '--report-dir', dir, '--only', 'ERR'], faulty.secrets);
      expect(ran.code).toBe(1);
      const report = JSON.parse(await readFile(join(dir, 'restprobe-report.json'), 'utf8'));
      const check = report.checks.find((c: { id: string }) => c.id === 'ERR-problem-json-content-type');
      expect(check.status).toBe('fail');
      expect(check.evidence.exchanges.length).toBeGreaterThan(0);
      expect(check.evidence.exchanges.map((x: { curl: string }) => x.curl).join('\n')).toContain('$RESTPROBE_API_KEY');
      expect(report.checks.every((c: { section: string }) => c.section === 'ERR')).toBe(true);
      expect(await reportFiles(dir)).not.toContain(faulty.secrets.RESTPROBE_API_KEY);
    } finally {
      await faulty.close();
    }
  });

  it('exits 3 with one clear line when nothing listens', async () => {
    const port = refusedPort;
    const ran = await restprobe(['run', `http://127.0.0.1:${port}`, '--report-dir', await mkdtemp(join(tmpdir(), 'restprobe-'))]);
    expect(ran.code).toBe(3);
    expect(ran.stderr.trim().split('\n')).toHaveLength(1);
    expect(ran.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+.*ECONNREFUSED/);
  });

  it('exits 2 naming baseUrl for {"baseUrl": 42}, without a stack trace', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-'));
    const config = join(dir, 'bad.json');
    await writeFile(config, '{"baseUrl": 42}');
    const ran = await restprobe(['run', '-c', config]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('baseUrl');
    expect(ran.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 when a secret\'s environment variable is missing', async () => {
    const ran = await restprobe(['run', clean.url, '-c', referenceConfig], { RESTPROBE_API_KEY: '' });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('RESTPROBE_API_KEY');
  });

  it('selects by check id across suite files: --only one id, --skip another', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-'));
    const only = await restprobe(['run', clean.url, '-c', referenceConfig, '--report-dir', dir, '--only', 'ERR-unknown-path-404,END-get-item-200'], clean.secrets);
    expect(only.code).toBe(0);
    const ran = JSON.parse(await readFile(join(dir, 'restprobe-report.json'), 'utf8')).checks.map((c: { id: string }) => c.id);
    // END-get-item-200 once per writable collection.
    expect(ran.sort()).toEqual(['END-get-item-200', 'END-get-item-200', 'ERR-unknown-path-404']);
    const skip = await restprobe(['run', clean.url, '-c', referenceConfig, '--report-dir', dir, '--skip', 'ERR-bad-input-no-5xx', '--node', clean.urls[1] ?? clean.url], clean.secrets);
    expect(skip.code).toBe(0);
    const report = JSON.parse(await readFile(join(dir, 'restprobe-report.json'), 'utf8'));
    // restprobe run runs every check but the receiver-mode ones.
    const checks = (JSON.parse((await restprobe(['checks', '--json'])).stdout) as { mode: string }[]).filter((c) => c.mode === 'run');
    expect(report.checks.map((c: { id: string }) => c.id)).not.toContain('ERR-bad-input-no-5xx');
    expect(new Set(report.checks.map((c: { id: string }) => c.id)).size).toBe(checks.length - 1);
  });

  it('exits 2 with one clear line when the target refuses the credentials', async () => {
    const ran = await restprobe(['run', clean.url, '-c', referenceConfig], { RESTPROBE_API_KEY: 'not-the-key' });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/refused the configured credentials.*401.*\$RESTPROBE_API_KEY/);
    expect(ran.stderr).not.toContain('not-the-key');
  });

  it('exits 2 for an unknown --only selector', async () => {
    const ran = await restprobe(['run', clean.url, '--only', 'ERR-no-such-check']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('ERR-no-such-check');
  });

  it('with no config runs what needs none and skips the rest, naming the key that enables each', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-'));
    const ran = await restprobe(['run', clean.url, '--report-dir', dir]);
    const report = JSON.parse(await readFile(join(dir, 'restprobe-report.json'), 'utf8'));
    const skipped = report.checks.filter((c: { status: string }) => c.status === 'skip');
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.every((c: { configKey?: string }) => typeof c.configKey === 'string' && c.configKey.length > 0)).toBe(true);
    expect(report.checks.find((c: { id: string }) => c.id === 'ERR-unknown-path-404').status).toBe('pass');
    expect(ran.code).toBe(0);
  });
});

describe('restprobe run, interrupted', () => {
  it('on SIGTERM stops new checks, lets running ones clean up, writes the reports, and exits 130', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-'));
    // Many property runs keep the run busy long after the first check has reported.
    const config = join(dir, 'long.json');
    await writeFile(config, JSON.stringify({ ...JSON.parse(await readFile(referenceConfig, 'utf8')), $schema: undefined, properties: { numRuns: 30 } }));
    const child = spawn(process.execPath, [bin, 'run', clean.url, '-c', config, '--report-dir', dir], { cwd: repoRoot, env: { ...process.env, ...clean.secrets, NO_COLOR: '1' } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (/^✔ pass/m.test(out) && !child.killed) child.kill('SIGTERM');
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(out).toContain('interrupted');
    expect(code).toBe(130);
    const report = JSON.parse(await readFile(join(dir, 'restprobe-report.json'), 'utf8'));
    expect(report.checks.length).toBeGreaterThan(0);
    const headers = { 'x-api-key': clean.secrets.RESTPROBE_API_KEY };
    for (const path of ['/v2/projects', '/v2/members']) {
      const page = (await (await fetch(`${clean.url}${path}?limit=20`, { headers })).json()) as { data: unknown[] };
      expect(page.data, path).toEqual([]);
    }
  });
});

describe('restprobe checks and serve', () => {
  it('a second SIGTERM stops the running checks at once: they still delete what they created, and the reports say they were interrupted', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-'));
    // A slow backend: items are created at once, but every GET of one takes 30 s.
    const slow = await startRecordingProxy(clean.url, { delayMs: (req) => (req.method === 'GET' && /^\/v2\/(projects|members)\/[^/?]+/.test(req.url ?? '') ? 30_000 : 0) });
    try {
      const child = spawn(process.execPath, [bin, 'run', slow.url, '-c', referenceConfig, '--report-dir', dir, '--only', 'END-put-replaces,END-etag-stable,END-if-match-412'], { cwd: repoRoot, env: { ...process.env, ...clean.secrets, NO_COLOR: '1' } });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      // Once every check holds an item and waits on a GET, stop twice.
      // Three checks on two collections: four instances in flight (http.concurrency), two never started.
      while (slow.requests.filter((r) => r.method === 'POST').length < 4) await new Promise((r) => setTimeout(r, 20));
      child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 100));
      child.kill('SIGTERM');
      const started = performance.now();
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(out).toContain('stopping running checks');
      expect(code).toBe(130);
      const report = JSON.parse(await readFile(join(dir, 'restprobe-report.json'), 'utf8'));
      expect(report.checks.map((c: { errorCode?: string }) => c.errorCode)).toEqual(Array(4).fill('ERR_INTERRUPTED'));
      expect(report.leftovers).toEqual([]);
      const headers = { 'x-api-key': clean.secrets.RESTPROBE_API_KEY };
      const page = (await (await fetch(`${clean.url}/v2/projects?limit=20`, { headers })).json()) as { data: unknown[] };
      expect(page.data).toEqual([]);
    } finally {
      await slow.close();
    }
  });

  it('checks --json prints the catalogue', async () => {
    const ran = await restprobe(['checks', '--json']);
    const entries = JSON.parse(ran.stdout);
    expect(entries.length).toBeGreaterThanOrEqual(15);
    for (const e of entries) expect(Object.keys(e).sort()).toEqual(['assumes', 'configKeys', 'dependsOn', 'id', 'mode', 'needs', 'rule', 'schedule', 'section', 'severity', 'title', 'uses']);
    // Each check lists the real keys that enable it, not a vague "needs write".
    const byId = Object.fromEntries(entries.map((e: { id: string }) => [e.id, e]));
    expect(byId['CON-etag-same-across-nodes'].configKeys).toEqual(expect.arrayContaining(['nodes', 'collections[].create.body']));
    expect(byId['END-pagination-terminates'].configKeys).toContain('collections[].mark');
    expect(byId['ERR-unknown-path-404'].configKeys).toEqual([]);
    expect(byId['ERR-bad-input-no-5xx'].schedule).toBe('last');
  });

  it('checks prints the catalogue as it is: the listing the build wrote is the one the catalogue makes', async () => {
    const { catalogueEntries, listedChecks, renderCatalogueText } = await import('../src/cli/checks-command.js');
    const [json, text] = await Promise.all([restprobe(['checks', '--json']), restprobe(['checks'])]);
    expect(JSON.parse(json.stdout)).toEqual(catalogueEntries(listedChecks));
    expect(text.stdout).toBe(`${renderCatalogueText(listedChecks)}\n`);
  });

  it('serve --list-faults --json prints the fault catalogue', async () => {
    const ran = await restprobe(['serve', '--list-faults', '--json']);
    const faults = JSON.parse(ran.stdout);
    expect(faults.length).toBeGreaterThan(0);
    for (const f of faults) expect(Object.keys(f).sort()).toEqual(['description', 'detects', 'name']);
  });

  it('serve prints its URL and an export line per secret, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], { cwd: repoRoot });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('RESTPROBE_BASE_URL')) resolve();
      });
      child.on('exit', () => reject(new Error(`serve exited early: ${out}`)));
    });
    expect(out).toMatch(/^export RESTPROBE_API_KEY=\S{20,}$/m);
    expect(out).toMatch(/^export RESTPROBE_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/m);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('--help names only faults and checks that exist', async () => {
    const help = (await Promise.all([['--help'], ['run', '--help'], ['serve', '--help'], ['checks', '--help']].map((a) => restprobe(a)))).map((r) => r.stdout).join('\n');
    const faults = JSON.parse((await restprobe(['serve', '--list-faults', '--json'])).stdout).map((f: { name: string }) => f.name);
    const checks = JSON.parse((await restprobe(['checks', '--json'])).stdout).map((c: { id: string }) => c.id);
    for (const [, name] of help.matchAll(/--fault ([a-z0-9-]+)/g)) expect(faults).toContain(name);
    for (const [id] of help.matchAll(/\b(?:CON|RES|STA|END|AUT|EVT|ERR|LIM|VER)-[a-z0-9-]+/g)) expect(checks).toContain(id);
  });

  it('serve refuses an unknown fault with exit 2', async () => {
    const ran = await restprobe(['serve', '--port', '0', '--fault', 'no-such-fault']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('no-such-fault');
  });
});

