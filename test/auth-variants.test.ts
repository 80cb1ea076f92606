/**
 * §5 beyond the reference server: an API with no authentication at all, a target that
 * takes its key as `Authorization: Bearer`, 401s without a problem body, and the whole
 * AUT section over HTTPS (HSTS, the plain-HTTP redirect) on the clean server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runChecks, type RunOutcome } from '../src/engine/run.js';
import { buildReport } from '../src/report/model.js';
import { writeReports } from '../src/report/write.js';
import type { TargetProfile } from '../src/model/profile.js';
import { resultName, worstFinding } from '../src/model/result.js';
import { catalogue } from '../suites/catalogue.js';
import { hstsProblem } from '../suites/05-authentication/transport.js';
import { startItemsServer, type ItemsServer } from './support/items-server.js';
import { testProfile, thingsCollection } from './support/profile.js';
import { HttpClient } from '../src/http/client.js';
import { generateTlsMaterial } from '../reference-server/src/certificates.js';
import { startSessionServer, type SessionServerOptions } from './support/session-server.js';
import { startTarget, startVariant, type Target } from './support/target.js';
import { jsonOf, startRewritingProxy, type Rewrites } from './support/rewriting-proxy.js';

const aut = catalogue.filter((c) => c.section === 'AUT');
let open: { close(): Promise<void> } | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

/** Each AUT check's worst verdict over its runs, and every result's line for a mismatch. */
async function judge(profile: TargetProfile, client?: Target['client']): Promise<{ verdicts: Record<string, string>; explain: string; outcome: RunOutcome }> {
  const outcome = await runChecks({ profile, checks: aut, seed: 2, ...(client && { client }) });
  expect(outcome.leftovers).toEqual([]);
  const { results } = outcome;
  const verdicts = Object.fromEntries(aut.map((c) => [c.id, worstFinding(results.filter((r) => r.id === c.id))?.status ?? 'none']));
  return { verdicts, explain: results.map((r) => `${resultName(r.id, r.collection)}: ${r.status} ${r.message}`).join('\n'), outcome };
}

describe('an API with no authentication at all', () => {
  let items: ItemsServer;
  it('fails the missing-credentials check when the config says it takes a key', async () => {
    items = await startItemsServer();
    open = items;
    const { verdicts } = await judge(items.profile());
    expect(verdicts['AUT-missing-credentials-401']).toBe('fail');
    // Blocked, not failed: the same missing check would be blamed twice.
    expect(verdicts['AUT-invalid-credentials-401']).toBe('error');
    expect(items.items()).toEqual([]);
  });

  it('skips it, naming auth.apiKey, when the config gives no key: an open API cannot be told from one missing its 401', async () => {
    items = await startItemsServer();
    open = items;
    const { results } = await runChecks({ profile: items.profile({ keyHeader: null }), checks: aut.filter((c) => c.id === 'AUT-missing-credentials-401'), seed: 2 });
    expect(results.map((r) => [r.status, r.configKey])).toEqual([['skip', 'auth.apiKey']]);
  });
});

describe('the clean reference server', () => {
  it('passes every AUT check over HTTPS with its CA, HSTS and the plain-HTTP redirect included', async () => {
    const target = await startTarget([], { tls: true });
    open = target;
    expect(target.profile.baseUrl).toMatch(/^https:/);
    const { verdicts, explain, outcome } = await judge(target.profile, target.client);
    expect(verdicts, explain).toEqual(Object.fromEntries(aut.map((c) => [c.id, 'pass'])));
    // Keys, the read-only key, minted keys and session cookies: none reaches any report.
    const report = buildReport({ baseUrl: target.profile.baseUrl, startedAt: new Date(), durationMs: 1, seed: 2, strict: false, version: 'test', ...outcome });
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-aut-'));
    await writeReports(report, { dir, formats: ['json', 'junit', 'md'], secrets: target.profile.secrets });
    const written = (await Promise.all((await readdir(dir)).map((f) => readFile(join(dir, f), 'utf8')))).join('\n');
    expect(written).toContain('AUT-minted-secret-once');
    // The OAuth client id is an identifier, sent in URLs, not a secret (scrubbing it would cut "restprobe" out of every report).
    for (const [name, secret] of Object.entries(target.server.secrets)) if (name !== 'RESTPROBE_OAUTH_CLIENT_ID') expect(written, name).not.toContain(secret);
    expect(written).not.toMatch(/rk_[A-Za-z0-9_-]{20,}/);
    expect(written).not.toMatch(/session=[A-Za-z0-9_-]{20,}/);
  });

  it('takes its key as Authorization: Bearer just as well', async () => {
    const target = await startTarget();
    open = target;
    const bearer = (a: TargetProfile['auth']['apiKey']) => a && { ...a, header: 'Authorization' };
    const profile = { ...target.profile, auth: { ...target.profile.auth, apiKey: bearer(target.profile.auth.apiKey), limited: target.profile.auth.limited && { ...target.profile.auth.limited, header: 'Authorization' } } };
    const { verdicts, explain } = await judge(profile, target.client);
    expect(verdicts, explain).toMatchObject({ 'AUT-missing-credentials-401': 'pass', 'AUT-invalid-credentials-401': 'pass', 'AUT-key-not-in-query': 'pass', 'AUT-scope-403': 'pass', 'AUT-revoked-key-401': 'pass' });
  });
});

