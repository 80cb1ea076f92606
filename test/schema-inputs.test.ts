/**
 * Schema-driven inputs (DOC-valid-bodies-accepted, DOC-invalid-bodies-refused): bodies drawn
 * from a create operation's request schema. On the reference server with its own document
 * both pass, and each of their faults fails its check; on a stand-in that conforms differently
 * (400 where the reference answers 422, integer ids, a documented 409) both pass; on stand-ins
 * that break the rules another way than the faults (a refusal that names no field, a length
 * limit below the documented one) the check about that rule fails. What a run created is gone
 * after it, whatever the verdict. (test/schema-inputs-published.test.ts draws from published documents.)
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runChecks } from '../src/engine/run.js';
import { HttpClient } from '../src/http/client.js';
import { OpenApiDocument } from '../src/model/openapi-document.js';
import { resultName, type CheckResult } from '../src/model/result.js';
import { loadOpenApi } from '../src/document/load.js';
import { invalidBodiesRefused, validBodiesAccepted } from '../suites/10-document/bodies.js';
import { startTarget } from './support/target.js';
import { testProfile } from './support/profile.js';
import { thingsCollection } from './support/items-server.js';

const checks = [validBodiesAccepted, invalidBodiesRefused];
type Verdicts = Record<string, string>;

/** Each check's verdict per collection (`DOC-valid-bodies-accepted [projects]: pass`), with the messages to explain a mismatch. */
function verdicts(results: readonly CheckResult[]): { verdicts: Verdicts; explain: string } {
  return {
    verdicts: Object.fromEntries(results.map((r) => [resultName(r.id, r.collection), r.status])),
    explain: results.map((r) => `${resultName(r.id, r.collection)}: ${r.status} ${r.message}`).join('\n'),
  };
}

/** The two checks on the reference server (with `faults`), held to the document it serves. */
async function onReference(faults: readonly string[]): Promise<{ verdicts: Verdicts; explain: string; results: readonly CheckResult[] }> {
  const target = await startTarget(faults);
  try {
    const openapi = await loadOpenApi(`${target.server.url}/openapi.json`);
    const { results } = await runChecks({ profile: target.profile, checks, seed: 7, client: target.client, inputs: { openapi } });
    return { ...verdicts(results), results };
  } finally {
    await target.close();
  }
}

describe.concurrent('on the reference server, held to its own document', () => {
  it('both checks pass on every writable collection, each having sent targeted and random bodies', async () => {
    const { verdicts: v, explain, results } = await onReference([]);
    expect(v, explain).toEqual({
      'DOC-valid-bodies-accepted [projects]': 'pass',
      'DOC-valid-bodies-accepted [members]': 'pass',
      'DOC-invalid-bodies-refused [projects]': 'pass',
      'DOC-invalid-bodies-refused [members]': 'pass',
    });
    // Four targeted bodies each, then one at random.
    for (const r of results) expect(r.evidence.property?.numRuns, r.id).toBe(5);
    const notes = results.flatMap((r) => r.evidence.notes).join('\n');
    expect(notes).toMatch(/^5 valid bodies created, 0 refused with a conflict the operation documents$/m);
    expect(notes).toMatch(/^targeted: name \(type string\), name \(required\), status \(enum \["active","archived"\]\), name \(maxLength 200\); then random breaks of \d+ constraints$/m);
  });
});

/** A create the stand-in received, and the fields it found invalid. */
interface Create {
  readonly body: Record<string, unknown>;
  readonly bad: readonly string[];
}

/** How a widgets stand-in answers; each switch is one way of refusing a body. */
interface WidgetsOptions {
  /** The status of a validation error: 422 like the reference server, or 400. */
  readonly refusal: 400 | 422;
  /** Whether a refusal names its fields (`errors[].field`), or only says so in `detail`. */
  readonly namesFields: boolean;
  /** The longest name it takes, whatever the document says (50). */
  readonly maxName: number;
  /** Answers every valid create 403, a status its document lists: nothing is ever created. */
  readonly forbidsAll?: boolean;
  /** Turns a number sent for a text field into its digits, as DRF's CharField, pydantic v1 and Mongoose do. */
  readonly coercesNumbers?: boolean;
  /**
   * A required foreign key (an integer the document bounds at 1), refused unless it names 7, the only one: `factory_id`, or
   * `category` as DRF's PrimaryKeyRelatedField names one, beside a configured `categories` collection.
   */
  readonly references?: 'factory_id' | 'category';
  /** The document writes the code's pattern unanchored (`[A-Z]{3}`), as springdoc does a Java `@Pattern`, which the stand-in matches whole. */
  readonly unanchored?: boolean;
}

