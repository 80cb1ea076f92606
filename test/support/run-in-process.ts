/**
 * Test support: `restprobe run` in-process, as the CLI runs it (runCommand), with its
 * output captured and a RestprobeError turned into the exit code the CLI would give.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runCommand, type RunOptions } from '../../src/cli/run-command.js';
import { exitCodeFor, type RestprobeError } from '../../src/errors.js';

export interface InProcessRun {
  readonly code: number;
  /** What the run printed. */
  readonly out: string;
  readonly error?: RestprobeError;
  /** The report directory (a fresh temporary one unless given). */
  readonly dir: string;
}

/**
 * @example
 * ```ts
 * const ran = await runInProcess(server.url, { config: referenceConfig, format: 'json' });
 * ran.code; // 0
 * ```
 */
export async function runInProcess(baseUrl: string | undefined, opts: Partial<RunOptions> = {}, { tty = false } = {}): Promise<InProcessRun> {
  // As a terminal, with `tty`: the progress line is drawn and each result numbered `[done/total]`.
  const stream = Object.assign(new PassThrough(), { isTTY: tty });
  let out = '';
  stream.on('data', (c) => (out += c));
  const dir = opts.reportDir ?? (await mkdtemp(join(tmpdir(), 'restprobe-run-')));
  const options: RunOptions = { only: [], skip: [], format: 'json,junit,md', strict: false, readOnly: false, node: [], ...opts, reportDir: dir };
  try {
    return { code: await runCommand(baseUrl, options, stream as unknown as NodeJS.WriteStream), out, dir };
  } catch (err) {
    const error = err as RestprobeError;
    return { code: exitCodeFor(error.code), out, error, dir };
  }
}
