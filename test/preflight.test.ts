/**
 * Problems on restprobe's side end a run before any check runs, with one clear line and
 * exit 2 or 3: an unwritable report directory, a proxy that fails, a TLS certificate the
 * client does not trust, credentials the target wants and the config lacks, and a run
 * that would judge nothing. Runs `restprobe run` in-process, as the CLI does.
 */
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { createServer as createPlainServer } from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunOptions } from '../src/cli/run-command.js';
import type { RestprobeError } from '../src/errors.js';
import { runInProcess } from './support/run-in-process.js';
import { startReferenceServer, type ReferenceServer } from '../reference-server/src/index.js';
import { startRecordingProxy } from './support/recording-proxy.js';
import { referenceConfig } from './support/target.js';
import { generateTlsMaterial } from '../reference-server/src/certificates.js';
import { refusedPort } from './support/refused-port.js';

let server: ReferenceServer;
const savedKey = process.env['RESTPROBE_API_KEY'];
beforeAll(async () => {
  server = await startReferenceServer({ port: 0 });
  process.env['RESTPROBE_API_KEY'] = server.secrets.RESTPROBE_API_KEY;
});
afterAll(async () => {
  if (savedKey === undefined) delete process.env['RESTPROBE_API_KEY'];
  else process.env['RESTPROBE_API_KEY'] = savedKey;
  await server.close();
});

async function run(baseUrl: string | undefined, opts: Partial<RunOptions> = {}): Promise<{ code: number; out: string; error?: RestprobeError }> {
  return runInProcess(baseUrl, { reportDir: await mkdtemp(join(tmpdir(), 'restprobe-pre-')), ...opts });
}

describe('preflight', () => {
  it('an unwritable report directory: exit 2 naming it, before any request', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-pre-'));
    await writeFile(join(dir, 'a-file'), '');
    const ran = await run(server.url, { config: referenceConfig, reportDir: join(dir, 'a-file', 'reports') });
    expect(ran.code).toBe(2);
    expect(ran.error?.message).toMatch(/^cannot write reports to .*a-file\/reports \(ENOTDIR\)/);
    expect(ran.out).toBe('');
  });

  it.each<[string, Partial<RunOptions>, RegExp]>([
    ['an empty --report-dir', { reportDir: '' }, /^--report-dir: no directory given/],
    ['an empty --format (an unset variable in CI: no report at all, and exit 0)', { format: '' }, /^--format: no format given/],
    ['an empty --only (which ran the whole catalogue)', { only: [''] }, /^--only: no check or section given/],
    ['a section named in lower case', { only: ['err'] }, /unknown check or section "err" \(did you mean the section ERR\?\)/],
    ['a receiver-mode check', { only: ['EVT-receiver-valid-2xx'] }, /^EVT-receiver-valid-2xx: receiver mode, run by restprobe webhooks check-receiver URL --secret-env NAME, not by restprobe run$/],
  ])('%s: exit 2 naming it, before any request', async (_what, opts, message) => {
    const ran = await runInProcess(server.url, { config: referenceConfig, ...opts });
    expect(ran.code).toBe(2);
    expect(ran.error?.message).toMatch(message);
    expect(ran.out).toBe('');
  });

  it('reports of an earlier run are removed, so CI never publishes a stale one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-pre-'));
    await writeFile(join(dir, 'restprobe-junit.xml'), '<testsuites tests="1" failures="0"/>');
    await writeFile(join(dir, 'restprobe-report.html'), '<p>passed</p>');
    await mkdir(join(dir, 'allure-results'));
    await writeFile(join(dir, 'allure-results', 'old-result.json'), '{}');
    await writeFile(join(dir, 'notes.txt'), 'mine');
    const ran = await run(server.url, { config: referenceConfig, reportDir: dir, format: 'json', only: ['ERR-unknown-path-404'] });
    expect(ran.code).toBe(0);
    // The ledger of what the run created is no report: it stays for `restprobe cleanup`.
    expect((await readdir(dir)).sort()).toEqual(['notes.txt', 'restprobe-ledger.jsonl', 'restprobe-report.json']);
  });

  it('a target that wants credentials the config does not give: exit 2 saying so', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-pre-'));
    const config = join(dir, 'no-auth.json');
    await writeFile(config, JSON.stringify({ collections: [{ name: 'projects', path: '/v2/projects' }] }));
    const ran = await run(server.url, { config });
    expect(ran.code).toBe(2);
    expect(ran.error?.message).toMatch(/^the target wants credentials: GET \/v2\/projects answered 401 \(WWW-Authenticate: .*\); configure auth.apiKey$/);
  });

  it('a selector that matches no check: exit 2 before anything is sent', async () => {
    const ran = await run(server.url, { only: ['END-get-item-200'], skip: ['END'] });
    expect(ran.code).toBe(2);
    expect(ran.error?.message).toBe('no check selected: --only END-get-item-200 --skip END matches no check in the catalogue (see restprobe checks)');
  });

  it('a run in which every check skipped judged nothing: exit 2, with what would enable them', async () => {
    const ran = await run(server.url, { only: ['CON'] });
    expect(ran.code).toBe(2);
    expect(ran.error?.message).toMatch(/^no check judged the target: all 1 selected checks were skipped/);
    expect(ran.error?.problems.join('\n')).toMatch(/enable with nodes: 1 check \(CON-etag-same-across-nodes\)/);
  });
});

