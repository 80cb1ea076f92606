/**
 * Issue 27's "counted exactly": behind a counting proxy and a rate limiter, `restprobe run`
 * reports the requests the target saw (retries, cleanup and the health phase included),
 * each check's share is what it sent, the rest is the run's, and the waits are counted.
 */
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReferenceServer, type ReferenceServer } from '../reference-server/src/index.js';
import { startRecordingProxy, type RecordingProxy, type Recorded } from './support/recording-proxy.js';
import { runInProcess } from './support/run-in-process.js';
import { referenceConfig, testProbeRateLimit } from './support/target.js';
import { jwtAttackChecks } from '../suites/05-authentication/jwt-attacks.js';
import { otherFormatsAccept, unsupportedAccept, unsupportedContentType } from '../src/check-kit/probes.js';

interface CountedReport {
  readonly requests: number;
  readonly runRequests: number;
  readonly waits?: { readonly count: number; readonly wallMs: number };
  readonly checks: readonly { readonly evidence: { readonly requestCount: number } }[];
}

let server: ReferenceServer;
let proxy: RecordingProxy;
beforeAll(async () => {
  // 10 requests a second for the run's key: a run's pace meets it however loaded the machine (at 30 a second a loaded run never did), so 429s are waited out and retried.
  server = await startReferenceServer({ port: 0, rateLimit: { limit: 10, windowMs: 1_000 }, probeRateLimit: testProbeRateLimit, webhookSchedule: 'short' });
  proxy = await startRecordingProxy(server.url);
  // The CLI reads the config's secrets from the environment; they are taken back afterwards (a fork runs other files next).
  Object.assign(process.env, server.secrets);
});
afterAll(async () => {
  for (const name of Object.keys(server.secrets)) delete process.env[name];
  await proxy.close();
  await server.close();
});

