#!/usr/bin/env node
// Part of `npm run build`: compiles the config schema into a validator module ahead of time
// (ajv's standalone code), so a CLI run does not spend ~80 ms of start-up compiling it.
// The options must match src/config/schema.ts's configValidator(); a test checks that the
// precompiled validator and the runtime one agree.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const addFormats = addFormatsModule.default ?? addFormatsModule;
const schema = JSON.parse(readFileSync(join(root, 'fixtures', 'schema', 'restprobe.config.schema.json'), 'utf8'));
const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, keywords: ['x-messages', 'x-secret'], code: { source: true, esm: true } });
addFormats(ajv, ['uri']);
const out = join(root, 'dist', 'src', 'config', 'config-validator.js');
mkdirSync(dirname(out), { recursive: true });
// ajv's standalone code still reaches its runtime helpers (formats, ucs2length) through require().
const prelude = "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n";
writeFileSync(out, prelude + standaloneCode(ajv, ajv.compile(schema)).replace(/^"use strict";/, ''));