/**
 * The widgets API's OpenAPI 3.0 document: a create body with a required bounded name, an
 * enum, a bounded integer, an email, a patterned code and a nullable label (the mark), and a
 * documented 409 for a code already taken.
 */
const widgetsDocument = ({ references, unanchored = false }: Pick<WidgetsOptions, 'references' | 'unanchored'> = {}): OpenApiDocument => {
  const problem = { description: 'A problem.', content: { 'application/problem+json': { schema: { type: 'object' } } } };
  const widget = { type: 'object', properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } } };
  return new OpenApiDocument(
    {
      openapi: '3.0.3',
      info: { title: 'Widgets', version: '1' },
      paths: {
        '/widgets': {
          post: {
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['name', 'kind', ...(references ? [references] : [])],
                    properties: {
                      ...(references && { [references]: { type: 'integer', minimum: 1 } }),
                      id: { type: 'integer', readOnly: true },
                      name: { type: 'string', minLength: 1, maxLength: 50 },
                      kind: { type: 'string', enum: ['gear', 'sprocket'] },
                      count: { type: 'integer', minimum: 0, maximum: 10 },
                      contact: { type: 'string', format: 'email' },
                      code: { type: 'string', pattern: unanchored ? '[A-Z]{3}' : '^[A-Z]{3}$' },
                      label: { type: 'string', nullable: true, maxLength: 100 },
                    },
                  },
                },
              },
            },
            responses: { '201': { description: 'Created.', content: { 'application/json': { schema: widget } } }, '400': problem, '403': problem, '409': problem },
          },
        },
        '/widgets/{id}': { get: { responses: { '200': { description: 'The widget.' } } }, delete: { responses: { '204': { description: 'Deleted.' } } } },
      },
    },
    '3.0',
    'widgets.json',
  );
};