describe('restprobe run counts exactly', () => {
  it('reports the requests a counting proxy saw, each check its share and the run the rest, and the waits', { timeout: 120_000 }, async () => {
    const ran = await runInProcess(proxy.url, { config: referenceConfig, only: ['ERR'], seed: '1', format: 'json' });
    expect(ran.error?.message).toBeUndefined();
    const report = JSON.parse(await readFile(join(ran.dir, 'restprobe-report.json'), 'utf8')) as CountedReport;
    expect(report.requests).toBe(proxy.requests.length);
    expect(report.checks.reduce((n, c) => n + c.evidence.requestCount, 0) + report.runRequests).toBe(report.requests);
    // The health phase's two requests at least are the run's own.
    expect(report.runRequests).toBeGreaterThanOrEqual(2);
    expect(report.waits?.count).toBeGreaterThan(0);
    expect(ran.out).toMatch(new RegExp(`${report.requests} requests, waited [\\d.]+ (ms|s) \\(${report.waits!.count} waits?\\)`));
  });

  it("goes under the quota from the start when rateLimit declares the run key's: no 429 met, and it said so at the start", { timeout: 120_000 }, async () => {
    // The reference config, with the quota declared for the run's own key (no burst key of its own).
    const config = JSON.parse(await readFile(referenceConfig, 'utf8')) as { rateLimit?: Record<string, unknown> };
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-paced-'));
    const path = join(dir, 'restprobe.config.json');
    await writeFile(path, JSON.stringify({ ...config, rateLimit: { limit: 30, window: '1s' } }));
    // A server of its own at 30 a second: a pace under a quota that large holds under load (at 10 a second, a late timer's catch-up met a 429).
    const own = await startReferenceServer({ port: 0, rateLimit: { limit: 30, windowMs: 1_000 }, probeRateLimit: testProbeRateLimit, webhookSchedule: 'short' });
    const counting = await startRecordingProxy(own.url);
    Object.assign(process.env, own.secrets);
    try {
      const ran = await runInProcess(counting.url, { config: path, only: ['ERR'], seed: '1', format: 'json' });
      expect(ran.error?.message).toBeUndefined();
      const report = JSON.parse(await readFile(join(ran.dir, 'restprobe-report.json'), 'utf8')) as CountedReport;
      expect(ran.out).toMatch(/^restprobe: paced at 27 requests\/s \(9\/10 of rateLimit's quota for the run's key/m);
      expect(report.waits?.count ?? 0).toBe(0);
      expect(report.requests).toBe(counting.requests.length);
    } finally {
      Object.assign(process.env, server.secrets);
      await counting.close();
      await own.close();
    }
  });
});

/**
 * `only`'s checks against a reference server of their own (no limit on the run's key: a 429's
 * retry would send a request twice) behind a counting proxy: the report, what the proxy saw,
 * and the run's API key.
 */
async function countedRun<R>(only: readonly string[], intercept?: (req: IncomingMessage) => number | undefined): Promise<{ report: R; requests: readonly Recorded[]; apiKey: string }> {
  const own = await startReferenceServer({ port: 0, probeRateLimit: testProbeRateLimit });
  const counting = await startRecordingProxy(own.url, intercept === undefined ? {} : { intercept, headers: () => ({ 'content-type': 'application/problem+json' }) });
  Object.assign(process.env, own.secrets);
  let ran: Awaited<ReturnType<typeof runInProcess>>;
  try {
    ran = await runInProcess(counting.url, { config: referenceConfig, only: [...only], seed: '1', format: 'json' });
  } finally {
    Object.assign(process.env, server.secrets);
    await counting.close();
    await own.close();
  }
  expect(ran.error?.message).toBeUndefined();
  return { report: JSON.parse(await readFile(join(ran.dir, 'restprobe-report.json'), 'utf8')) as R, requests: counting.requests, apiKey: own.secrets.RESTPROBE_API_KEY! };
}

/** The JWT attack checks, counted; each token presented, by route. */
async function jwtChecksCounted(intercept?: (req: IncomingMessage) => number | undefined): Promise<{ report: JwtReport; presented: Map<string, number> }> {
  const { report, requests } = await countedRun<JwtReport>(jwtAttackChecks.map((c) => c.id), intercept);
  const presented = new Map<string, number>();
  for (const r of requests) {
    const auth = r.headers['authorization'];
    if (r.method !== 'GET' || typeof auth !== 'string' || !auth.startsWith('Bearer ')) continue;
    presented.set(`${r.path} ${auth}`, (presented.get(`${r.path} ${auth}`) ?? 0) + 1);
  }
  return { report, presented };
}

interface JwtReport {
  readonly checks: { id: string; status: string; errorCode?: string; evidence: { exchanges: { request: { method: string }; response?: { status: number } }[] } }[];
}

describe('the JWT attack checks share the answer that shows a token accepted', () => {
  it('presents the run\'s genuine token, and its control signed with the test key, once per route', { timeout: 120_000 }, async () => {
    const { report, presented } = await jwtChecksCounted();
    expect(Object.fromEntries(report.checks.map((c) => [c.id, c.status]))).toEqual(Object.fromEntries(jwtAttackChecks.map((c) => [c.id, 'pass'])));
    // Forgeries are each their own token: a token sent twice to one route is an acceptance asked again.
    expect([...presented].filter(([, n]) => n > 1).map(([k, n]) => `${k.split(' ')[0]}: one token ×${n}`)).toEqual([]);
    // Each check still holds an accepted request in its own evidence, before the refusals it judges.
    for (const c of report.checks) expect(c.evidence.exchanges.some((x) => x.request.method === 'GET' && x.response !== undefined && x.response.status === 200), c.id).toBe(true);
  });

  it('shares no refusal: a token refused once (a passing 500) is the one check\'s setup error, and every later check asks again', { timeout: 120_000 }, async () => {
    let refused = false;
    const { report } = await jwtChecksCounted((req) => {
      if (refused || req.method !== 'GET' || !String(req.headers.authorization ?? '').startsWith('Bearer ') || !req.url?.startsWith('/v2/projects')) return undefined;
      refused = true;
      return 500;
    });
    expect(refused).toBe(true);
    const notPassed = report.checks.filter((c) => c.status !== 'pass');
    expect(notPassed.map((c) => [c.id, c.status, c.errorCode])).toHaveLength(1);
    expect(notPassed[0]).toMatchObject({ status: 'error', errorCode: 'ERR_SETUP' });
  });
});

interface SharedReport {
  readonly checks: { id: string; collection?: string; status: string; evidence: { exchanges: { request: { method: string; url: string } }[] } }[];
}

/** Checks that judge the same answers by different rules, each group sharing one set of them. */
const sharing = {
  cursorProbes: ['END-cursor-tamper-400', 'END-cursor-tamper-evident'],
  deletion: ['END-delete-204', 'END-delete-then-404'],
  errorProbes: ['ERR-unsupported-accept-406', 'ERR-problem-json-content-type', 'END-method-not-allowed-405'],
  linkedItems: ['RES-path-design', 'RES-links-resolve'],
  plainGets: ['END-etag-present', 'END-etag-stable', 'END-vary-accept', 'END-head-matches-get', 'RES-json-content-type', 'LIM-cache-control-present', 'LIM-cache-control-well-formed', 'AUT-missing-credentials-401'],
};

describe('checks that judge the same answers share them', () => {
  it('sends each shared set once (cursor probes, a deletion, the linked items, error probes, plain GETs), every check holding it in its own evidence', { timeout: 120_000 }, async () => {
    const { report, requests, apiKey } = await countedRun<SharedReport>(Object.values(sharing).flat());
    expect(report.checks.filter((c) => c.status !== 'pass').map((c) => `${c.id} ${c.collection ?? ''}: ${c.status}`)).toEqual([]);
    // With the run's key, and not the Accepts ERR-unsupported-accept-406 and END-vary-accept send to see the answer change.
    const sent = (method: string, path: RegExp) => requests.filter((r) => r.method === method && path.test(r.path) && r.headers['x-api-key'] === apiKey && String(r.headers['accept']).split(',')[0] !== unsupportedAccept && r.headers['accept'] !== otherFormatsAccept).length;
    const urls = (id: string, collection: string | undefined, method: string) => report.checks.find((c) => c.id === id && c.collection === collection)!.evidence.exchanges.filter((x) => x.request.method === method).map((x) => x.request.url);

    // Cursor probes: a string that is no cursor is sent once, and both checks hold it.
    expect(sent('GET', /[?&]cursor=restprobe-not-a-cursor/)).toBe(1);
    for (const id of sharing.cursorProbes) expect(urls(id, 'projects', 'GET').some((u) => u.includes('cursor=restprobe-not-a-cursor')), id).toBe(true);
    // A deletion: one item per collection deleted, the same one in each check's evidence.
    for (const collection of ['projects', 'members']) {
      const deleted = new Set(sharing.deletion.flatMap((id) => urls(id, collection, 'DELETE')));
      expect([...deleted], collection).toHaveLength(1);
      for (const id of sharing.deletion) expect(urls(id, collection, 'DELETE'), `${id} ${collection}`).toContain([...deleted][0]);
    }
    // The linked items: one task made under one project, for both checks.
    expect(sent('POST', /^\/v2\/projects\/[^/?]+\/tasks$/)).toBe(1);
    for (const id of sharing.linkedItems) expect(urls(id, undefined, 'POST').some((u) => /\/tasks$/.test(u)), id).toBe(true);
    // Error probes: an unsupported Accept and an unsupported method once per collection, for every check that judges them.
    const probed = (method: string, accept: string) => requests.filter((r) => r.method === method && r.path === '/v2/members' && String(r.headers['accept']).split(',')[0] === accept).length;
    expect(probed('GET', unsupportedAccept)).toBe(1);
    expect(probed('TRACE', 'application/json')).toBe(1);
    for (const id of ['ERR-unsupported-accept-406', 'ERR-problem-json-content-type', 'END-vary-accept']) {
      expect(report.checks.find((c) => c.id === id && c.collection === 'members')!.evidence.exchanges.length, id).toBeGreaterThan(0);
    }
    // Plain GETs: the members listing once (the health phase reads projects' too), the shared item once.
    expect(sent('GET', /^\/v2\/members$/)).toBe(1);
    expect(sent('GET', /^\/v2\/projects$/)).toBe(2);
    const itemGets = requests.filter((r) => r.method === 'GET' && /^\/v2\/members\/[0-9a-f-]{36}$/.test(r.path));
    const byItem = new Map<string, number>();
    for (const r of itemGets) byItem.set(r.path, (byItem.get(r.path) ?? 0) + 1);
    const shared = urls('END-etag-present', 'members', 'GET').find((u) => /\/v2\/members\/[0-9a-f-]{36}$/.test(u))!;
    // END-etag-stable's second GET is its own: two GETs in all.
    expect(byItem.get(new URL(shared).pathname)).toBe(2);
  });
});

describe('an error probe is shared only when its answer is the probe\'s subject', () => {
  it('a 503 to the unsupported Content-Type probe stays with the check that met it: the other check that judges the probe sends its own', { timeout: 120_000 }, async () => {
    let refused = false;
    const ids = ['ERR-unsupported-content-type-415', 'ERR-problem-json-content-type'];
    const { report, requests } = await countedRun<SharedReport>(ids, (req) => {
      if (refused || req.method !== 'POST' || req.url !== '/v2/members' || req.headers['content-type'] !== unsupportedContentType) return undefined;
      refused = true;
      return 503;
    });
    expect(refused).toBe(true);
    // The 503 (a write is not retried), then the probe again for the other check.
    expect(requests.filter((r) => r.method === 'POST' && r.path === '/v2/members' && r.headers['content-type'] === unsupportedContentType)).toHaveLength(2);
    const members = report.checks.filter((c) => c.collection === 'members');
    expect(members.map((c) => c.id).sort()).toEqual([...ids].sort());
    expect(members.filter((c) => c.status !== 'pass').length).toBeLessThanOrEqual(1);
  });
});
