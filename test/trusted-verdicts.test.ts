/**
 * Verdicts a real API can trust (issue 24: mechanism 2, too strict, too lax). Each item is
 * proven both ways on the reference server behind a rewriting proxy that changes one
 * behaviour: a stand-in that conforms in another way than the reference server passes, and
 * one that breaks the rule without being one of the reference server's faults fails.
 */
import { describe, expect, it, vi } from 'vitest';
import { runChecks } from '../src/engine/run.js';
import { resultName, worstFinding, type CheckResult } from '../src/model/result.js';
import type { CollectionProfile, TargetProfile } from '../src/model/profile.js';
import { catalogue } from '../suites/catalogue.js';
import { jsonOf, pathOf, queryOf, withJson, type ProxiedRequest, type ProxiedResponse, type Rewrites } from './support/rewriting-proxy.js';
import { startTarget, startVariant, type Target, type Variant } from './support/target.js';

interface Judged {
  readonly verdicts: Record<string, string>;
  /** Every result as `ID [collection]: status message | notes`, to explain a mismatch and to match messages. */
  readonly explain: string;
  readonly results: readonly CheckResult[];
}

/** Runs each of `ids` alone on the target (closed afterwards): its worst finding over its collections. */
async function judge(start: Promise<Target>, ids: readonly string[], adjust: (p: TargetProfile) => TargetProfile = (p) => p): Promise<Judged> {
  const target = await start;
  try {
    const results: CheckResult[] = [];
    const verdicts: Record<string, string> = {};
    for (const id of ids) {
      const check = catalogue.find((c) => c.id === id);
      if (check === undefined) throw new Error(`no check ${id}`);
      const run = (await runChecks({ profile: adjust(target.profile), checks: [check], seed: 1, client: target.client })).results;
      results.push(...run);
      verdicts[id] = worstFinding(run)!.status;
    }
    const explain = results.map((r) => `${resultName(r.id, r.collection)}: ${r.status} ${r.message} | ${r.evidence.notes.join(' | ')}`).join('\n');
    return { verdicts, explain, results };
  } finally {
    await target.close();
  }
}

function expectVerdicts(got: Judged, want: Record<string, string>): void {
  expect(got.verdicts, got.explain).toEqual(want);
}

const every = (ids: readonly string[], status: string): Record<string, string> => Object.fromEntries(ids.map((id) => [id, status]));

const projects = '/v2/projects';
const isProjectPath = (req: ProxiedRequest): boolean => pathOf(req) === projects || pathOf(req).startsWith(`${projects}/`);
const isWrite = (req: ProxiedRequest): boolean => ['POST', 'PUT', 'PATCH'].includes(req.method);
const onlyProjects = (p: TargetProfile): TargetProfile => ({ ...p, collections: p.collections.filter((c) => c.name === 'projects') });
const adjustProjects = (change: (c: CollectionProfile) => CollectionProfile) => (p: TargetProfile): TargetProfile => ({ ...p, collections: p.collections.filter((c) => c.name === 'projects').map(change) });

