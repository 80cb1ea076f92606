import { describe, expect, it } from 'vitest';
import { runLoginCommand } from './login-command.js';

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
});
