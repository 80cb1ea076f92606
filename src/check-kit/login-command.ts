/**
 * A team's own login script: run without a shell, given the authorization URL as its last
 * argument and in RESTPROBE_AUTHORIZATION_URL; the last non-empty line it prints is the
 * redirect URL its login ended at. It is killed at its timeout and when the check ends.
 */
import { spawn } from 'node:child_process';
import { RestprobeError } from '../errors.js';

/** Output beyond this is not kept (only the last line matters). */
const maxOutput = 64 * 1024;

/**
 * @example
 * ```ts
 * const redirect = await runLoginCommand(['./login.sh'], authorizationUrl, 30_000, ctx.signal);
 * ```
 */
export function runLoginCommand(argv: readonly string[], authorizationUrl: string, timeoutMs: number, signal?: AbortSignal): Promise<string> {
  const [program, ...args] = argv;
  const fail = (why: string): RestprobeError => new RestprobeError('ERR_SETUP', `setup: the login command ${program} ${why}`, [], { rootCause: `the login command ${why.replace(/\(.*\)$/, '').trim()}` });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    let done = false;
    const child = spawn(program!, [...args, authorizationUrl], {
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, RESTPROBE_AUTHORIZATION_URL: authorizationUrl },
    });
    const finish = (e: RestprobeError | undefined, value?: string): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      if (e) reject(e);
      else resolve(value!);
    };
    const timer = setTimeout(() => finish(fail(`did not finish within ${timeoutMs} ms (auth.oauth.login.timeoutMs): killed`)), timeoutMs);
    const onAbort = (): void => finish(fail('was stopped: the check ended'));
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (c: Buffer) => (out = (out + c.toString('utf8')).slice(-maxOutput)));
    child.stderr.on('data', (c: Buffer) => (err = (err + c.toString('utf8')).slice(-maxOutput)));
    child.on('error', (e: NodeJS.ErrnoException) => finish(fail(`could not be started (${e.code ?? e.message})`)));
    child.on('close', (code, sig) => {
      if (code !== 0) {
        const lastErr = err.trim().split('\n').at(-1)?.slice(0, 200);
        return finish(fail(`exited with ${code ?? sig}${lastErr ? `: ${lastErr}` : ''}`));
      }
      const line = out.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '').at(-1);
      if (line === undefined) return finish(fail('printed nothing: expected the redirect URL its login ended at as its last line'));
      finish(undefined, line);
    });
  });
}
