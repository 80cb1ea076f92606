/**
 * The config schema ships as a JSON file in the package (editors read it through
 * `$schema`); this module finds it at runtime and compiles it once per process.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { newAjv } from '../ajv-lib.js';
import { RestprobeError } from '../errors.js';
import type { RawConfig } from './raw-config.js';
import { packageRoot } from '../package-root.js';

export { packageRoot };

/** Where the schema sits inside the package. */
const schemaRelativePath = join('fixtures', 'schema', 'restprobe.config.schema.json');

/**
 * Annotation keywords of our own: `x-messages` (wording per failing keyword) and
 * `x-secret` (never echo the value). Declared so ajv's strict mode accepts them.
 */
const annotationKeywords = ['x-messages', 'x-secret'];


/**
 * Absolute path of the bundled config schema.
 *
 * @example
 * ```ts
 * configSchemaPath(); // '/…/restprobe/fixtures/schema/restprobe.config.schema.json'
 * ```
 */
export function configSchemaPath(): string {
  return join(packageRoot(), schemaRelativePath);
}

let validator: ValidateFunction<RawConfig> | undefined;

/**
 * The validator `npm run build` compiled ahead of time (scripts/compile-config-validator.js
 * writes it beside this module in dist/), else one compiled now: compiling the schema
 * costs a CLI run about 80 ms of start-up.
 *
 * @example
 * ```ts
 * const validate = await loadConfigValidator();
 * ```
 */
export async function loadConfigValidator(): Promise<ValidateFunction<RawConfig>> {
  if (validator) return validator;
  try {
    const precompiled = (await import(precompiledPath)) as { default: ValidateFunction<RawConfig> };
    validator = precompiled.default;
    return validator;
  } catch {
    return configValidator();
  }
}

/** Beside this module once built; absent when running from sources (the tests compile instead). */
const precompiledPath = './config-validator.js';

/**
 * The compiled config validator: `allErrors` so one run reports every problem, and
 * `verbose` so each error carries its schema (for `x-messages`) and the offending data.
 *
 * @example
 * ```ts
 * const validate = configValidator();
 * if (!validate(data)) console.log(validate.errors);
 * ```
 */
export function configValidator(): ValidateFunction<RawConfig> {
  if (validator) return validator;
  const path = configSchemaPath();
  let schema: unknown;
  try {
    schema = JSON.parse(readFileSync(path, 'utf8'));
  } catch (cause) {
    throw new RestprobeError('ERR_HARNESS', `cannot read the bundled config schema at ${path}`, [], { cause });
  }
  const ajv = newAjv('draft-07', { allErrors: true, verbose: true, strict: true, keywords: annotationKeywords }, ['uri']);
  validator = ajv.compile<RawConfig>(schema as object);
  return validator;
}
