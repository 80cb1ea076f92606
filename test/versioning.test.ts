/**
 * The VER- checks (issue 17) beyond the fault matrix: the clean reference server passes them
 * under both header schemes too (Accept, X-API-Version), and warns of nothing but the query
 * scheme under it; versioning faults trip them under a header scheme as well; and stand-ins show how a real API may conform differently
 * (a removed version answering 404) or break the rules without a reference fault (legacy
 * `Deprecation: true`, no `Vary` under the header scheme, a path outside the current version).
 */
import { describe, expect, it } from 'vitest';
import { runChecks } from '../src/engine/run.js';
import { resultName, worstFinding } from '../src/model/result.js';
import type { TargetProfile, VersionProfile } from '../src/model/profile.js';
import { catalogue } from '../suites/catalogue.js';
import { startReferenceServer, type Versioning } from '../reference-server/src/index.js';
import { jsonOf, pathOf, queryOf, withJson, type ProxiedRequest, type Rewrites } from './support/rewriting-proxy.js';
import { cleanServerExceptions, startTarget, startVariant, targetAt, testProbeRateLimit, type Target } from './support/target.js';
import { verdictsOf } from './support/verdicts.js';

const ids = ['VER-current-version', 'VER-deprecation-headers', 'VER-removed-version-gone', 'VER-rename-transition', 'VER-no-query-scheme'] as const;
type Verdicts = Partial<Record<(typeof ids)[number], string>>;

function verdicts(start: Promise<Target>, adjust?: (p: TargetProfile) => TargetProfile): Promise<{ verdicts: Verdicts; explain: string; notes: string[] }> {
  return verdictsOf(start, ids, adjust);
}

const allPass: Verdicts = Object.fromEntries(ids.map((id) => [id, 'pass']));

/** Every path of the config (`/v2/…`) without its version segment, wherever the config names one. */
function stripVersion(v: unknown): unknown {
  if (typeof v === 'string') return /^\/v2(?=[/?]|$)/.test(v) ? v.slice(3) || '/' : v;
  if (Array.isArray(v)) return v.map(stripVersion);
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, stripVersion(x)]));
  return v;
}

/** The reference config for a scheme that keeps the paths unversioned: the version in a header or `?v=`. */
function unversionedPaths(p: TargetProfile, version: Partial<VersionProfile>): TargetProfile {
  return { ...(stripVersion(p) as TargetProfile), version: { ...p.version!, ...version } };
}

const headerScheme = (p: TargetProfile): TargetProfile => unversionedPaths(p, { scheme: 'header', header: 'Accept', vendor: 'restprobe' });
const customHeaderScheme = (p: TargetProfile): TargetProfile => unversionedPaths(p, { scheme: 'header', header: 'X-API-Version' });
const queryScheme = (p: TargetProfile): TargetProfile => unversionedPaths(p, { scheme: 'query', queryParam: 'v' });

async function versionedServer(versioning: Versioning, rewrites?: Rewrites, faults: readonly string[] = []): Promise<Target> {
  if (rewrites !== undefined) return startVariant(rewrites, faults, { versioning });
  const server = await startReferenceServer({ port: 0, probeRateLimit: testProbeRateLimit, versioning, faults: [...faults] });
  return targetAt(server, server.url, []);
}
const headerServer = (rewrites?: Rewrites): Promise<Target> => versionedServer('header', rewrites);