describe('1. a create is compared with the body it really sent', () => {
  it('a create body that names the mark field passes: the run-unique mark sent is what comes back', async () => {
    const labelled = adjustProjects((c) => ({ ...c, createBody: { ...c.createBody, label: 'from the config' } }));
    expectVerdicts(await judge(startTarget(), ['END-create-returns-resource'], labelled), { 'END-create-returns-resource': 'pass' });
  });

  it('a create that answers another mark than the one sent fails', async () => {
    const staleMark: Rewrites = { response: (res, req) => (req.method === 'POST' && pathOf(req) === projects && res.status === 201 ? withJson(res, { ...jsonOf(res), label: 'restprobe-stale' }) : res) };
    const judged = await judge(startVariant(staleMark), ['END-create-returns-resource'], onlyProjects);
    expectVerdicts(judged, { 'END-create-returns-resource': 'fail' });
    expect(judged.explain).toMatch(/the body does not hold what was sent \(label: "restprobe-[^"]+" → "restprobe-stale"\)/);
  });
});

describe('2. an update answer is compared with the resource a GET shows after it', () => {
  /** Leaves out every null member of a project, as a "rebuild the object" handler removes what a PUT omitted. */
  const dropNulls: Rewrites = {
    response: (res, req) => {
      const body = jsonOf(res);
      if (!isProjectPath(req) || typeof body !== 'object' || body === null) return res;
      const clean = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));
      return withJson(res, Array.isArray(body.data) ? { ...body, data: body.data.map(clean) } : clean(body));
    },
  };

  it('a PUT that removes the fields it omitted passes, as END-put-replaces does', async () => {
    const ids = ['END-update-returns-resource', 'END-put-replaces'];
    expectVerdicts(await judge(startVariant(dropNulls), ids, onlyProjects), every(ids, 'pass'));
  });

  it('a PUT answer with a stale value in a field it did not write fails', async () => {
    const staleStatus: Rewrites = { response: (res, req) => (req.method === 'PUT' && isProjectPath(req) && res.status === 200 ? withJson(res, { ...jsonOf(res), status: 'archived' }) : res) };
    const judged = await judge(startVariant(staleStatus), ['END-update-returns-resource'], onlyProjects);
    expectVerdicts(judged, { 'END-update-returns-resource': 'fail' });
    expect(judged.explain).toMatch(/PUT \/v2\/projects\/\S+ → 200 application\/json differs from the resource a GET shows right after it \(GET → answer: status: "active" → "archived"\)/);
  });
});

describe('3. a value stored without its leading and trailing whitespace counts as stored', () => {
  /** Each string value of a JSON object request body passed through `change`. */
  const rewriteStrings = (when: (req: ProxiedRequest) => boolean, change: (key: string, value: string) => string): Rewrites => ({
    request: (req) => {
      const body = jsonOf(req);
      if (!when(req) || typeof body !== 'object' || body === null || Array.isArray(body)) return req;
      return { ...req, body: JSON.stringify(Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? change(k, v) : v]))) };
    },
  });

  const padded = adjustProjects((c) => ({
    ...c,
    createBody: { ...c.createBody, name: 'restprobe probe ' },
    replaceBody: { name: ' restprobe probe (replaced)' },
    patchBody: { name: 'restprobe probe (patched)\t' },
  }));
  const ids = ['END-create-returns-resource', 'END-update-returns-resource', 'END-put-replaces', 'END-patch-keeps-unsent'];

  it('a server that trims strings (Django REST framework) passes, and the evidence says so', async () => {
    const trims = rewriteStrings((req) => isWrite(req) && isProjectPath(req), (_k, v) => v.trim());
    const judged = await judge(startVariant(trims), ids, padded);
    expectVerdicts(judged, every(ids, 'pass'));
    expect(judged.explain).toMatch(/stored trimmed, or a number as its decimal string, judged as sent: name "restprobe probe " → "restprobe probe"/);
  });

  it('a server that cuts a name short fails', async () => {
    const cuts = rewriteStrings((req) => isWrite(req) && isProjectPath(req), (k, v) => (k === 'name' ? v.slice(0, -2) : v));
    expectVerdicts(await judge(startVariant(cuts), ['END-create-returns-resource'], padded), { 'END-create-returns-resource': 'fail' });
  });
});

