/**
 * Verdict accuracy (issue 12): each finding of the independent review, proven both ways.
 * A check that was too strict passes on a conforming variant of the reference server; a
 * check that was too lax fails on a violating one. Variants are the reference server
 * behind a rewriting proxy that changes exactly one behaviour, or with a named fault.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { testProfile, thingsCollection } from './support/profile.js';
import { describe, expect, it } from 'vitest';
import { runChecks } from '../src/engine/run.js';
import { resultName, worstFinding, type CheckResult } from '../src/model/result.js';
import type { CollectionProfile, TargetProfile } from '../src/model/profile.js';
import { needs, Unmet } from '../src/model/needs.js';
import { catalogue } from '../suites/catalogue.js';
import { isObject } from '../src/model/json.js';
import { jsonOf, pathOf, queryOf, withJson, type ProxiedRequest, type ProxiedResponse, type Rewrites } from './support/rewriting-proxy.js';
import { adjustProjects, cleanServerExceptions, startTarget, startVariant, type Target } from './support/target.js';

type Verdicts = Record<string, string>;

/**
 * Runs each check alone (as `restprobe run --only` would: once per collection it applies
 * to) and returns its status by id: the worst finding over its collections.
 */
async function judge(target: Target, ids: readonly string[], profile: TargetProfile): Promise<{ verdicts: Verdicts; results: CheckResult[] }> {
  const results: CheckResult[] = [];
  const verdicts: Verdicts = {};
  for (const id of ids) {
    const check = catalogue.find((c) => c.id === id);
    if (check === undefined) throw new Error(`no check ${id}`);
    const run = (await runChecks({ profile, checks: [check], seed: 1, client: target.client })).results;
    results.push(...run);
    verdicts[id] = worstFinding(run)!.status;
  }
  return { verdicts, results };
}

/** What checks answered on a target: statuses by id, and every message for a mismatch. */
interface Judged {
  readonly verdicts: Verdicts;
  readonly explain: string;
  readonly results: readonly CheckResult[];
}

/** The verdicts of `ids` on a target, which is closed afterwards. */
async function verdictsOn(start: Promise<Target>, ids: readonly string[], adjust?: (p: TargetProfile) => TargetProfile): Promise<Judged> {
  const target = await start;
  try {
    const { verdicts, results } = await judge(target, ids, adjust ? adjust(target.profile) : target.profile);
    return { verdicts, explain: results.map((r) => `${resultName(r.id, r.collection)}: ${r.status} ${r.message}`).join('\n'), results };
  } finally {
    await target.close();
  }
}

/** The results of `ids` run together in one run (their shared answers shared) on a target, closed afterwards; `before` prepares it. */
async function runTogether<T extends Target>(start: Promise<T>, ids: readonly string[], before?: (target: T) => Promise<void>): Promise<CheckResult[]> {
  const target = await start;
  try {
    await before?.(target);
    return (await runChecks({ profile: target.profile, checks: catalogue.filter((c) => ids.includes(c.id)), seed: 1, client: target.client })).results;
  } finally {
    await target.close();
  }
}

/** Asserts statuses, showing every message when they differ. */
function expectVerdicts(got: Judged, want: Verdicts): void {
  expect(got.verdicts, got.explain).toEqual(want);
}

const isItem = (req: ProxiedRequest): boolean => /^\/v2\/projects\/[^/]+$/.test(pathOf(req));

describe('1. HEAD headers are a SHOULD, apart from status and content', () => {
  it('a HEAD without ETag (hashed from the content: Django, Spring) passes both, noted, as RFC 9110 §9.3.2 lets it; another ETag, or no Cache-Control, warns', async () => {
    const without = (name: string): Rewrites => ({
      response: (res, req) => (req.method === 'HEAD' ? { ...res, headers: Object.fromEntries(Object.entries(res.headers).filter(([k]) => k !== name)) } : res),
    });
    expectVerdicts(await verdictsOn(startVariant(without('etag')), ['END-head-matches-get', 'END-head-headers-match']), { 'END-head-matches-get': 'pass', 'END-head-headers-match': 'pass' });
    const otherEtag: Rewrites = { response: (res, req) => (req.method === 'HEAD' ? { ...res, headers: { ...res.headers, etag: '"head-of-its-own"' } } : res) };
    expectVerdicts(await verdictsOn(startVariant(otherEtag), ['END-head-headers-match']), { 'END-head-headers-match': 'warn' });
    expectVerdicts(await verdictsOn(startVariant(without('cache-control')), ['END-head-headers-match']), { 'END-head-headers-match': 'warn' });
  });

  it('a HEAD that differs in status still fails', async () => {
    const headIs204: Rewrites = { response: (res, req) => (req.method === 'HEAD' && isItem(req) ? { ...res, status: 204 } : res) };
    expectVerdicts(await verdictsOn(startVariant(headIs204), ['END-head-matches-get']), { 'END-head-matches-get': 'fail' });
  });
});

describe('an ETag hashed from a representation that moves on its own', () => {
  /** Each GET of a project carries `fetched_at` (`at` of the read's number, from 1) and an ETag hashed from the body, as Express's default does. */
  const stamped = (at: (read: number) => number): Rewrites => {
    let reads = 0;
    return {
      response: (res, req) => {
        if (req.method !== 'GET' || !isItem(req) || res.status !== 200) return res;
        const body = JSON.stringify({ ...jsonOf(res), fetched_at: at(++reads) });
        return { ...res, body, headers: { ...res.headers, etag: `W/"${createHash('sha1').update(body).digest('base64url')}"` } };
      },
    };
  };

  /** `fetched_at` declared a field the server changes on its own (collections[].volatileFields). */
  const declared = (p: TargetProfile): TargetProfile => ({ ...p, collections: p.collections.map((c) => (c.name === 'projects' ? { ...c, volatileFields: [...c.volatileFields, 'fetched_at'] } : c)) });

  it('END-etag-stable, where the field is declared volatile, skips where it changes on every read, and passes where it changed once, between the run\'s GET and the check\'s; undeclared, it still fails', async () => {
    // Before, a new representation's new ETag failed as an unstable validator, the field declared or not.
    // The projects' items are stamped; the members' are not, and pass either way.
    const everyRead = await verdictsOn(startVariant(stamped((read) => read)), ['END-etag-stable'], declared);
    expect(everyRead.explain).toMatch(/^END-etag-stable \[projects\]: skip the item's representation changed in its volatile fields between two GETs back to back as well, and its ETag with it/m);
    // Changed once: from the second read on.
    const once = await verdictsOn(startVariant(stamped((read) => (read >= 2 ? 1 : 0))), ['END-etag-stable'], declared);
    expect(once.explain).toMatch(/^END-etag-stable \[projects\]: pass/m);
    expect(once.results.find((r) => r.collection === 'projects')!.evidence.notes).toContainEqual(expect.stringMatching(/^the item's representation changed between the run's shared GET and this one in its volatile fields \(.*fetched_at\)/));
    const undeclared = await verdictsOn(startVariant(stamped((read) => read)), ['END-etag-stable']);
    expect(undeclared.explain).toMatch(/^END-etag-stable \[projects\]: fail two GETs of an unchanged item carried ETags/m);
  });
});

describe('If-Match with a weak ETag (Express, NestJS)', () => {
  /** Items' ETags made weak; with `refuseStar`, a write with If-Match: * refused with 412, as a hand-written `if (req.get('if-match') !== etag)` does. */
  const weak = (refuseStar: boolean): Rewrites => ({
    request: (req) => (refuseStar && isItem(req) && req.headers['if-match'] === '*' ? { status: 412, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify({ type: 'about:blank', title: 'Precondition Failed', status: 412 }) } : req),
    response: (res, req) => (isItem(req) && res.headers['etag'] !== undefined && !res.headers['etag'].startsWith('W/') ? { ...res, headers: { ...res.headers, etag: `W/${res.headers['etag']}` } } : res),
  });

  it('END-if-match-applies judges If-Match: * alone: applied, it passes, noting the weak tag; refused, it fails', async () => {
    // Before, a weak ETag skipped the whole check, and a refused If-Match: * was never judged.
    const applied = await verdictsOn(startVariant(weak(false)), ['END-if-match-applies']);
    expect(applied.explain).toMatch(/^END-if-match-applies \[projects\]: pass/m);
    expect(applied.results.find((r) => r.collection === 'projects')!.evidence.notes).toContainEqual(expect.stringMatching(/ETag W\/".*" is weak, which If-Match can never match: only If-Match: \* was judged$/));
    const refused = await verdictsOn(startVariant(weak(true)), ['END-if-match-applies']);
    expect(refused.explain).toMatch(/^END-if-match-applies \[projects\]: fail PUT with If-Match: \*: found PUT \/v2\/projects\/\S+ → 412/m);
  });
});

describe('a create that validates nothing, answered 201 {"message": "Project created"} with a Location (an Express tutorial)', () => {
  const lenient: Rewrites = {
    request: (req) => {
      if (req.method !== 'POST' || pathOf(req) !== '/v2/projects' || typeof jsonOf(req)?.name === 'string') return req;
      return { status: 201, headers: { 'content-type': 'application/json', location: '/v2/projects/lenient-1' }, body: JSON.stringify({ message: 'Project created' }) };
    },
  };

  it('is no error body on a 2xx: ERR-no-error-body-on-2xx passes, and ERR-validation-422 fails for the missing validation alone', async () => {
    // Before, the bare message was taken for an error report: "a success status with an error body", the root cause of both.
    const judged = await verdictsOn(startVariant(lenient), ['ERR-no-error-body-on-2xx', 'ERR-validation-422']);
    expect(judged.explain).toMatch(/^ERR-no-error-body-on-2xx \[projects\]: pass/m);
    const validation = judged.results.find((r) => r.id === 'ERR-validation-422' && r.collection === 'projects')!;
    expect(validation.status).toBe('fail');
    expect(validation.message).not.toMatch(/with an error body/);
  });
});

describe('a JSON writer that takes any +json type (ASP.NET Core with ReturnHttpNotAcceptable, Spring)', () => {
  /** Where Accept admits application/problem+json (and no JSON), the listing is served as problem+json; `neverRefuses`: a bare unsupported Accept gets the listing too. */
  const anyPlusJson = (neverRefuses: boolean): Rewrites => ({
    request: (req) => {
      const accept = String(req.headers['accept'] ?? '');
      if (req.method !== 'GET' || pathOf(req) !== '/v2/projects' || !accept.includes('x-restprobe-unsupported')) return req;
      if (accept.includes('application/problem+json')) return { ...req, headers: { ...req.headers, accept: 'application/json' } };
      return neverRefuses ? { ...req, headers: { ...req.headers, accept: 'application/json' } } : req;
    },
    response: (res, req) => (req.method === 'GET' && pathOf(req) === '/v2/projects' && res.status === 200 && String(req.headers['accept'] ?? '').includes('application/problem+json') ? { ...res, headers: { ...res.headers, 'content-type': 'application/problem+json' } } : res),
  });

  it('ERR-unsupported-accept-406 judges the made-up type alone: 406 there passes, noted; served there too, it fails', async () => {
    // Before, the listing served as problem+json to the probe that also admits problem+json at q=0.1 failed the check, though the made-up type alone got 406.
    const judged = await verdictsOn(startVariant(anyPlusJson(false)), ['ERR-unsupported-accept-406']);
    expect(judged.explain).toMatch(/^ERR-unsupported-accept-406 \[projects\]: pass/m);
    expect(judged.results.find((r) => r.collection === 'projects')!.evidence.notes).toContainEqual(expect.stringMatching(/where Accept also admitted problem\+json at q=0\.1: a JSON writer that takes any \+json type; the made-up type alone got 406$/));
    const never = await verdictsOn(startVariant(anyPlusJson(true)), ['ERR-unsupported-accept-406']);
    expect(never.explain).toMatch(/^ERR-unsupported-accept-406 \[projects\]: fail GET with Accept: application\/x-restprobe-unsupported/m);
  });
});

describe('integer ids (FastAPI\'s item_id: int) with an empty listing and no collections[].idType', () => {
  const integerIds: Rewrites = {
    request: (req) => {
      const id = /^\/v2\/projects\/([^/?]+)$/.exec(pathOf(req))?.[1];
      if (req.method === 'GET' && id !== undefined && !/^\d+$/.test(id)) return { status: 422, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ detail: [{ type: 'int_parsing', loc: ['path', 'item_id'], msg: 'Input should be a valid integer' }] }) };
      return req;
    },
    response: (res, req) => (req.method === 'GET' && pathOf(req) === '/v2/projects' && res.status === 200 ? withJson(res, { data: [], next_cursor: null }) : res),
  };

  it('ERR-unknown-id-404 asks an unknown integer too, and its 404 passes', async () => {
    // Before, with no listed id to show the shape, the UUID's 422 failed the check ("expected 404").
    const judged = await verdictsOn(startVariant(integerIds), ['ERR-unknown-id-404']);
    expect(judged.explain).toMatch(/^ERR-unknown-id-404 \[projects\]: pass/m);
    expect(judged.results.find((r) => r.collection === 'projects')!.evidence.notes).toContainEqual(expect.stringMatching(/lists no item to show its ids' shape: an unknown integer got 404 \(say collections\[\]\.idType: integer\)$/));
  });
});

describe('405 is a SHOULD for a method a path does not serve; its Allow a MUST', () => {
  const trace = (answer: { status: number; headers: Record<string, string>; body: string }): Rewrites => ({ request: (req) => (req.method === 'TRACE' ? answer : req) });
  it("a 404 to TRACE (Express's finalhandler, LoopBack: no route, no method) warns; a proxy's HTML 405 without Allow (nginx) is not judged", async () => {
    expectVerdicts(await verdictsOn(startVariant(trace({ status: 404, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404 }) })), ['END-method-not-allowed-405']), { 'END-method-not-allowed-405': 'warn' });
    const nginx = await verdictsOn(startVariant(trace({ status: 405, headers: { 'content-type': 'text/html' }, body: '<html><head><title>405 Not Allowed</title></head><body><center><h1>405 Not Allowed</h1></center><hr><center>nginx</center></body></html>' })), ['END-method-not-allowed-405']);
    expectVerdicts(nginx, { 'END-method-not-allowed-405': 'skip' });
    expect(nginx.explain).toMatch(/a proxy in front answered TRACE on every path/);
  });

  it('a JSON 405 without Allow still fails (fault method-not-allowed-without-allow)', async () => {
    expectVerdicts(await verdictsOn(startTarget(['method-not-allowed-without-allow']), ['END-method-not-allowed-405']), { 'END-method-not-allowed-405': 'fail' });
  });
});

