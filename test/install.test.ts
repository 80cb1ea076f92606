/**
 * restprobe as a team installs it (issue 27): packed into a tarball, and from a git URL,
 * each into an empty project of its own, then `npx restprobe --version` and a short run
 * against the reference server. Nothing is fetched but from the npm registry, and what
 * `npm ci` already cached is preferred. `npm test` builds first, so the tarball holds
 * the current `dist/`.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../reference-server/src/index.js';
import { repoRoot } from './support/target.js';

interface Ran { code: number; stdout: string; stderr: string }

/** A command in `cwd`, as a shell would run it, with npm's own noise left out. */
function sh(cwd: string, command: string, args: string[], env: Record<string, string> = {}, timeout = 240_000): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: { ...process.env, NO_COLOR: '1', npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false', ...env }, timeout, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

/** An empty project, as a team's API repository starts: a package.json and nothing else. */
async function emptyProject(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'restprobe-team-'));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'team-api', version: '1.0.0', private: true }));
  return dir;
}

const version = (JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ port: 0 });
});
afterAll(async () => server.close());

/** `npx restprobe --version`, then a short run with the installed package's own reference config. */
async function expectItRuns(project: string): Promise<void> {
  const v = await sh(project, 'npx', ['--no-install', 'restprobe', '--version']);
  expect(v, v.stderr).toMatchObject({ code: 0 });
  expect(v.stdout.trim()).toBe(version);
  const reports = join(project, 'reports');
  const config = join(project, 'node_modules', 'restprobe', 'fixtures', 'reference.config.json');
  const ran = await sh(project, 'npx', ['--no-install', 'restprobe', 'run', server.url, '-c', config, '--only', 'ERR-unknown-path-404,END-get-collection-200', '--format', 'json', '--report-dir', reports], { ...server.secrets }, 60_000);
  expect(ran.code, `${ran.stdout}\n${ran.stderr}`).toBe(0);
  const report = JSON.parse(await readFile(join(reports, 'restprobe-report.json'), 'utf8')) as { checks: { id: string; status: string }[] };
  // END-get-collection-200 runs once per configured collection.
  expect(new Set(report.checks.map((c) => c.id))).toEqual(new Set(['END-get-collection-200', 'ERR-unknown-path-404']));
  expect(report.checks.filter((c) => c.status !== 'pass')).toEqual([]);
}

describe('installing restprobe into a team\'s repository', () => {
  it('from a packed tarball (npm pack, then npm install ./restprobe-<version>.tgz)', async () => {
    const out = await mkdtemp(join(tmpdir(), 'restprobe-pack-'));
    // dist/ is built by `npm test`; packing again would only rebuild it.
    const packed = await sh(repoRoot, 'npm', ['pack', '--ignore-scripts', '--pack-destination', out]);
    expect(packed.code, packed.stderr).toBe(0);
    const tarball = join(out, `restprobe-${version}.tgz`);
    const project = await emptyProject();
    const installed = await sh(project, 'npm', ['install', '--prefer-offline', tarball]);
    expect(installed.code, installed.stderr).toBe(0);
    await expectItRuns(project);
  }, 300_000);

  it('from a git URL (npm clones it, installs its dev dependencies, builds it, and installs what it packs)', async () => {
    // The repository as it was committed: a git URL never sees uncommitted work.
    const project = await emptyProject();
    await mkdir(join(project, 'node_modules'), { recursive: true });
    const installed = await sh(project, 'npm', ['install', '--prefer-offline', `git+file://${repoRoot}`], {}, 280_000);
    expect(installed.code, installed.stderr).toBe(0);
    await expectItRuns(project);
  }, 300_000);
});
