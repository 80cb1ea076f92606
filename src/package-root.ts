import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RestprobeError } from './errors.js';

/**
 * The package root: the nearest directory above this module that holds `package.json`.
 * Works from TS sources and from `dist/` (tsc output, which does not copy JSON files)
 * alike: the config schema, the version and the bench all find their files through it.
 *
 * @example
 * ```ts
 * packageRoot(); // '/home/me/project/node_modules/restprobe'
 * ```
 */
export function packageRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) {
      throw new RestprobeError('ERR_HARNESS', `no package.json above ${from}: cannot locate restprobe's files`);
    }
  }
}
