import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rawConfigSource, type SchemaNode } from './raw-config-codegen.js';
import { configSchemaPath, packageRoot } from './schema.js';

describe('RawConfig', () => {
  it('is the type the schema gives (regenerate with: npm run config:generate)', () => {
    const schema = JSON.parse(readFileSync(configSchemaPath(), 'utf8')) as SchemaNode;
    expect(readFileSync(join(packageRoot(), 'src', 'config', 'raw-config.generated.ts'), 'utf8')).toBe(rawConfigSource(schema));
  });

  it('reads a oneOf of required properties as a union of objects, each without the others\' properties', () => {
    const source = rawConfigSource({
      type: 'object',
      properties: { key: { type: 'object', properties: { header: { type: 'string' }, value: { type: 'string' }, fromOAuth: { const: true } }, oneOf: [{ required: ['value'] }, { required: ['fromOAuth'] }] } },
    });
    expect(source.replace(/\s+/g, ' ')).toContain('readonly key?: { readonly header?: string; readonly value: string; } | { readonly header?: string; readonly fromOAuth: true; };');
  });

  it('puts a union in parentheses before [], an object of unions not', () => {
    const source = rawConfigSource({
      type: 'object',
      properties: {
        either: { type: 'array', items: { oneOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'string' }] } },
        inside: { type: 'array', items: { type: 'object', properties: { b: { enum: ['x', 'y'] } } } },
      },
    }).replace(/\s+/g, ' ');
    expect(source).toContain('readonly either?: readonly ({ readonly a?: string; } | string)[];');
    expect(source).toContain('readonly inside?: readonly { readonly b?: "x" | "y"; }[];');
  });

  it('refuses a schema node it cannot type, saying what it found', () => {
    expect(() => rawConfigSource({ type: 'object', properties: { n: { type: 'null' } } })).toThrow('found a node of type "null"');
  });
});
