#!/usr/bin/env node
// Part of `npm run build`: writes what `restprobe checks` and `restprobe checks --json` print
// (dist/catalogue-listing.json), so listing the catalogue loads no check module: about 0.13 s
// of a 0.3 s command was loading the catalogue's 140 modules to read their ids and rules.
// The listing is made from the built catalogue itself; a test checks it matches.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { listing } = await import('../dist/src/cli/checks-command.js');
const { listingPath } = await import('../dist/src/cli/catalogue-listing.js');
writeFileSync(listingPath(root), `${JSON.stringify(listing())}\n`);
