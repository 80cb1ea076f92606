#!/usr/bin/env node
// Part of `npm run build`: writes what `restprobe checks` and `restprobe checks --json` print
// (dist/catalogue-listing.json), so listing the catalogue loads no check module: about 0.13 s
// of a 0.3 s command was loading the catalogue's 140 modules to read their ids and rules.
// The listing is made from the built catalogue itself; a test checks it matches.
// With --remove (the build's first step): removes it, so a build that stops before its end
// (a type error still emits the new modules) leaves none, and the command makes the listing
// from the catalogue, never from an older build.
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// The path src/cli/catalogue-listing.ts reads (before tsc has run, dist/ may hold nothing to import it from).
const path = join(root, 'dist', 'catalogue-listing.json');
if (process.argv.includes('--remove')) {
  rmSync(path, { force: true });
} else {
  const { listing } = await import('../dist/src/cli/checks-command.js');
  writeFileSync(path, `${JSON.stringify(listing())}\n`);
}
