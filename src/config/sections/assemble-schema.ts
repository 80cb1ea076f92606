/**
 * The shipped config schema (`fixtures/schema/restprobe.config.schema.json`, one file: editors
 * read it through `$schema`) assembled from its parts: the root's, then each section's
 * `schema.json` beside its loader, profile type and needs. `npm run config:generate` writes it;
 * a test fails when the committed file differs from what the parts give.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RestprobeError } from '../../errors.js';
import { packageRoot } from '../../package-root.js';

/** The sections, in the order their parts are merged (and editors list their properties). */
export const configSections = ['target', 'auth', 'oauth', 'version', 'collections', 'run', 'rate-limit', 'webhooks'] as const;

/** A config section: a folder of `src/config/sections/`. */
export type ConfigSection = (typeof configSections)[number];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (v: Json | undefined): v is { [key: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `part` merged into `into`: objects member by member, anything else only where it is new or
 * the same, so two sections can never both define one place of the schema.
 */
function merge(into: { [key: string]: Json }, part: { [key: string]: Json }, where: string): void {
  for (const [key, value] of Object.entries(part)) {
    const here = into[key];
    if (here === undefined) into[key] = value;
    else if (isObject(here) && isObject(value)) merge(here, value, `${where}/${key}`);
    else if (JSON.stringify(here) !== JSON.stringify(value)) throw new RestprobeError('ERR_HARNESS', `config schema parts disagree at ${where}/${key}: found ${JSON.stringify(value)}, expected ${JSON.stringify(here)} (set by an earlier part)`);
  }
}

function readPart(path: string): { [key: string]: Json } {
  return JSON.parse(readFileSync(path, 'utf8')) as { [key: string]: Json };
}

/**
 * The whole config schema, from the root part and every section's.
 *
 * @example
 * ```ts
 * const schema = assembleConfigSchema();
 * Object.keys(schema.properties); // ['$schema', 'baseUrl', 'plainHttpUrl', 'nodes', …]
 * ```
 */
export function assembleConfigSchema(root: string = packageRoot()): { [key: string]: Json } {
  const dir = join(root, 'src', 'config', 'sections');
  const schema = readPart(join(dir, 'root.schema.json'));
  for (const section of configSections) merge(schema, readPart(join(dir, section, 'schema.json')), `#(${section})`);
  return schema;
}

/** The schema file's text as committed: two-space JSON and a final newline. */
export const schemaText = (schema: unknown): string => `${JSON.stringify(schema, null, 2)}\n`;
