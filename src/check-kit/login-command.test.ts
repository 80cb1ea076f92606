import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redactCredentials, runLoginCommand } from './login-command.js';

const node = (code: string): string[] => [process.execPath, '-e', code];

describe('runLoginCommand', () => {
  it('passes the URL as the last argument and in the environment, and reads the last non-empty line', async () => {
    const line = await runLoginCommand(node('console.log("log in…"); console.log(process.argv.at(-1) === process.env.RESTPROBE_AUTHORIZATION_URL ? "http://127.0.0.1/cb?code=abc" : "mismatch"); console.log("")'), 'https://as.example/authorize?x=1', 5000);
    expect(line).toBe('http://127.0.0.1/cb?code=abc');
  });

  it('runs no shell: metacharacters in the URL stay one argument', async () => {
    const url = 'https://as.example/a?x=1;echo pwned&y=$(id)';
    expect(await runLoginCommand(node('console.log(process.argv.at(-1))'), url, 5000)).toBe(url);
  });

  it('says why when the command fails, prints nothing, cannot start, or overruns (and is killed)', async () => {
    await expect(runLoginCommand(node('console.error("bad password"); process.exit(3)'), 'u', 5000)).rejects.toThrow(/exited with 3: bad password/);
    await expect(runLoginCommand(node(''), 'u', 5000)).rejects.toThrow(/printed nothing/);
    await expect(runLoginCommand(['/no/such/login.sh'], 'u', 5000)).rejects.toThrow(/could not be started \(ENOENT\)/);
    const started = Date.now();
    await expect(runLoginCommand(node('setTimeout(() => {}, 60000)'), 'u', 300)).rejects.toThrow(/did not finish within 300 ms/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('keeps no code, token or password a failing command prints (a curl that followed the redirect to the callback)', async () => {
    const line = 'curl: (7) Failed to connect to 127.0.0.1 port 80: http://127.0.0.1/cb?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz password=hunter22 Bearer abc.def-ghi';
    await expect(runLoginCommand(node(`console.error(${JSON.stringify(line)}); process.exit(7)`), 'u', 5000)).rejects.toThrow(/exited with 7: curl: \(7\) Failed to connect.*code=<redacted>&state=xyz password=<redacted> Bearer <redacted>/);
    await runLoginCommand(node(`console.error(${JSON.stringify(line)}); process.exit(7)`), 'u', 5000).catch((e: Error) => {
      for (const secret of ['SplxlOBeZQQYbYS6WxSbIA', 'hunter22', 'abc.def-ghi']) expect(e.message).not.toContain(secret);
    });
    expect(redactCredentials('eyJhbGciOi.eyJzdWIi.c2ln and #access_token=t0k&x=1')).toBe('<redacted> and #access_token=<redacted>&x=1');
  });

  it('kills what the command started when it overruns (a browser, a curl), not only the command', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-login-'));
    const pidFile = join(dir, 'pid');
    // The command starts a grandchild that would outlive it, writes its pid, and waits.
    const code = `const c = require('node:child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' }); require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid)); setTimeout(() => {}, 60000);`;
    await expect(runLoginCommand(node(code), 'u', 1000)).rejects.toThrow(/did not finish within 1000 ms/);
    const pid = Number(await readFile(pidFile, 'utf8'));
    await new Promise((r) => setTimeout(r, 200));
    // Gone, or a zombie (state Z) waiting for whichever process adopted it to reap it.
    const state = await readFile(`/proc/${pid}/stat`, 'utf8').then((s) => s.split(') ')[1]![0], () => 'gone');
    expect(['gone', 'Z']).toContain(state);
  });
});