describe('4. a cursor walk may pass short and empty pages before its end', () => {
  const isLabelled = (req: ProxiedRequest): boolean => req.method === 'GET' && pathOf(req) === projects && queryOf(req).has('label');

  it('a store that filters after it scans (DynamoDB-style), over 40 other projects, passes', async () => {
    const scanThenFilter: Rewrites = {
      request: (req) => {
        if (!isLabelled(req)) return req;
        const q = queryOf(req);
        const label = q.get('label')!;
        q.delete('label');
        return { ...req, path: `${projects}?${q}`, headers: { ...req.headers, 'x-variant-label': label } };
      },
      response: (res, req) => {
        const label = req.headers['x-variant-label'];
        if (label === undefined || res.status !== 200) return res;
        const body = jsonOf(res);
        return withJson(res, { ...body, data: body.data.filter((i: { label: string }) => i.label === label) });
      },
    };
    const ids = ['END-pagination-terminates', 'END-pagination-complete-walk', 'END-filter-matches'];
    const judged = await judge(startVariant(scanThenFilter, [], { seedProjects: 40 }), ids, onlyProjects);
    expectVerdicts(judged, every(ids, 'pass'));
    expect(judged.explain).toMatch(/\d+ of the walk's \d+ pages brought no unseen item before next_cursor became null/);
  });

  it('a walk whose empty pages never end, each with a fresh cursor, fails on its request bound', async () => {
    const endless: Rewrites = {
      request: (req) => {
        const cursor = isLabelled(req) ? queryOf(req).get('cursor') : null;
        if (cursor === null || !cursor.startsWith('endless-')) return req;
        return withJson({ status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'private, no-cache' }, body: '' }, { data: [], next_cursor: `endless-${Number(cursor.slice(8)) + 1}` });
      },
      response: (res, req) => (isLabelled(req) && res.status === 200 && jsonOf(res).next_cursor === null ? withJson(res, { ...jsonOf(res), next_cursor: 'endless-0' }) : res),
    };
    const judged = await judge(startVariant(endless), ['END-pagination-terminates'], onlyProjects);
    expectVerdicts(judged, { 'END-pagination-terminates': 'fail' });
    expect(judged.explain).toMatch(/the walk did not end: still going after 107 requests \(107 pages, 103 of them bringing no unseen item\)/);
  });

  it('a walk that ends, but slowly (a paced run held by a Retry-After), is not judged, never failed as endless', async () => {
    // Each labelled page answered as if 25 s had passed: the clock the walk reads jumps.
    let skew = 0;
    const realNow = Date.now.bind(Date);
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + skew);
    const slow: Rewrites = { response: (res, req) => ((skew += isLabelled(req) ? 25_000 : 0), res) };
    try {
      const judged = await judge(startVariant(slow), ['END-pagination-terminates'], onlyProjects);
      expectVerdicts(judged, { 'END-pagination-terminates': 'error' });
      expect(judged.explain).toMatch(/the walk over \/v2\/projects was still going after 60 s \(\d+ pages, none a loop, \d+ of at most \d+ bringing unseen items\): too slow to tell whether it ends, not judged/);
    } finally {
      clock.mockRestore();
    }
  });

  it('a next_cursor that leads back to a page already read fails as a loop', async () => {
    // After the last item: an empty page at loop-a, whose cursor leads to loop-b, whose cursor leads back to loop-a.
    const loops: Rewrites = {
      request: (req) => {
        const cursor = isLabelled(req) ? queryOf(req).get('cursor') : null;
        if (cursor !== 'loop-a' && cursor !== 'loop-b') return req;
        return withJson({ status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'private, no-cache' }, body: '' }, { data: [], next_cursor: cursor === 'loop-a' ? 'loop-b' : 'loop-a' });
      },
      response: (res, req) => (isLabelled(req) && res.status === 200 && jsonOf(res).next_cursor === null ? withJson(res, { ...jsonOf(res), next_cursor: 'loop-a' }) : res),
    };
    const judged = await judge(startVariant(loops), ['END-pagination-terminates'], onlyProjects);
    expectVerdicts(judged, { 'END-pagination-terminates': 'fail' });
    expect(judged.explain).toMatch(/cursor=loop-b → 200 application\/json gave a next_cursor the walk had already followed, a loop/);
  });
});

