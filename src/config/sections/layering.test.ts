import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../package-root.js';
import { configSections } from './assemble-schema.js';

const src = join(packageRoot(), 'src');
const sectionDir = (section: string): string => join(src, 'config', 'sections', section);

/** The modules `file` imports, as paths relative to `src/`. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)[^'"]*from '(\.[^']+)'/gm)].map((m) => relative(src, resolve(join(file, '..'), m[1]!)));
}

/** Model-level code (what checks import) may not reach config loading, the engine or the HTTP layer. */
const loadingCode = /^(config\/(?!sections\/[^/]+\/(profile|needs)\.js$)|check-kit\/|engine\/|http\/|cli\/|report\/)/;

describe('config sections', () => {
  it('each holds its schema part, loader, profile type and needs side by side', () => {
    const missing = configSections.flatMap((s) => ['schema.json', 'load.ts', 'profile.ts', 'needs.ts'].filter((f) => !existsSync(join(sectionDir(s), f))).map((f) => `${s}/${f}`));
    expect(missing).toEqual([]);
  });

  it('keep profile types and needs model-level: they import no loader, and nothing beyond the model', () => {
    const reaching = configSections.flatMap((s) => ['profile.ts', 'needs.ts'].flatMap((f) => importsOf(join(sectionDir(s), f)).filter((m) => loadingCode.test(m)).map((m) => `${s}/${f} imports ${m}`)));
    expect(reaching).toEqual([]);
  });

  it('finds an import of loading code where there is one', () => {
    expect(importsOf(join(sectionDir('auth'), 'load.ts')).filter((m) => loadingCode.test(m))).toContain('config/secrets.js');
  });
});
