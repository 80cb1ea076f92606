/**
 * Making the report directory without `mkdir -p`: Node's recursive mkdir never returns
 * for a path under /proc (it keeps retrying a parent the kernel will not create), so a
 * bad --report-dir hung the run. Each missing part is made on its own, from the nearest
 * existing ancestor, which must be a writable directory: any refusal is an error at once.
 */
import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/** An error with a filesystem code, as Node's own are. */
function fsError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

/**
 * Makes `dir` and its missing parents, one at a time; throws with the code of the first
 * refusal (ENOTDIR, EACCES, ENOENT …), after at most one mkdir per missing part.
 *
 * @example
 * ```ts
 * await makeDir('reports/2025-01-02'); // made, with reports/ when missing
 * await makeDir('/proc/nope');         // throws ENOENT at once
 * ```
 */
export async function makeDir(dir: string): Promise<void> {
  const missing: string[] = [];
  let at = resolve(dir);
  for (;;) {
    const found = await stat(at).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    if (found !== undefined) {
      if (!found.isDirectory()) throw fsError('ENOTDIR', `${at} is not a directory`);
      break;
    }
    missing.unshift(at);
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  if (missing.length === 0) return;
  await access(at, constants.W_OK | constants.X_OK);
  for (const part of missing) {
    await mkdir(part).catch(async (err: NodeJS.ErrnoException) => {
      // Made meanwhile by another process (two shards starting together): as good as made here.
      if (err.code !== 'EEXIST' || !(await stat(part)).isDirectory()) throw err;
    });
  }
}
