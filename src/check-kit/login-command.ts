/**
 * A team's own login script: run without a shell, given the authorization URL as its last
 * argument and in RESTPROBE_AUTHORIZATION_URL; the last non-empty line it prints is the
 * redirect URL its login ended at. It is killed at its timeout and when the check ends.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { RestprobeError } from '../errors.js';

/** Output beyond this is not kept (only the last line matters). */
const maxOutput = 64 * 1024;

/**
 * `text` with credentials cut out: the values of URL and form parameters that carry them
 * (a failed login may print the redirect URL with its code, or the form it posted), Bearer
 * and Basic credentials, and anything shaped like a JWT. Known secrets are scrubbed later
 * anyway; these may be ones restprobe never saw.
 */
export function redactCredentials(text: string): string {
  return text
    .replace(/((?:^|[?&#;\s"'])(?:code|access_token|refresh_token|id_token|code_verifier|client_secret|password|passwd|token)=)[^&#\s"']*/gi, '$1<redacted>')
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 <redacted>')
    .replace(/\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_.-]*/g, '<redacted>');
}

/** Kills the command's process group (it may have exited while what it started lives on). */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // The group is gone already.
  }
}

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
      // Its own process group, so a timeout kills what it started too (a browser, a curl).
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, RESTPROBE_AUTHORIZATION_URL: authorizationUrl },
    });
    const finish = (e: RestprobeError | undefined, value?: string): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      killGroup(child);
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
        // Cut before redacting (the patterns then see a few hundred characters, not 64 KB), and after.
        const lastErr = redactCredentials((err.trim().split('\n').at(-1) ?? '').slice(0, 400)).slice(0, 200);
        return finish(fail(`exited with ${code ?? sig}${lastErr ? `: ${lastErr}` : ''}`));
      }
      const line = out.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '').at(-1);
      if (line === undefined) return finish(fail('printed nothing: expected the redirect URL its login ended at as its last line'));
      finish(undefined, line);
    });
  });
}