/** A widgets API as a tutorial writes one: integer ids, hand-written validation, a code that must be unique ("ABC" is taken). */
async function startWidgets(options: WidgetsOptions): Promise<{ url: string; items: Map<number, Record<string, unknown>>; creates: Create[]; close(): Promise<void> }> {
  const items = new Map<number, Record<string, unknown>>();
  const creates: Create[] = [];
  let next = 1;
  const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    const text = body === undefined ? '' : JSON.stringify(body);
    res.writeHead(status, { ...(body !== undefined && { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' }), ...headers });
    res.end(text);
  };
  const invalid = (body: Record<string, unknown>): string[] => {
    const bad: string[] = [];
    const text = (v: unknown, min: number, max: number) => typeof v === 'string' && v.length >= min && v.length <= max;
    if (!text(body['name'], 1, options.maxName)) bad.push('name');
    if (!['gear', 'sprocket'].includes(body['kind'] as string)) bad.push('kind');
    if (body['count'] !== undefined && !(Number.isInteger(body['count']) && (body['count'] as number) >= 0 && (body['count'] as number) <= 10)) bad.push('count');
    if (body['contact'] !== undefined && !(typeof body['contact'] === 'string' && /^[^@\s]+@[^@\s]+\.[a-z]+$/i.test(body['contact']))) bad.push('contact');
    if (body['code'] !== undefined && !(typeof body['code'] === 'string' && /^[A-Z]{3}$/.test(body['code']))) bad.push('code');
    if (body['label'] !== undefined && body['label'] !== null && !text(body['label'], 0, 100)) bad.push('label');
    if (options.references !== undefined && body[options.references] !== 7) bad.push(options.references);
    return bad;
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = Number(/^\/widgets\/(\d+)$/.exec(req.url ?? '')?.[1]);
      if (req.method === 'POST' && req.url === '/widgets') {
        const sent = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
        const texts = ['name', 'kind', 'contact', 'code', 'label'];
        const body = options.coercesNumbers === true ? Object.fromEntries(Object.entries(sent).map(([k, v]) => [k, texts.includes(k) && typeof v === 'number' ? String(v) : v])) : sent;
        const bad = invalid(body);
        creates.push({ body, bad });
        if (bad.length > 0) {
          const detail = `Invalid fields: ${bad.join(', ')}.`;
          return send(res, options.refusal, { type: 'about:blank', title: 'Invalid body', status: options.refusal, detail, ...(options.namesFields && { errors: bad.map((field) => ({ field, message: 'is invalid' })) }) });
        }
        if (options.forbidsAll === true) return send(res, 403, { type: 'about:blank', title: 'Forbidden', status: 403, detail: 'Widgets are read-only here.' });
        if (body['code'] === 'ABC') return send(res, 409, { type: 'about:blank', title: 'Conflict', status: 409, detail: 'The code ABC is taken.' });
        const item = { ...body, id: next++ };
        items.set(item.id, item);
        return send(res, 201, item, { location: `/widgets/${item.id}` });
      }
      const item = items.get(id);
      if (item === undefined) return send(res, 404, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'No such widget.' });
      if (req.method === 'GET') return send(res, 200, item);
      if (req.method === 'DELETE') {
        items.delete(id);
        return send(res, 204);
      }
      return send(res, 405, { type: 'about:blank', title: 'Method Not Allowed', status: 405, detail: 'No.' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, items, creates, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The two checks on a widgets stand-in, held to its document; what the run left is `left`. */
async function onWidgets(options: WidgetsOptions): Promise<{ verdicts: Verdicts; explain: string; left: number; creates: readonly Create[] }> {
  const widgets = await startWidgets(options);
  // Generous timeouts: on a loaded machine (the test files run side by side) this process may wait seconds for a core.
  const client = new HttpClient({ timeoutMs: 10_000, maxBodyBytes: 1 << 20, connections: 2, maxRequests: 1_000 });
  try {
    const collection = { ...thingsCollection(), name: 'widgets', path: '/widgets', itemPath: '/widgets/{id}', idType: 'integer' as const, createBody: { name: 'w', kind: 'gear', ...(options.references !== undefined && { [options.references]: 7 }) }, markField: 'label' };
    const categories = { ...thingsCollection(), name: 'categories', path: '/categories', itemPath: '/categories/{id}', idType: 'integer' as const, createBody: undefined };
    const base = testProfile(widgets.url, { keyHeader: null });
    const profile = { ...base, http: { ...base.http, timeoutMs: 10_000 }, collections: [collection, ...(options.references === 'category' ? [categories] : [])] };
    const { results } = await runChecks({ profile, checks, seed: 3, client, inputs: { openapi: widgetsDocument(options) } });
    return { ...verdicts(results), left: widgets.items.size, creates: widgets.creates };
  } finally {
    await client.close();
    await widgets.close();
  }
}

describe.concurrent('on stand-ins held to their own document', () => {
  it('a widgets API that refuses with 400, ids integers, and a taken code answered with its documented 409: both pass, nothing left', async () => {
    const { verdicts: v, explain, left, creates } = await onWidgets({ refusal: 400, namesFields: true, maxName: 50 });
    expect(v, explain).toEqual({ 'DOC-valid-bodies-accepted [widgets]': 'pass', 'DOC-invalid-bodies-refused [widgets]': 'pass' });
    expect(left).toBe(0);
    // Valid bodies drew codes from the pattern: some taken (409), others created.
    const valid = creates.filter((c) => c.bad.length === 0);
    expect(valid.some((c) => c.body['code'] === 'ABC')).toBe(true);
    expect(valid.some((c) => typeof c.body['code'] === 'string' && c.body['code'] !== 'ABC')).toBe(true);
    // The targeted broken bodies broke a type, a required name, the enum, a bound, the pattern and the format.
    expect(new Set(creates.flatMap((c) => c.bad))).toEqual(new Set(['name', 'kind', 'code', 'contact']));
    expect(creates.every((c) => c.bad.length <= 1)).toBe(true);
  });

  it('a text field that takes a number as its digits (DRF, pydantic v1): a wrong type is planted as an object, which it refuses, and both pass', async () => {
    const { verdicts: v, explain } = await onWidgets({ refusal: 400, namesFields: true, maxName: 50, coercesNumbers: true });
    expect(v, explain).toEqual({ 'DOC-valid-bodies-accepted [widgets]': 'pass', 'DOC-invalid-bodies-refused [widgets]': 'pass' });
  });

  it('a required foreign key (factory_id) the config sets: every body keeps the configured one, which the target knows, and both pass', async () => {
    const { verdicts: v, explain, creates } = await onWidgets({ refusal: 400, namesFields: true, maxName: 50, references: 'factory_id' });
    expect(v, explain).toEqual({ 'DOC-valid-bodies-accepted [widgets]': 'pass', 'DOC-invalid-bodies-refused [widgets]': 'pass' });
    expect(creates.length).toBeGreaterThan(4);
    expect(creates.every((c) => c.body['factory_id'] === 7)).toBe(true);
  });

  it('a required foreign key named for another configured collection (category beside categories: DRF PrimaryKeyRelatedField): every body keeps the configured one, and both pass', async () => {
    const { verdicts: v, explain, creates } = await onWidgets({ refusal: 400, namesFields: true, maxName: 50, references: 'category' });
    expect(v, explain).toMatchObject({ 'DOC-valid-bodies-accepted [widgets]': 'pass', 'DOC-invalid-bodies-refused [widgets]': 'pass' });
    expect(creates.length).toBeGreaterThan(4);
    expect(creates.every((c) => c.body['category'] === 7)).toBe(true);
  });

  it('a pattern the document writes unanchored, which the API matches whole (springdoc over a Java @Pattern): valid bodies match it whole, and both pass', async () => {
    const { verdicts: v, explain, creates } = await onWidgets({ refusal: 400, namesFields: true, maxName: 50, unanchored: true });
    expect(v, explain).toEqual({ 'DOC-valid-bodies-accepted [widgets]': 'pass', 'DOC-invalid-bodies-refused [widgets]': 'pass' });
    expect(creates.some((c) => typeof c.body['code'] === 'string' && c.bad.length === 0)).toBe(true);
  });

  it('a refusal that names no field fails DOC-invalid-bodies-refused, and only it', async () => {
    const { verdicts: v, explain } = await onWidgets({ refusal: 422, namesFields: false, maxName: 50 });
    expect(v, explain).toEqual({ 'DOC-valid-bodies-accepted [widgets]': 'pass', 'DOC-invalid-bodies-refused [widgets]': 'fail' });
    expect(explain).toMatch(/"errors" is undefined, expected a non-empty array/);
  });

  it('a 403 to every valid body fails DOC-valid-bodies-accepted, though the document lists 403: a refusal is no acceptance', async () => {
    const { verdicts: v, explain } = await onWidgets({ refusal: 422, namesFields: true, maxName: 50, forbidsAll: true });
    expect(v['DOC-valid-bodies-accepted [widgets]'], explain).toBe('fail');
    expect(explain).toMatch(/POST \/widgets → 403 .*to a body the documented schema accepts, expected 2xx, or a 409 the operation documents/);
  });

  it('a name limit below the documented one fails DOC-valid-bodies-accepted with the refused body, shrunk and replayable', async () => {
    const { verdicts: v, explain, left } = await onWidgets({ refusal: 422, namesFields: true, maxName: 20 });
    expect(v, explain).toEqual({ 'DOC-valid-bodies-accepted [widgets]': 'fail', 'DOC-invalid-bodies-refused [widgets]': 'pass' });
    expect(explain).toMatch(/POST \/widgets → 422 application\/problem\+json \(errors name \["name"\]\) to a body the documented schema accepts, expected 2xx.*replay with --seed 3/);
    // Shrunk from the 50-character edge to the shortest name refused: one past the stand-in's limit.
    expect(explain).toMatch(/counterexample after [1-9]\d* shrinks: \{"name":"[a-z]{21}"/);
    // The same seed finds the same counterexample again.
    expect((await onWidgets({ refusal: 422, namesFields: true, maxName: 20 })).explain).toBe(explain);
    expect(left).toBe(0);
  });
});

describe.concurrent("on the reference server's faults", () => {
  it('text-max-length-unchecked: a name over its maxLength is accepted, and DOC-invalid-bodies-refused says so', async () => {
    const { verdicts: v, explain } = await onReference(['text-max-length-unchecked']);
    expect(v['DOC-invalid-bodies-refused [projects]'], explain).toBe('fail');
    expect(explain).toMatch(/to a body where name breaks maxLength 200: it was accepted, expected 400 or 422 naming name/);
  });

  it('enum-member-refused: a documented enum member refused fails DOC-valid-bodies-accepted, naming the field', async () => {
    const { verdicts: v, explain } = await onReference(['enum-member-refused']);
    expect(v['DOC-valid-bodies-accepted [members]'], explain).toBe('fail');
    expect(explain).toMatch(/errors name \["role"\]/);
  });
});
