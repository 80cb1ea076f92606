/**
 * scripts/build-if-changed.js (prepare, and `npm test` before vitest): in a project of its own
 * whose `build` script writes the four outputs and counts its runs, it builds where dist/ has no
 * digest, skips where the inputs are the ones it was built from, and builds again where a
 * source changed or an output is missing; a test file, which the build does not compile, and an
 * editor's dangling lock link change nothing; `--forget` (the first step of `npm run build`)
 * removes the digest, so the next call builds.
 */
import { execFile } from 'node:child_process';
import { appendFile, copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './support/target.js';

const outputs = ['dist/cli/main.js', 'dist/catalogue-listing.json', 'dist/src/config/config-validator.js', 'dist/src/adapters/vitest.js'];

/** A project with the script, a source file, and a build that writes the outputs and appends a line to builds.log. */
async function project(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'restprobe-build-'));
  await mkdir(join(dir, 'scripts'));
  await mkdir(join(dir, 'src'));
  await copyFile(join(repoRoot, 'scripts', 'build-if-changed.js'), join(dir, 'scripts', 'build-if-changed.js'));
  const build = `const fs=require('fs');for(const f of ${JSON.stringify(outputs)}){fs.mkdirSync(require('path').dirname(f),{recursive:true});fs.writeFileSync(f,'')}fs.appendFileSync('builds.log','built\\n')`;
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'p', version: '1.0.0', private: true, scripts: { build: `node -e "${build.replace(/"/g, '\\"')}"` } }));
  await writeFile(join(dir, 'src', 'a.ts'), 'export const a = 1;\n');
  return dir;
}

function buildIfChanged(dir: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [join(dir, 'scripts', 'build-if-changed.js'), ...args], { cwd: dir, env: { ...process.env, npm_config_update_notifier: 'false' } }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)));
  });
}

const builds = async (dir: string): Promise<number> => (await readFile(join(dir, 'builds.log'), 'utf8').catch(() => '')).split('\n').filter(Boolean).length;

describe('build-if-changed', () => {
  it('builds only where dist/ was not built from the sources there are now', async () => {
    const dir = await project();
    try {
      await buildIfChanged(dir);
      expect(await builds(dir)).toBe(1);
      expect(await buildIfChanged(dir)).toMatch(/^build: dist\/ was built from these very sources: not built again/);
      expect(await builds(dir)).toBe(1);
      // A test file and a dangling link (an editor's lock) are no input.
      await writeFile(join(dir, 'src', 'a.test.ts'), 'it();\n');
      await symlink(join(dir, 'nowhere'), join(dir, 'src', '.#a.ts'));
      await buildIfChanged(dir);
      expect(await builds(dir)).toBe(1);
      await appendFile(join(dir, 'src', 'a.ts'), 'export const b = 2;\n');
      await buildIfChanged(dir);
      expect(await builds(dir)).toBe(2);
      await rm(join(dir, outputs[0]!));
      await buildIfChanged(dir);
      expect(await builds(dir)).toBe(3);
      // A build that did not come through this script (npm run build) removes the digest first (--forget): the next one builds.
      await buildIfChanged(dir, '--forget');
      expect(await builds(dir)).toBe(3);
      await buildIfChanged(dir);
      expect(await builds(dir)).toBe(4);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
