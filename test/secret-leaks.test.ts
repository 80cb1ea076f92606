/**
 * No secret reaches any output, in any form (issue 23). Two runs through the CLI as a team
 * runs it, writing every format (terminal, GitHub annotations, the job summary, JSON, JUnit,
 * Markdown, HTML, Allure):
 *
 * - the whole catalogue against the reference server behind a proxy that echoes every
 *   request back in each response's headers (as sent, base64 and base64url), with every
 *   credential kind configured (API keys, a session, minted keys, the OAuth client secret,
 *   the login password, the JWT test key, webhook secrets) and faults that make checks
 *   fail, so their exchanges are kept whole;
 * - the token checks against a token server whose access tokens carry the client id at
 *   every byte alignment, so pieces of a token line up with `Basic base64(id:secret)`.
 *
 * Then no 8-character window of any secret (raw, URL-encoded, base64 or base64url at any
 * alignment) may stand anywhere in what was written, and every check id is named as it is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startReferenceServer, type ReferenceServer } from '../reference-server/src/index.js';
import { base64Cores, base64RunLength, fragmentLength } from '../src/secrets-scrub.js';
import { catalogue } from '../suites/catalogue.js';
import { sections } from '../src/model/section.js';
import { tokenEndpointChecks } from '../suites/05-authentication/token-endpoint.js';
import { refreshChecks } from '../suites/03-states/refresh-rotation.js';
import { startOAuthServer, type OAuthServer } from './support/oauth-server.js';
import { jsonOf, startRewritingProxy, type ProxiedResponse, type RewritingProxy } from './support/rewriting-proxy.js';
import { runInProcess, type InProcessRun } from './support/run-in-process.js';
import { closeSenders, listenSender } from './support/webhook-sender.js';
import { referenceConfig, testProbeRateLimit } from './support/target.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/**
 * The windows of a secret's forms, by length: every 8 characters of it as sent, URL- and
 * form-encoded; every 12 of its base64 and base64url at each alignment, which hold 8 bytes
 * (8 base64 characters are 6 bytes, which an encoded cursor may share with a secret by chance,
 * as `","k":` of a cursor's keys with an HMAC JWK's: the scrubber counts the same way).
 */
function windowsOf(secrets: Iterable<string>): Map<number, Map<string, string>> {
  const windows = new Map<number, Map<string, string>>([[fragmentLength, new Map()], [base64RunLength, new Map()]]);
  const add = (form: string, length: number, secret: string): void => {
    for (let i = 0; i + length <= form.length; i++) windows.get(length)!.set(form.slice(i, i + length), secret.slice(0, 4));
  };
  for (const secret of secrets) {
    const texts = [secret, encodeURIComponent(secret), new URLSearchParams([['', secret]]).toString().slice(1)];
    for (const form of texts) add(form, fragmentLength, secret);
    for (const form of texts.flatMap(base64Cores)) add(form, base64RunLength, secret);
  }
  return windows;
}

/** The windows of `secrets` found in `text`, with where: none, for a clean output. */
function leaksIn(text: string, windows: Map<number, Map<string, string>>, where: string): string[] {
  const found: string[] = [];
  for (const [length, byWindow] of windows) {
    for (let i = 0; i + length <= text.length; i++) {
      const w = text.slice(i, i + length);
      if (byWindow.has(w)) found.push(`${where}: …${text.slice(Math.max(0, i - 20), i + 28)}… (a piece of the secret starting ${byWindow.get(w)})`);
    }
  }
  return found;
}

/** Everything a run wrote: its terminal output (with the GitHub annotations), each report file, the job summary. */
async function outputsOf(run: InProcessRun, summaryFile: string): Promise<Map<string, string>> {
  const outputs = new Map<string, string>([['terminal', run.out], ['job summary', await readFile(summaryFile, 'utf8')]]);
  const files = (await readdir(run.dir, { recursive: true, withFileTypes: true })).filter((f) => f.isFile());
  for (const f of files) outputs.set(join(f.parentPath, f.name), await readFile(join(f.parentPath, f.name), 'utf8'));
  return outputs;
}

/** A run through the CLI in this process, with `env` as the environment and a job summary to append to. */
async function runWith(baseUrl: string, env: Record<string, string>, opts: Parameters<typeof runInProcess>[1]): Promise<{ run: InProcessRun; summaryFile: string }> {
  const summaryFile = join(await mkdtemp(join(tmpdir(), 'restprobe-summary-')), 'summary.md');
  await writeFile(summaryFile, '');
  const saved = { ...process.env };
  Object.assign(process.env, env, { GITHUB_STEP_SUMMARY: summaryFile });
  try {
    return { run: await runInProcess(baseUrl, { format: 'json,junit,md,html,allure,github', seed: '23', ...opts }), summaryFile };
  } finally {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  }
}

