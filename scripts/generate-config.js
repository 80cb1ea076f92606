#!/usr/bin/env node
// `npm run config:generate`: writes what is generated from the config sections' schema parts
// (src/config/sections/*/schema.json): the shipped schema, fixtures/schema/restprobe.config.schema.json,
// then the RawConfig type from it, src/config/raw-config.generated.ts. Tests fail while either is stale.
// Runs on the compiled sources (dist/), which `npm run config:generate` builds first.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assembleConfigSchema, schemaText } from '../dist/src/config/sections/assemble-schema.js';
import { rawConfigSource } from '../dist/src/config/raw-config-codegen.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const schemaFile = join(root, 'fixtures', 'schema', 'restprobe.config.schema.json');
writeFileSync(schemaFile, schemaText(assembleConfigSchema(root)));
writeFileSync(join(root, 'src', 'config', 'raw-config.generated.ts'), rawConfigSource(JSON.parse(readFileSync(schemaFile, 'utf8'))));
