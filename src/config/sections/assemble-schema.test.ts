import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchemaPath } from '../schema.js';
import { assembleConfigSchema, configSections, schemaText } from './assemble-schema.js';

describe('the shipped config schema', () => {
  it('is what the sections\' parts give (regenerate with: npm run config:generate)', () => {
    expect(readFileSync(configSchemaPath(), 'utf8')).toBe(schemaText(assembleConfigSchema()));
  });

  it('refuses two parts that set one place differently', async () => {
    const root = await mkdtemp(join(tmpdir(), 'restprobe-schema-'));
    try {
      const dir = join(root, 'src', 'config', 'sections');
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'root.schema.json'), JSON.stringify({ properties: { baseUrl: { type: 'string' } } }));
      for (const section of configSections) {
        await mkdir(join(dir, section));
        await writeFile(join(dir, section, 'schema.json'), JSON.stringify(section === 'auth' ? { properties: { baseUrl: { type: 'integer' } } } : {}));
      }
      expect(() => assembleConfigSchema(root)).toThrow('config schema parts disagree at #(auth)/properties/baseUrl/type: found "integer", expected "string"');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