/** Members of a JSON answer that hand out a secret, and cookies: what the echo proxy collects as the run's minted secrets. */
const handedOut = /^(access_token|refresh_token|id_token|key|secret|code)$/;

/** A proxy that echoes each request into its response's headers, and collects every secret the target hands out. */
async function echoingProxy(upstream: string, collected: Set<string>): Promise<RewritingProxy> {
  const collect = (res: ProxiedResponse): void => {
    const body = jsonOf(res) as unknown;
    const walk = (v: unknown): void => {
      if (typeof v !== 'object' || v === null) return;
      for (const [k, x] of Object.entries(v)) {
        if (handedOut.test(k) && typeof x === 'string' && x.length >= fragmentLength) collected.add(x);
        else walk(x);
      }
    };
    walk(body);
    for (const cookie of (res.headers['set-cookie'] ?? '').split(/,(?=[^;]*=)/)) {
      const value = /^[^=]+=([^;]*)/.exec(cookie.trim())?.[1];
      if (value !== undefined && value.length >= fragmentLength) collected.add(value);
    }
    const location = res.headers['location'];
    const code = location === undefined ? null : new URL(location, 'http://x').searchParams.get('code');
    if (code !== null && code.length >= fragmentLength) collected.add(code);
  };
  return startRewritingProxy(upstream, {
    response(res, req) {
      collect(res);
      const sent = JSON.stringify({ headers: req.headers, body: req.body });
      const plain = Object.values(req.headers).join(' | ').replace(/[^\t\x20-\x7e]/g, '?');
      return { ...res, headers: { ...res.headers, 'x-echo': plain, 'x-echo-base64': Buffer.from(sent).toString('base64'), 'x-echo-base64url': Buffer.from(sent).toString('base64url') } };
    },
  });
}

function expectNoLeak(outputs: Map<string, string>, secrets: Iterable<string>): void {
  const windows = windowsOf(secrets);
  const leaks = [...outputs].flatMap(([where, text]) => leaksIn(text, windows, where));
  expect(leaks.slice(0, 10), `${leaks.length} pieces of secrets in the outputs`).toEqual([]);
  // Scrubbing never renames a check: no id is cut by a $NAME, and the JSON names only catalogue checks.
  const idCut = new RegExp(`\\b(?:${Object.keys(sections).join('|')})(?:-[a-z0-9-]*)?\\$[A-Z]`, 'g');
  const renamed = [...outputs].flatMap(([where, text]) => [...text.matchAll(idCut)].map((m) => `${where}: …${text.slice(Math.max(0, m.index - 40), m.index + 40)}…`));
  expect(renamed.slice(0, 5)).toEqual([]);
}

describe('the leak detector', () => {
  const jwk = '{"kty":"oct","k":"c2VjcmV0LWtleS1vZi10aGUtcnVu"}';
  it('takes no cursor for a leak for six bytes it shares with a secret by chance, at any alignment (the scrubber leaves those too)', () => {
    const windows = windowsOf([jwk]);
    for (const pad of ['', 'x', 'xy']) {
      const cursor = Buffer.from(`{"l":"/v2/projects${pad}","k":["2026-11-27T12:00:00Z",46]}`).toString('base64url');
      expect(leaksIn(cursor, windows, 'cursor')).toEqual([]);
    }
  });

  it('finds the secret base64-encoded inside other text, at any alignment', () => {
    const windows = windowsOf([jwk]);
    for (const pad of ['', 'x', 'xy']) expect(leaksIn(Buffer.from(`{"a":"${pad}${jwk}"}`).toString('base64'), windows, 'echo').length).toBeGreaterThan(0);
  });
});