describe('5. 415 is owed for a type the API does not consume', () => {
  const check = 'ERR-unsupported-content-type-415';
  /** The config says nothing of forms or XML: only the made-up type is owed a 415. */
  const silent = (p: TargetProfile): TargetProfile => ({ ...p, collections: p.collections.map(({ notConsumed: _, ...c }) => c) });

  it('an API that also consumes forms (Express, Rails, DRF) passes', async () => {
    const readsForms: Rewrites = {
      request: (req) =>
        req.headers['content-type'] === 'application/x-www-form-urlencoded'
          ? { ...req, headers: { ...req.headers, 'content-type': 'application/json' }, body: JSON.stringify(Object.fromEntries(new URLSearchParams(req.body))) }
          : req,
    };
    expectVerdicts(await judge(startVariant(readsForms), [check], silent), { [check]: 'pass' });
  });

  it('an API that reads a made-up type as JSON fails', async () => {
    const readsAnything: Rewrites = {
      request: (req) => (req.headers['content-type'] === 'application/x-restprobe-unsupported' ? { ...req, headers: { ...req.headers, 'content-type': 'application/json' } } : req),
    };
    const judged = await judge(startVariant(readsAnything), [check], silent);
    expectVerdicts(judged, { [check]: 'fail' });
    expect(judged.explain).toMatch(/POST with Content-Type: application\/x-restprobe-unsupported → 201/);
  });
});

describe('6. a compound noun is judged by its head, nesting from the first collection', () => {
  /** The reference server behind a gateway at /gateway, its projects renamed `collection`. */
  const renamed = (collection: string) => {
    const out = (s: string) => s.replace(/\/v2\/(projects)?/g, (m) => (m === '/v2/projects' ? `/gateway/v2/${collection}` : '/gateway/v2/'));
    const back = (s: string) => s.replace(`/gateway/v2/${collection}`, '/v2/projects').replace('/gateway/v2/', '/v2/');
    const rewrites: Rewrites = {
      request: (req) => ({ ...req, path: back(req.path) }),
      response: (res) => ({ ...res, headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, k === 'location' || k === 'link' ? out(v) : v])), body: out(res.body) }),
    };
    const profile = (p: TargetProfile): TargetProfile => ({
      ...p,
      collections: p.collections.map((c) => ({ ...c, path: out(c.path), itemPath: out(c.itemPath), children: (c.children ?? []).map((k) => ({ ...k, path: out(k.path), itemPath: out(k.itemPath) })) })),
    });
    return { rewrites, profile };
  };

  it('/gateway/v2/sync-jobs/{id}/tasks passes', async () => {
    const { rewrites, profile } = renamed('sync-jobs');
    const judged = await judge(startVariant(rewrites), ['RES-path-design'], profile);
    expectVerdicts(judged, { 'RES-path-design': 'pass' });
    expect(judged.explain).toMatch(/\/gateway\/v2\/sync-jobs\/\{id\}\/tasks/);
  });

  it('/gateway/v2/run-sync, a verb, fails', async () => {
    const { rewrites, profile } = renamed('run-sync');
    const judged = await judge(startVariant(rewrites), ['RES-path-design'], profile);
    expectVerdicts(judged, { 'RES-path-design': 'fail' });
    expect(judged.explain).toMatch(/"run-sync" is a verb/);
  });
});

// 7. VER-tolerant-reader: a target that keeps the unknown field passes with a note, one that refuses it with 400 fails (test/versioning.test.ts).

describe('8. a safe call that adds items outside the mark fails; another writer does not', () => {
  const check = 'END-safe-methods-no-change';
  const post = (variant: Variant, name: string) =>
    variant.proxy.upstream({ method: 'POST', path: projects, headers: { 'content-type': 'application/json', 'x-api-key': variant.server.secrets.RESTPROBE_API_KEY }, body: JSON.stringify({ name }) });

  it('a collection GET that creates an unmarked project each time fails', async () => {
    let variant: Variant | undefined;
    const createsOnRead: Rewrites = {
      async response(res, req) {
        if (req.method === 'GET' && pathOf(req) === projects) await post(variant!, 'made by a GET');
        return res;
      },
    };
    variant = await startVariant(createsOnRead);
    const judged = await judge(Promise.resolve(variant), [check], onlyProjects);
    expectVerdicts(judged, { [check]: 'fail' });
    expect(judged.explain).toMatch(/outside the mark: GET \/v2\/projects ×5 added \d+ items .*a wait as long \d+; then GET/);
  });

  it('a concurrent writer adding unmarked projects all along passes', async () => {
    const variant = await startVariant({});
    const writer = setInterval(() => void post(variant, 'another writer').catch(() => undefined), 10);
    try {
      expectVerdicts(await judge(Promise.resolve(variant), [check], onlyProjects), { [check]: 'pass' });
    } finally {
      clearInterval(writer);
    }
  });
});

