/**
 * The check kit's large libraries, loaded on first use (ES modules required synchronously,
 * as Node ≥ 20.19 allows): `restprobe checks`, and a run that reads and signs no JWT, never
 * load jose's 46 modules (about 60 ms of start-up on the 2-core machine), nor fast-check's
 * 390 KB bundle (about 40 ms) before a property runs (docs/performance.md). ajv, which the
 * layers below the kit use too, has its own loader (src/ajv-lib.ts).
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as Jose from 'jose';
import type * as FastCheck from 'fast-check';

const require = createRequire(import.meta.url);
let joseLoaded: typeof Jose | undefined;
let fastCheckLoaded: typeof FastCheck | undefined;

/**
 * @example
 * ```ts
 * const claims = jose().decodeJwt(token);
 * ```
 */
export function jose(): typeof Jose {
  joseLoaded ??= require('jose') as typeof Jose;
  return joseLoaded;
}

/**
 * fast-check's ES module build, required by its path as `import 'fast-check'` resolves it, so
 * the harness and a test that imports fast-check share one instance: the CommonJS build beside
 * it would be a second copy of the library.
 *
 * @example
 * ```ts
 * const fc = fastCheck();
 * const ids = fc.array(fc.nat(), { maxLength: 3 });
 * ```
 */
export function fastCheck(): typeof FastCheck {
  fastCheckLoaded ??= require(fileURLToPath(import.meta.resolve('fast-check'))) as typeof FastCheck;
  return fastCheckLoaded;
}
