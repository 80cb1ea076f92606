#!/usr/bin/env node
// Part of `npm run build`, after tsc: bundles the CLI (dist/src/cli/main.js and every module of
// this package it imports) into a few files in dist/cli/, which bin/restprobe.js runs. Node's
// ESM loader costs about half a millisecond a module, and a run loads some 220 of ours: the
// bundle takes about 0.09 s off a run's start-up. Libraries stay external (loaded from
// node_modules); our modules loaded on demand become chunks of their own. dist/src stays as tsc
// wrote it, for the vitest adapter and the tests. A dev tool: the package ships its output.
import { copyFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'cli');
rmSync(out, { recursive: true, force: true });
const bundle = await rolldown({
  input: join(root, 'dist', 'src', 'cli', 'main.js'),
  platform: 'node',
  // Bare specifiers (libraries, node: built-ins) are loaded from node_modules as they are.
  external: /^[^./]/,
  logLevel: 'warn',
});
await bundle.write({ dir: out, format: 'esm' });
await bundle.close();
// schema.ts imports the precompiled config validator beside itself, by a computed path.
copyFileSync(join(root, 'dist', 'src', 'config', 'config-validator.js'), join(out, 'config-validator.js'));
