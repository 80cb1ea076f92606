/**
 * package.json's `dependencies` are exactly what the shipped code needs: each one is
 * imported by some file that ships (the CLI, the checks, the reference server, the build
 * scripts), since every install pulls a dependency and all it depends on. A package only
 * tests or a team's own setup use (allure-vitest, which brought a bundler tool chain) is a
 * dev dependency or none of ours. And a shipped file imports only what an install brings.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './support/target.js';

/** The folders whose files are built into, or run from, the published package. */
const shippedRoots = ['src', 'bin', 'scripts', 'suites', 'reference-server/src'];

/** Source files below `dir`, tests left out: they ship compiled, but run only here. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(?:[cm]?js|ts)$/.test(e.name) && !/\.test\.ts$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

/** `from '…'`, `import '…'`, `import('…')`, `require('…')`, written at the start of a statement or after `from`. */
const specifierPattern = /(?:\bfrom\s+|^\s*import\s+|\bimport\s*\(\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/gm;

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or undefined for a path or a Node built-in. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
  return builtinModules.includes(name) ? undefined : name;
}

/** The code alone: doc comments show imports of restprobe itself that are no imports. */
const withoutComments = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** Every package a shipped file imports, with the files that import it. */
function shippedImports(): Map<string, string[]> {
  const imports = new Map<string, string[]>();
  for (const file of shippedRoots.flatMap((root) => sourceFiles(join(repoRoot, root)))) {
    for (const [, specifier = ''] of withoutComments(readFileSync(file, 'utf8')).matchAll(specifierPattern)) {
      const name = packageOf(specifier);
      if (name !== undefined) imports.set(name, [...(imports.get(name) ?? []), relative(repoRoot, file)]);
    }
  }
  return imports;
}

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
const dependencies = Object.keys(manifest['dependencies'] ?? {});

describe('production dependencies', () => {
  const imports = shippedImports();

  it('reads the imports it judges by', () => {
    // The scan works at all: packages the CLI and the reference server certainly import.
    expect(imports.get('commander')).toContain('src/cli/main.ts');
    expect(imports.get('reflect-metadata')).toContain('reference-server/src/certificates.ts');
  });

  it('are each imported by a shipped file', () => {
    expect(dependencies.filter((name) => !imports.has(name))).toEqual([]);
  });

  it('leave out allure-vitest: a team that reports through it installs it itself', () => {
    expect(dependencies).not.toContain('allure-vitest');
    expect(dependencies).toContain('allure-js-commons');
  });

  it('cover every package a shipped file imports (vitest as the optional peer of restprobe/vitest)', () => {
    const provided = new Set([...dependencies, ...Object.keys(manifest['peerDependencies'] ?? {})]);
    const missing = [...imports].filter(([name]) => !provided.has(name)).map(([name, files]) => `${name} (${files.join(', ')})`);
    expect(missing).toEqual([]);
  });
});
