/**
 * `restprobe serve` prints the OAuth secrets as export lines a shell can paste: the test
 * key's JWK JSON single-quoted. Runs the built CLI (`npm run build` first).
 */
import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(repoRoot, 'bin', 'restprobe.js');

/** Starts `serve` with `args`, returns what it printed up to its last export line, then stops it. */
async function servePrintout(args: readonly string[]): Promise<string> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', ...args], { cwd: repoRoot });
  let out = '';
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('RESTPROBE_NODE_URLS')) resolve();
      });
      child.on('exit', () => reject(new Error(`serve exited early: ${out}`)));
    });
  } finally {
    child.kill('SIGTERM');
  }
  return out;
}

/** What bash makes of the export lines: the variables' values. */
function evaluated(printout: string, names: readonly string[]): Promise<Record<string, string>> {
  const script = `${printout}\nnode -e 'console.log(JSON.stringify(Object.fromEntries(process.argv.slice(1).map((n) => [n, process.env[n]]))))' ${names.join(' ')}`;
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', script], (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout) as Record<string, string>)));
  });
}

const names = ['RESTPROBE_OAUTH_CLIENT_ID', 'RESTPROBE_OAUTH_CLIENT_SECRET', 'RESTPROBE_OAUTH_USERNAME', 'RESTPROBE_OAUTH_PASSWORD', 'RESTPROBE_JWT_TEST_KEY'];

it.each([['RS256', 'RSA'], ['HS256', 'oct']])('serve --jwt-alg %s exports the OAuth client, the test user and the signing key', async (alg, kty) => {
  const out = await servePrintout(['--jwt-alg', alg]);
  expect(out).toMatch(/^export RESTPROBE_JWT_TEST_KEY='\{.*\}'$/m);
  expect(out).toContain(`access tokens are ${alg} JWTs`);
  const env = await evaluated(out, names);
  expect(env['RESTPROBE_OAUTH_CLIENT_ID']).toBe('restprobe-client');
  expect(env['RESTPROBE_OAUTH_USERNAME']).toBe('probe-user');
  expect(env['RESTPROBE_OAUTH_CLIENT_SECRET']).toMatch(/^\S{20,}$/);
  expect(env['RESTPROBE_OAUTH_PASSWORD']).toMatch(/^\S{20,}$/);
  expect(JSON.parse(env['RESTPROBE_JWT_TEST_KEY'] ?? '')).toMatchObject({ kty, alg, kid: expect.any(String) });
}, 30_000);

it('serve refuses an unknown --jwt-alg', async () => {
  const code = await new Promise<number | null>((resolve) => {
    execFile(process.execPath, [bin, 'serve', '--port', '0', '--jwt-alg', 'none'], { cwd: repoRoot }, (err) => resolve(err === null ? 0 : (err.code as number)));
  });
  expect(code).toBe(2);
});

it('serve --nodes 2 --balancer prints the balancer and a run against it that lists every node', async () => {
  const out = await servePrintout(['--nodes', '2', '--balancer']);
  const [, balancer] = /^# load balancer \(each request to the next node in turn\): (\S+)$/m.exec(out) ?? [];
  const nodes = [...out.matchAll(/^# node \d: (\S+)$/gm)].map((m) => m[1]);
  expect(nodes).toHaveLength(2);
  expect(out).toContain(`#   npx restprobe run ${balancer} -c fixtures/reference.config.json --node ${nodes[0]} --node ${nodes[1]}`);
  expect(out).toContain(`export RESTPROBE_BALANCER_URL=${balancer}`);
}, 30_000);