describe('AUT-hsts on a loopback HTTPS host', () => {
  it("skips, naming baseUrl, where no response carries Strict-Transport-Security (ASP.NET Core's HSTS leaves out localhost and 127.0.0.1 by default); one sent malformed still fails", async () => {
    const tls = await generateTlsMaterial();
    for (const [hsts, want] of [[undefined, 'skip'], ['max-age=0', 'fail']] as const) {
      const server = createHttpsServer({ key: tls.key, cert: tls.cert }, (req, res) => {
        res.writeHead(req.url === '/things' ? 200 : 404, { 'content-type': 'application/json', ...(hsts !== undefined && { 'strict-transport-security': hsts }) }).end(req.url === '/things' ? '{"data":[],"next_cursor":null}' : '{"status":404}');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const base = testProfile(`https://127.0.0.1:${(server.address() as AddressInfo).port}`, { keyHeader: null });
      const client = new HttpClient({ timeoutMs: 5_000, maxBodyBytes: 1 << 20, connections: 2, maxRequests: 100, ca: tls.ca });
      try {
        const { results } = await runChecks({ profile: { ...base, http: { ...base.http, ca: tls.ca }, collections: [thingsCollection] }, checks: aut.filter((c) => c.id === 'AUT-hsts'), seed: 2, client });
        expect(results[0], results[0]?.message).toMatchObject({ status: want, ...(want === 'skip' && { configKey: 'baseUrl', message: expect.stringMatching(/no response from the loopback host 127\.0\.0\.1 carries Strict-Transport-Security/) }) });
      } finally {
        await client.close();
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    }
  });
});

describe('a framework that validates the body before it authenticates (Fastify, auth in preHandler)', () => {
  it('passes both credential checks: the writes they send carry the configured valid bodies, so the 400 an invalid one would get says nothing of them', async () => {
    const validatesFirst: Rewrites = {
      request: (req) => {
        if ((req.method !== 'POST' && req.method !== 'PUT') || !/^\/v2\/(projects|members)(\/|$)/.test(req.path)) return req;
        const body = jsonOf(req);
        return typeof body?.name === 'string' ? req : { status: 400, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, detail: "body must have required property 'name'" }) };
      },
    };
    const variant = await startVariant(validatesFirst);
    open = variant;
    const { verdicts, explain } = await judge(variant.profile, variant.client);
    expect(verdicts, explain).toMatchObject({ 'AUT-missing-credentials-401': 'pass', 'AUT-invalid-credentials-401': 'pass' });
  });
});

describe('violations the reference faults do not cover', () => {
  it('a garbage key answered 403 (while a missing one gets 401) fails the invalid-credentials check only', async () => {
    const forbidsGarbage: Rewrites = { response: (res, req) => (res.status === 401 && req.headers['x-api-key'] !== undefined ? { ...res, status: 403 } : res) };
    const variant = await startVariant(forbidsGarbage);
    open = variant;
    const { verdicts } = await judge(variant.profile, variant.client);
    expect(verdicts).toMatchObject({ 'AUT-missing-credentials-401': 'pass', 'AUT-invalid-credentials-401': 'fail' });
  });

  it('Authorization: Bearer with no token answered 400 (passport-http-bearer; RFC 6750 §3.1 invalid_request) passes, noted; the same 400 for a wrong key still fails', async () => {
    const bareBearer = (alsoWrongKey: boolean): Rewrites => ({
      response: (res, req) => (res.status === 401 && (req.headers['authorization'] === 'Bearer' || (alsoWrongKey && req.headers['x-api-key'] !== undefined)) ? { ...res, status: 400, headers: { ...res.headers, 'www-authenticate': 'Bearer error="invalid_request"' } } : res),
    });
    const variant = await startVariant(bareBearer(false));
    open = variant;
    const { verdicts, outcome } = await judge(variant.profile, variant.client);
    expect(verdicts).toMatchObject({ 'AUT-invalid-credentials-401': 'pass' });
    expect(outcome.results.filter((r) => r.id === 'AUT-invalid-credentials-401').flatMap((r) => r.evidence.notes)).toContainEqual(expect.stringMatching(/to Authorization: Bearer without a token: the malformed request RFC 6750 §3\.1 answers with 400/));
    await variant.close();
    const wrongKey = await startVariant(bareBearer(true));
    open = wrongKey;
    expect((await judge(wrongKey.profile, wrongKey.client)).verdicts).toMatchObject({ 'AUT-invalid-credentials-401': 'fail' });
  });

  it('AUT-scope-403 with a limited credential of another tenant (its reads of the item get 404) is a setup error naming auth.limited, not a failure', async () => {
    let limitedKey = '';
    const otherTenant: Rewrites = { response: (res, req) => (req.headers['x-api-key'] === limitedKey && /^\/v2\/(projects|members)\/[^/?]+$/.test(req.path) ? { status: 404, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404 }) } : res) };
    const variant = await startVariant(otherTenant);
    open = variant;
    limitedKey = variant.profile.auth.limited!.value.value;
    const { outcome } = await judge(variant.profile, variant.client);
    const scope = outcome.results.filter((r) => r.id === 'AUT-scope-403');
    expect(scope.length).toBeGreaterThan(0);
    for (const r of scope) expect(r, r.message).toMatchObject({ status: 'error', errorCode: 'ERR_SETUP', message: expect.stringMatching(/auth\.limited must be a read-only credential of the same tenant/) });
  });

  it('a listing that ignores the mark filter still passes AUT-scope-403: only items carrying the refused POST\'s mark count as its work', async () => {
    const ignoresFilter: Rewrites = { request: (req) => (req.method === 'GET' && /[?&]label=/.test(req.path) ? { ...req, path: req.path.replace(/([?&])label=[^&]*&?/, '$1').replace(/[?&]$/, '') } : req) };
    // Projects to list besides the check's own items.
    const variant = await startVariant(ignoresFilter, [], { seedProjects: 3 });
    open = variant;
    const { results } = await runChecks({ profile: variant.profile, checks: aut.filter((c) => c.id === 'AUT-scope-403'), seed: 2, client: variant.client });
    expect(results.map((r) => [r.collection, r.status, r.message]).sort()).toEqual([['members', 'pass', ''], ['projects', 'pass', '']]);
    // The variant does ignore the filter: a mark no item has still lists the seeded projects.
    const listed = await variant.client.send({ method: 'GET', url: `${variant.profile.baseUrl}/v2/projects?label=restprobe-none`, headers: { 'x-api-key': variant.server.secrets.RESTPROBE_API_KEY! } });
    expect(JSON.parse(listed.body.toString()).data).toHaveLength(3);
  });

  it('a write scope enforced with 404 (hiding the item) instead of 403 fails', async () => {
    const hides: Rewrites = { response: (res) => (res.status === 403 ? { ...res, status: 404 } : res) };
    const variant = await startVariant(hides);
    open = variant;
    const { verdicts } = await judge(variant.profile, variant.client);
    expect(verdicts['AUT-scope-403']).toBe('fail');
  });
});

