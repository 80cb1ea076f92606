#!/usr/bin/env node
/**
 * Writes the README's figures from the catalogues (run by `npm run docs:checks`, after the
 * build): the number of checks, of receiver-mode checks and of reference faults. They are
 * never typed; test/readme.test.ts fails while they differ from the catalogues.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogue, receiverCatalogue } from '../dist/suites/catalogue.js';
import { faultCatalogue } from '../dist/reference-server/src/faults.js';

const path = join(import.meta.dirname, '..', 'README.md');
const before = readFileSync(path, 'utf8');
const after = before
  .replace(/\b\d+(\s+receiver-mode\s+checks)\b/g, `${receiverCatalogue.length}$1`)
  .replace(/\b\d+(\s+checks)\b/g, `${catalogue.length}$1`)
  .replace(/\b\d+(\s+(?:(?:named|reference)\s+)*faults)\b/g, `${faultCatalogue.length}$1`);
if (after !== before) writeFileSync(path, after);
console.log(`README.md: ${catalogue.length} checks, ${receiverCatalogue.length} receiver-mode checks, ${faultCatalogue.length} faults`);
