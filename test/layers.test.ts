/**
 * The layers the architecture promises (docs/architecture.md), enforced on the import graph:
 * a module imports only from its own folder or from a lower layer, never upward or sideways
 * (one suite section does not import another; the report layer does not import the check
 * kit), type-only imports included, since a type is a dependency too; no runtime import
 * cycle; and the harness and the reference server never import each other.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './support/target.js';

/** Lowest first: a group may import its own modules and any group of a lower layer. */
const layers: readonly (readonly string[])[] = [
  ['src/errors'],
  ['src/model', 'src/package-root', 'src/ajv-lib'],
  ['src/secrets-scrub'],
  // Reading an OpenAPI document: what `init` infers from and the DOC section judges by.
  ['src/http', 'src/webhooks', 'src/document'],
  // The OAuth client: the run's own token (auth.apiKey.fromOAuth) and the checks' token requests.
  ['src/oauth'],
  // The engine runs checks; the kit is what checks are written with: neither needs the other.
  ['src/config', 'src/check-kit', 'src/engine'],
  ['src/report', 'suites/<section>'],
  ['suites/catalogue', 'src/openapi'],
  ['src/adapters', 'src/cli'],
];

/**
 * The group a source file belongs to: its folder under src/, its section under suites/, or
 * the file itself. A config section keeps its parts side by side (src/config/sections/<s>/):
 * its profile type and needs are the model's (checks use them), its loader is config's.
 */
function groupOf(file: string): string {
  if (/^src\/config\/sections\/[^/]+\/(profile|needs)\.ts$/.test(file)) return 'src/model';
  const parts = file.replace(/\.(ts|js)$/, '').split('/');
  if (parts[0] === 'suites') return parts.length > 2 ? 'suites/<section>' : `suites/${parts[1]}`;
  return `${parts[0]}/${parts[1]}`;
}

const layerOf = (group: string): number => layers.findIndex((l) => l.includes(group));

interface Import {
  readonly from: string;
  readonly to: string;
  /** `import type`, or every name imported is a type: gone at runtime. */
  readonly typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => relative(repoRoot, join(e.parentPath, e.name)));
}

/** Static imports and re-exports, and dynamic `import('…')` of relative paths. */
function importsOf(file: string): Import[] {
  const text = readFileSync(join(repoRoot, file), 'utf8');
  const out: Import[] = [];
  const add = (spec: string, typeOnly: boolean) => {
    if (spec.startsWith('.')) out.push({ from: file, to: relative(repoRoot, resolve(repoRoot, dirname(file), spec)).replace(/\.js$/, '.ts'), typeOnly });
  };
  for (const m of text.matchAll(/^(?:import|export)(\s+type)?\s*(\{[^}]*\}|[^'";]*?)\s*from\s*'([^']+)'/gm)) {
    const names = m[2]!.startsWith('{') ? m[2]!.slice(1, -1).split(',').map((n) => n.trim()).filter((n) => n !== '') : [];
    add(m[3]!, m[1] !== undefined || (names.length > 0 && names.every((n) => n.startsWith('type '))));
  }
  for (const m of text.matchAll(/^import\s+'([^']+)'/gm)) add(m[1]!, false);
  for (const m of text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) add(m[1]!, false);
  return out;
}

const harness = [...sourceFiles('src'), ...sourceFiles('suites')];
const harnessImports = harness.flatMap(importsOf);

describe('the import graph keeps its layers', () => {
  it('knows the layer of every module', () => {
    expect([...new Set(harness.map(groupOf))].filter((g) => layerOf(g) === -1)).toEqual([]);
  });

  it('has no upward or sideways import', () => {
    const wrong = harnessImports
      .filter((i) => i.to.startsWith('src/') || i.to.startsWith('suites/'))
      .filter((i) => {
        const [a, b] = [groupOf(i.from), groupOf(i.to)];
        // One section may not import another, though both are `suites/<section>`.
        const sameSection = a !== 'suites/<section>' || i.from.split('/')[1] === i.to.split('/')[1];
        return !(a === b && sameSection) && !(layerOf(b) < layerOf(a));
      })
      .map((i) => `${i.from} → ${i.to}${i.typeOnly ? ' (type)' : ''}`);
    expect(wrong).toEqual([]);
  });

  it('writes checks with the kit: a suite imports only the model, the kit and the error types', () => {
    const kitLevel = ['src/model', 'src/check-kit', 'src/errors'];
    const reaching = harnessImports
      .filter((i) => groupOf(i.from) === 'suites/<section>' && i.to.startsWith('src/') && !kitLevel.includes(groupOf(i.to)))
      .map((i) => `${i.from} → ${i.to}`);
    expect(reaching).toEqual([]);
  });

  it('keeps verdicts in the engine: the report layer imports neither the kit nor the engine', () => {
    const judging = harnessImports
      .filter((i) => groupOf(i.from) === 'src/report' && ['src/check-kit', 'src/engine'].includes(groupOf(i.to)))
      .map((i) => `${i.from} → ${i.to}`);
    expect(judging).toEqual([]);
  });

  it('has no runtime import cycle', () => {
    const edges = new Map<string, string[]>();
    for (const i of harnessImports) if (!i.typeOnly) edges.set(i.from, [...(edges.get(i.from) ?? []), i.to]);
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const next of edges.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of harness) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it('keeps the harness and the reference server apart: they meet over HTTP (only the CLI starts it, or lists its faults)', () => {
    const server = sourceFiles('reference-server/src');
    const entries = ['reference-server/src/index.ts', 'reference-server/src/faults.ts'];
    const across = [
      ...harnessImports.filter((i) => i.to.startsWith('reference-server/') && !(i.from.startsWith('src/cli/') && entries.includes(i.to))),
      ...server.flatMap(importsOf).filter((i) => !i.to.startsWith('reference-server/')),
    ].map((i) => `${i.from} → ${i.to}`);
    expect(across).toEqual([]);
  });

  it('sees every kind of import it judges (the check above cannot pass by reading nothing)', () => {
    const kinds = importsOf('src/cli/main.ts');
    expect(kinds.some((i) => i.typeOnly)).toBe(false);
    expect(kinds.some((i) => i.to === 'src/cli/checks-command.ts')).toBe(true); // a dynamic import
    expect(harnessImports.some((i) => i.typeOnly)).toBe(true);
    expect(harnessImports.length).toBeGreaterThan(500);
  });
});