describe('no secret in any output', () => {
  it('the whole catalogue, against a target echoing every request, with every credential kind configured and failing checks keeping whole exchanges', async () => {
    const faults = ['errors-as-plain-json', 'minted-secret-readable', 'webhook-secret-readable', 'secret-cacheable', 'password-grant-accepted', 'code-reusable', 'old-refresh-still-valid', 'jwt-exp-unchecked', 'token-response-cacheable', 'logout-keeps-session', 'session-cookie-not-httponly', 'api-key-in-query'];
    const server: ReferenceServer = await startReferenceServer({ port: 0, faults, probeRateLimit: testProbeRateLimit, webhookSchedule: 'short' });
    closers.push(() => server.close());
    const collected = new Set<string>();
    const proxy = await echoingProxy(server.url, collected);
    closers.push(() => proxy.close());

    // With the server's document, the DOC checks cite other checks' answers (a minted key's among them) in their evidence.
    const { run, summaryFile } = await runWith(proxy.url, { ...server.secrets }, { config: referenceConfig, openapi: `${server.url}/openapi.json` });
    expect(run.code, `${run.out}\n${run.error?.message ?? ""} ${run.error?.problems.join("; ") ?? ""}`).toBe(1);
    const outputs = await outputsOf(run, summaryFile);
    const json = [...outputs].find(([where]) => where.endsWith('restprobe-report.json'))![1];
    const failing = (JSON.parse(json) as { checks: { id: string; status: string }[] }).checks.filter((c) => c.status === 'fail');
    expect(failing.length, 'failing checks keep their exchanges whole').toBeGreaterThanOrEqual(10);
    const ids = new Set<string>(catalogue.map((c) => c.id));
    for (const c of failing) expect(ids.has(c.id), c.id).toBe(true);
    expect(failing.filter((c) => c.id.startsWith('DOC-')).map((c) => c.id).sort(), 'DOC checks citing the answers of others').toEqual(['DOC-media-type-documented', 'DOC-required-headers']);
    // The secrets handed out during the run were seen and are in the evidence's place, scrubbed.
    expect(collected.size, 'minted keys, session cookies, webhook secrets, tokens and codes').toBeGreaterThanOrEqual(5);
    const configured = Object.entries(server.secrets).filter(([name]) => name !== 'RESTPROBE_OAUTH_CLIENT_ID' && name !== 'RESTPROBE_OAUTH_USERNAME').map(([, v]) => v);
    expectNoLeak(outputs, [...configured, ...collected]);
  }, 120_000);

  it('the token checks, against a token server that answers form-encoded (access_token=…&refresh_token=…), which they fail and quote', async () => {
    const as: OAuthServer = await startOAuthServer({ formEncodedTokens: true });
    closers.push(() => as.close());
    // The run's own credential, got beforehand.
    const basic = `Basic ${Buffer.from(`${as.env['RESTPROBE_OAUTH_CLIENT_ID']}:${as.env['RESTPROBE_OAUTH_CLIENT_SECRET']}`).toString('base64')}`;
    const granted = await fetch(`${as.url}/oauth/token`, { method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials&scope=read%3A*' });
    const env = { ...as.env, RESTPROBE_API_TOKEN: new URLSearchParams(await granted.text()).get('access_token')! };
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-form-'));
    const config = join(dir, 'restprobe.config.json');
    await writeFile(config, JSON.stringify({ baseUrl: as.url, collections: [{ name: 'projects', path: '/v2/projects', methods: ['GET'] }], auth: { apiKey: { header: 'Authorization', value: { env: 'RESTPROBE_API_TOKEN' } }, oauth: { clientId: { env: 'RESTPROBE_OAUTH_CLIENT_ID' }, clientSecret: { env: 'RESTPROBE_OAUTH_CLIENT_SECRET' }, scopes: ['read:*'] } } }));
    const { run, summaryFile } = await runWith(as.url, env, { config, only: ['AUT-client-credentials-token'] });
    expect(run.out, `${run.error?.message ?? ''} ${run.error?.problems.join('; ') ?? ''}`).toMatch(/FAIL +AUT-client-credentials-token/);
    expect(as.issued.length, 'tokens were issued, form-encoded').toBeGreaterThan(0);
    expectNoLeak(await outputsOf(run, summaryFile), [as.env['RESTPROBE_OAUTH_CLIENT_SECRET']!, ...as.issued]);
  }, 60_000);

  it("a minted key under a member the config names (auth.mint.secretField: value, as OpenAI's admin keys answer), in a cacheable answer LIM-no-store-secrets fails and keeps whole", async () => {
    const minted: string[] = [];
    const server = createServer((req, res) => {
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
      if (req.headers['x-api-key'] !== 'sk-stand-in-run-key-4b1d9e') return send(401, { type: 'about:blank', title: 'Unauthorized', status: 401 }, { 'www-authenticate': 'ApiKey' });
      if (req.method === 'POST' && req.url === '/keys') {
        const value = `sk_live_${randomBytes(12).toString('hex')}`;
        minted.push(value);
        return send(201, { id: `k${minted.length}`, value }, { location: `/keys/k${minted.length}`, 'cache-control': 'private, max-age=60' });
      }
      if (req.method === 'DELETE' && req.url?.startsWith('/keys/')) return void res.writeHead(204).end();
      return send(200, { data: [] });
    });
    const sender = await listenSender(server);
    closers.push(closeSenders);
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-mint-'));
    const config = join(dir, 'restprobe.config.json');
    await writeFile(config, JSON.stringify({ baseUrl: sender.url, collections: [{ name: 'things', path: '/things', methods: ['GET'] }], auth: { apiKey: { header: 'X-API-Key', value: { env: 'RUN_KEY' } }, mint: { path: '/keys', secretField: 'value' } }, secretEndpoints: [{ method: 'POST', path: '/keys' }] }));
    const { run, summaryFile } = await runWith(sender.url, { RUN_KEY: 'sk-stand-in-run-key-4b1d9e' }, { config, only: ['LIM-no-store-secrets'] });
    expect(run.out, `${run.error?.message ?? ''} ${run.error?.problems.join('; ') ?? ''}`).toMatch(/FAIL +LIM-no-store-secrets/);
    expect(minted.length).toBeGreaterThan(0);
    expectNoLeak(await outputsOf(run, summaryFile), minted);
  }, 60_000);

  it('the token checks, against a token server whose tokens carry the client id at every alignment', async () => {
    const as: OAuthServer = await startOAuthServer({ clientIdAtEveryAlignment: true, violations: ['token-response-cacheable', 'client-secret-unchecked', 'password-grant-accepted', 'jwt-exp-unchecked', 'code-reusable', 'old-refresh-still-valid'] });
    closers.push(() => as.close());
    // The API wants a bearer token: the run's own credential is one the client got beforehand.
    const basic = `Basic ${Buffer.from(`${as.env['RESTPROBE_OAUTH_CLIENT_ID']}:${as.env['RESTPROBE_OAUTH_CLIENT_SECRET']}`).toString('base64')}`;
    const granted = await fetch(`${as.url}/oauth/token`, { method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials&scope=read%3A*' });
    const env = { ...as.env, RESTPROBE_API_TOKEN: ((await granted.json()) as { access_token: string }).access_token };
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-align-'));
    const config = join(dir, 'restprobe.config.json');
    await writeFile(
      config,
      JSON.stringify({
        baseUrl: as.url,
        collections: [{ name: 'projects', path: '/v2/projects', methods: ['GET'] }],
        auth: {
          apiKey: { header: 'Authorization', value: { env: 'RESTPROBE_API_TOKEN' } },
          oauth: { clientId: { env: 'RESTPROBE_OAUTH_CLIENT_ID' }, clientSecret: { env: 'RESTPROBE_OAUTH_CLIENT_SECRET' }, scopes: ['read:*', 'write:*'], redirectUri: as.redirectUri, login: { form: { fields: { username: { env: 'RESTPROBE_OAUTH_USERNAME' }, password: { env: 'RESTPROBE_OAUTH_PASSWORD' } } } } },
          jwt: { testSigningKey: { env: 'RESTPROBE_JWT_TEST_KEY' } },
        },
      }),
    );
    const only = [...new Set(['AUT', ...refreshChecks.map((c) => c.id)])];
    const { run, summaryFile } = await runWith(as.url, env, { config, only });
    expect(run.code, `${run.out}\n${run.error?.message ?? ""} ${run.error?.problems.join("; ") ?? ""}`).toBe(1);
    const outputs = await outputsOf(run, summaryFile);
    // The check whose token response was judged in full holds the Basic header it sent.
    expect(run.out).toContain(tokenEndpointChecks[0]!.id.slice(0, 4));
    const tokens = as.issued.filter((t) => t.split('.').length === 3);
    expect(new Set(tokens.map((t) => JSON.parse(Buffer.from(t.split('.')[1]!, 'base64url').toString()).pad)).size, 'tokens at each of the three alignments').toBe(3);
    const secrets = [...Object.entries(env).filter(([name]) => name !== 'RESTPROBE_OAUTH_CLIENT_ID' && name !== 'RESTPROBE_OAUTH_USERNAME').map(([, v]) => v), ...as.issued];
    expectNoLeak(outputs, secrets);
  }, 120_000);
});