describe('VER-rename-transition on a read-only run', () => {
  it('finds the item to compare in a listing whose items are in an envelope of its own (DRF\'s results), declared in pagination.envelope', async () => {
    // Before, only a bare array or `data` was read: "projects lists no item", a skip naming collections[].create.body.
    const results: Rewrites = {
      response: (res, req) => {
        if (req.method !== 'GET' || pathOf(req) !== '/v2/projects' || res.status !== 200) return res;
        const { data, next_cursor: next } = jsonOf(res) as { data: unknown[]; next_cursor: string | null };
        return withJson(res, { results: data, next });
      },
    };
    const readOnly = (p: TargetProfile): TargetProfile => ({
      ...p,
      safety: { ...p.safety, readOnly: true },
      collections: p.collections.map((c) => (c.name === 'projects' ? { ...c, pagination: { ...c.pagination, envelope: { items: '/results', next: '/next', nextIs: 'cursor' } } } : c)),
    });
    // Seeded projects: the listing has an item to find (a read-only run makes none).
    const got = await verdictsOf(startVariant(results, [], { seedProjects: 3 }), ['VER-rename-transition'], readOnly);
    expect(got.verdicts, got.explain).toEqual({ 'VER-rename-transition': 'pass' });
  });
});

describe('VER- checks', () => {
  it('pass on the clean reference server under the URL scheme', async () => {
    const got = await verdicts(startTarget());
    expect(got.verdicts, got.explain).toEqual(allPass);
  });

  it('pass on the clean reference server under the URL scheme with the version in the base URL (https://…/v2, paths /projects)', async () => {
    const inBaseUrl = (p: TargetProfile): TargetProfile => ({ ...(stripVersion(p) as TargetProfile), baseUrl: `${p.baseUrl.replace(/\/+$/, '')}/v2`, version: p.version! });
    const got = await verdicts(startTarget(), inBaseUrl);
    expect(got.verdicts, got.explain).toEqual(allPass);
  });

  it('pass on the clean reference server under the header scheme (serve --versioning header)', async () => {
    const got = await verdicts(headerServer(), headerScheme);
    expect(got.verdicts, got.explain).toEqual(allPass);
  });

  it('pass on the clean reference server under a header of its own (serve --versioning x-api-version)', async () => {
    const got = await verdicts(versionedServer('x-api-version'), customHeaderScheme);
    expect(got.verdicts, got.explain).toEqual(allPass);
  });

  it.each([
    ['vary-missing', 'VER-current-version'],
    ['deprecation-on-current', 'VER-current-version'],
    ['sunset-before-deprecation', 'VER-deprecation-headers'],
    ['removed-version-500', 'VER-removed-version-gone'],
    ['rename-dropped-early', 'VER-rename-transition'],
  ])('fail under X-API-Version on fault %s: %s', async (fault, id) => {
    const got = await verdicts(versionedServer('x-api-version', undefined, [fault]), customHeaderScheme);
    expect(got.verdicts[id as (typeof ids)[number]], got.explain).toBe('fail');
  });

  it.each([
    ['under X-API-Version, 400 (Asp.Versioning, Spring)', 'x-api-version', customHeaderScheme, 400],
    ['under a vendor media type in Accept, 406 (DRF AcceptHeaderVersioning)', 'header', headerScheme, 406],
  ] as const)('pass a removed version refused %s', async (_what, versioning, scheme, status) => {
    let refused = 0;
    const refuses: Rewrites = {
      response: (res, req) => {
        if ((res.status !== 404 && res.status !== 410) || !/(^|[=\s])v?0$/.test(req.headers['x-api-version'] ?? req.headers['accept'] ?? '')) return res;
        refused++;
        return { ...res, status };
      },
    };
    const got = await verdicts(versionedServer(versioning, refuses), scheme);
    expect(refused).toBeGreaterThan(0);
    expect(got.verdicts['VER-removed-version-gone'], got.explain).toBe('pass');
  });

  it('fail the current version in a vendor media type refused (406) where plain JSON is served: the check names the version in Accept, as the run\'s other requests do not', async () => {
    const refusesCurrent: Rewrites = { response: (res, req) => (/version=2\b/.test(req.headers['accept'] ?? '') ? { ...res, status: 406 } : res) };
    const got = await verdicts(versionedServer('header', refusesCurrent), headerScheme);
    expect(got.verdicts['VER-current-version'], got.explain).toBe('fail');
  });

  it('fail a collection outside the version\'s path segment under the URL scheme (one scheme for the whole API)', async () => {
    const outside = (p: TargetProfile): TargetProfile => ({ ...p, collections: p.collections.map((c) => (c.name === 'members' ? { ...c, path: '/members', itemPath: '/members/{id}' } : c)) });
    const got = await verdicts(startTarget(), outside);
    expect(got.verdicts['VER-current-version'], got.explain).toBe('fail');
    expect(got.explain).toMatch(/^VER-current-version: fail .*\/members has no \/v2 segment/m);
  });

  it('fail a removed version answered 406 where the version is not named in Accept', async () => {
    const refuses: Rewrites = { response: (res, req) => ((res.status === 404 || res.status === 410) && /^v?0$/.test(req.headers['x-api-version'] ?? '') ? { ...res, status: 406 } : res) };
    const got = await verdicts(versionedServer('x-api-version', refuses), customHeaderScheme);
    expect(got.verdicts['VER-removed-version-gone'], got.explain).toBe('fail');
  });

  it('fail a removed version redirected to the current one (308): a client that follows it gets breaking changes', async () => {
    let redirected = 0;
    const redirects: Rewrites = {
      request: (req) => {
        if (!/^\/v0\//.test(pathOf(req))) return req;
        redirected++;
        return { status: 308, headers: { location: req.path.replace(/^\/v0\//, '/v2/'), 'content-length': '0' }, body: '' };
      },
    };
    const got = await verdicts(startVariant(redirects));
    expect(redirected).toBeGreaterThan(0);
    expect(got.verdicts['VER-removed-version-gone'], got.explain).toBe('fail');
    expect(got.explain).toMatch(/^VER-removed-version-gone: fail .*308/m);
  });

  it('pass when the deprecation notice lives behind bot protection (403): it is there all the same', async () => {
    let refused = 0;
    const botWall: Rewrites = {
      response: (res, req) => {
        if (!pathOf(req).startsWith('/v2/deprecations/')) return res;
        refused++;
        return { ...res, status: 403, headers: { 'content-type': 'text/html' }, body: '<h1>Checking your browser</h1>' };
      },
    };
    const got = await verdicts(startVariant(botWall));
    expect(refused).toBeGreaterThan(0);
    expect(got.verdicts['VER-deprecation-headers'], got.explain).toBe('pass');
  });

  it('judge a deprecated version on every collection: one younger than it (404 under it, listed first) passes; another served without Deprecation fails', async () => {
    const notFound = { status: 404, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404 }) };
    const younger: Rewrites = { request: (req) => (req.method === 'GET' && /^\/v1\/projects(\?|$)/.test(req.path) ? notFound : req) };
    const got = await verdicts(startVariant(younger));
    expect(got.verdicts['VER-deprecation-headers'], got.explain).toBe('pass');
    expect(got.notes).toContainEqual(expect.stringMatching(/^VER-deprecation-headers: version 1: \/v1\/projects 404: not served under it, as an endpoint added in a later version is not/));
    const unannounced: Rewrites = { response: (res, req) => (/^\/v1\/members(\?|$)/.test(req.path) ? { ...res, headers: Object.fromEntries(Object.entries(res.headers).filter(([k]) => k !== 'deprecation')) } : res) };
    const silent = await verdicts(startVariant(unannounced));
    expect(silent.verdicts['VER-deprecation-headers'], silent.explain).toBe('fail');
    expect(silent.explain).toMatch(/\/v1\/members.*deprecated version 1 sends no Deprecation/);
  });

  it('skip naming version.removed when the deprecated version is past its Sunset and removed, as the flow says', async () => {
    const removedAfterSunset: Rewrites = {
      response: (res, req) => (/^\/v1\//.test(pathOf(req)) ? { status: 410, headers: { 'content-type': 'application/problem+json', sunset: 'Sat, 01 Jan 2000 00:00:00 GMT' }, body: JSON.stringify({ type: 'about:blank', title: 'Gone', status: 410 }) } : res),
    };
    const got = await verdicts(startVariant(removedAfterSunset));
    expect(got.verdicts['VER-deprecation-headers'], got.explain).toBe('skip');
    expect(got.explain).toMatch(/past its Sunset and removed: no deprecated version left to judge; list them in version\.removed/);
  });

  it('fail X-API-Version when Vary names Accept but not the version header', async () => {
    const rewrites: Rewrites = { response: (res) => ({ ...res, headers: { ...res.headers, ...(res.headers['vary'] !== undefined && { vary: 'Accept' }) } }) };
    const got = await verdicts(versionedServer('x-api-version', rewrites), customHeaderScheme);
    // The query probe still judges its own subject beside the current version's failure.
    expect(got.verdicts, got.explain).toEqual({ ...allPass, 'VER-current-version': 'fail' });
    expect(got.explain).toMatch(/expected it to name X-API-Version/);
  });

  it('share walks under the query scheme too: the answers are matched by the URL as sent, ?v=2 and all', async () => {
    let atTwo = 0;
    const counting: Rewrites = { request: (req) => ((atTwo += req.method === 'GET' && pathOf(req) === '/projects' && queryOf(req).get('limit') === '2' && queryOf(req).has('label') ? 1 : 0), req) };
    const target = await versionedServer('query', counting);
    try {
      const checks = catalogue.filter((c) => c.id === 'END-pagination-terminates' || c.id === 'END-pagination-complete-walk');
      const { results } = await runChecks({ profile: queryScheme(target.profile), checks, seed: 1, client: target.client });
      expect(results.map((r) => `${r.id}: ${r.status}`).sort()).toEqual(['END-pagination-complete-walk: pass', 'END-pagination-terminates: pass']);
      // 7 items at 2 a page: 4 pages, once for both checks.
      expect(atTwo).toBe(4);
    } finally {
      await target.close();
    }
  });

  it('pass under the query scheme (serve --versioning query), but warn of the scheme', async () => {
    const got = await verdicts(versionedServer('query'), queryScheme);
    expect(got.verdicts, got.explain).toEqual({ ...allPass, 'VER-no-query-scheme': 'warn' });
    expect(got.explain).toMatch(/names its version in the query \(\?v=2\)/);
  });

  it.each([
    ['the query scheme', 'query', queryScheme, (req: ProxiedRequest) => queryOf(req).has('v'), '?v=2', /^VER-no-query-scheme: warn .*names its version in the query/],
    ['a header of its own', 'x-api-version', customHeaderScheme, (req: ProxiedRequest) => req.headers['x-api-version'] !== undefined, 'X-API-Version: 2', undefined],
  ] as const)('name the version on every request under %s: the whole catalogue, on a target that refuses a request without it (as Asp.Versioning does by default), leaves nothing behind and judges as on the clean server', async (_name, versioning, scheme, named, how, warning) => {
    const unversioned: string[] = [];
    const rewrites: Rewrites = {
      response: (res, req) => {
        if (named(req)) return res;
        unversioned.push(`${req.method} ${req.path}`);
        return { ...res, status: 400, body: JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, detail: `Name the API version: ${how}.` }) };
      },
    };
    const target = await versionedServer(versioning, rewrites);
    try {
      const { results, leftovers } = await runChecks({ profile: scheme(target.profile), checks: catalogue, seed: 1, client: target.client });
      // Nothing fails, warns or errors but what the clean server shows too; checks that need two nodes or a baseline skip.
      const off = results.filter((r) => !['pass', 'skip'].includes(r.status) && cleanServerExceptions[r.id]?.status !== r.status).map((r) => `${resultName(r.id, r.collection)}: ${r.status} ${r.message}`);
      expect(off).toEqual(warning === undefined ? [] : [expect.stringMatching(warning)]);
      expect(results.filter((r) => r.status === 'pass').length).toBeGreaterThan(100);
      // But for VER-no-query-scheme's two, which leave the header out to see whether ?v= alone chooses a version.
      expect(unversioned).toEqual(versioning === 'x-api-version' ? ['GET /projects?v=1', 'GET /projects'] : []);
      expect(leftovers).toEqual([]);
      // Cleanup deletes with the version too, and knows the checks' own deletes for what they were
      // (revoking the code flow's refresh tokens is cleanup too, and says so).
      expect(results.flatMap((r) => r.evidence.notes).filter((n) => n.startsWith('cleanup:') && !n.startsWith('cleanup: revoked a refresh token'))).toEqual([]);
    } finally {
      await target.close();
    }
  });

  it('clean up under the query scheme when Location names the version (?v=2): the ledger knows each item once, with or without it', async () => {
    const deleted: string[] = [];
    const rewrites: Rewrites = {
      response: (res, req) => {
        if (req.method === 'DELETE') deleted.push(pathOf(req));
        return res.headers['location'] === undefined || res.headers['location'].includes('?') ? res : { ...res, headers: { ...res.headers, location: `${res.headers['location']}?v=2` } };
      },
    };
    const target = await versionedServer('query', rewrites);
    try {
      // Checks that create and then delete or rewrite their items themselves.
      const own = ['END-delete-then-404', 'END-put-replaces', 'END-patch-keeps-unsent', 'END-put-idempotent'];
      const checks = catalogue.filter((c) => own.includes(c.id));
      const { results, leftovers } = await runChecks({ profile: queryScheme(target.profile), checks, seed: 1, client: target.client });
      expect(checks.length).toBe(own.length);
      expect(results.map((r) => `${r.id}: ${r.status} ${r.message}`).filter((line) => !line.includes(': pass') && !line.includes(': skip'))).toEqual([]);
      expect(leftovers).toEqual([]);
      // A check's own DELETE counts as that item's: cleanup verifies it gone, and never deletes
      // an item twice (a second DELETE could hit another client's item under a reused id).
      expect(deleted.length).toBeGreaterThan(0);
      expect(deleted.filter((path, i) => deleted.indexOf(path) !== i)).toEqual([]);
      expect(results.flatMap((r) => r.evidence.notes).filter((n) => n.startsWith('cleanup:'))).toEqual([]);
    } finally {
      await target.close();
    }
  });

  it('warn of a query parameter that chooses a version beside the URL (fault version-query-accepted), also under the header scheme', async () => {
    const got = await verdicts(startTarget(['version-query-accepted']));
    expect(got.verdicts, got.explain).toEqual({ ...allPass, 'VER-no-query-scheme': 'warn' });
    // A header-versioned API whose ?v= picks the removed version too.
    const rewrites: Rewrites = { response: (res, req) => (queryOf(req).get('v') === '0' ? { ...res, status: 410, body: JSON.stringify({ type: 'about:blank', title: 'Gone', status: 410 }) } : res) };
    const header = await verdicts(headerServer(rewrites), (p) => ({ ...headerScheme(p), version: { ...headerScheme(p).version!, deprecated: [] } }));
    expect(header.verdicts['VER-no-query-scheme'], header.explain).toBe('warn');
  });

  it('do not warn of ?v= on a header-versioned API that answers a request naming no version as its oldest one', async () => {
    // Without X-API-Version the stand-in serves the deprecated version 1 (as some APIs default to their first).
    const rewrites: Rewrites = { request: (req) => (req.headers['x-api-version'] === undefined ? { ...req, headers: { ...req.headers, 'x-api-version': '1' } } : req) };
    const got = await verdicts(versionedServer('x-api-version', rewrites), customHeaderScheme);
    expect(got.verdicts['VER-no-query-scheme'], got.explain).toBe('pass');
    // And one whose unversioned request is refused as gone is not taken for ?v= choosing the removed version.
    const refused: Rewrites = { response: (res, req) => (req.headers['x-api-version'] === undefined ? { ...res, status: 410, body: JSON.stringify({ type: 'about:blank', title: 'Gone', status: 410 }) } : res) };
    const removedOnly = await verdicts(versionedServer('x-api-version', refused), (p) => ({ ...customHeaderScheme(p), version: { ...customHeaderScheme(p).version!, deprecated: [] } }));
    expect(removedOnly.verdicts['VER-no-query-scheme'], removedOnly.explain).toBe('pass');
  });

  it('warn of ?v= read when X-API-Version is absent (an Express middleware: the header, else the query), which the header on every other request hides', async () => {
    const queryWhenNoHeader: Rewrites = { request: (req) => (req.headers['x-api-version'] === undefined && queryOf(req).has('v') ? { ...req, headers: { ...req.headers, 'x-api-version': queryOf(req).get('v')! } } : req) };
    const got = await verdicts(versionedServer('x-api-version', queryWhenNoHeader), customHeaderScheme);
    expect(got.verdicts, got.explain).toEqual({ ...allPass, 'VER-no-query-scheme': 'warn' });
    expect(got.explain).toMatch(/\?v=1 honoured|answers as the deprecated version 1/);
  });

  it('do not warn of ?v= on a URL-versioned API that refuses every query parameter it does not know with 400 (JSON:API, a request validator), ?v= naming the current version too', async () => {
    // Before, the 400 to ?v=0 was taken for the removed version chosen by the query.
    const strictQuery: Rewrites = { request: (req) => (queryOf(req).has('v') ? { status: 400, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'Unknown query parameter: v' }) } : req) };
    const got = await verdicts(startVariant(strictQuery), (p) => ({ ...p, version: { ...p.version!, deprecated: [] } }));
    expect(got.verdicts['VER-no-query-scheme'], got.explain).toBe('pass');
    expect(got.notes).toContainEqual(expect.stringMatching(/for \?v=2 as well: the API refuses the parameter whatever it names/));
  });

  it('fail a deprecated version that one collection serves and another answers with 500 before its sunset; a 404 there (an endpoint added later) still passes', async () => {
    // Before, any answer but 200 was taken for an endpoint the old version never had, and the broken one passed.
    const v1Members = (status: number): Rewrites => ({
      response: (res, req) => (req.method === 'GET' && pathOf(req) === '/v1/members' ? { status, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify({ type: 'about:blank', title: 'Error', status }) } : res),
    });
    const broken = await verdicts(startVariant(v1Members(500)));
    expect(broken.verdicts['VER-deprecation-headers'], broken.explain).toBe('fail');
    expect(broken.explain).toMatch(/VER-deprecation-headers: fail GET \/v1\/members → 500 .*: deprecated version 1 does not serve \/v1\/members, where it serves \/v1\/projects, expected 200 until the sunset date/);
    const younger = await verdicts(startVariant(v1Members(404)));
    expect(younger.verdicts['VER-deprecation-headers'], younger.explain).toBe('pass');
    // Asp.Versioning answers a version a route does not have 400 UnsupportedApiVersion: an endpoint added later too.
    const aspVersioning: Rewrites = { response: (res, req) => (req.method === 'GET' && pathOf(req) === '/v1/members' ? { status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: 'UnsupportedApiVersion', message: "The HTTP resource that matches the request URI does not support the API version '1'." } }) } : res) };
    const unsupported = await verdicts(startVariant(aspVersioning));
    expect(unsupported.verdicts['VER-deprecation-headers'], unsupported.explain).toBe('pass');
    // Any other 400 there is the collection broken under the version.
    const badRequest = await verdicts(startVariant(v1Members(400)));
    expect(badRequest.verdicts['VER-deprecation-headers'], badRequest.explain).toBe('fail');
  });

  it('take Deprecation on one collection of the current version for that resource\'s deprecation (RFC 9745), noted; on every collection it is the version that is deprecated (fault deprecation-on-current)', async () => {
    const membersDeprecated: Rewrites = { response: (res, req) => (pathOf(req) === '/v2/members' && res.status === 200 ? { ...res, headers: { ...res.headers, deprecation: '@1767225600' } } : res) };
    const got = await verdicts(startVariant(membersDeprecated));
    expect(got.verdicts['VER-current-version'], got.explain).toBe('pass');
    expect(got.notes).toContainEqual(expect.stringMatching(/sends Deprecation: @1767225600: that resource is deprecated \(RFC 9745, RFC 8594\), not the current version 2/));
  });

  it('take a rel="sunset" link (RFC 8594, as Asp.Versioning\'s and Spring\'s sunset policies send) for the notice', async () => {
    const sunsetLink: Rewrites = { response: (res, req) => (pathOf(req).startsWith('/v1/') && res.headers['link'] !== undefined ? { ...res, headers: { ...res.headers, link: res.headers['link'].replace(/rel="deprecation"/g, 'rel="sunset"') } } : res) };
    const got = await verdicts(startVariant(sunsetLink));
    expect(got.verdicts['VER-deprecation-headers'], got.explain).toBe('pass');
  });

  it('skip the query probe when no old version is configured to ask for', async () => {
    const got = await verdicts(startTarget(), (p) => ({ ...p, version: { ...p.version!, deprecated: [], removed: [], renames: [] } }));
    expect(got.verdicts['VER-no-query-scheme'], got.explain).toBe('skip');
    expect(got.explain).toMatch(/version\.deprecated|no deprecated or removed version/);
  });

  it('pass on a target whose removed version answers 404 instead of 410', async () => {
    const rewrites: Rewrites = { response: (res, req) => (pathOf(req).startsWith('/v0/') ? { ...res, status: 404, body: JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'No such version.' }) } : res) };
    const got = await verdicts(startVariant(rewrites));
    expect(got.verdicts, got.explain).toEqual(allPass);
  });

  it('fail a deprecated version that sends the legacy Deprecation: true', async () => {
    const rewrites: Rewrites = { response: (res, req) => (pathOf(req).startsWith('/v1/') ? { ...res, headers: { ...res.headers, deprecation: 'true' } } : res) };
    const got = await verdicts(startVariant(rewrites));
    // The rename is judged all the same: a malformed date makes it no less observable.
    expect(got.verdicts, got.explain).toEqual({ ...allPass, 'VER-deprecation-headers': 'fail' });
  });

  /** The deprecated version's responses without their rel="deprecation" link (RFC 9745 makes it optional). */
  const withoutNotice: Rewrites = {
    response: (res, req) => {
      if (!pathOf(req).startsWith('/v1/')) return res;
      const { link: _, ...headers } = res.headers;
      return { ...res, headers };
    },
  };

  it('warn of a deprecated version that links no deprecation notice (SHOULD), and judge the rename all the same', async () => {
    const got = await verdicts(startVariant(withoutNotice));
    expect(got.verdicts, got.explain).toEqual({ ...allPass, 'VER-deprecation-headers': 'warn' });
    expect(got.explain).toMatch(/VER-deprecation-headers: warn GET \/v1\/projects → 200 application\/json: Link: \(none\) has no rel="deprecation" or rel="sunset", expected a link to the deprecation notice \(the flow's announcement; RFC 9745 §3 defines the relation for it but does not require it\)/);
  });

  it('fail a deprecated version without a notice when it also breaks a MUST (a malformed Deprecation)', async () => {
    const rewrites: Rewrites = {
      response: async (res, req) => {
        const stripped = await withoutNotice.response!(res, req);
        return pathOf(req).startsWith('/v1/') ? { ...stripped, headers: { ...stripped.headers, deprecation: 'true' } } : stripped;
      },
    };
    const got = await verdicts(startVariant(rewrites));
    expect(got.verdicts['VER-deprecation-headers'], got.explain).toBe('fail');
  });

  it('fail a deprecation link that does not resolve (fault deprecation-link-dead), and judge the rename all the same', async () => {
    const got = await verdicts(versionedServer('url', undefined, ['deprecation-link-dead']));
    expect(got.verdicts, got.explain).toEqual({ ...allPass, 'VER-deprecation-headers': 'fail' });
  });

  it('fail the header scheme when responses do not vary on Accept', async () => {
    const rewrites: Rewrites = { response: (res) => ({ ...res, headers: Object.fromEntries(Object.entries(res.headers).filter(([name]) => name !== 'vary')) }) };
    const got = await verdicts(headerServer(rewrites), headerScheme);
    expect(got.verdicts, got.explain).toEqual({ ...allPass, 'VER-current-version': 'fail' });
  });

  it('fail the URL scheme when a configured collection is outside the current version', async () => {
    const got = await verdicts(startTarget(), (p) => ({ ...p, collections: [...p.collections, { ...p.collections[0]!, name: 'legacy', path: '/projects' }] }));
    expect(got.verdicts['VER-current-version'], got.explain).toBe('fail');
    expect(got.explain).toMatch(/\/projects has no \/v2 segment/);
  });
});