describe('9. a replayed retry that creates a second resource fails', () => {
  const check = 'END-idempotency-key-replay';

  it('a retry answered with the stored result, while a second item is made under the same mark, fails', async () => {
    let variant: Variant | undefined;
    const seen = new Set<string>();
    const createsAnyway: Rewrites = {
      async response(res, req) {
        const key = req.headers['idempotency-key'];
        if (req.method !== 'POST' || key === undefined) return res;
        if (seen.has(key)) {
          const { 'idempotency-key': _, ...headers } = req.headers;
          await variant!.proxy.upstream({ ...req, headers });
        }
        seen.add(key);
        return res;
      },
    };
    variant = await startVariant(createsAnyway);
    const judged = await judge(Promise.resolve(variant), [check], onlyProjects);
    expectVerdicts(judged, { [check]: 'fail' });
    expect(judged.explain).toMatch(/made a second resource: \/v2\/projects\?label=restprobe-\S+ lists 2/);
  });

  it('a retry answered with the stored result and a replay header passes', async () => {
    const marksReplays: Rewrites = { response: (res, req) => (req.method === 'POST' && req.headers['idempotency-key'] !== undefined ? { ...res, headers: { ...res.headers, 'idempotent-replayed': 'true' } } : res) };
    expectVerdicts(await judge(startVariant(marksReplays), [check], onlyProjects), { [check]: 'pass' });
  });
});

describe('10. bad PUT, PATCH and headers are probed, and a 5xx is named before accepted input', () => {
  const crash: ProxiedResponse = {
    status: 500,
    headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store' },
    body: JSON.stringify({ type: 'about:blank', title: 'Internal Server Error', status: 500, detail: 'The server failed to handle this request.' }),
  };
  const check = 'ERR-bad-input-no-5xx';
  const itemPath = /^\/v2\/projects\/[^/]+$/;

  it.each([
    ['a PATCH with a name that is no string', (req: ProxiedRequest) => req.method === 'PATCH' && itemPath.test(pathOf(req)) && typeof jsonOf(req)?.name !== 'string', /PATCH \/v2\/projects\/\S+ → 500/],
    ['a null body', (req: ProxiedRequest) => isWrite(req) && req.body === 'null', /→ 500 .* for not-an-object .*"value":null/],
    ['a % in the path', (req: ProxiedRequest) => /\/v2\/projects\/%($|[^0-9a-fA-F])/.test(req.path), /GET \/v2\/projects\/% → 500/],
    ['an id past 64 bits', (req: ProxiedRequest) => /\/v2\/projects\/-?\d{19,}$/.test(pathOf(req)), /GET \/v2\/projects\/\d{19,} → 500/],
    ['a malformed If-Match', (req: ProxiedRequest) => req.headers['if-match'] !== undefined && !/^(\*|(W\/)?"[^"]*"(\s*,\s*(W\/)?"[^"]*")*)$/.test(req.headers['if-match']), /with If-Match: /],
    ['a malformed Idempotency-Key', (req: ProxiedRequest) => req.headers['idempotency-key'] !== undefined && !/^"[^"]*"$/.test(req.headers['idempotency-key']), /with Idempotency-Key: /],
  ])('a 500 for %s fails, naming it', async (_what, crashes, named) => {
    const judged = await judge(startVariant({ request: (req) => (crashes(req) ? crash : req) }), [check], onlyProjects);
    expectVerdicts(judged, { [check]: 'fail' });
    expect(judged.explain).toMatch(named);
  });

  /** A field typed `any`, or coerced: every name and description is read as a string. */
  const coerces = (req: ProxiedRequest): ProxiedRequest => {
    const body = jsonOf(req);
    if (!isWrite(req) || !isProjectPath(req) || typeof body !== 'object' || body === null || Array.isArray(body)) return req;
    const wrong = ['name', 'description'].filter((k) => k in body && body[k] !== null && typeof body[k] !== 'string');
    // Only a body with a field to coerce is written again (JSON.stringify overflows on the deeply nested ones).
    return wrong.length === 0 ? req : { ...req, body: JSON.stringify({ ...body, ...Object.fromEntries(wrong.map((k) => [k, JSON.stringify(body[k])])) }) };
  };

  it('a server that coerces fields of another type passes', async () => {
    const judged = await judge(startVariant({ request: coerces }), [check], onlyProjects);
    expectVerdicts(judged, { [check]: 'pass' });
    expect(judged.explain).toMatch(/accepted, as a field typed to take any value, or coerced, may be/);
  });

  it('the same server with a 500 for a null body fails naming the null body, not the coerced field', async () => {
    const judged = await judge(startVariant({ request: (req) => (isWrite(req) && req.body === 'null' ? crash : coerces(req)) }), [check], onlyProjects);
    expectVerdicts(judged, { [check]: 'fail' });
    expect(judged.results[0]!.message).toMatch(/^POST \/v2\/projects → 500 application\/problem\+json for not-an-object/);
  });
});