describe('7. bytes after a response that has no content', () => {
  it.each([
    ['head-with-body', 'END-head-matches-get'],
    ['delete-204-with-body', 'END-delete-204'],
    ['not-modified-with-body', 'END-not-modified-no-body'],
  ])('%s fails %s', async (fault, id) => {
    expectVerdicts(await verdictsOn(startTarget([fault]), [id]), { [id]: 'fail' });
  });

  /**
   * A TCP front for `upstream` that answers a HEAD sent with `Connection: close` itself, as a
   * server that ignores the close: a header section at once, `body` (if any) 600 ms later, and
   * the connection left open. Everything else goes through to `upstream`.
   */
  async function ignoringClose(upstream: string, body: string | undefined): Promise<{ url: string; close(): Promise<void> }> {
    const sockets = new Set<Socket>();
    const timers = new Set<NodeJS.Timeout>();
    const server = createTcpServer((client) => {
      sockets.add(client);
      client.on('error', () => undefined);
      client.once('data', (first: Buffer) => {
        const text = first.toString('latin1');
        if (text.startsWith('HEAD ') && /\r\nconnection: close\r\n/i.test(text)) {
          client.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n');
          if (body !== undefined) timers.add(setTimeout(() => client.write(body), 600));
          return;
        }
        const up = connect(Number(new URL(upstream).port), '127.0.0.1');
        sockets.add(up);
        up.on('error', () => client.destroy());
        up.write(first);
        client.pipe(up);
        up.pipe(client);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: async () => {
        for (const t of timers) clearTimeout(t);
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }

  it('a server that ignores Connection: close and writes a HEAD\'s body 600 ms after its header section fails END-head-matches-get; one that writes none passes, and the evidence says the connection was kept open', async () => {
    // Before, the raw connection was read 250 ms past the header section's last bytes: the late body was missed, and the check passed.
    for (const [body, verdict] of [['{"id":"late"}', 'fail'], [undefined, 'pass']] as const) {
      const target = await startTarget();
      const front = await ignoringClose(target.server.url, body);
      try {
        const judged = await verdictsOn(Promise.resolve(target), ['END-head-matches-get'], (p) => ({ ...p, baseUrl: front.url }));
        expectVerdicts(judged, { 'END-head-matches-get': verdict });
        if (verdict === 'fail') expect(judged.results[0]!.message).toMatch(/bytes followed the HEAD response's header section on the connection \(13 bytes after a HEAD response: "\{\\"id\\":\\"late\\"\}"\)/);
        else expect(judged.results[0]!.evidence.notes).toContainEqual(expect.stringMatching(/the server kept the connection open after its answer, though the request said Connection: close; the bytes after the header section were looked for 2000 ms$/));
      } finally {
        await front.close();
      }
    }
  });

  it('the clean server passes all three', async () => {
    expectVerdicts(await verdictsOn(startTarget(), ['END-head-matches-get', 'END-delete-204', 'END-not-modified-no-body']), {
      'END-head-matches-get': 'pass',
      'END-delete-204': 'pass',
      'END-not-modified-no-body': 'pass',
    });
  });
});

const isProjectListing = (req: ProxiedRequest): boolean => req.method === 'GET' && pathOf(req) === '/v2/projects';

describe('2. an empty page may carry a next_cursor; only the end must be null', () => {
  const [last, end] = ['restprobe-variant-last', 'restprobe-variant-end'];
  const page = (body: unknown): ProxiedResponse => ({ status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'private, no-cache', vary: 'Accept' }, body: JSON.stringify(body) });
  /** After the last item, an empty page that still carries a next_cursor, then an empty page that ends the walk. */
  const emptyPageWithCursor: Rewrites = {
    request: (req) => {
      const cursor = isProjectListing(req) ? queryOf(req).get('cursor') : null;
      return cursor === last ? page({ data: [], next_cursor: end }) : cursor === end ? page({ data: [], next_cursor: null }) : req;
    },
    response: (res, req) => {
      const body = jsonOf(res);
      return isProjectListing(req) && res.status === 200 && body?.next_cursor === null ? withJson(res, { ...body, next_cursor: last }) : res;
    },
  };

  it('a walk through an empty page that carries a next_cursor, ending on null, passes', async () => {
    const ids = ['END-pagination-terminates', 'END-pagination-complete-walk', 'END-filter-matches', 'END-sort-honoured'];
    expectVerdicts(await verdictsOn(startVariant(emptyPageWithCursor), ids), Object.fromEntries(ids.map((id) => [id, 'pass'])));
  });

  it('a walk that never ends still fails', async () => {
    expectVerdicts(await verdictsOn(startTarget(['next-cursor-never-null']), ['END-pagination-terminates']), { 'END-pagination-terminates': 'fail' });
  });
});

describe('a create answered with a Location and no body (Spring\'s ResponseEntity.created(uri).build())', () => {
  const bodiless: Rewrites = {
    response: (res, req) => {
      if (req.method !== 'POST' || !['/v2/projects', '/v2/members'].includes(pathOf(req)) || res.status !== 201) return res;
      const { 'content-type': _type, ...headers } = res.headers;
      return { ...res, headers, body: '' };
    },
  };

  it('the walk checks take each item\'s id from its Location, and pass', async () => {
    // Before, every id was '', and each walk "missed" the item '' (and the sort check saw one item, not seven).
    const ids = ['END-pagination-complete-walk', 'END-sort-honoured', 'END-offset-pages-disjoint', 'END-filter-matches'];
    expectVerdicts(await verdictsOn(startVariant(bodiless), ids), Object.fromEntries(ids.map((id) => [id, 'pass'])));
  });
});

describe('one root cause, one failure: a collection that answers no page', () => {
  /** The offset-paginated collection answers a bare array. */
  const bareMembers: Rewrites = {
    response: (res, req) => (req.method === 'GET' && pathOf(req) === '/v2/members' && res.status === 200 ? withJson(res, jsonOf(res).data) : res),
  };

  it('the page-shape check fails once; the checks that read those pages judge their items, as on the clean server', async () => {
    const target = await startVariant(bareMembers);
    try {
      const { results } = await runChecks({ profile: target.profile, checks: catalogue, seed: 1, client: target.client });
      const judged = results.filter((r) => r.status === 'fail' || (r.status === 'warn' && cleanServerExceptions[r.id]?.status !== 'warn'));
      expect(judged.map((r) => `${r.id}: ${r.message}`)).toEqual([expect.stringMatching(/^END-get-collection-200: GET \/v2\/members → 200 application\/json: the body is a JSON array, expected/)]);
      const members = results.filter((r) => r.collection === 'members' && ['END-offset-pages-disjoint', 'END-filter-matches', 'LIM-limit-capped'].includes(r.id));
      expect(members.map((r) => [r.id, r.status])).toEqual(expect.arrayContaining([['END-offset-pages-disjoint', 'pass'], ['END-filter-matches', 'pass'], ['LIM-limit-capped', 'pass']]));
    } finally {
      await target.close();
    }
  });

  it('run alone, a check that reads such pages judges their items: the shape is the page-shape check\'s finding', async () => {
    const judged = await verdictsOn(startVariant(bareMembers), ['END-offset-pages-disjoint', 'END-filter-matches', 'END-get-collection-200']);
    expectVerdicts(judged, { 'END-offset-pages-disjoint': 'pass', 'END-filter-matches': 'pass', 'END-get-collection-200': 'fail' });
  });

  it('a bare array whose items break a rule still fails the check that judges them', async () => {
    // The projects listing answers a bare array of items outside the filter: the filter check sees them on the first page.
    const ignoresFilter: Rewrites = {
      response: (res, req) =>
        req.method === 'GET' && pathOf(req) === '/v2/projects' && res.status === 200 ? withJson(res, (jsonOf(res).data as Record<string, unknown>[]).map((i) => ({ ...i, label: 'another-label' }))) : res,
    };
    const judged = await verdictsOn(startVariant(ignoresFilter), ['END-filter-matches']);
    expectVerdicts(judged, { 'END-filter-matches': 'fail' });
  });
});

describe('3. a cursor may be a plain keyset position; a 5xx or other data is what fails', () => {
  const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
  const problem = (detail: string): ProxiedResponse => ({ status: 400, headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store' }, body: JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, detail }) });
  /**
   * The project listing pages with an unsigned keyset cursor, base64url(created_at of the
   * last item): an altered cursor that still decodes to a time is another valid position,
   * and a cursor carries no filter, so it works with any.
   */
  const keysetCursor: Rewrites = {
    request: (req) => {
      const q = queryOf(req);
      if (!isProjectListing(req) || (q.has('sort') && q.get('sort') !== '-created_at')) return req;
      const cursor = q.get('cursor');
      if (cursor !== null && !iso.test(Buffer.from(cursor, 'base64url').toString('utf8'))) return problem('cursor is not a position');
      const upstream = new URLSearchParams([...q].filter(([k]) => k !== 'cursor' && k !== 'limit'));
      upstream.set('limit', '100');
      return { ...req, path: `/v2/projects?${upstream}`, headers: { ...req.headers, 'x-variant-query': q.toString() } };
    },
    response: (res, req) => {
      const original = req.headers['x-variant-query'];
      if (original === undefined || res.status !== 200) return res;
      const q = new URLSearchParams(original);
      const after = q.get('cursor') === null ? undefined : Buffer.from(q.get('cursor')!, 'base64url').toString('utf8');
      const descending = q.get('sort') === '-created_at';
      const limit = Number(q.get('limit') ?? 20);
      const rest = (jsonOf(res).data as { created_at: string }[]).filter((i) => after === undefined || (descending ? i.created_at < after : i.created_at > after));
      const data = rest.slice(0, limit);
      const next = rest.length > limit ? Buffer.from(data.at(-1)!.created_at).toString('base64url') : null;
      return withJson(res, { data, next_cursor: next });
    },
  };

  it('an unsigned keyset cursor passes the MUST check and warns on tamper-evidence', async () => {
    const judged = await verdictsOn(startVariant(keysetCursor), ['END-cursor-tamper-400', 'END-cursor-tamper-evident', 'END-pagination-complete-walk']);
    expectVerdicts(judged, {
      'END-cursor-tamper-400': 'pass',
      'END-cursor-tamper-evident': 'warn',
      'END-pagination-complete-walk': 'pass',
    });
  });

  it.each([['tampered-cursor-500'], ['cursor-overrides-filter']])('%s fails the MUST check', async (fault) => {
    expectVerdicts(await verdictsOn(startTarget([fault]), ['END-cursor-tamper-400']), { 'END-cursor-tamper-400': 'fail' });
  });

  it('a cursor that decodes to nothing, answered with the first page, fails', async () => {
    const garbageIgnored: Rewrites = {
      request: (req) => {
        const q = queryOf(req);
        if (!isProjectListing(req) || q.get('cursor') !== 'restprobe-not-a-cursor') return req;
        q.delete('cursor');
        return { ...req, path: `${pathOf(req)}?${q}` };
      },
    };
    const judged = await verdictsOn(startVariant(garbageIgnored), ['END-cursor-tamper-400']);
    expectVerdicts(judged, { 'END-cursor-tamper-400': 'fail' });
    expect(judged.explain).toMatch(/"restprobe-not-a-cursor" as the cursor: GET .* → 200 application\/json with 1 item\(s\), where a cursor that decodes to no position can get only a 4xx or an empty page/);
  });

  it('a cursor issued for another filter that is merely accepted warns, and passes the MUST check', async () => {
    expectVerdicts(await verdictsOn(startTarget(['cursor-not-bound']), ['END-cursor-tamper-400', 'END-cursor-tamper-evident']), { 'END-cursor-tamper-400': 'pass', 'END-cursor-tamper-evident': 'warn' });
  });
});

describe('4. an unknown sort field may get 422 as well as 400', () => {
  const unknownSort = (req: ProxiedRequest): boolean => isProjectListing(req) && /^-?restprobe_/.test(queryOf(req).get('sort') ?? '');

  it('a server that answers 422 passes', async () => {
    const as422: Rewrites = { response: (res, req) => (unknownSort(req) && res.status === 400 ? withJson(res, { ...jsonOf(res), status: 422 }, 422) : res) };
    expectVerdicts(await verdictsOn(startVariant(as422), ['END-sort-honoured']), { 'END-sort-honoured': 'pass' });
  });

  it('a server that ignores the unknown field fails', async () => {
    const ignored: Rewrites = {
      request: (req) => {
        if (!unknownSort(req)) return req;
        const q = queryOf(req);
        q.delete('sort');
        return { ...req, path: `${pathOf(req)}?${q}` };
      },
    };
    expectVerdicts(await verdictsOn(startVariant(ignored), ['END-sort-honoured']), { 'END-sort-honoured': 'fail' });
  });
});

describe('the sort checks read the shared walk set, four of its items tied', () => {
  it('END-sort-ties-deterministic makes no items of its own: one set of 7 a collection serves both sort checks', async () => {
    let posts = 0;
    let ascending = 0;
    const counting: Rewrites = { request: (req) => ((posts += req.method === 'POST' ? 1 : 0), (ascending += req.method === 'GET' && queryOf(req).get('sort') === 'name' ? 1 : 0), req) };
    const results = await runTogether(startVariant(counting), ['END-sort-honoured', 'END-sort-ties-deterministic']);
    expect(results.map((r) => `${resultName(r.id, r.collection)}: ${r.status}`).sort()).toEqual(['END-sort-honoured [members]: pass', 'END-sort-honoured [projects]: pass', 'END-sort-ties-deterministic [members]: pass', 'END-sort-ties-deterministic [projects]: pass']);
    // The shared set in projects and in members; a tied set of its own was 6 more in each.
    expect(posts).toBe(14);
    // The ascending walk (4 pages of 2 over 7 items) once for both checks, and the ties check's second: 8 in each collection, not 12.
    expect(ascending).toBe(16);
  });

  it('END-pagination-terminates and END-pagination-complete-walk read one walk at 2 a page between them', async () => {
    let atTwo = 0;
    const counting: Rewrites = { request: (req) => ((atTwo += isProjectListing(req) && queryOf(req).get('limit') === '2' && queryOf(req).has('label') ? 1 : 0), req) };
    const results = await runTogether(startVariant(counting), ['END-pagination-terminates', 'END-pagination-complete-walk']);
    expect(results.map((r) => `${r.id}: ${r.status}`).sort()).toEqual(['END-pagination-complete-walk: pass', 'END-pagination-terminates: pass']);
    // 7 items at 2 a page: 4 pages, once.
    expect(atTwo).toBe(4);
  });

  it('a descending walk that drops a tied item passes END-sort-honoured (noted) and fails END-sort-ties-deterministic, which walks both directions', async () => {
    const dropsTied: Rewrites = {
      response: (res, req) => {
        const body = jsonOf(res);
        const q = queryOf(req);
        if (!isProjectListing(req) || q.get('sort') !== '-name' || q.has('cursor') || !isObject(body) || !Array.isArray(body.data)) return res;
        const at = body.data.findIndex((i) => isObject(i) && String(i.name).endsWith('-d'));
        return at < 0 ? res : withJson(res, { ...body, data: body.data.filter((_i, n) => n !== at) });
      },
    };
    const judged = await verdictsOn(startVariant(dropsTied), ['END-sort-honoured', 'END-sort-ties-deterministic']);
    expectVerdicts(judged, { 'END-sort-honoured': 'pass', 'END-sort-ties-deterministic': 'fail' });
    expect(judged.explain).toMatch(/END-sort-ties-deterministic \[projects\]: fail a walk with sort=-name over 7 items, 4 of them tied on name, missing/);
  });

  it('on a sort field the target keeps unique (a second item with a name refused 409), the walk set takes seven distinct values: the walk checks judge, the ties check cannot make its tie', async () => {
    const seen = new Set<string>();
    const unique: Rewrites = {
      request: (req) => {
        const name = req.method === 'POST' && pathOf(req) === '/v2/projects' ? jsonOf(req)?.name : undefined;
        if (typeof name !== 'string') return req;
        if (seen.has(name)) return { status: 409, headers: { 'content-type': 'application/problem+json' }, body: '{"type":"about:blank","title":"Conflict","status":409,"detail":"name taken"}' };
        seen.add(name);
        return req;
      },
    };
    const judged = await verdictsOn(startVariant(unique), ['END-pagination-terminates', 'END-pagination-complete-walk', 'END-sort-honoured', 'END-sort-ties-deterministic']);
    expect(judged.explain).toMatch(/^END-pagination-complete-walk \[projects\]: pass/m);
    expect(judged.explain).toMatch(/^END-sort-honoured \[projects\]: pass/m);
    expect(judged.results.find((r) => r.id === 'END-sort-ties-deterministic' && r.collection === 'projects')).toMatchObject({ status: 'error', errorCode: 'ERR_SETUP' });
  });

  it('a sorted walk that drops an item not tied fails END-sort-honoured: only tied items missing are the ties check\'s', async () => {
    const dropsA: Rewrites = {
      response: (res, req) => {
        const body = jsonOf(res);
        if (!isProjectListing(req) || !/^-?name$/.test(queryOf(req).get('sort') ?? '') || !isObject(body) || !Array.isArray(body.data)) return res;
        return withJson(res, { ...body, data: body.data.filter((i) => !(isObject(i) && String(i.name).endsWith('-a'))) });
      },
    };
    expectVerdicts(await verdictsOn(startVariant(dropsA), ['END-sort-honoured', 'END-sort-ties-deterministic']), { 'END-sort-honoured': 'fail', 'END-sort-ties-deterministic': 'pass' });
  });
});

describe('LIM-default-page-bounded on a collection a few items short of showing its bound', () => {
  // Eight items already there (a staging database nearly empty); the default page holds 10.
  const run = async (faults: string[]) => (await runTogether(startVariant({}, faults, { seedProjects: 8 }), ['LIM-default-page-bounded'])).find((r) => r.collection === 'projects')!;

  it('makes the three items that take it past a default page and reads it again as it is: no fill of 11 of its own', async () => {
    const r = await run([]);
    expect([r.status, r.message], r.evidence.notes.join('\n')).toEqual(['pass', expect.anything()]);
    expect(r.evidence.notes.join('\n')).toMatch(/projects listed 8 items; with 3 more made, without a limit, the first page held 10 items and the next 1 others, every item made among them/);
    // Three made and deleted, the pages read: a fill would have made 11.
    expect(r.evidence.requestCount).toBeLessThan(15);
  });

  it('still fails an unbounded default page: the items made show no bound, and the fill does', async () => {
    const r = await run(['default-page-unbounded']);
    expect(r.status, r.message).toBe('fail');
  });
});

/** Check `id`'s result on members, on a variant with `faults` whose members listing holds three items made first. */
async function onMembers(rewrites: Rewrites, faults: readonly string[], id: string): Promise<CheckResult> {
  const results = await runTogether(startVariant(rewrites, faults), [id], async (target) => {
    const members = target.profile.collections.find((c) => c.name === 'members')!;
    const key = target.profile.auth.apiKey!;
    for (let i = 0; i < 3; i++) await target.client.send({ method: 'POST', url: `${target.proxy.url}${members.path}`, headers: { [key.header]: key.value.value, 'content-type': 'application/json' }, body: JSON.stringify({ ...members.createBody, name: `seed ${i}` }) });
  });
  return results.find((x) => x.collection === 'members')!;
}

describe('LIM-default-page-bounded on an unbounded offset listing while another writer\'s item comes and goes', () => {
  it('fails: both pages are read again, and the second no longer holds the item that made the listing look split', async () => {
    const phantom = { id: '00000000-0000-4000-8000-00000000000f', name: 'another writer', role: 'editor' };
    const seen = { next: 0, limited: 0 };
    const comes: Rewrites = {
      response: (res, req) => {
        const q = queryOf(req);
        const body = jsonOf(res);
        if (req.method !== 'GET' || pathOf(req) !== '/v2/members' || !q.has('offset') || q.has('label') || !isObject(body) || !Array.isArray(body.data)) return res;
        // The item is there for the first read of the page after the first, and of the limited page that checks nothing was skipped.
        const which = q.has('limit') ? 'limited' : 'next';
        return seen[which]++ === 0 ? withJson(res, { ...body, data: [...body.data, phantom] }) : res;
      },
    };
    const r = await onMembers(comes, ['default-page-unbounded'], 'LIM-default-page-bounded');
    expect(seen.next, r.message).toBeGreaterThan(0);
    expect(r.status, r.message).toBe('fail');
  });
});

describe('LIM-limit-capped on a listing that ignores limit while another writer\'s item comes and goes', () => {
  it('fails: the page after the one answered is read again, and no longer holds the item that made the page look clamped', async () => {
    const phantom = { id: '00000000-0000-4000-8000-00000000000e', name: 'another writer', role: 'editor' };
    let shown = 0;
    const comes: Rewrites = {
      response: (res, req) => {
        const q = queryOf(req);
        const body = jsonOf(res);
        if (req.method !== 'GET' || pathOf(req) !== '/v2/members' || q.has('label') || !q.has('offset') || q.get('offset') !== q.get('limit') || !isObject(body) || !Array.isArray(body.data)) return res;
        return shown++ === 0 ? withJson(res, { ...body, data: [phantom] }) : res;
      },
    };
    const r = await onMembers(comes, ['limit-uncapped'], 'LIM-limit-capped');
    expect(shown, r.message).toBeGreaterThan(0);
    expect(r.status, r.message).toBe('fail');
  });
});

describe('RES-json-content-type on the update sequence', () => {
  it('judges the PATCH answer though the GET after it dropped its connection: it needs none', async () => {
    let patched: string | undefined;
    const dropsTheReadBack: Rewrites = {
      request: (req) => {
        if (req.method === 'PATCH' && isItem(req)) patched = pathOf(req);
        // Every GET of the item after it, retries too.
        else if (req.method === 'GET' && pathOf(req) === patched) throw new Error('connection dropped');
        return req;
      },
    };
    const judged = await verdictsOn(startVariant(dropsTheReadBack), ['RES-json-content-type'], (p) => ({ ...p, collections: p.collections.filter((c) => c.name === 'projects') }));
    expectVerdicts(judged, { 'RES-json-content-type': 'pass' });
  });
});

describe('5. a zero or negative limit may be clamped to 1, as one above the cap may be clamped to it', () => {
  /** The listings read limit=0 and limit=-1 as limit=1. */
  const clampedToOne: Rewrites = {
    request: (req) => {
      const q = queryOf(req);
      if (req.method !== 'GET' || !/^(0|-\d+)$/.test(q.get('limit') ?? '')) return req;
      q.set('limit', '1');
      return { ...req, path: `${pathOf(req)}?${q}` };
    },
  };

  it('a server that clamps passes', async () => {
    expectVerdicts(await verdictsOn(startVariant(clampedToOne), ['LIM-limit-invalid-400']), { 'LIM-limit-invalid-400': 'pass' });
  });

  it.each([['limit-zero-accepted'], ['bad-limit-500']])('%s still fails', async (fault) => {
    expectVerdicts(await verdictsOn(startTarget([fault]), ['LIM-limit-invalid-400']), { 'LIM-limit-invalid-400': 'fail' });
  });
});

describe('6. `public` is judged only on collections the config declares personalised', () => {
  const publicMembers: Rewrites = {
    response: (res, req) => (req.method === 'GET' && pathOf(req).startsWith('/v2/members') && res.status === 200 ? { ...res, headers: { ...res.headers, 'cache-control': 'public, max-age=60' } } : res),
  };
  const declare = (members: boolean | undefined) => (p: TargetProfile): TargetProfile => ({
    ...p,
    collections: p.collections.map((c) => {
      if (c.name !== 'members') return c;
      const { personalised: _, ...rest } = c;
      return members === undefined ? rest : { ...rest, personalised: members };
    }),
  });

  it('public responses of a collection declared not personalised pass', async () => {
    expectVerdicts(await verdictsOn(startVariant(publicMembers), ['LIM-credentialed-not-public'], declare(false)), { 'LIM-credentialed-not-public': 'pass' });
  });

  it('the same responses fail when the collection is declared personalised', async () => {
    expectVerdicts(await verdictsOn(startVariant(publicMembers), ['LIM-credentialed-not-public'], declare(true)), { 'LIM-credentialed-not-public': 'fail' });
  });

  it('with no collection declared either way, the check skips naming collections[].personalised', async () => {
    const undeclared = (p: TargetProfile): TargetProfile => ({ ...p, collections: p.collections.map(({ personalised: _, ...c }) => c) });
    const target = await startTarget();
    try {
      const [result] = (await judge(target, ['LIM-credentialed-not-public'], undeclared(target.profile))).results;
      expect(result).toMatchObject({ status: 'skip', configKey: 'collections[].personalised' });
    } finally {
      await target.close();
    }
  });
});

describe('15. a default page that drops items fails', () => {
  it('default-page-truncated fails; the clean server passes', async () => {
    expectVerdicts(await verdictsOn(startTarget(['default-page-truncated']), ['LIM-default-page-bounded']), { 'LIM-default-page-bounded': 'fail' });
    expectVerdicts(await verdictsOn(startTarget(), ['LIM-default-page-bounded']), { 'LIM-default-page-bounded': 'pass' });
  });

  it('an offset-paginated collection is walked at its default page size too', async () => {
    const membersOnly = (p: TargetProfile): TargetProfile => ({ ...p, collections: p.collections.filter((c) => c.pagination.style === 'offset') });
    expectVerdicts(await verdictsOn(startTarget(), ['LIM-default-page-bounded'], membersOnly), { 'LIM-default-page-bounded': 'pass' });
  });
});

describe('too lax: each violating variant now fails, and the clean server passes', () => {
  it.each([
    ['8', 'update-echoes-input', 'END-update-returns-resource', 'fail'],
    ['9', 'status-filter-ignored', 'END-filter-matches', 'fail'],
    ['10', 'head-collection-creates', 'END-safe-methods-no-change', 'fail'],
    ['11', 'if-match-accepts-any-issued', 'END-if-match-412', 'fail'],
    ['11', 'if-match-accepts-any-issued', 'END-if-match-delete-412', 'fail'],
    ['13', 'allow-lists-refused-method', 'END-method-not-allowed-405', 'fail'],
    ['16', 'put-create-no-location', 'END-put-creates-missing', 'fail'],
    ['§2', 'success-as-text-plain', 'RES-json-content-type', 'fail'],
    ['§2', 'nested-listing-unscoped', 'RES-nested-listing', 'fail'],
    ['§7', 'error-leaks-stack', 'ERR-no-stack-trace-or-html', 'warn'],
    ['RFC 5789', 'options-without-accept-patch', 'END-options-accept-patch', 'warn'],
    ['§4.2', 'client-id-conflict-500', 'END-post-server-chooses-id', 'fail'],
    ['page sizes', 'odd-page-boundary-skip', 'END-pagination-complete-walk', 'fail'],
    ['page sizes', 'odd-page-boundary-skip', 'END-pagination-stable-under-writes', 'fail'],
  ])('%s. %s: %s %s', async (_item, fault, id, status) => {
    expectVerdicts(await verdictsOn(startTarget([fault]), [id]), { [id]: status });
  });

  it('the clean server passes every one of those checks', async () => {
    const ids = [
      'END-update-returns-resource', 'END-filter-matches', 'END-safe-methods-no-change', 'END-if-match-412', 'END-if-match-delete-412', 'END-method-not-allowed-405',
      'END-put-creates-missing', 'RES-json-content-type', 'RES-nested-listing', 'ERR-no-stack-trace-or-html', 'END-options-accept-patch', 'END-post-server-chooses-id',
      'END-pagination-complete-walk', 'END-pagination-stable-under-writes', 'ERR-no-error-body-on-2xx', 'ERR-bad-input-no-5xx', 'ERR-unsupported-content-type-415',
    ];
    expectVerdicts(await verdictsOn(startTarget(), ids), Object.fromEntries(ids.map((id) => [id, 'pass'])));
  });
});

describe('LIM-default-page-bounded on a cursor collection that already holds more than a default page', () => {
  const id = 'LIM-default-page-bounded';
  const projectsOnly = (p: TargetProfile): TargetProfile => ({ ...p, collections: p.collections.filter((c) => c.name === 'projects') });

  it('passes as it is, creating nothing; a default page that is the last is filled and fails', async () => {
    const clean = await startVariant({}, [], { seedProjects: 30 });
    try {
      const { verdicts, results } = await judge(clean, [id], projectsOnly(clean.profile));
      expect(verdicts).toEqual({ [id]: 'pass' });
      expect(results[0]!.evidence.notes.join('\n')).toMatch(/already lists more than a default page: without a limit, the first page held 10 items and the next 10 others, with none skipped between them/);
      // The first default page, the next by its cursor, and the first page and one more with a limit: nothing made.
      expect(results[0]!.evidence.requestCount).toBe(3);
    } finally {
      await clean.close();
    }
    const truncated = await startVariant({}, ['default-page-truncated'], { seedProjects: 30 });
    try {
      expect((await judge(truncated, [id], projectsOnly(truncated.profile))).verdicts).toEqual({ [id]: 'fail' });
    } finally {
      await truncated.close();
    }
  });
});

describe('a derived invalid body is one a coercing framework refuses too', () => {
  /** Numbers in a write's body become strings, as DRF's CharField, pydantic v1 and Mongoose do. */
  const coercing: Rewrites = {
    request: (req) => {
      if (req.body === '' || req.method === 'GET') return req;
      const body = jsonOf(req);
      if (!isObject(body)) return req;
      return { ...req, body: JSON.stringify(Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]))) };
    },
  };
  /** projects with two free-text fields and no configured invalid body: restprobe derives one. */
  const derived = (p: TargetProfile): TargetProfile => adjustProjects(p, () => ({ createBody: { name: 'restprobe probe', description: 'created by restprobe' }, invalidBody: undefined }));
  it('with no invalid.body configured and only free-text fields, the 422 checks pass on a server that coerces numbers to strings', async () => {
    const judged = await verdictsOn(startVariant(coercing), ['ERR-validation-422', 'ERR-validation-errors-field'], derived);
    expectVerdicts(judged, { 'ERR-validation-422': 'pass', 'ERR-validation-errors-field': 'pass' });
  });

  it('the derived body still finds a server that lets a wrong type through to the handler (wrong-type-500)', async () => {
    const judged = await verdictsOn(startTarget(['wrong-type-500']), ['ERR-validation-422'], derived);
    expectVerdicts(judged, { 'ERR-validation-422': 'fail' });
  });
});

describe('END-etag-changes-on-write asks for a new ETag only where the write changed the item', () => {
  /** Item answers without updated_at, their ETag a hash of the body: a write that changes no value keeps it, as Express's default ETag does. */
  const contentTagged: Rewrites = {
    response: (res, req) => {
      if (!isItem(req) || res.status !== 200 || req.method === 'DELETE') return res;
      const { updated_at: _dropped, ...rest } = jsonOf(res) as Record<string, unknown>;
      const body = JSON.stringify(rest);
      return { ...res, headers: { ...res.headers, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"` }, body };
    },
  };
  /** The patch body repeats the replace body's value. */
  const repeatingPatch = (p: TargetProfile): TargetProfile => adjustProjects(p, (c) => ({ patchBody: { ...c.replaceBody } }));

  it('a PATCH that repeats what the PUT wrote keeps a content-hash ETag, and the check passes on the PUT', async () => {
    const judged = await verdictsOn(startVariant(contentTagged), ['END-etag-changes-on-write'], repeatingPatch);
    expectVerdicts(judged, { 'END-etag-changes-on-write': 'pass' });
  });

  it('END-if-match-412 makes the ETag stale with the PATCH where the PUT repeats the create values and keeps it, and still finds if-match-accepts-any-issued', async () => {
    // No mark: the item holds only the create body's values, which the PUT repeats.
    const repeatingPut = (p: TargetProfile): TargetProfile => adjustProjects(p, (c) => ({ markField: undefined, replaceBody: { ...c.createBody } }));
    // The content-hash tags are mapped back to the server's own in If-Match, so its precondition (and the fault) sees a tag it issued.
    const serverTag = new Map<string, string>();
    const mapped: Rewrites = {
      request: (req) => (req.headers['if-match'] !== undefined && serverTag.has(req.headers['if-match']) ? { ...req, headers: { ...req.headers, 'if-match': serverTag.get(req.headers['if-match'])! } } : req),
      response: (res, req) => {
        const out = contentTagged.response!(res, req) as ProxiedResponse;
        if (out.headers['etag'] !== undefined && res.headers['etag'] !== undefined) serverTag.set(out.headers['etag'], res.headers['etag']);
        return out;
      },
    };
    const target = await startVariant(mapped, ['if-match-accepts-any-issued']);
    try {
      const { results } = await judge(target, ['END-if-match-412'], repeatingPut(target.profile));
      const projects = results.find((r) => r.collection === 'projects')!;
      expect([projects.status, projects.message]).toEqual(['fail', expect.stringMatching(/with If-Match naming the previous ETag .*expected 412/)]);
    } finally {
      await target.close();
    }
  });

  it('an ETag that stays after a write that changed the item still fails (etag-stale-after-write)', async () => {
    const judged = await verdictsOn(startTarget(['etag-stale-after-write']), ['END-etag-changes-on-write'], repeatingPatch);
    expectVerdicts(judged, { 'END-etag-changes-on-write': 'fail' });
  });
});

describe('END-pagination-stable-under-writes: an interleaving takes over the items the one before it left, where PATCH is served', () => {
  const id = 'END-pagination-stable-under-writes';
  const methodsOf = (results: readonly CheckResult[]) => results.flatMap((r) => r.evidence.exchanges.map((e) => e.request.method));
  const count = (methods: readonly string[], m: string) => methods.filter((x) => x === m).length;

  it('the clean server: the interleavings walk one mark, an item moved or inserted is put back with a PATCH, and items are made only to replace deleted ones', async () => {
    const target = await startTarget();
    try {
      const { verdicts, results } = await judge(target, [id], target.profile);
      expect(verdicts).toEqual({ [id]: 'pass' });
      const methods = methodsOf(results);
      // Four interleavings of six items: made once (and for an insert or a delete), not four times over.
      expect(count(methods, 'POST')).toBeLessThanOrEqual(10);
      // One mark for every walk, and only what a walk moved or inserted is PATCHed back (each of six items re-marked for each walk was 18 PATCHes and more).
      const walked = results[0]!.evidence.exchanges.filter((e) => e.request.method === 'GET').map((e) => new URL(e.request.url).searchParams.get('label'));
      expect(new Set(walked).size).toBe(1);
      expect(walked).not.toContain(null);
      expect(count(methods, 'PATCH')).toBeLessThanOrEqual(12);
    } finally {
      await target.close();
    }
  });

  it('a PATCH answered without the item (204): each interleaving makes its own items, and still passes', async () => {
    const noContent: Rewrites = { response: (res, req) => (req.method === 'PATCH' && res.status === 200 ? { ...res, status: 204, headers: Object.fromEntries(Object.entries(res.headers).filter(([k]) => k !== 'content-type' && k !== 'content-length')), body: '' } : res) };
    const target = await startVariant(noContent);
    try {
      const { verdicts, results } = await judge(target, [id], target.profile);
      expect(verdicts).toEqual({ [id]: 'pass' });
      expect(results[0]!.evidence.notes.join('\n')).toMatch(/to move an earlier interleaving's item does not show .*: each interleaving makes its own items/);
      expect(count(methodsOf(results), 'POST')).toBeGreaterThanOrEqual(20);
    } finally {
      await target.close();
    }
  });

  it('a collection that takes no PATCH: nothing is moved or taken over, and it still passes', async () => {
    const target = await startTarget();
    try {
      const profile = { ...target.profile, collections: target.profile.collections.map((c) => (c.name === 'projects' ? { ...c, methods: ['GET', 'POST', 'PUT', 'DELETE'] as const } : c)) };
      const { verdicts, results } = await judge(target, [id], profile as TargetProfile);
      expect(verdicts).toEqual({ [id]: 'pass' });
      expect(count(methodsOf(results), 'PATCH')).toBe(0);
      expect(results[0]!.evidence.notes).toContain('projects takes no PATCH: moves are not interleaved (collections[].methods)');
    } finally {
      await target.close();
    }
  });
});

describe('10. the safe-methods property watches what the collection lists, and names the request', () => {
  it('a HEAD of the marked listing that creates an item is named in the failure', async () => {
    const judged = await verdictsOn(startTarget(['head-collection-creates']), ['END-safe-methods-no-change']);
    expect(judged.explain).toMatch(/HEAD \/v2\/projects\?label=restprobe-[^ ]+ → 200 \S+ \(HEAD marked\) changed the marked listing/);
  });

  it('a collection GET that seeds 16 items under the filter it was asked for fails', async () => {
    let upstream: ((req: ProxiedRequest) => Promise<ProxiedResponse>) | undefined;
    const seeded = new Set<string>();
    const seedsOnRead: Rewrites = {
      async response(res, req) {
        const label = queryOf(req).get('label');
        if (!isProjectListing(req) || label === null || seeded.has(label)) return res;
        seeded.add(label);
        for (let i = 0; i < 16; i++) await upstream!({ method: 'POST', path: '/v2/projects', headers: { ...req.headers, 'content-type': 'application/json' }, body: JSON.stringify({ name: `seeded ${i}`, label }) });
        return res;
      },
    };
    const variant = await startVariant(seedsOnRead);
    upstream = variant.proxy.upstream;
    const judged = await verdictsOn(Promise.resolve(variant), ['END-safe-methods-no-change']);
    expectVerdicts(judged, { 'END-safe-methods-no-change': 'fail' });
    expect(judged.explain).toMatch(/the GETs of a snapshot changed the marked listing/);
  });

  it('a GET that counts views is caught by two snapshots in a row', async () => {
    const judged = await verdictsOn(startTarget(['get-counts-views']), ['END-safe-methods-no-change']);
    expectVerdicts(judged, { 'END-safe-methods-no-change': 'fail' });
    expect(judged.explain).toMatch(/the GETs of a snapshot changed item \S+ \(views: 1 → 2\)/);
  });
});

describe('11. If-Match on DELETE is reported on its own', () => {
  it('a DELETE that ignores If-Match fails only the DELETE check', async () => {
    expectVerdicts(await verdictsOn(startTarget(['if-match-ignored-on-delete']), ['END-if-match-412', 'END-if-match-delete-412']), { 'END-if-match-412': 'pass', 'END-if-match-delete-412': 'fail' });
  });
});

describe('12. a 2xx error body is found by more than keywords', () => {
  it('200 {"success": false, "message": …} for an invalid body fails', async () => {
    const successFalse: Rewrites = {
      response: (res, req) => (req.method === 'POST' && res.status === 422 ? withJson(res, { success: false, message: jsonOf(res).detail }, 200) : res),
    };
    const judged = await verdictsOn(startVariant(successFalse), ['ERR-no-error-body-on-2xx']);
    expectVerdicts(judged, { 'ERR-no-error-body-on-2xx': 'fail' });
    expect(judged.explain).toMatch(/success: false/);
  });
});

describe('14. bad input must get a 4xx, not only no 5xx', () => {
  it('a 201 for a JSON array fails', async () => {
    const acceptsArrays: Rewrites = {
      request: (req) =>
        req.method === 'POST' && pathOf(req) === '/v2/projects' && Array.isArray(jsonOf(req))
          ? { status: 201, headers: { 'content-type': 'application/json', location: '/v2/projects/never' }, body: JSON.stringify({ id: 'never', name: 'accepted' }) }
          : req,
    };
    const judged = await verdictsOn(startVariant(acceptsArrays), ['ERR-bad-input-no-5xx']);
    expectVerdicts(judged, { 'ERR-bad-input-no-5xx': 'fail' });
    expect(judged.explain).toMatch(/→ 201 application\/json for not-an-object .*expected a 4xx: the input is bad/);
  });

  it('a 200 for a field of the wrong type fails (validation-error-as-200)', async () => {
    expectVerdicts(await verdictsOn(startTarget(['validation-error-as-200']), ['ERR-bad-input-no-5xx']), { 'ERR-bad-input-no-5xx': 'fail' });
  });

  it('an update that coerces a number into a string field but crashes on an object there fails (Mongoose findByIdAndUpdate, unhandled CastError)', async () => {
    // Creates are validated (the reference server's 422); an update casts: a number becomes its text, an object is a 500.
    const castsUpdates: Rewrites = {
      request(req) {
        const body = jsonOf(req);
        if ((req.method !== 'PUT' && req.method !== 'PATCH') || !isItem(req) || !isObject(body) || !('name' in body)) return req;
        if (isObject(body['name'])) return { status: 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'Cast to string failed for value "{}" (type Object) at path "name"' }) };
        return typeof body['name'] === 'number' ? { ...req, body: JSON.stringify({ ...body, name: String(body['name']) }) } : req;
      },
    };
    const judged = await verdictsOn(startVariant(castsUpdates), ['ERR-bad-input-no-5xx']);
    expectVerdicts(judged, { 'ERR-bad-input-no-5xx': 'fail' });
    expect(judged.explain).toMatch(/→ 500 .* for wrong-type .*"method":"(PUT|PATCH)".*"field":"name"/);
  });

  it('a 503 with Retry-After to one bad POST (a gateway shedding load) is waited out and the input sent again; a 503 every time still fails', async () => {
    const unavailable = { status: 503, headers: { 'content-type': 'text/html', 'retry-after': '1' }, body: '<h1>503 Service Temporarily Unavailable</h1>' };
    let shed = 0;
    const shedsOnce: Rewrites = { request: (req) => (req.method === 'POST' && pathOf(req) === '/v2/projects' && Array.isArray(jsonOf(req)) && shed++ === 0 ? unavailable : req) };
    const judged = await verdictsOn(startVariant(shedsOnce), ['ERR-bad-input-no-5xx']);
    expectVerdicts(judged, { 'ERR-bad-input-no-5xx': 'pass' });
    expect(shed).toBeGreaterThan(1);
    // Retry-After: 0 here, so that each of its inputs is not waited on for a second.
    const crashes: Rewrites = { request: (req) => (req.method === 'POST' && pathOf(req) === '/v2/projects' && Array.isArray(jsonOf(req)) ? { ...unavailable, headers: { ...unavailable.headers, 'retry-after': '0' } } : req) };
    const crashing = await verdictsOn(startVariant(crashes), ['ERR-bad-input-no-5xx']);
    expectVerdicts(crashing, { 'ERR-bad-input-no-5xx': 'fail' });
    expect(crashing.explain).toMatch(/→ 503 text\/html for not-an-object .*expected a 4xx/);
  });

  it('a server that reads a JSON body sent without Content-Type passes (RFC 9110 §8.3 lets it)', async () => {
    const sniffs: Rewrites = {
      request: (req) => (req.method === 'POST' && req.headers['content-type'] === undefined && req.body.length > 0 ? { ...req, headers: { ...req.headers, 'content-type': 'application/json' } } : req),
    };
    const judged = await verdictsOn(startVariant(sniffs), ['ERR-bad-input-no-5xx']);
    expectVerdicts(judged, { 'ERR-bad-input-no-5xx': 'pass' });
  });
});

describe('415 for PUT and PATCH, and for other media types than text/plain', () => {
  const readAsJson = (when: (req: ProxiedRequest) => boolean): Rewrites => ({
    request: (req) => (when(req) ? { ...req, headers: { ...req.headers, 'content-type': 'application/json' } } : req),
  });

  it.each([
    ['PUT and PATCH bodies read as JSON whatever their type', (req: ProxiedRequest) => req.method === 'PUT' || req.method === 'PATCH'],
    ['XML bodies read as JSON', (req: ProxiedRequest) => req.headers['content-type'] === 'application/xml'],
    ['form bodies read as JSON', (req: ProxiedRequest) => req.headers['content-type'] === 'application/x-www-form-urlencoded'],
  ])('%s fail', async (_what, when) => {
    expectVerdicts(await verdictsOn(startVariant(readAsJson(when)), ['ERR-unsupported-content-type-415']), { 'ERR-unsupported-content-type-415': 'fail' });
  });
});

describe('not covered before, both ways', () => {
  it('HTML inside a JSON error body warns', async () => {
    const htmlDetail: Rewrites = {
      response: (res) => (res.status === 404 ? withJson(res, { ...jsonOf(res), detail: '<html><body><h1>Not Found</h1></body></html>' }) : res),
    };
    expectVerdicts(await verdictsOn(startVariant(htmlDetail), ['ERR-no-stack-trace-or-html']), { 'ERR-no-stack-trace-or-html': 'warn' });
  });

  it('a child not addressed at the top level fails the nested-listing check', async () => {
    const noTopLevel: Rewrites = {
      request: (req) => (req.method === 'GET' && /^\/v2\/tasks\/[^/]+$/.test(pathOf(req)) ? { status: 404, headers: { 'content-type': 'application/problem+json' }, body: '{"type":"about:blank","title":"Not Found","status":404,"detail":"no"}' } : req),
    };
    expectVerdicts(await verdictsOn(startVariant(noTopLevel), ['RES-nested-listing']), { 'RES-nested-listing': 'fail' });
  });

  it('without configured children the nested-listing check skips naming collections[].children', async () => {
    const target = await startTarget();
    try {
      const bare = { ...target.profile, collections: target.profile.collections.map((c) => ({ ...c, children: [] })) };
      const [result] = (await judge(target, ['RES-nested-listing'], bare)).results;
      expect(result).toMatchObject({ status: 'skip', configKey: 'collections[].children' });
    } finally {
      await target.close();
    }
  });

  it('a client-sent id refused with 409 passes: any 4xx is a refusal', async () => {
    const refuses409: Rewrites = {
      request: (req) =>
        req.method === 'POST' && pathOf(req) === '/v2/projects' && jsonOf(req)?.id !== undefined
          ? { status: 409, headers: { 'content-type': 'application/problem+json' }, body: '{"type":"about:blank","title":"Conflict","status":409,"detail":"ids are the server\'s"}' }
          : req,
    };
    expectVerdicts(await verdictsOn(startVariant(refuses409), ['END-post-server-chooses-id']), { 'END-post-server-chooses-id': 'pass' });
  });
});

describe('a key taken from the query by a gateway in front', () => {
  it.each(['subscription-key', 'x-api-key'])("fails where ?%s= is taken as the key (Azure API Management's default, a gateway reading the header's own name)", async (name) => {
    const gateway: Rewrites = {
      request: (req) => {
        const url = new URL(req.path, 'http://x');
        const key = url.searchParams.get(name);
        if (key === null) return req;
        url.searchParams.delete(name);
        return { ...req, path: `${url.pathname}${url.search}`, headers: { ...req.headers, 'x-api-key': key } };
      },
    };
    const judged = await verdictsOn(startVariant(gateway), ['AUT-key-not-in-query']);
    expectVerdicts(judged, { 'AUT-key-not-in-query': 'fail' });
    expect(judged.explain).toContain(`?${name}=`);
  });

  /** A gateway that takes `?name=` as the key on the paths `where` matches, and refuses `?refused=` with 400 everywhere. */
  const takesOn = (name: string, where: RegExp, refused?: string): Rewrites => ({
    request: (req) => {
      const url = new URL(req.path, 'http://x');
      if (refused !== undefined && url.searchParams.has(refused)) return { status: 400, headers: { 'content-type': 'application/problem+json' }, body: '{"type":"about:blank","title":"Bad Request","status":400,"detail":"no keys in URLs"}' };
      const key = url.searchParams.get(name);
      if (key === null || !where.test(url.pathname)) return req;
      url.searchParams.delete(name);
      return { ...req, path: `${url.pathname}${url.search}`, headers: { ...req.headers, 'x-api-key': key } };
    },
  });

  it('fails where one route alone takes the key from the query, naming the name it took (its names sent together there, then one at a time)', async () => {
    const judged = await verdictsOn(startVariant(takesOn('token', /^\/v2\/members/)), ['AUT-key-not-in-query']);
    expect(judged.explain).toMatch(/^AUT-key-not-in-query \[members\]: fail .*\?token= and no credential header/m);
    expect(judged.explain).toMatch(/^AUT-key-not-in-query \[projects\]: pass/m);
  });

  it('on a route that refuses them all as it refuses no credentials, the names go in two requests (apikey and apiKey apart), the first collection one a name', async () => {
    const judged = await verdictsOn(startTarget(), ['AUT-key-not-in-query']);
    expectVerdicts(judged, { 'AUT-key-not-in-query': 'pass' });
    // The shared probe without credentials, and the two requests of names.
    const sent = (collection: string) => judged.results.find((r) => r.collection === collection)!.evidence.requestCount;
    expect(sent('members')).toBe(3);
    expect(sent('projects')).toBeGreaterThanOrEqual(9);
  });

  it('fails a route that reads one ?apikey= whatever its case (ASP.NET\'s query is case-insensitive) and refuses two values: apikey and apiKey never share a request', async () => {
    const oneValue: Rewrites = {
      request: (req) => {
        const url = new URL(req.path, 'http://x');
        if (!/^\/v2\/members/.test(url.pathname)) return req;
        const values = [...url.searchParams].filter(([k]) => k.toLowerCase() === 'apikey').map(([, v]) => v);
        return values.length === 1 ? { ...req, headers: { ...req.headers, 'x-api-key': values[0]! } } : req;
      },
    };
    const judged = await verdictsOn(startVariant(oneValue), ['AUT-key-not-in-query']);
    expect(judged.explain).toMatch(/^AUT-key-not-in-query \[members\]: fail .*\?api[kK]ey= and no credential header/m);
  });

  it('fails on the first collection where a gateway refuses ?api_key= but takes ?token= (each name sent on its own there)', async () => {
    const judged = await verdictsOn(startVariant(takesOn('token', /^\/v2\/projects/, 'api_key')), ['AUT-key-not-in-query']);
    expect(judged.explain).toMatch(/^AUT-key-not-in-query \[projects\]: fail .*\?token= and no credential header/m);
  });
});

describe('messages', () => {
  it('a problem-body failure counts the responses that break the rule, not their violations', async () => {
    // Every error body lacks both title and detail: two violations each.
    const judged = await verdictsOn(startTarget(['problem-without-detail']), ['ERR-problem-members']);
    const first = judged.explain.split('\n')[0]!;
    const [, broken, total] = /^(\d+) of (\d+) error responses break the rule — /.exec(first.replace(/^ERR-problem-members \[\w+\]: fail /, '')) ?? [];
    expect(broken).toBeDefined();
    expect(broken).toBe(total);
    expect(first.match(/member "title" is missing/g)).toHaveLength(Number(total));
  });

  describe('a skip names the key that is really missing', () => {
    const base = (): TargetProfile => ({
      baseUrl: 'http://127.0.0.1:1',
      auth: { queryParams: [] },
      collections: [],
      nodes: [],
      secretEndpoints: [],
      http: { timeoutMs: 300, maxBodyBytes: 1 << 20, concurrency: 1, maxRetryWaitMs: 60_000 },
      safety: { readOnly: false, maxRequests: 100, destructive: true },
      properties: { numRuns: 1 },
      secrets: [],
    });
    const collection = (over: Partial<CollectionProfile>): CollectionProfile => ({
      name: 'things', path: '/things', itemPath: '/things/{id}', idField: 'id', createBody: { name: 'x' }, volatileFields: [], newId: 'uuid',
      pagination: { style: 'cursor', param: 'cursor', limitParam: 'limit', offsetParam: 'offset', pageParam: 'page', firstPage: 1, sortParam: 'sort' }, filters: [], sorts: [], children: [], ...over,
    });
    const offset = { style: 'offset' as const, param: 'cursor', limitParam: 'limit', offsetParam: 'offset', pageParam: 'page', firstPage: 1, sortParam: 'sort' };
    const keyOf = (need: 'anyWalk' | 'cursorWalk', collections: CollectionProfile[]) => {
      const r = needs[need].resolve({ ...base(), collections }, {});
      return r instanceof Unmet ? r.configKey : 'met';
    };

    it.each([
      ['an offset collection without a mark, and no cursor one', 'anyWalk', [collection({ pagination: offset })], 'collections[].mark'],
      ['a mark that is not among the filters', 'cursorWalk', [collection({ markField: 'label' })], 'collections[].filters'],
      ['a cursor collection without a create body', 'cursorWalk', [collection({ createBody: undefined })], 'collections[].create.body'],
      ['a marked cursor collection that takes no DELETE (its items would be left)', 'cursorWalk', [collection({ markField: 'label', filters: ['label'], methods: ['GET', 'POST'] })], 'collections[].methods'],
      ['no cursor collection at all', 'cursorWalk', [collection({ pagination: offset, markField: 'label', filters: ['label'] })], 'collections[].pagination.style'],
      ['a marked offset collection whose mark is no filter, and a bare cursor one', 'anyWalk', [collection({ createBody: undefined }), collection({ name: 'b', pagination: offset, markField: 'label' })], 'collections[].filters'],
    ] as const)('%s: %s names %s', (_what, need, collections, key) => {
      expect(keyOf(need, [...collections])).toBe(key);
    });
  });
});

describe('a shared write sequence cut short', () => {
  it('judges the steps answered before: a dropped second PUT errors only END-put-idempotent', async () => {
    const puts = new Map<string, number>();
    // Every unconditional PUT to an item after its first: the connection is dropped.
    const dropSecondPut: Rewrites = {
      request(req) {
        if (req.method !== 'PUT' || req.headers['if-match'] !== undefined) return req;
        const n = (puts.get(pathOf(req)) ?? 0) + 1;
        puts.set(pathOf(req), n);
        if (n >= 2) throw new Error('connection dropped');
        return req;
      },
    };
    const ids = ['END-put-replaces', 'END-put-idempotent', 'END-update-returns-resource', 'END-etag-changes-on-write', 'END-patch-keeps-unsent'];
    const target = await startVariant(dropSecondPut);
    try {
      // One run, so the checks share the sequences.
      const { results } = await runChecks({ profile: target.profile, checks: catalogue.filter((c) => ids.includes(c.id)), seed: 1, client: target.client });
      const explain = results.map((r) => `${resultName(r.id, r.collection)}: ${r.status} ${r.message}`).join('\n');
      expect(results.length, explain).toBeGreaterThanOrEqual(2 * ids.length);
      for (const r of results) expect(r.status, explain).toBe(r.id === 'END-put-idempotent' ? 'error' : 'pass');
    } finally {
      await target.close();
    }
  });
});

describe('an action link that Express answers GET with 404', () => {
  // The actions left out of the config (always open ones cannot be listed there): RES-links-resolve follows their links.
  const noActions = (p: TargetProfile): TargetProfile => ({ ...p, collections: p.collections.map((c) => ({ ...c, actions: [], children: (c.children ?? []).map((k) => ({ ...k, actions: [] })) })) });
  const optionsAllow = (allow: string): Rewrites => ({
    request: (req) => (req.method === 'OPTIONS' && /\/(restoration|completion)$/.test(pathOf(req)) ? { status: 200, headers: { allow, 'content-type': 'text/html; charset=utf-8' }, body: allow } : req),
  });

  it("resolves when OPTIONS lists POST alone (Express's automatic OPTIONS on a POST-only route)", async () => {
    const judged = await verdictsOn(startVariant(optionsAllow('POST')), ['RES-links-resolve'], noActions);
    expectVerdicts(judged, { 'RES-links-resolve': 'pass' });
    expect(judged.explain).not.toMatch(/restoration.*404/);
  });

  it("fails when OPTIONS lists GET too: the GET's 404 says the resource is missing", async () => {
    const judged = await verdictsOn(startVariant(optionsAllow('GET, POST')), ['RES-links-resolve'], noActions);
    expectVerdicts(judged, { 'RES-links-resolve': 'fail' });
    expect(judged.explain).toMatch(/_links\.(restoration|completion) .*→ 404/);
  });
});

describe('HAL links computed from the item (Spring HATEOAS: an action link shown or not by state)', () => {
  // Each project answer links a rename whose target names the project's name: a PATCH of the name changes the links.
  const stateLinks: Rewrites = {
    response: (res, req) => {
      const item = jsonOf(res);
      if (!isItem(req) || !isObject(item)) return res;
      return withJson(res, { ...item, _links: { ...(isObject(item['_links']) ? item['_links'] : {}), [`rename-from-${String(item['name'])}`]: { href: pathOf(req) } } });
    },
  };

  it('END-patch-keeps-unsent does not count the links among the fields the PATCH did not send', async () => {
    expectVerdicts(await verdictsOn(startVariant(stateLinks), ['END-patch-keeps-unsent']), { 'END-patch-keeps-unsent': 'pass' });
  });
});

describe('an array POSTed to a collection taken as a bulk create (PostgREST), answered with an array', () => {
  const bulk = (alsoNull: boolean): Rewrites => ({
    response: (res, req) => {
      const body = req.body.trim();
      const bulkCreate = req.method === 'POST' && pathOf(req) === '/v2/projects' && (body.startsWith('[') || (alsoNull && body === 'null'));
      return bulkCreate ? { status: 201, headers: { 'content-type': 'application/json' }, body: '[]' } : res;
    },
  });

  it('ERR-bad-input-no-5xx takes it as a bulk create may be, noted', async () => {
    const got = await verdictsOn(startVariant(bulk(false)), ['ERR-bad-input-no-5xx']);
    expectVerdicts(got, { 'ERR-bad-input-no-5xx': 'pass' });
    expect(got.explain).not.toMatch(/expected a 4xx/);
  });

  it('still fails a null body taken as a create', async () => {
    const got = await verdictsOn(startVariant(bulk(true)), ['ERR-bad-input-no-5xx']);
    expectVerdicts(got, { 'ERR-bad-input-no-5xx': 'fail' });
    expect(got.explain).toMatch(/for not-an-object \{"method":"POST","value":null\}, expected a 4xx/);
  });
});

describe('error answers the API does not write, or writes only when asked for problem+json', () => {
  const problemChecks = ['ERR-problem-json-content-type', 'ERR-problem-members', 'ERR-problem-status-matches'];
  // nginx refuses TRACE itself with an HTML page; ASP.NET Core writes a 406 with no body unless Accept admits problem+json.
  const frontedAspNet = (traceJson: boolean): Rewrites => ({
    response: (res, req) => {
      if (req.method === 'TRACE') return traceJson ? { ...withJson(res, { error: 'Method Not Allowed' }, 405), headers: { ...res.headers, 'content-type': 'application/json' } } : { status: 405, headers: { 'content-type': 'text/html' }, body: '<html><head><title>405 Not Allowed</title></head><body><center><h1>405 Not Allowed</h1></center><hr><center>nginx</center></body></html>' };
      if (res.status === 406 && !String(req.headers['accept'] ?? '').includes('application/problem+json')) return { status: 406, headers: {}, body: '' };
      return res;
    },
  });

  it('pass the problem checks: the TRACE page is noted, not judged, and the 406 probe admits problem+json', async () => {
    const got = await verdictsOn(startVariant(frontedAspNet(false)), problemChecks);
    expectVerdicts(got, Object.fromEntries(problemChecks.map((id) => [id, 'pass'])));
  });

  it('still fail the content-type check on a JSON 405 to TRACE that is no problem+json (the API\'s own)', async () => {
    expectVerdicts(await verdictsOn(startVariant(frontedAspNet(true)), ['ERR-problem-json-content-type']), { 'ERR-problem-json-content-type': 'fail' });
  });

  it('still fail it on a 405 to TRACE with no body at all (ASP.NET Core\'s endpoint routing: the app\'s own, not a proxy\'s page)', async () => {
    const emptyTrace: Rewrites = { response: (res, req) => (req.method === 'TRACE' ? { status: 405, headers: { allow: 'GET, POST' }, body: '' } : res) };
    expectVerdicts(await verdictsOn(startVariant(emptyTrace), ['ERR-problem-json-content-type']), { 'ERR-problem-json-content-type': 'fail' });
  });
});

describe('an invalid body configured as one that leaves a required field out', () => {
  // collections[].invalid.body {"description": …}: the name it lacks is what the errors name.
  const missingName = (p: TargetProfile): TargetProfile => adjustProjects(p, () => ({ invalidBody: { description: 'a project with no name' } }));

  it('ERR-validation-errors-field takes errors that name the field it lacks', async () => {
    const got = await verdictsOn(startTarget(), ['ERR-validation-errors-field'], missingName);
    expectVerdicts(got, { 'ERR-validation-errors-field': 'pass' });
  });
});

describe('a content-hash ETag (Express, Spring ShallowEtagHeaderFilter) on a write the representation does not show', () => {
  // The projects' description is write-only here, and no modification time is shown: the ETag hashes what is shown.
  const writeOnlyDescription: Rewrites = {
    response: (res, req) => {
      const item = jsonOf(res);
      if (req.method !== 'GET' || !isItem(req) || !isObject(item)) return res;
      const shown = Object.fromEntries(['id', 'name', 'status', 'label'].filter((k) => k in item).map((k) => [k, item[k]]));
      const body = JSON.stringify(shown);
      return { ...res, headers: { ...res.headers, etag: `"${createHash('sha1').update(body).digest('hex')}"` }, body };
    },
  };
  const patchDescription = (p: TargetProfile): TargetProfile => adjustProjects(p, () => ({ patchBody: { description: 'restprobe: a new description' } }));

  it('END-etag-changes-on-write lets the ETag stay where the PATCH left the representation as it was, noted; the PUT that changed it is judged', async () => {
    const got = await verdictsOn(startVariant(writeOnlyDescription), ['END-etag-changes-on-write'], patchDescription);
    expectVerdicts(got, { 'END-etag-changes-on-write': 'pass' });
  });
});

describe('a field created with the value a reset gives it (a todo\'s completed: false)', () => {
  // Every project shows pinned: false, its default; the create body sends that default too.
  const pinnedDefault: Rewrites = { response: (res, req) => (req.method === 'GET' && isItem(req) && isObject(jsonOf(res)) ? withJson(res, { ...jsonOf(res), pinned: false }) : res) };
  const createsPinned = (p: TargetProfile): TargetProfile => adjustProjects(p, (c) => ({ createBody: { ...c.createBody, pinned: false } }));

  it('END-put-replaces does not take it for a field the PUT kept, noted; the other omitted fields are judged', async () => {
    const got = await verdictsOn(startVariant(pinnedDefault), ['END-put-replaces'], createsPinned);
    expectVerdicts(got, { 'END-put-replaces': 'pass' });
  });
});

describe('ids of a shape a UUID is not (ERR-unknown-id-404 asks again with one shaped like a listed id)', () => {
  /** A things API listing one item, `known`; an id not of `shape` is refused with `refusal`, an unknown one of it answered `missing`. */
  async function idServer(known: string | number, shape: RegExp, refusal: number, missing: number): Promise<{ url: string; close(): Promise<void> }> {
    const problem = (status: number, title: string) => JSON.stringify({ type: 'about:blank', title, status });
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      if (path === '/things') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ id: known, name: 'thing' }], next_cursor: null }));
      const id = /^\/things\/([^/]+)$/.exec(path)?.[1];
      if (id === undefined) return void res.writeHead(404, { 'content-type': 'application/problem+json' }).end(problem(404, 'Not Found'));
      if (!shape.test(id)) return void res.writeHead(refusal, { 'content-type': 'application/problem+json' }).end(problem(refusal, 'Invalid id'));
      if (id === String(known)) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: known, name: 'thing' }));
      res.writeHead(missing, { 'content-type': 'application/problem+json' }).end(problem(missing, 'Not Found'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
  }

  it.each([
    ['Mongo ObjectIds (Express and Mongoose, a CastError answered 400)', '64f0c2a1b3d4e5f6a7b8c9d0', /^[0-9a-f]{24}$/, 400, /for a UUID, which is no id of the shape \/things lists \(64f0c2a1b3d4e5f6a7b8c9d0\): asked again with one shaped like it/],
    ["integers, collections[].idType left out (FastAPI's int path parameter, 422)", 7, /^\d+$/, 422, /for a UUID, where \/things lists integer ids \(7\): asked again with an unknown integer/],
    ['ULIDs (a validator of their Crockford base32, 400)', '01HF8ZJ6Q9X4M2K7T3VWR5YNBC', /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/, 400, /asked again with one shaped like it/],
  ] as const)('%s: passes on the 404 to one of its shape; a 200 for it still fails', async (_what, known, shape, refusal, note) => {
    for (const [missing, want] of [[404, 'pass'], [200, 'fail']] as const) {
      const server = await idServer(known, shape, refusal, missing);
      try {
        const profile = { ...testProfile(server.url, { keyHeader: null }), collections: [thingsCollection] };
        const [result] = (await runChecks({ profile, checks: catalogue.filter((c) => c.id === 'ERR-unknown-id-404'), seed: 1 })).results;
        expect(result, result!.message).toMatchObject({ status: want });
        if (want === 'pass') expect(result!.evidence.notes).toContainEqual(expect.stringMatching(note));
      } finally {
        await server.close();
      }
    }
  });
});
