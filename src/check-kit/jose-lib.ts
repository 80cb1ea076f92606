/**
 * jose, loaded on first use (an ES module required synchronously, as Node ≥ 20.19 allows):
 * `restprobe checks`, and a run that reads and signs no JWT, never load its 46 modules
 * (about 60 ms of start-up on the 2-core machine, docs/performance.md).
 */
import { createRequire } from 'node:module';
import type * as Jose from 'jose';

const require = createRequire(import.meta.url);
let loaded: typeof Jose | undefined;

/**
 * @example
 * ```ts
 * const claims = jose().decodeJwt(token);
 * ```
 */
export function jose(): typeof Jose {
  loaded ??= require('jose') as typeof Jose;
  return loaded;
}
