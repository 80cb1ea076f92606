import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './support/target.js';
import { refusedPort } from './support/refused-port.js';

const moduleLog = pathToFileURL(join(repoRoot, 'test', 'support', 'module-log.mjs')).href;

/** The files `node --import module-log.mjs …args` loaded, from its stderr. */
function modulesLoadedBy(args: string[], exitCode = 0): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', moduleLog, ...args], { cwd: repoRoot, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (err, _stdout, stderr) => {
      if ((err?.code ?? 0) !== exitCode) return reject(err ?? new Error(`exit 0, expected ${exitCode}`));
      resolve(stderr.split('\n').flatMap((line) => (line.startsWith('module ') ? [line.slice('module '.length)] : [])));
    });
  });
}

const fromPackage = (files: string[], name: string): string[] => files.filter((f) => f.includes(`/node_modules/${name}/`));

// `restprobe checks` and `--help` start fast because the large libraries a run needs are loaded on first use (docs/performance.md).
describe('libraries loaded on first use', () => {
  it('restprobe checks loads none of fast-check, jose and ajv', async () => {
    const files = await modulesLoadedBy([join(repoRoot, 'bin', 'restprobe.js'), 'checks', '--json']);
    expect(fromPackage(files, 'commander').length).toBeGreaterThan(0);
    expect(fromPackage(files, 'fast-check')).toEqual([]);
    expect(fromPackage(files, 'jose')).toEqual([]);
    expect(fromPackage(files, 'ajv')).toEqual([]);
    // The build wrote the listing: no check module is loaded to print it (in the bundle, the catalogue's chunk).
    expect(files.some((f) => f.endsWith('/dist/cli/main.js'))).toBe(true);
    expect(files.filter((f) => f.includes('/dist/suites/') || /\/dist\/cli\/catalogue-(?!listing-)[^/]*\.js$/.test(f))).toEqual([]);
  });

  it('a run without a document or a baseline loads no ajv compiler: the config validator is precompiled', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-lazy-'));
    const config = join(dir, 'config.json');
    await writeFile(config, JSON.stringify({ collections: [{ name: 'things', path: '/things' }] }));
    // The target refuses connections: the run ends at its health phase (exit 3), after every start-up import.
    const files = await modulesLoadedBy([join(repoRoot, 'bin', 'restprobe.js'), 'run', `http://127.0.0.1:${refusedPort}`, '-c', config, '--report-dir', dir], 3);
    expect(files.some((f) => f.endsWith('/dist/cli/config-validator.js'))).toBe(true);
    expect(fromPackage(files, 'ajv').filter((f) => !f.includes('/ajv/dist/runtime/'))).toEqual([]);
  });

  it('the first use loads the ES module build, the one a test importing fast-check gets', async () => {
    const lib = pathToFileURL(join(repoRoot, 'dist', 'src', 'check-kit', 'lazy-libraries.js')).href;
    const files = await modulesLoadedBy(['--input-type=module', '-e', `const { fastCheck } = await import(${JSON.stringify(lib)}); const fc = await import('fast-check'); if (fastCheck().nat !== fc.nat) process.exit(7);`]);
    expect(fromPackage(files, 'fast-check').filter((f) => f.includes('/cjs/'))).toEqual([]);
    expect(fromPackage(files, 'fast-check').length).toBeGreaterThan(0);
  });
});