describe('VER-tolerant-reader', () => {
  /** The check's worst verdict over its collections on a variant, with its notes. */
  async function tolerant(rewrites: Rewrites): Promise<{ status: string; notes: readonly string[] }> {
    const target = await startVariant(rewrites);
    try {
      const checks = catalogue.filter((c) => c.id === 'VER-tolerant-reader');
      const { results } = await runChecks({ profile: target.profile, checks, seed: 1, client: target.client });
      const worst = worstFinding(results)!;
      return { status: worst.status, notes: worst.evidence.notes };
    } finally {
      await target.close();
    }
  }

  it('passes on a target that answers a create with 200 and the resource', async () => {
    expect((await tolerant({ response: (res, req) => (req.method === 'POST' && res.status === 201 ? { ...res, status: 200 } : res) })).status).toBe('pass');
  });

  it('passes, noting it, on a target that keeps the unknown field as part of the resource: the conventions ask only that it be accepted (§9.5)', async () => {
    // The field is kept for every item that was created with it.
    const kept = new Map<string, unknown>();
    const rewrites: Rewrites = {
      response: (res, req) => {
        const sent = req.method === 'POST' ? (JSON.parse(req.body || '{}') as Record<string, unknown>) : {};
        const extra = Object.entries(sent).find(([k]) => k.startsWith('restprobe_unknown'));
        if (extra && res.headers['location']) kept.set(res.headers['location'], extra);
        const stored = req.method === 'GET' ? (kept.get(pathOf(req)) as [string, unknown] | undefined) : undefined;
        return stored ? { ...res, body: JSON.stringify({ ...JSON.parse(res.body), [stored[0]]: stored[1] }) } : res;
      },
    };
    const { status, notes } = await tolerant(rewrites);
    expect(status).toBe('pass');
    expect(notes).toContainEqual(expect.stringMatching(/^the server stored the unknown field \("restprobe_unknown_optional_field": .*\); the conventions ask only that it be accepted$/));
  });

  it('fails on a target that refuses the unknown field with 400', async () => {
    const refuses: Rewrites = {
      request: (req) => (req.method === 'POST' && req.body.includes('restprobe_unknown') ? { status: 400, headers: { 'content-type': 'application/problem+json' }, body: '{"type":"about:blank","title":"Bad Request","status":400,"detail":"unknown field"}' } : req),
    };
    expect((await tolerant(refuses)).status).toBe('fail');
  });
});
