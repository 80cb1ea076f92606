/**
 * ajv and ajv-formats, loaded on first use (CommonJS, required synchronously): a run
 * without a document or a baseline, and `restprobe checks`, never load their 150-odd
 * modules (about 55 ms of start-up on the 2-core machine, docs/performance.md).
 */
import { createRequire } from 'node:module';
import type { Ajv, Options } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type addFormatsModule from 'ajv-formats';

const require = createRequire(import.meta.url);

/** Which JSON Schema dialect: draft-07 (restprobe's own report schema) or 2020-12 (OpenAPI 3.1). */
type Dialect = 'draft-07' | '2020-12';

/**
 * An ajv instance for `dialect`, with `formats` (every format ajv-formats knows, by default).
 *
 * @example
 * ```ts
 * const validate = newAjv('draft-07', { allErrors: true }, ['date-time']).compile(schema);
 * ```
 */
export function newAjv(dialect: '2020-12', options: Options, formats?: readonly string[]): Ajv2020;
export function newAjv(dialect: 'draft-07', options: Options, formats?: readonly string[]): Ajv;
export function newAjv(dialect: Dialect, options: Options, formats?: readonly string[]): Ajv | Ajv2020 {
  const ajv = dialect === '2020-12' ? new (require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020(options) : new (require('ajv') as typeof import('ajv')).Ajv(options);
  const addFormats = require('ajv-formats') as typeof addFormatsModule.default;
  addFormats(ajv, formats === undefined ? undefined : ([...formats] as Parameters<typeof addFormats>[1]));
  return ajv;
}