describe('11. a 405 lists in Allow the methods the path serves', () => {
  const check = 'END-method-not-allowed-405';
  const allowIs = (collectionAllow: string, itemAllow: string): Rewrites => ({
    response: (res, req) => (res.status === 405 ? { ...res, headers: { ...res.headers, allow: pathOf(req) === projects ? collectionAllow : itemAllow } } : res),
  });

  it('an Allow that leaves out GET, which the path serves (FastAPI), fails', async () => {
    const judged = await judge(startVariant(allowIs('POST', 'PUT, PATCH, DELETE')), [check], onlyProjects);
    expectVerdicts(judged, { [check]: 'fail' });
    expect(judged.explain).toMatch(/TRACE \/v2\/projects → 405 application\/problem\+json: Allow is "POST", which leaves out GET, seen to succeed on this path/);
  });

  it('an Allow with only the methods seen, in another order, passes', async () => {
    expectVerdicts(await judge(startVariant(allowIs('POST, GET', 'DELETE, GET')), [check], onlyProjects), { [check]: 'pass' });
  });
});

describe('12. the unsupported-method probe is never a bulk write', () => {
  const ids = ['END-method-not-allowed-405', 'ERR-problem-json-content-type', 'ERR-problem-members'];

  it('a collection that serves PATCH, PUT and DELETE as bulk writes (LoopBack), with no Allow on OPTIONS, gets none of them and passes', async () => {
    const bulk: ProxiedRequest[] = [];
    const bulkWrites: Rewrites = {
      request: (req): ProxiedRequest | ProxiedResponse => {
        if (pathOf(req) !== projects) return req;
        if (['PATCH', 'PUT', 'DELETE'].includes(req.method)) {
          bulk.push(req);
          return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"count":49}' };
        }
        return req.method === 'OPTIONS' ? { status: 204, headers: {}, body: '' } : req;
      },
    };
    expectVerdicts(await judge(startVariant(bulkWrites), ids, onlyProjects), every(ids, 'pass'));
    expect(bulk.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('a TRACE answered 200 with JSON, as if it were a GET, fails', async () => {
    const catchAll: Rewrites = { request: (req) => (req.method === 'TRACE' ? { ...req, method: 'GET' } : req) };
    expectVerdicts(await judge(startVariant(catchAll), ['END-method-not-allowed-405'], onlyProjects), { 'END-method-not-allowed-405': 'fail' });
  });
});