describe('a refused write applied all the same (fault forbidden-write-applied)', () => {
  it('fails AUT-scope-403 naming what each 403 did, and cleans up the item a refused POST created', async () => {
    const target = await startTarget(['forbidden-write-applied']);
    open = target;
    const outcome = await runChecks({ profile: target.profile, checks: aut.filter((c) => c.id === 'AUT-scope-403'), seed: 2, client: target.client });
    const { results } = outcome;
    expect(results.map((r) => r.status)).toEqual(['fail', 'fail']);
    const projects = results.find((r) => r.collection === 'projects')!;
    expect(projects.message).toMatch(/POST \/v2\/projects → 403.*, but it created an item all the same/);
    expect(projects.message).toMatch(/PUT .* → 403.*, but it changed the item \(name: "restprobe probe" → "restprobe probe \(replaced\)"/);
    expect(projects.message).toMatch(/DELETE .* → 403.*, but the item is gone/);
    expect(outcome.leftovers).toEqual([]);
    const left = await target.client.send({ method: 'GET', url: `${target.profile.baseUrl}/v2/projects`, headers: { 'x-api-key': target.server.secrets.RESTPROBE_API_KEY! } });
    expect(JSON.parse(left.body.toString()).data).toEqual([]);
  });
});

describe('session cookies (AUT-cookie-attributes)', () => {
  async function sessionVerdicts(opts: SessionServerOptions, cookie?: string): Promise<Record<string, { status: string; message: string; configKey?: string; notes: readonly string[] }>> {
    const server = await startSessionServer(opts);
    open = server;
    const { results } = await runChecks({ profile: server.profile(cookie), checks: aut.filter((c) => c.id === 'AUT-cookie-attributes' || c.id === 'AUT-logout-ends-session'), seed: 2 });
    return Object.fromEntries(results.map((r) => [r.id, { status: r.status, message: r.message, ...(r.configKey && { configKey: r.configKey }), notes: r.evidence.notes }]));
  }

  it.each<[string, SessionServerOptions]>([
    ["Django's sessionid beside its readable csrftoken", {}],
    ["Laravel's laravel_session beside its readable XSRF-TOKEN", { session: 'laravel_session', csrf: 'XSRF-TOKEN' }],
  ])('passes %s: the session cookie is told apart by its loss ending the session, and the CSRF cookie is not judged', async (_what, opts) => {
    const verdicts = await sessionVerdicts(opts);
    expect(verdicts['AUT-cookie-attributes']).toMatchObject({ status: 'pass', notes: [expect.stringMatching(new RegExp(`not the session's, so not judged: cookie "${opts.csrf ?? 'csrftoken'}" \\(path; secure; samesite\\)`))] });
    expect(verdicts['AUT-logout-ends-session']!.status).toBe('pass');
  });

  it('AUT-logout-ends-session: a 403 to the ended session (Django REST framework) passes, noted; a public route skips naming auth.session', async () => {
    const drf = await sessionVerdicts({ refusedStatus: 403 });
    expect(drf['AUT-logout-ends-session']).toMatchObject({ status: 'pass', notes: expect.arrayContaining([expect.stringMatching(/with the session cookie after logout: the session ended \(that a request without a valid credential gets 403, not 401, is AUT-missing-credentials-401's finding\)/)]) });
    await open?.close();
    expect((await sessionVerdicts({ open: true }))['AUT-logout-ends-session']).toMatchObject({ status: 'skip', configKey: 'auth.session', message: expect.stringMatching(/without a session too: \/things is public/) });
  });

  it('AUT-logout-ends-session with no collection to read: the logout path, which no GET opens (404 before and after), shows nothing of the session: a setup error, never a pass', async () => {
    const server = await startSessionServer({});
    open = server;
    const { results } = await runChecks({ profile: { ...server.profile(), collections: [] }, checks: aut.filter((c) => c.id === 'AUT-logout-ends-session'), seed: 2 });
    expect(results[0]).toMatchObject({ status: 'error', errorCode: 'ERR_SETUP', message: expect.stringMatching(/GET \/logout → 404 .*with the session cookie just set, so its end cannot be shown/) });
  });

  it('fails a session cookie without HttpOnly, naming it and not the CSRF cookie', async () => {
    const verdicts = await sessionVerdicts({ sessionAttributes: 'Path=/; Secure; SameSite=Lax' });
    expect(verdicts['AUT-cookie-attributes']).toMatchObject({ status: 'fail', message: expect.stringMatching(/the session cookie "sessionid" \(path; secure; samesite\) lacks HttpOnly, expected/) });
    expect(verdicts['AUT-cookie-attributes']!.message).not.toMatch(/csrftoken/);
  });

  it('judges the cookie auth.session.cookie names, even on an API that serves without the session', async () => {
    expect((await sessionVerdicts({ open: true }, 'sessionid'))['AUT-cookie-attributes']!.status).toBe('pass');
    expect((await sessionVerdicts({ open: true, sessionAttributes: 'Path=/; HttpOnly; SameSite=None' }, 'sessionid'))['AUT-cookie-attributes']).toMatchObject({ status: 'fail', message: expect.stringMatching(/lacks Secure, SameSite=Lax or Strict \(it is none\)/) });
  });

  it('skips naming auth.session.cookie when the session works without each cookie, and errors when the named cookie is not set', async () => {
    expect((await sessionVerdicts({ open: true }))['AUT-cookie-attributes']).toMatchObject({ status: 'skip', configKey: 'auth.session.cookie', message: expect.stringMatching(/cannot tell which holds the session: name it in auth\.session\.cookie/) });
    expect((await sessionVerdicts({}, 'session'))['AUT-cookie-attributes']).toMatchObject({ status: 'error', message: expect.stringMatching(/the login set no cookie named session \(auth\.session\.cookie\), only sessionid, csrftoken/) });
  });
});

describe('the plain-HTTP URL (AUT-https-redirect)', () => {
  /** A plain-HTTP listener that answers every request with `status`, `location` and `body`. */
  async function plainListener(status: number, location: string | undefined, body = ''): Promise<{ url: string; close(): Promise<void> }> {
    const server = createServer((_req, res) => res.writeHead(status, { ...(location && { location }), ...(body && { 'content-type': 'application/json' }) }).end(body));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  async function verdict(status: number, location: string | undefined, body?: string): Promise<{ status: string; message: string }> {
    const listener = await plainListener(status, location, body);
    open = listener;
    const profile = { ...testProfile('https://api.example.test'), plainHttpUrl: listener.url };
    const { results } = await runChecks({ profile, checks: aut.filter((c) => c.id === 'AUT-https-redirect'), seed: 2 });
    return { status: results[0]!.status, message: results[0]!.message };
  }

  it.each([301, 308])('passes a permanent redirect, %i, to https://', async (status) => {
    expect(await verdict(status, 'https://api.example.test/')).toEqual({ status: 'pass', message: '' });
  });

  it.each([307, 302])("warns on a temporary redirect, %i (ASP.NET Core's default is 307), to https://: it reaches HTTPS, and permanence is a SHOULD", async (status) => {
    expect(await verdict(status, 'https://api.example.test/')).toEqual({ status: 'warn', message: expect.stringMatching(new RegExp(`→ ${status}.* is a temporary redirect to https://api\\.example\\.test/, expected a permanent one, 301 or 308`)) });
  });

  it.each<[string, number, string | undefined, string?]>([
    ['serves the API (200)', 200, undefined, '{"data":[]}'],
    ['redirects to plain http://', 301, 'http://api.example.test/'],
    ['redirects without a Location', 308, undefined],
    ['redirects with the data in its body', 307, 'https://api.example.test/', '{"data":[{"id":"1"}]}'],
  ])('fails when it %s', async (_what, status, location, body) => {
    expect((await verdict(status, location, body)).status).toBe('fail');
  });
});

describe('Strict-Transport-Security grammar (RFC 6797 §6.1)', () => {
  it.each([
    ['max-age=31536000', undefined],
    ['max-age="600"; includeSubDomains; preload', undefined],
    ['MAX-AGE=10', undefined],
  ])('accepts %s', (value, want) => expect(hstsProblem(value)).toBe(want));

  it.each([undefined, 'max-age=0', 'includeSubDomains', 'max-age=10; max-age=20', 'max-age=ten'])('refuses %s', (value) => expect(hstsProblem(value)).toBeDefined());
});

describe('a collection whose reads are public (only writes protected, as §5 leaves open)', () => {
  it('AUT-key-not-in-query and AUT-revoked-key-401 skip there, naming why, instead of taking its 200s for an accepted key; protected collections are still judged', async () => {
    // The proxy lets any GET of the projects listing through as if it carried the run's key.
    let key = '';
    const publicReads: Rewrites = { request: (req) => (req.method === 'GET' && /^\/v2\/projects(\?|$)/.test(req.path) && req.headers['x-api-key'] === undefined ? { ...req, headers: { ...req.headers, 'x-api-key': key } } : req) };
    const variant = await startVariant(publicReads);
    key = variant.profile.auth.apiKey!.value.value;
    open = variant;
    const { outcome } = await judge(variant.profile, variant.client);
    const byCollection = Object.fromEntries(outcome.results.filter((r) => r.id === 'AUT-key-not-in-query').map((r) => [r.collection, r.status]));
    expect(byCollection).toMatchObject({ projects: 'skip', members: 'pass' });
    expect(outcome.results.find((r) => r.id === 'AUT-key-not-in-query' && r.collection === 'projects')!.message).toMatch(/without credentials: \/v2\/projects is public, so whether a key in the URL is accepted cannot be seen there/);
    expect(outcome.results.find((r) => r.id === 'AUT-revoked-key-401')).toMatchObject({ status: 'skip', message: expect.stringMatching(/is public, so whether a deleted key still works cannot be seen there/) });
  });
});

describe('an API that answers a request without credentials with a redirect to its login page (ASP.NET Identity, Django login_required)', () => {
  it('AUT-key-not-in-query takes the same redirect for a key in the URL for a refusal, not an accepted key', async () => {
    const toLogin: Rewrites = {
      request: (req) => (req.headers['x-api-key'] === undefined && req.headers['authorization'] === undefined && req.path.startsWith('/v2/') ? { status: 302, headers: { location: '/login', 'content-type': 'text/html' }, body: '' } : req),
    };
    const variant = await startVariant(toLogin);
    open = variant;
    const { results } = await runChecks({ profile: variant.profile, checks: aut.filter((c) => c.id === 'AUT-key-not-in-query'), seed: 2, client: variant.client });
    expect(results.map((r) => `${resultName(r.id, r.collection)}: ${r.status} ${r.message}`)).toEqual(results.map((r) => `${resultName(r.id, r.collection)}: pass ${r.message}`));
    expect(results.length).toBeGreaterThan(0);
  });

  it('and still fails one that serves a key taken from ?api_key=', async () => {
    let key = '';
    const toLoginUnlessQueryKey: Rewrites = {
      request: (req) => {
        if (req.headers['x-api-key'] !== undefined || req.headers['authorization'] !== undefined || !req.path.startsWith('/v2/')) return req;
        const query = new URL(req.path, 'http://x').searchParams;
        return query.get('api_key') === key ? { ...req, headers: { ...req.headers, 'x-api-key': key } } : { status: 302, headers: { location: '/login', 'content-type': 'text/html' }, body: '' };
      },
    };
    const variant = await startVariant(toLoginUnlessQueryKey);
    key = variant.profile.auth.apiKey!.value.value;
    open = variant;
    const { results } = await runChecks({ profile: variant.profile, checks: aut.filter((c) => c.id === 'AUT-key-not-in-query'), seed: 2, client: variant.client });
    expect(worstFinding(results)!.message).toMatch(/with the key in \?api_key= and no credential header: the key was accepted from the URL, expected 401 \(or the 302 a request without credentials gets\)/);
  });
});

describe('AUT-no-credential-in-url with a short credential (a CI key, the FastAPI tutorial\'s token that is the username)', () => {
  const noCredentialInUrl = aut.filter((c) => c.id === 'AUT-no-credential-in-url');

  it('takes the value in ordinary data (an item named "restprobe thing" for the key "thing") for no leak, noted', async () => {
    const items = await startItemsServer();
    open = items;
    const { results } = await runChecks({ profile: items.profile({ apiKey: 'thing' }), checks: noCredentialInUrl, seed: 2 });
    expect(results.map((r) => [r.status, r.message])).toEqual([['pass', '']]);
    expect(results[0]!.evidence.notes.join('\n')).toMatch(/shows the value of API_KEY outside a URL's query, as ordinary data may: a credential under 16 characters is judged only in a query/);
  });

  it('still fails it in a URL\'s query (a Location ?token=thing)', async () => {
    const items = await startItemsServer();
    const proxy = await startRewritingProxy(items.url, { response: (res, req) => (req.method === 'POST' && res.headers['location'] !== undefined ? { ...res, headers: { ...res.headers, location: `${res.headers['location']}?token=${req.headers['x-api-key']}` } } : res) });
    open = { close: async () => { await proxy.close(); await items.close(); } };
    const { results } = await runChecks({ profile: { ...items.profile({ apiKey: 'thing' }), baseUrl: proxy.url }, checks: noCredentialInUrl, seed: 2 });
    expect(results.map((r) => r.status)).toEqual(['fail']);
    expect(results[0]!.message).toMatch(/carries the caller's credential \(API_KEY\) in the location header as a query parameter/);
  });

  it('still fails it closing a URL in a Link header (<…?token=thing>; rel="next")', async () => {
    const items = await startItemsServer();
    const proxy = await startRewritingProxy(items.url, { response: (res, req) => (req.method === 'GET' ? { ...res, headers: { ...res.headers, link: `<${items.url}/things?token=${req.headers['x-api-key']}>; rel="next"` } } : res) });
    open = { close: async () => { await proxy.close(); await items.close(); } };
    const { results } = await runChecks({ profile: { ...items.profile({ apiKey: 'thing' }), baseUrl: proxy.url }, checks: noCredentialInUrl, seed: 2 });
    expect([results[0]!.status, results[0]!.message]).toEqual(['fail', expect.stringMatching(/in the link header as a query parameter/)]);
  });
});
