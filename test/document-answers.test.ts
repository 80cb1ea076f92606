/**
 * The DOC section on documents and servers that are not the reference server's: a 3.0
 * document with `nullable`, `4XX` and `default` responses, media ranges, an absolute server
 * URL under a path prefix, a HEAD the document leaves to its GET, integer ids; and the ways a
 * real API breaks its document without breaking the conventions (an Express HTML 404 where
 * problem+json is promised, a field retyped, a required header dropped, a status left out).
 *
 * The stand-in is a plain node:http server built as a small Express app would answer; each
 * run holds its answers to the document through the engine, as `restprobe run --openapi` does.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runChecks } from '../src/engine/run.js';
import { OpenApiDocument } from '../src/model/openapi-document.js';
import type { CheckResult } from '../src/model/result.js';
import type { ReceivedExchange } from '../src/model/context.js';
import { DocumentJudge, headersRule, mediaTypeRule, schemaRule, statusRule } from '../src/check-kit/documented-answers.js';
import { catalogue } from '../suites/catalogue.js';
import { defineCheck } from '../src/model/check.js';
import { testProfile } from './support/profile.js';

type Json = Record<string, unknown>;

const problem = { 'application/problem+json': { schema: { type: 'object', required: ['status', 'title'], properties: { status: { type: 'integer' }, title: { type: 'string' } } } } };

/** A 3.0 document as a framework's generator writes one: servers with a prefix, integer ids, nullable, ranges, default. */
/** The books document; `onlySuccess`: its item GET lists 200 alone, as generated documents (FastAPI, springdoc, Swashbuckle) do. */
function document(serverUrl: string, { onlySuccess = false }: { readonly onlySuccess?: boolean } = {}): OpenApiDocument {
  // A nullable nested object as drf-spectacular writes one: allOf around the $ref, nullable beside it.
  const book = { type: 'object', required: ['id', 'title'], properties: { id: { type: 'integer' }, title: { type: 'string' }, published: { type: 'string', format: 'date-time' }, pin: { type: 'string', writeOnly: true }, subtitle: { type: 'string', nullable: true }, publisher: { allOf: [{ $ref: '#/components/schemas/Publisher' }], nullable: true }, editor: { type: 'object', allOf: [{ $ref: '#/components/schemas/Publisher' }], nullable: true } } };
  const root: Json = {
    openapi: '3.0.3',
    info: { title: 'books', version: '1' },
    components: { schemas: { Publisher: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } },
    servers: [{ url: serverUrl }],
    paths: {
      '/books': {
        get: { responses: { '200': { description: 'page', content: { 'application/json': { schema: { type: 'array', items: book } } } }, '4XX': { description: 'error', content: problem } } },
      },
      '/books/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        get: { responses: { '200': { description: 'a book', headers: { ETag: { required: true, schema: { type: 'string' } }, Sunset: { schema: { type: 'string', format: 'date-time' } } }, content: { 'application/*': { schema: book } } }, ...(!onlySuccess && { default: { description: 'error', content: problem } }) } },
      },
      '/books/latest': {
        get: { responses: { '200': { description: 'the newest', content: { 'application/json': { schema: book } } } } },
      },
      '/books/{id}/reviews': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        // As NestJS's @ApiNotFoundResponse({ description }) writes a 404 (no content), and as ASP.NET's ApiExplorer documents ProblemDetails (application/json).
        get: { responses: { '200': { description: 'reviews', content: { 'application/json': { schema: { type: 'array' } } } }, '404': { description: 'no such book' }, '400': { description: 'bad', content: { 'application/json': { schema: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } } } } } } },
      },
      '/books/{id}/cover': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        get: { responses: { '200': { description: 'the cover', content: { 'image/png': {} } }, '404': { description: 'no such book', content: problem } } },
      },
    },
  };
  return new OpenApiDocument(root, '3.0', 'books.json');
}

const received = (method: string, url: string, status: number, headers: Record<string, string>, text = ''): ReceivedExchange => ({
  method,
  url,
  requestHeaders: {},
  requestBody: undefined,
  response: { status, rawHeaders: headers, text },
  durationMs: 1,
  sentBy: 'a test',
});

describe('DocumentJudge: which operation an answer answered', () => {
  const base = 'https://staging.example.com/api';
  const judge = new DocumentJudge(document('https://api.example.com/api/v1'), testProfile(base));

  it('matches through the server path, a concrete path before a templated one, and HEAD as its GET', () => {
    const at = (method: string, url: string) => {
      const found = judge.operationOf(method, url);
      return found === undefined ? undefined : `${found.operation.method} ${found.operation.path}${found.bodiless ? ' (no body)' : ''}`;
    };
    expect(at('GET', 'https://staging.example.com/api/v1/books/7')).toBe('GET /books/{id}');
    expect(at('GET', 'https://staging.example.com/api/v1/books/latest')).toBe('GET /books/latest');
    expect(at('HEAD', 'https://staging.example.com/api/v1/books/7')).toBe('GET /books/{id} (no body)');
    // Not described: another method, another version, an unknown path, another origin.
    expect([at('DELETE', 'https://staging.example.com/api/v1/books/7'), at('GET', 'https://staging.example.com/api/v2/books'), at('GET', 'https://staging.example.com/api/v1/nowhere'), at('GET', 'https://evil.example.net/api/v1/books')]).toEqual([undefined, undefined, undefined, undefined]);
  });

  const judged = (rule: typeof statusRule, exchange: ReceivedExchange) => judge.answers([exchange]).map((a) => rule(a, judge));

  it('takes a status from its code, its range or default', () => {
    expect(judged(statusRule, received('GET', `${base}/v1/books`, 422, {}))).toEqual([undefined]);
    expect(judged(statusRule, received('GET', `${base}/v1/books/7`, 503, {}))).toEqual([undefined]);
    expect(judged(statusRule, received('GET', `${base}/v1/books`, 500, {}))).toEqual(['answered 500, which is not documented (documented: 200, 4XX)']);
    // What the HTTP machinery answers any operation (a precondition, authentication, negotiation) is not held against a document that lists only 200; what the operation itself answers is.
    for (const status of [304, 401, 403, 406, 412, 415, 429]) expect(judged(statusRule, received('GET', `${base}/v1/books/latest`, status, {})), String(status)).toEqual([undefined]);
    // An error the document leaves out is a SHOULD (OpenAPI 3.1 §4.8.16: known errors are expected, not every code).
    expect(judged(statusRule, received('GET', `${base}/v1/books/latest`, 404, {}))).toEqual([{ should: 'answered 404, which is not documented (documented: 200)' }]);
    // A 405 to a method the document lists refuses what it promises.
    expect(judged(statusRule, received('GET', `${base}/v1/books/latest`, 405, {}))).toEqual(['answered 405, which is not documented (documented: 200)']);
    // An operation that lists its client errors promises them: another 4xx is a MUST.
    expect(judged(statusRule, received('GET', `${base}/v1/books/7/cover`, 410, {}))).toEqual(['answered 410, which is not documented (documented: 200, 404)']);
    // A HEAD the document does not list, refused by a framework that serves GET alone: nothing was promised of it.
    expect(judged(statusRule, received('HEAD', `${base}/v1/books/latest`, 405, {}))).toEqual([undefined]);
  });

  it('takes a media range, and finds an HTML error page where problem+json is promised', () => {
    const ok = received('GET', `${base}/v1/books/7`, 200, { 'content-type': 'application/hal+json', etag: '"1"' }, '{"id":7,"title":"t"}');
    expect(judged(mediaTypeRule, ok)).toEqual([undefined]);
    const html = received('GET', `${base}/v1/books/7`, 404, { 'content-type': 'text/html; charset=utf-8' }, '<h1>Not Found</h1>');
    expect(judged(mediaTypeRule, html)).toEqual(['answered 404 with Content-Type text/html, which is not documented (documented: application/problem+json)']);
    // A HEAD has no body to judge.
    expect(judged(mediaTypeRule, received('HEAD', `${base}/v1/books/7`, 200, { 'content-type': 'text/plain' }))).toEqual([undefined]);
  });

  it('warns, not fails, an error body where the response has no content (left undescribed), and problem+json where application/json is documented, judged by its schema', () => {
    const notFound = received('GET', `${base}/v1/books/7/reviews`, 404, { 'content-type': 'application/json' }, '{"statusCode":404,"message":"Not Found"}');
    expect(judged(mediaTypeRule, notFound)).toEqual([{ should: 'answered 404 with a application/json body where the document describes no body' }]);
    const bad = (text: string) => received('GET', `${base}/v1/books/7/reviews`, 400, { 'content-type': 'application/problem+json' }, text);
    expect(judged(mediaTypeRule, bad('{"title":"Bad Request","status":400}'))).toEqual([{ should: 'answered 400 with Content-Type application/problem+json where the document lists application/json (as ASP.NET\'s ApiExplorer and FastAPI document problem details): judged by that schema' }]);
    expect(judged(schemaRule, bad('{"title":"Bad Request","status":400}'))).toEqual([undefined]);
    expect(judged(schemaRule, bad('{"title":7}'))[0]).toMatch(/^answered 400 with a body where \/title must be string/);
    // A success with a body the document does not describe is still a failure: clients are generated from it.
    expect(judged(mediaTypeRule, received('GET', `${base}/v1/books/7/cover`, 200, { 'content-type': 'application/json' }, '{}'))).toEqual(['answered 200 with Content-Type application/json, which is not documented (documented: image/png)']);
  });

  it('reads 3.0 nullable, and finds a field retyped', () => {
    const at = (text: string) => judged(schemaRule, received('GET', `${base}/v1/books/7`, 200, { 'content-type': 'application/json', etag: '"1"' }, text));
    expect(at('{"id":7,"title":"t","subtitle":null,"added":"fields are compatible"}')).toEqual([undefined]);
    // nullable beside allOf (drf-spectacular's nullable nested serializer) admits null, and the object still has its schema.
    expect(at('{"id":7,"title":"t","publisher":null}')).toEqual([undefined]);
    // The same with a type beside the composition (springdoc, NestJS).
    expect(at('{"id":7,"title":"t","editor":null}')).toEqual([undefined]);
    expect(at('{"id":7,"title":"t","publisher":{"name":"Ace"}}')).toEqual([undefined]);
    expect(at('{"id":7,"title":"t","publisher":{"name":7}}')[0]).toMatch(/^answered 200 with a body where \/publisher/);
    expect(at('{"id":"7","title":"t"}')[0]).toMatch(/^answered 200 with a body where \/id must be integer \(schema \/paths\//);
    expect(at('{"id":7,')[0]).toBe('answered 200 with a application/json body that is not JSON');
  });

  it('finds a required header missing, and takes it present', () => {
    expect(judged(headersRule, received('GET', `${base}/v1/books/7`, 200, { 'content-type': 'application/json' }, '{}'))).toEqual(['answered 200 where ETag is missing']);
    expect(judged(headersRule, received('GET', `${base}/v1/books/7`, 200, { etag: '"1"' }, '{}'))).toEqual([undefined]);
  });

  it('warns of a header that breaks only its format (an HTTP-date Sunset documented as date-time): format is an annotation; fails where more is wrong', () => {
    const sunset = 'Sat, 31 Dec 2026 23:59:59 GMT';
    expect(judged(headersRule, received('GET', `${base}/v1/books/7`, 200, { etag: '"1"', sunset }, '{}'))).toEqual([{ should: 'answered 200 where Sunset must match format "date-time"' }]);
    expect(judged(headersRule, received('GET', `${base}/v1/books/7`, 200, { sunset }, '{}'))).toEqual(['answered 200 where ETag is missing, Sunset must match format "date-time"']);
  });
});

/** A small books API: `broken` names what it gets wrong, as frameworks' defaults do. */
function booksApi(broken: { htmlNotFound?: boolean; idAsText?: boolean; noEtag?: boolean; headRefused?: boolean; published?: unknown; echoesPin?: boolean } = {}) {
  const books = [{ id: 1, title: 'Dune', subtitle: null }, { id: 2, title: 'Emma', subtitle: 'a novel' }]
    .map((b) => (broken.published === undefined ? b : { ...b, published: broken.published }))
    .map((b) => (broken.echoesPin === true ? { ...b, pin: '4711' } : b));
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) => res.writeHead(status, { 'content-type': type, ...headers }).end(req.method === 'HEAD' ? undefined : body);
    const m = /^\/api\/v1\/books\/(\d+)$/.exec(path);
    if (path === '/api/v1/books' && req.method === 'GET') return send(200, 'application/json; charset=utf-8', JSON.stringify(books));
    const found = m === null ? undefined : books.find((b) => b.id === Number(m[1]));
    // FastAPI's and ASP.NET's GET routes refuse HEAD.
    if (broken.headRefused === true && req.method === 'HEAD') return send(405, 'application/json', JSON.stringify({ detail: 'Method Not Allowed' }), { allow: 'GET' });
    if (found !== undefined && (req.method === 'GET' || req.method === 'HEAD')) {
      return send(200, 'application/json', JSON.stringify(broken.idAsText === true ? { ...found, id: String(found.id) } : found), broken.noEtag === true ? {} : { etag: `"${found.id}"` });
    }
    if (broken.htmlNotFound === true) return send(404, 'text/html; charset=utf-8', `<pre>Cannot ${req.method} ${path}</pre>`);
    return send(404, 'application/problem+json', JSON.stringify({ status: 404, title: 'Not Found' }));
  });
}

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** Stands for the rest of a run: reads the listing, an item (and its HEAD), an unknown item. */
const reads = defineCheck({
  id: 'CON-test-reads',
  title: 'reads',
  rule: 'Test traffic.',
  severity: 'must',
  needs: [],
  async run(ctx) {
    for (const [method, path] of [['GET', '/api/v1/books'], ['GET', '/api/v1/books/1'], ['HEAD', '/api/v1/books/2'], ['GET', '/api/v1/books/999']] as const) await ctx.http.send({ method, path });
  },
});

