#!/usr/bin/env node
// `npm run build`, unless dist/ was built from exactly the sources there are now. `npm ci`
// (prepare) builds, and `npm test` right after it would build the same again; a git-URL
// install runs prepare twice (npm install in its clone, then npm pack). A digest of every
// input, written beside the outputs after a build this script ran, tells. `npm run build`
// always builds, and its first step removes the digest (`--forget`): whatever that build's
// outcome, dist/ no longer is what the digest says it was built from.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', '.built-from');
// What the build reads: the compiled sources, the scripts and tools it runs, the config schema,
// and what decides the compiler and its settings.
const inputDirs = ['src', 'suites', 'reference-server/src', 'bench', 'scripts', 'tools', 'fixtures/schema'];
const inputFiles = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
// Outputs a run cannot do without: a dist/ cut short is built again.
const outputs = ['dist/cli/main.js', 'dist/catalogue-listing.json', 'dist/src/config/config-validator.js', 'dist/src/adapters/vitest.js'];

function isFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function digest() {
  const files = [
    ...inputFiles.filter((f) => existsSync(join(root, f))),
    ...inputDirs.filter((d) => existsSync(join(root, d))).flatMap((d) => readdirSync(join(root, d), { recursive: true }).map((f) => join(d, String(f)))),
  ]
    // Tests are not built (tsconfig.build.json); an editor's dangling lock link is no file.
    .filter((f) => !f.endsWith('.test.ts') && isFile(join(root, f)))
    .map((f) => relative(root, join(root, f)).split('\\').join('/'))
    .sort();
  const hash = createHash('sha256');
  for (const f of files) hash.update(`${f}\0`).update(readFileSync(join(root, f))).update('\0');
  return hash.digest('hex');
}

if (process.argv.includes('--forget')) {
  rmSync(stamp, { force: true });
  process.exit(0);
}

const now = digest();
const built = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : undefined;
if (built === now && outputs.every((f) => existsSync(join(root, f)))) {
  process.stdout.write('build: dist/ was built from these very sources: not built again (`npm run build` builds anyway)\n');
  process.exit(0);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const ran = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
if (ran.status !== 0) process.exit(ran.status ?? 1);
// Only where no input changed while it built: a file saved meanwhile may not be in dist/.
if (digest() === now) writeFileSync(stamp, `${now}\n`);
