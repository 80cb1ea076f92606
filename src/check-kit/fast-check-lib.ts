/**
 * fast-check, loaded on first use: `restprobe checks`, `--help` and config errors never
 * evaluate its 390 KB bundle (about 40 ms of start-up on the 2-core machine,
 * docs/performance.md). The ES module build is required by its path, as `import 'fast-check'`
 * resolves it, so the harness and a test that imports fast-check share one instance: the
 * CommonJS build beside it would be a second copy of the library.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as FastCheck from 'fast-check';

const require = createRequire(import.meta.url);
let loaded: typeof FastCheck | undefined;

/**
 * @example
 * ```ts
 * const fc = fastCheck();
 * const ids = fc.array(fc.nat(), { maxLength: 3 });
 * ```
 */
export function fastCheck(): typeof FastCheck {
  loaded ??= require(fileURLToPath(import.meta.resolve('fast-check'))) as typeof FastCheck;
  return loaded;
}