/** The DOC checks over the stand-in, after the reads. */
async function runOn(broken: Parameters<typeof booksApi>[0], documentOptions: Parameters<typeof document>[1] = {}): Promise<Record<string, string>> {
  const server = booksApi(broken);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const plain = testProfile(base, { keyHeader: null });
  // The checks that judge answers (the body checks send their own: test/schema-inputs.test.ts).
  const checks = [reads, ...catalogue.filter((c) => c.schedule === 'review')];
  const { results } = await runChecks({ profile: { ...plain, http: { ...plain.http, timeoutMs: 5_000 } }, checks, seed: 1, inputs: { openapi: document('/api/v1', documentOptions) } });
  return Object.fromEntries(results.filter((r: CheckResult) => r.id !== reads.id).map((r) => [r.id, r.status === 'fail' || r.status === 'warn' ? `${r.status}: ${r.message}` : r.status]));
}

describe('the DOC checks over a stand-in API', () => {
  it('pass where the API answers as its 3.0 document says, integer ids and all', async () => {
    expect(await runOn({})).toEqual({ 'DOC-status-documented': 'pass', 'DOC-media-type-documented': 'pass', 'DOC-body-matches-schema': 'pass', 'DOC-required-headers': 'pass' });
  });

  it('warn, not fail, where a generated document lists only the success and the API answers 404; a 405 to an unlisted HEAD is not held against it', async () => {
    const verdicts = await runOn({ headRefused: true }, { onlySuccess: true });
    expect(verdicts['DOC-status-documented']).toMatch(/^warn: one operation answers unlike the document: GET \/books\/\{id\} answered 404, which is not documented \(documented: 200\)/);
    expect(verdicts['DOC-status-documented']).not.toMatch(/405/);
  });

  it('warn where a date-time has no offset (Spring LocalDateTime, .NET DateTime): a format alone is an annotation; fail where it is no string', async () => {
    const naive = await runOn({ published: '2024-05-01T10:00:00' });
    expect(naive['DOC-body-matches-schema']).toMatch(/^warn: .*\/published must match format "date-time"/);
    const offset = await runOn({ published: '2024-05-01T10:00:00Z' });
    expect(offset['DOC-body-matches-schema']).toBe('pass');
    const retyped = await runOn({ published: 20240501 });
    expect(retyped['DOC-body-matches-schema']).toMatch(/^fail: .*\/published must be string/);
  });

  it('warn where a response shows a writeOnly property (a PIN echoed back), in an item and in a listing', async () => {
    const verdicts = await runOn({ echoesPin: true });
    expect(verdicts['DOC-body-matches-schema']).toMatch(/^warn: .*GET \/books answered 200 with a body that shows writeOnly \/0\/pin/);
    expect(verdicts['DOC-body-matches-schema']).toMatch(/GET \/books\/\{id\} answered 200 with a body that shows writeOnly \/pin/);
  });

  it("fail on Express's HTML 404, a retyped id and a dropped ETag, each in its own check", async () => {
    const verdicts = await runOn({ htmlNotFound: true, idAsText: true, noEtag: true });
    expect(verdicts['DOC-status-documented']).toBe('pass');
    expect(verdicts['DOC-media-type-documented']).toMatch(/^fail: .*GET \/books\/\{id\} answered 404 with Content-Type text\/html, which is not documented/);
    expect(verdicts['DOC-body-matches-schema']).toMatch(/^fail: .*GET \/books\/\{id\} answered 200 with a body where \/id must be integer/);
    expect(verdicts['DOC-required-headers']).toMatch(/^fail: .*GET \/books\/\{id\} answered 200 where ETag is missing/);
  });
});