describe('--proxy', () => {
  it('through a plain reverse proxy (an API gateway that takes absolute-form requests): the run passes', async () => {
    const gateway = await startRecordingProxy(server.url);
    try {
      const ran = await run(server.url, { config: referenceConfig, proxy: gateway.url, only: ['ERR', 'END-get-item-200'] });
      expect(ran.code, ran.out).toBe(0);
      expect(gateway.requests.length).toBeGreaterThan(10);
    } finally {
      await gateway.close();
    }
  });

  it('a proxy that is down: exit 3 naming the proxy, not the target', async () => {
    const port = refusedPort;
    const ran = await run(server.url, { config: referenceConfig, proxy: `http://127.0.0.1:${port}` });
    expect(ran.code).toBe(3);
    expect(ran.error?.message).toBe(`cannot connect to the proxy http://127.0.0.1:${port} (ECONNREFUSED)`);
  });

  it('a proxy that wants its own credentials (407): exit 3 saying so', async () => {
    const gateway = await startRecordingProxy(server.url, { intercept: () => 407 });
    try {
      const ran = await run(server.url, { config: referenceConfig, proxy: gateway.url });
      expect(ran.code).toBe(3);
      expect(ran.error?.message).toBe(`the proxy ${gateway.url} wants its own credentials (407 Proxy Authentication Required)`);
    } finally {
      await gateway.close();
    }
  });
});

describe('TLS', () => {
  let https: Server;
  let url: string;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'restprobe-tls-'));
    // A CA and a certificate made for the test, as `serve --tls` makes them: no openssl needed.
    const tls = await generateTlsMaterial();
    await writeFile(join(dir, 'cert.pem'), tls.ca);
    https = createHttpsServer({ key: tls.key, cert: tls.cert }, (_req, res) => {
      res.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"status":404}');
    });
    await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(https.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    https.closeAllConnections();
    await new Promise<void>((resolve) => https.close(() => resolve()));
  });

  it('through a proxy that does not tunnel (a gateway, any plain server): ends within the timeout, naming the proxy', async () => {
    const gateway = await startRecordingProxy(server.url);
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-pre-'));
    const config = join(dir, 'short.json');
    await writeFile(config, JSON.stringify({ http: { timeoutMs: 500 } }));
    try {
      const started = performance.now();
      const ran = await run(url, { proxy: gateway.url, config });
      expect(performance.now() - started).toBeLessThan(1_500);
      expect(ran.code).toBe(3);
      expect(ran.error?.message).toContain(`proxy ${gateway.url}`);
    } finally {
      await gateway.close();
    }
  });

  it('through a CONNECT proxy that refuses the tunnel (403): exit 3 naming the proxy and its answer', async () => {
    const refusing = createHttpServerForProxy();
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const proxy = `http://127.0.0.1:${(refusing.address() as { port: number }).port}`;
    try {
      const ran = await run(url, { proxy });
      expect(ran.code).toBe(3);
      expect(ran.error?.message).toBe(`the proxy ${proxy} refused to tunnel (403)`);
    } finally {
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });

  it('the wrong scheme either way ends the run at once, naming the right one: https:// to a plain server, http:// to a TLS one', async () => {
    const plain = server.url;
    const tlsToPlain = await run(plain.replace(/^http:/, 'https:'), { config: referenceConfig });
    expect(tlsToPlain.code).toBe(3);
    expect(tlsToPlain.error?.message).toBe(`cannot reach ${plain.replace(/^http:/, 'https:')}: the TLS handshake failed: the server speaks plain HTTP (did you mean ${plain}?)`);
    expect(tlsToPlain.out).toBe('');
    const plainToTls = await run(url.replace(/^https:/, 'http:'), { ca: join(dir, 'cert.pem') });
    expect(plainToTls.code).toBe(3);
    expect(plainToTls.error?.message).toBe(`cannot reach ${url.replace(/^https:/, 'http:')}: the server speaks TLS and closes plain HTTP requests (did you mean ${url}?)`);
    expect(plainToTls.out).toBe('');
  });

  it('--ca FILE trusts the target\'s CA: the run goes on to its checks (verification stays on)', async () => {
    const ran = await run(url, { ca: join(dir, 'cert.pem'), only: ['ERR-unknown-path-404'] });
    expect(ran.error?.message).toBeUndefined();
    expect(ran.code).toBe(0);
  });

  it('http.ca in the config, relative to the config file; a CA file that is not PEM is a config error naming it', async () => {
    await writeFile(join(dir, 'tls.json'), JSON.stringify({ http: { ca: 'cert.pem' } }));
    expect((await run(url, { config: join(dir, 'tls.json'), only: ['ERR-unknown-path-404'] })).code).toBe(0);
    await writeFile(join(dir, 'bad.json'), JSON.stringify({ http: { ca: 'tls.json' } }));
    const bad = await run(url, { config: join(dir, 'bad.json') });
    expect(bad.code).toBe(2);
    expect(bad.error?.message).toBe(`http.ca: ${join(dir, 'tls.json')} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  });

  it('an untrusted certificate: exit 3 (the target cannot be reached safely), one line, naming --ca; never a verdict on the target', async () => {
    const ran = await run(url);
    expect(ran.code).toBe(3);
    expect(ran.error?.message).toMatch(/^the target's TLS certificate is not trusted \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE)\); give its CA with --ca FILE \(http.ca\)$/);
    expect(ran.out).toBe('');
  });
});

/** A forward proxy that refuses every CONNECT with 403. */
function createHttpServerForProxy() {
  const server = createPlainServer((_req, res) => res.writeHead(403).end());
  server.on('connect', (_req, socket) => socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n'));
  return server;
}

