import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configSchemaPath } from '../config/schema.js';
import { configKeys } from './config-keys.js';

interface Node {
  readonly $ref?: string;
  readonly properties?: Record<string, Node>;
  readonly items?: Node;
  readonly definitions?: Record<string, Node>;
}
const schema = JSON.parse(readFileSync(configSchemaPath(), 'utf8')) as Node;

/** Keys that name a command-line flag, not a place in the config: each is an input of the run. */
const flags = ['--baseline'];
/** Keys that name a command whose arguments are the run's input (receiver mode's receiver). */
const commands = ['webhooks check-receiver'];

/** The schema node `key` names (`collections[].create.body`), or undefined when the config has no such place. */
function nodeAt(key: string): Node | undefined {
  const deref = (n: Node | undefined): Node | undefined => (n?.$ref === undefined ? n : schema.definitions?.[n.$ref.replace('#/definitions/', '')]);
  let node: Node | undefined = schema;
  for (const segment of key.split('.')) {
    const [, name, arrays] = /^([^[]+)((?:\[\])*)$/.exec(segment) ?? [];
    node = deref(deref(node)?.properties?.[name ?? '']);
    for (let i = 0; i < (arrays ?? '').length / 2; i++) node = deref(node?.items);
  }
  return node;
}

describe('configKeys', () => {
  it('each names a place of the config schema, or one of the flags', () => {
    const nowhere = configKeys.filter((key) => !flags.includes(key) && !commands.includes(key) && nodeAt(key) === undefined);
    expect(nowhere, 'config keys the schema has no place for').toEqual([]);
  });

  it('names the flags it holds, and no flag the list above does not', () => {
    expect(configKeys.filter((key) => key.startsWith('--'))).toEqual(flags);
    expect(configKeys.filter((key) => key.includes(' '))).toEqual(commands);
  });

  it('finds a key that is not a place of the config missing', () => {
    expect(nodeAt('collections[].create.body')).toBeDefined();
    expect(nodeAt('collections[].create.bodies')).toBeUndefined();
    expect(nodeAt('collections.create.body')).toBeUndefined();
  });
});
