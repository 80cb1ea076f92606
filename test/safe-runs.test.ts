/**
 * Safe runs against targets that are not the reference server as it stands: behind a
 * gateway with a path prefix, with cleanup that fails or drops connections, with a hard
 * request cap, and with a target that echoes credentials. Nothing is left behind unless
 * the report says so; no piece of a secret reaches a report.
 */
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProfile } from '../src/config/load.js';
import { runChecks } from '../src/engine/run.js';
import { planOrder } from '../src/engine/schedule.js';
import { instancesOf } from '../src/engine/instances.js';
import type { TargetProfile } from '../src/model/profile.js';
import { buildReport } from '../src/report/model.js';
import { renderSummary } from '../src/report/terminal.js';
import { writeReports } from '../src/report/write.js';
import { catalogue } from '../suites/catalogue.js';
import { CheckFailure, defineCheck } from '../src/model/check.js';
import { startReferenceServer, type ReferenceServer } from '../reference-server/src/index.js';
import { startRecordingProxy, type RecordingProxy, type RecordingProxyOptions } from './support/recording-proxy.js';
import { referenceConfig } from './support/target.js';

let server: ReferenceServer;
let gateway: RecordingProxy;

async function behindGateway(options: RecordingProxyOptions, base = (url: string) => url): Promise<TargetProfile> {
  server = await startReferenceServer({ port: 0 });
  gateway = await startRecordingProxy(server.url, options);
  return loadProfile({ configPath: referenceConfig, baseUrl: base(gateway.url), env: { ...server.secrets } });
}

afterEach(async () => {
  await gateway.close();
  await server.close();
});

/** Items on the reference server itself, behind any gateway. */
async function itemsLeft(): Promise<number> {
  const headers = { 'x-api-key': server.secrets.RESTPROBE_API_KEY };
  let n = 0;
  for (const path of ['/v2/projects', '/v2/members', '/v2/api-keys']) {
    const res = await fetch(`${server.url}${path}?limit=20`, { headers });
    if (res.ok) n += ((await res.json()) as { data: unknown[] }).data.length;
  }
  return n;
}

async function reportsOf(profile: TargetProfile, outcome: Awaited<ReturnType<typeof runChecks>>) {
  const report = buildReport({ baseUrl: profile.baseUrl, startedAt: new Date(), durationMs: 1, seed: 1, strict: false, version: 'test', ...outcome });
  const dir = await mkdtemp(join(tmpdir(), 'restprobe-safe-'));
  await writeReports(report, { dir, formats: ['json', 'junit', 'md'], secrets: profile.secrets });
  const files = await Promise.all((await readdir(dir)).map((f) => readFile(join(dir, f), 'utf8')));
  return { report, files: files.join('\n'), terminal: renderSummary(report, { color: false, secrets: profile.secrets }) };
}

describe('behind a gateway that serves the API under /api', () => {
  it('a full run deletes everything it created, Locations without the prefix included', async () => {
    const profile = await behindGateway({ prefix: '/api' }, (url) => `${url}/api`);
    const outcome = await runChecks({ profile, checks: catalogue, seed: 5 });
    expect(outcome.leftovers).toEqual([]);
    expect(await itemsLeft()).toBe(0);
    // Cleanup never sent a DELETE outside the base URL's path.
    expect(gateway.requests.filter((r) => r.method === 'DELETE' && !r.path.startsWith('/api/'))).toEqual([]);
  });

  it('each check that judges the shared item\'s create says how its URL was read from the Location, not only the check that made it', async () => {
    const profile = await behindGateway({ prefix: '/api' }, (url) => `${url}/api`);
    // Two checks that judge the same create: one makes the item, the other takes its answer.
    const outcome = await runChecks({ profile, checks: catalogue.filter((c) => ['END-post-201-location', 'END-create-returns-resource'].includes(c.id)), seed: 5 });
    expect(outcome.results).toHaveLength(4);
    for (const r of outcome.results) {
      expect(r.status, r.id).toBe('pass');
      expect(r.evidence.notes.filter((n) => /^POST \/v2\/\w+: Location \/v2\/\S+ is outside the base URL's path/.test(n)), `${r.id} [${r.collection}]`).toHaveLength(1);
    }
  });

  it('a gateway that refuses every DELETE: each item is listed as left, with its last answer, in every report and the terminal', async () => {
    const profile = await behindGateway({ prefix: '/api', intercept: (req) => (req.method === 'DELETE' ? 403 : undefined) }, (url) => `${url}/api`);
    const outcome = await runChecks({ profile, checks: catalogue.filter((c) => ['END-put-replaces', 'END-etag-stable'].includes(c.id)), seed: 5 });
    expect(outcome.leftovers.map((l) => [l.owner, l.lastAnswer])).toEqual(
      expect.arrayContaining([
        ['END-put-replaces [projects]', 'DELETE answered 403'],
        ['END-put-replaces [members]', 'DELETE answered 403'],
        // END-etag-stable reads the item the reading checks share: the run's fixture.
        ['the run\'s fixture "projects: an item to read"', 'DELETE answered 403'],
      ]),
    );
    expect(outcome.leftovers).toHaveLength(await itemsLeft());
    const { files, terminal } = await reportsOf(profile, outcome);
    for (const l of outcome.leftovers) {
      expect(files).toContain(l.url);
      expect(terminal).toContain(l.url);
    }
    expect(terminal).toContain(`${outcome.leftovers.length} items left on the target`);
  });
});

describe('cleanup', () => {
  it('retries a DELETE whose connection was dropped, and leaves nothing', async () => {
    const dropped = new Set<string>();
    const profile = await behindGateway({
      intercept: (req) => {
        if (req.method !== 'DELETE' || dropped.has(req.url ?? '')) return undefined;
        dropped.add(req.url ?? '');
        return 'reset';
      },
    });
    const outcome = await runChecks({ profile, checks: catalogue.filter((c) => ['END-get-item-200', 'END-put-idempotent', 'END-etag-stable'].includes(c.id)), seed: 5 });
    // Each check once per writable collection: projects and members.
    expect(outcome.results.map((r) => r.status)).toEqual(Array(6).fill('pass'));
    expect(dropped.size).toBeGreaterThanOrEqual(3);
    expect(outcome.leftovers).toEqual([]);
    expect(await itemsLeft()).toBe(0);
  });

  it('a 404 from the gateway to a DELETE is no proof the item is gone', async () => {
    const profile = await behindGateway({ intercept: (req) => (req.method === 'DELETE' ? 404 : undefined) });
    const outcome = await runChecks({ profile, checks: catalogue.filter((c) => c.id === 'END-put-replaces'), seed: 5 });
    const left = { lastAnswer: 'DELETE answered 404 but GET answered 200' };
    expect(outcome.leftovers).toHaveLength(2);
    expect(outcome.leftovers).toEqual(expect.arrayContaining([expect.objectContaining({ owner: 'END-put-replaces [projects]', ...left }), expect.objectContaining({ owner: 'END-put-replaces [members]', ...left })]));
  });
});

describe('safety.maxRequests', () => {
  it('is a hard cap on what reaches the target; cleanup may pass it only to delete, and the report says so', async () => {
    const loaded = await behindGateway({});
    const profile = { ...loaded, safety: { ...loaded.safety, maxRequests: 300 } };
    const outcome = await runChecks({ profile, checks: catalogue, seed: 5 });
    const nonCleanup = gateway.requests.length - gateway.requests.filter((r) => r.method === 'DELETE').length;
    expect(nonCleanup).toBeLessThanOrEqual(300);
    expect(outcome.results.some((r) => r.status === 'error' && r.errorCode === 'ERR_REQUEST_BUDGET')).toBe(true);
    // undici may resend an idempotent request once when a kept-alive connection drops before the answer (RFC 9112 §9.3.1).
    expect(gateway.requests.length).toBeLessThanOrEqual(300 + outcome.cleanupBeyondCap + 2);
    expect(outcome.leftovers).toEqual([]);
    expect(await itemsLeft()).toBe(0);
    if (outcome.cleanupBeyondCap > 0) expect((await reportsOf(profile, outcome)).terminal).toMatch(/cleanup requests went past safety.maxRequests/);
  });
});

describe('a target that echoes the caller\'s credentials', () => {
  it('no run of 8 characters from the key reaches any report or the terminal, even cut mid-key', async () => {
    const { createServer } = await import('node:http');
    const key = 'sk_live_echo_5f4e3d2c1b0a9f8e7d6c5b4a';
    const items = new Map<string, Record<string, unknown>>();
    let next = 1;
    let served = 0;
    const echo = createServer((req, res) => {
      const seen = String(req.headers['x-api-key'] ?? '');
      // Padding puts the key across every cut a message or body makes (120, 4096 characters…).
      // Padding that moves with every answer puts the key across the cuts messages and bodies make.
      const pad = 60 + ((next * 7 + served++) % 50);
      const body = (extra: Record<string, unknown>) => JSON.stringify({ ...extra, seen_by: `${'p'.repeat(pad)}${seen}`, also: `${'q'.repeat(4080 - pad)}${seen}` });
      req.resume();
      req.on('end', () => {
        const path = (req.url ?? '').split('?')[0]!;
        if (req.method === 'POST' && path === '/things') {
          const id = String(next++);
          items.set(id, { id });
          res.writeHead(201, { 'content-type': 'application/json', location: `/things/${id}` }).end(body({ id }));
        } else if (req.method === 'PUT' || req.method === 'PATCH') {
          // The write is ignored, and the answer is the echo: update checks fail and quote it.
          res.writeHead(200, { 'content-type': 'application/json' }).end(body({ id: path.split('/')[2] }));
        } else if (req.method === 'DELETE') {
          items.delete(path.split('/')[2] ?? '');
          res.writeHead(204).end();
        } else {
          res.writeHead(200, { 'content-type': 'application/json', 'x-echo': seen }).end(body({ data: [] }));
        }
      });
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(echo.address() as { port: number }).port}`;
    // Placeholders for afterEach.
    server = { close: async () => {} } as ReferenceServer;
    gateway = { close: async () => new Promise<void>((resolve) => { echo.closeAllConnections(); echo.close(() => resolve()); }) } as RecordingProxy;
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-echo-'));
    const config = join(dir, 'echo.json');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(config, JSON.stringify({
      auth: { apiKey: { header: 'X-API-Key', value: { env: 'ECHO_KEY' } } },
      collections: [{ name: 'things', path: '/things', create: { body: { name: 'x' } }, pagination: { style: 'cursor', maxLimit: 5 }, mark: { field: 'name' }, filters: ['name'] }],
      properties: { numRuns: 1 },
    }));
    const profile = await loadProfile({ configPath: config, baseUrl: url, env: { ECHO_KEY: key } });
    const outcome = await runChecks({ profile, checks: catalogue, seed: 5 });
    expect(outcome.results.filter((r) => r.status === 'fail').length).toBeGreaterThan(3);
    const { files, terminal } = await reportsOf(profile, outcome);
    const everything = files + terminal + JSON.stringify(outcome.results);
    for (let i = 0; i + 8 <= key.length; i++) expect(everything).not.toContain(key.slice(i, i + 8));
    expect(items.size).toBe(0);
  });
});

describe('--no-destructive (safety.destructive: false)', () => {
  it('sends no oversized or deeply nested body, and says so in the evidence', async () => {
    const loaded = await behindGateway({});
    const profile = { ...loaded, safety: { ...loaded.safety, destructive: false } };
    const outcome = await runChecks({ profile, checks: catalogue.filter((c) => c.id === 'ERR-bad-input-no-5xx'), seed: 2 });
    expect(outcome.results[0]!.status).toBe('pass');
    expect(outcome.results[0]!.evidence.notes).toContain('oversized and deeply nested bodies not sent (safety.destructive is false)');
    const largest = Math.max(...gateway.requests.map((r) => Number(r.headers['content-length'] ?? 0)));
    expect(largest).toBeLessThan(4_000);
  });
});

describe('a target broken by restprobe\'s own probe', () => {
  it('says once that the target stopped working after the check, blocks the checks after it, and lists what it left', async () => {
    let broken = false;
    let deep = 0;
    const loaded = await behindGateway({
      // Stores a deeply nested body, and from then on every GET and POST of projects answers 500.
      intercept: (req) => {
        const onProjects = (req.url ?? '').startsWith('/v2/projects');
        if (broken && onProjects && (req.method === 'GET' || req.method === 'POST')) return 500;
        if (req.method === 'POST' && onProjects && Number(req.headers['content-length'] ?? 0) > 15_000 && Number(req.headers['content-length']) < 100_000) {
          broken = true;
          deep++;
          return 201;
        }
        return undefined;
      },
      headers: (status): Record<string, string> => (status === 201 ? { location: `/v2/projects/deep-${deep}` } : {}),
    });
    const profile = { ...loaded, collections: loaded.collections.filter((c) => c.name === 'projects') };
    const after = defineCheck({
      id: 'END-after-the-damage',
      title: 'runs after the damage',
      rule: 'The collection MUST answer 200.',
      severity: 'must',
      needs: ['collection'],
      schedule: 'last',
      async run(ctx, { collection }) {
        const res = await ctx.http.send({ method: 'GET', path: collection.path });
        if (res.status !== 200) throw new CheckFailure(`found ${res.status}, expected 200`);
      },
    });
    const checks = [...catalogue.filter((c) => ['ERR-bad-input-no-5xx', 'END-get-item-200', 'ERR-unknown-path-404'].includes(c.id)), after];
    // A seed whose plan runs the bad-input check before the other last one.
    const seed = [...Array(50).keys()].find((n) => planOrder(instancesOf(checks, profile), n).findIndex((i) => i.check.id === 'ERR-bad-input-no-5xx') < planOrder(instancesOf(checks, profile), n).findIndex((i) => i.check === after))!;
    const outcome = await runChecks({ profile, checks, seed });
    const byId = Object.fromEntries(outcome.results.map((r) => [r.id, r]));
    // After a check the probe is one request, the first collection's, told against its answer before the run.
    expect(outcome.damage).toMatchObject({ after: 'ERR-bad-input-no-5xx [projects]', now: ['GET /v2/projects → 500'], before: ['GET /v2/projects → 200'] });
    expect(byId['END-after-the-damage']).toMatchObject({ status: 'error', errorCode: 'ERR_BLOCKED', rootCause: 'the target stopped working after ERR-bad-input-no-5xx [projects]' });
    expect(byId['END-get-item-200']!.status).toBe('pass');
    expect(outcome.leftovers.map((l) => l.url)).toEqual(expect.arrayContaining([expect.stringMatching(/\/v2\/projects\/deep-1$/)]));
    const { terminal, files } = await reportsOf(profile, outcome);
    expect(terminal).toContain('the target stopped working after ERR-bad-input-no-5xx [projects]');
    expect(files).toContain('the target stopped working after ERR-bad-input-no-5xx [projects]');
  });
});

describe('the unsupported-method probe', () => {
  it('changes nothing on a target whose Allow is stale and whose collection takes a bulk PATCH: it sends TRACE, never PATCH, PUT or DELETE to a collection', async () => {
    const { createServer } = await import('node:http');
    const items = [{ id: '1', name: 'keep me' }];
    const seen: string[] = [];
    let allow = 'GET, HEAD, OPTIONS, POST';
    const stale = createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        seen.push(`${req.method} ${req.url}`);
        if (req.method === 'OPTIONS') return void res.writeHead(204, { allow }).end();
        if (req.method === 'PATCH' && req.url === '/things') {
          // A bulk update the Allow header forgot: applies a valid body to every item.
          const body = JSON.parse(text || '{}') as Record<string, unknown>;
          if (Object.values(body).some((v) => typeof v !== 'string')) return void res.writeHead(422, { 'content-type': 'application/problem+json' }).end('{"status":422}');
          for (const item of items) Object.assign(item, body);
          return void res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        }
        res.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"status":404}');
      });
    });
    await new Promise<void>((resolve) => stale.listen(0, '127.0.0.1', resolve));
    server = { close: async () => {} } as ReferenceServer;
    gateway = { close: () => new Promise<void>((resolve) => stale.close(() => resolve())) } as RecordingProxy;
    const url = `http://127.0.0.1:${(stale.address() as { port: number }).port}`;
    const { testProfile } = await import('./support/profile.js');
    const { thingsCollection } = await import('./support/items-server.js');
    // Read-only: the stand-in creates nothing, and TRACE is safe, so the check runs all the same.
    const base = testProfile(url);
    const profile = { ...base, safety: { ...base.safety, readOnly: true }, collections: [thingsCollection()] };
    const check = catalogue.filter((c) => c.id === 'END-method-not-allowed-405');
    // Whatever Allow says, the probe is TRACE: safe, so no bulk handler can be reached.
    for (const stated of ['GET, HEAD, OPTIONS, POST', 'GET, HEAD, OPTIONS, POST, PATCH, PUT']) {
      allow = stated;
      const run = await runChecks({ profile, checks: check, seed: 1 });
      // TRACE gets the stand-in's 404: no 405, which RFC 9110 asks as a SHOULD.
      expect(run.results[0]!.status).toBe('warn');
    }
    expect(items).toEqual([{ id: '1', name: 'keep me' }]);
    expect(seen.filter((s) => /^(PATCH|PUT|DELETE) \/things$/.test(s))).toEqual([]);
    expect(seen).toContain('TRACE /things');
  });
});

describe('collections[].methods', () => {
  it('a collection configured without PUT gets no PUT on its items; its PUT checks run on the collections that take PUT, or skip naming the key', async () => {
    const loaded = await behindGateway({});
    const profile = { ...loaded, collections: loaded.collections.map((c, i) => (i === 0 ? { ...c, methods: ['GET', 'POST', 'PATCH', 'DELETE'] as const } : c)) };
    const outcome = await runChecks({ profile, checks: catalogue, seed: 8 });
    const projectsPath = profile.collections[0]!.path;
    expect(gateway.requests.filter((r) => r.method === 'PUT' && r.path.startsWith(`${projectsPath}/`)).map((r) => r.path)).toEqual([]);
    const put = outcome.results.filter((r) => ['END-put-replaces', 'END-put-idempotent', 'END-put-creates-missing'].includes(r.id));
    expect(put.map((r) => [r.status, r.collection])).toEqual([['pass', 'members'], ['pass', 'members'], ['pass', 'members']]);
    expect(outcome.results.filter((r) => r.status === 'fail' || r.status === 'error').map((r) => `${r.id}: ${r.message}`)).toEqual([]);
    expect(outcome.leftovers).toEqual([]);
    const alone = await runChecks({ profile: { ...profile, collections: [profile.collections[0]!] }, checks: catalogue.filter((c) => c.id.startsWith('END-put-')), seed: 8 });
    expect(alone.results.map((r) => [r.status, r.configKey])).toEqual([['skip', 'collections[].methods'], ['skip', 'collections[].methods'], ['skip', 'collections[].methods']]);
  });
});

describe('what cleanup cannot see (review findings)', () => {
  it('an item that survives the check\'s own DELETE (a soft delete) is listed, not forgotten', async () => {
    server = await startReferenceServer({ port: 0, faults: ['delete-soft'] });
    gateway = await startRecordingProxy(server.url);
    const profile = await loadProfile({ configPath: referenceConfig, baseUrl: gateway.url, env: { ...server.secrets } });
    const outcome = await runChecks({ profile, checks: catalogue.filter((c) => c.id === 'END-delete-then-404'), seed: 1 });
    expect(outcome.results[0]!.status).toBe('fail');
    expect(outcome.leftovers).toEqual(expect.arrayContaining([expect.objectContaining({ owner: 'END-delete-then-404 [projects]', lastAnswer: expect.stringContaining('soft delete') })]));
  });

  it('a create that got no answer is listed as possibly created, with the mark to find it by', async () => {
    const loaded = await behindGateway({ delayMs: (req) => (req.method === 'POST' ? 1_500 : 0) });
    const profile = { ...loaded, http: { ...loaded.http, timeoutMs: 300 } };
    const outcome = await runChecks({ profile, checks: catalogue.filter((c) => c.id === 'END-put-replaces'), seed: 1 });
    expect(outcome.results[0]).toMatchObject({ status: 'error', errorCode: 'ERR_TIMEOUT' });
    expect(outcome.leftovers).toEqual(expect.arrayContaining([expect.objectContaining({ owner: 'END-put-replaces [projects]', lastAnswer: expect.stringMatching(/^POST got no answer \(ERR_TIMEOUT\): an item may have been created; look for label = restprobe-/) })]));
  });

  it('a spent request budget is no sign of damage: no "stopped working" line', async () => {
    const loaded = await behindGateway({});
    const profile = { ...loaded, safety: { ...loaded.safety, maxRequests: 40 } };
    const outcome = await runChecks({ profile, checks: catalogue.filter((c) => c.section === 'ERR'), seed: 1 });
    expect(outcome.results.some((r) => r.errorCode === 'ERR_REQUEST_BUDGET')).toBe(true);
    expect(outcome.damage).toBeUndefined();
  });
});

describe('the reference server\'s append-only events (methods GET and POST)', () => {
  it('get no write and no create at all, their write checks skip naming collections[].methods, and their reads are judged', async () => {
    const loaded = await behindGateway({});
    const profile = { ...loaded, collections: loaded.collections.filter((c) => c.name === 'events') };
    expect(profile.collections[0]!.methods).toEqual(['GET', 'POST']);
    const outcome = await runChecks({ profile, checks: catalogue, seed: 3 });
    const byId = Object.fromEntries(outcome.results.map((r) => [r.id, r]));
    expect(byId['END-get-collection-200']!.status).toBe('pass');
    expect(byId['END-method-not-allowed-405']!.status).toBe('pass');
    expect(byId['END-get-item-200']).toMatchObject({ status: 'skip', configKey: 'collections[].methods', message: 'events takes no DELETE: restprobe would leave what it creates' });
    // Nothing was written: the only requests besides GET, HEAD and OPTIONS are the unsupported-method probes (TRACE, a safe method).
    const unsafe = gateway.requests.filter((r) => r.path.startsWith('/v2/events') && !['GET', 'HEAD', 'OPTIONS'].includes(r.method)).map((r) => `${r.method} ${r.path}`);
    expect(unsafe.length).toBeGreaterThan(0);
    expect(new Set(unsafe)).toEqual(new Set(['TRACE /v2/events']));
    expect(outcome.results.filter((r) => r.status === 'fail' || r.status === 'error').map((r) => `${r.id}: ${r.message}`)).toEqual([]);
  });
});
