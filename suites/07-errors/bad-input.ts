/** §7 errors: bad client input never gets a 5xx (a property over generated bad inputs). */
import type { Arbitrary } from 'fast-check';
import { fastCheck } from '../../src/check-kit/lazy-libraries.js';
import { defineCheck } from '../../src/model/check.js';
import { CheckFailure } from '../../src/model/check.js';
import type { CheckContext, CreatedResource, HttpResponse, RequestSpec } from '../../src/model/context.js';
import type { WritableCollection } from '../../src/model/needs.js';
import type { CollectionProfile } from '../../src/model/profile.js';
import { describe } from '../../src/check-kit/expect.js';
import { isRestprobeError } from '../../src/errors.js';
import { retryAfterFromNow } from '../../src/check-kit/rate-limit-wait.js';
import { waitFor } from '../../src/check-kit/wait.js';
import { checkProperty } from '../../src/check-kit/property.js';
import { freshMark } from '../../src/check-kit/fresh-mark.js';
import { errorProbes, malformedJson, refusedWritesItem } from '../../src/check-kit/probes.js';

/** A write a body probe is sent with: POST to the collection, PUT and PATCH to the collection's item for refused writes. */
type WriteMethod = 'POST' | 'PUT' | 'PATCH';

/** One bad input; each kind names what is wrong with it. */
export type BadInput =
  | { kind: 'malformed-json'; method: WriteMethod; body: string }
  | { kind: 'wrong-type'; method: WriteMethod; field: string; value: unknown }
  | { kind: 'invalid-body' }
  | { kind: 'missing-field'; field: string }
  | { kind: 'not-an-object'; method: WriteMethod; value: unknown }
  | { kind: 'oversized'; bytes: number }
  | { kind: 'deeply-nested'; depth: number }
  | { kind: 'odd-id'; segment: string }
  | { kind: 'odd-query'; query: Record<string, string> }
  | { kind: 'odd-header'; name: 'If-Match' | 'Idempotency-Key'; method: WriteMethod; value: string }
  | { kind: 'no-content-type' };

/**
 * Kinds a server MUST refuse with a 4xx: malformed JSON, a body that is no object (but an
 * array POSTed to a collection and created as many: see {@link mustBeRefused}), and the body the config declares invalid. The others MUST NOT get a 5xx but may succeed: a field
 * of another type than the create body's may be typed `any` or coerced (pydantic reads 0
 * as false), an omitted field may be optional, unknown members are ignored (tolerant
 * reader, §9.5), a larger body limit may admit an oversized body, an odd id, query or
 * header may name nothing wrong, and RFC 9110 §8.3 lets a server examine a body that has no
 * Content-Type.
 */
const mustRefuse: ReadonlySet<BadInput['kind']> = new Set(['malformed-json', 'not-an-object', 'invalid-body']);

/** An array POSTed to a collection and answered with an array: a bulk create (PostgREST inserts each member). */
const isBulkCreate = (input: BadInput, answer: unknown): boolean => input.kind === 'not-an-object' && input.method === 'POST' && Array.isArray(input.value) && Array.isArray(answer);

/**
 * Whether `input`, answered with `answer` (its JSON), must be refused: its kind says so, but
 * an array POSTed to a collection and answered with an array is a bulk create (PostgREST
 * inserts each member; one item answered for an array took it as one), and a generated
 * "malformed" text that happens to parse (`{}`) is JSON after all.
 */
export function mustBeRefused(input: BadInput, answer?: unknown): boolean {
  if (!mustRefuse.has(input.kind)) return false;
  if (input.kind === 'not-an-object') return !isBulkCreate(input, answer);
  if (input.kind === 'malformed-json') {
    try {
      JSON.parse(input.body);
      return false;
    } catch {
      return true;
    }
  }
  return true;
}

/** The JSON type of a value, as a wrong-type probe must differ from it. */
function jsonType(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** Values of another JSON type than `v`, never null (which may clear an optional field). */
function wrongValuesFor(v: unknown): Arbitrary<unknown> {
  const fc = fastCheck();
  const all: [string, Arbitrary<unknown>][] = [
    ['number', fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))],
    ['boolean', fc.boolean()],
    ['string', fc.string({ maxLength: 8 })],
    ['array', fc.array(fc.integer(), { maxLength: 3 })],
    ['object', fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 })],
  ];
  return fc.oneof(...all.filter(([type]) => type !== jsonType(v)).map(([, arb]) => arb));
}

/** Ids past 64 bits, signed and unsigned: a naive integer parse overflows on them. */
const hugeIds = ['18446744073709551616', '-9223372036854775809', '99999999999999999999999'];
/** Path segments that trip naive routers and decoders. */
const oddSegments = ['%00', '%2e%2e%2f', '..%2f..', '%ff%fe', '%25', '%', '~', '-1', '0', 'null', '9'.repeat(2048), '%E2%80%AE', 'a%20b', ...hugeIds];
const oddValues = ['-1', '0', 'abc', '1e9', '99999999999999999999', '%', '[]', '{}', '', ' ', 'null', '\u0000'];
const queryKeys = ['limit', 'cursor', 'after', 'offset', 'sort', 'v', 'status'];
/** Header values that are no entity-tag list (RFC 9110 §13.1.1) and no sf-string (the idempotency-key draft). */
const oddHeaderValues = ['restprobe', '"unterminated', 'W/', '"a" "b"', '*, *', 'W/"x", garbage', '""""', '?1', '"%00"', 'x'.repeat(4096)];
/** Header text undici sends as it is: visible ASCII and spaces inside. */
const headerText = /^[\x21-\x7e]([\x20-\x7e]{0,30}[\x21-\x7e])?$/;

/** What a run lets the probe send: writes at all, which, and bodies that can hurt a target. */
interface Allowed {
  readonly writable: boolean;
  readonly destructive: boolean;
  /** Writes sent to the collection's item for refused writes (the collection takes them). */
  readonly updates: readonly WriteMethod[];
}

/** The kinds `--no-destructive` (safety.destructive: false) keeps back. */
const hurts = (input: BadInput): boolean => input.kind === 'oversized' || input.kind === 'deeply-nested';

/** The body a write of `method` is built on: the config's for that write, else the create body with `mark`. */
function baseBody(collection: CollectionProfile, method: WriteMethod, mark: Record<string, string>): Record<string, unknown> {
  const configured = method === 'PUT' ? collection.replaceBody : method === 'PATCH' ? collection.patchBody : undefined;
  return configured ?? { ...collection.createBody, ...mark };
}

function arbitraries(collection: CollectionProfile, { writable, destructive, updates }: Allowed): Arbitrary<BadInput> {
  const fc = fastCheck();
  const reads: Arbitrary<BadInput>[] = [
    fc.oneof(fc.constantFrom(...oddSegments), fc.string({ maxLength: 40 }).map(encodeURIComponent)).map((segment) => ({ kind: 'odd-id' as const, segment })),
    fc.dictionary(fc.oneof(fc.constantFrom(...queryKeys), fc.string({ maxLength: 8 })), fc.oneof(fc.constantFrom(...oddValues), fc.string({ maxLength: 20 })), { minKeys: 1, maxKeys: 3 }).map((query) => ({ kind: 'odd-query' as const, query })),
  ];
  if (!writable) return fc.oneof(...reads);
  const methods = fc.constantFrom<WriteMethod>('POST', ...updates);
  const oddHeader = fc.oneof(fc.constantFrom(...oddHeaderValues), fc.stringMatching(headerText));
  const fields = Object.keys(collection.createBody ?? {});
  const writes: Arbitrary<BadInput>[] = [
    fc.record({ method: methods, s: fc.string({ maxLength: 30 }) }).map(({ method, s }) => ({ kind: 'malformed-json' as const, method, body: `{${s}` })),
    fc.record({ method: methods, value: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 })) }).map(({ method, value }) => ({ kind: 'not-an-object' as const, method, value })),
    fc.constant({ kind: 'no-content-type' as const }),
    fc.record({ name: fc.constant('Idempotency-Key' as const), method: fc.constant<WriteMethod>('POST'), value: oddHeader }).map((h) => ({ kind: 'odd-header' as const, ...h })),
    ...(updates.length > 0 ? [fc.record({ name: fc.constant('If-Match' as const), method: fc.constantFrom(...updates), value: oddHeader }).map((h) => ({ kind: 'odd-header' as const, ...h }))] : []),
    ...(destructive
      ? [
          fc.integer({ min: 100, max: 20_000 }).map((depth): BadInput => ({ kind: 'deeply-nested', depth })),
          fc.integer({ min: 1_100_000, max: 2_500_000 }).map((bytes): BadInput => ({ kind: 'oversized', bytes })),
        ]
      : []),
  ];
  if (fields.length > 0) {
    writes.push(fc.record({ method: methods, field: fc.constantFrom(...fields) }).chain(({ method, field }) => wrongValuesFor(collection.createBody![field]).map((value) => ({ kind: 'wrong-type' as const, method, field, value }))));
    writes.push(fc.constantFrom(...fields).map((field) => ({ kind: 'missing-field' as const, field })));
  }
  return fc.oneof(...reads, ...writes);
}

/**
 * Cases tried before the random ones: first the inputs that are real, repeatable 500s in
 * common stacks (a null body, `%` in a path, an id past 64 bits, a bad PATCH, a malformed
 * If-Match or Idempotency-Key), then one canonical case of each kind.
 */
function canonical(collection: CollectionProfile, { writable, destructive, updates }: Allowed): BadInput[] {
  // Past 64 bits signed and unsigned; the longer huge id is left to the random cases.
  const targeted: BadInput[] = [{ kind: 'odd-id', segment: '%' }, ...hugeIds.slice(0, 2).map((segment): BadInput => ({ kind: 'odd-id', segment }))];
  const reads: BadInput[] = [{ kind: 'odd-id', segment: '%00' }, { kind: 'odd-query', query: { limit: 'abc' } }, { kind: 'odd-query', query: { cursor: '%%%' } }];
  if (!writable) return [...targeted, ...reads];
  const body = collection.createBody ?? {};
  // One value of another type a field, an object (a number for an object field): stores coerce a number into a
  // string field ("0"), while an object there is a common real 500 (Mongoose's CastError unhandled). The random cases try the rest.
  const wrongTypes = (method: WriteMethod): BadInput[] =>
    Object.entries(baseBody(collection, method, {})).map(([field, sent]): BadInput => ({ kind: 'wrong-type', method, field, value: jsonType(sent) === 'object' ? 0 : {} }));
  const all: BadInput[] = [
    { kind: 'not-an-object', method: 'POST', value: null },
    ...targeted,
    ...updates.flatMap((method): BadInput[] => [{ kind: 'not-an-object', method, value: null }, ...wrongTypes(method).slice(0, 1)]),
    ...updates.map((method): BadInput => ({ kind: 'odd-header', name: 'If-Match', method, value: 'restprobe' })),
    { kind: 'odd-header', name: 'Idempotency-Key', method: 'POST', value: 'restprobe' },
    ...(collection.invalidBody ? [{ kind: 'invalid-body' } as const] : []),
    ...reads,
    { kind: 'malformed-json', method: 'POST', body: malformedJson },
    { kind: 'not-an-object', method: 'POST', value: [] },
    { kind: 'not-an-object', method: 'POST', value: [body] },
    { kind: 'deeply-nested', depth: 10_000 },
    { kind: 'oversized', bytes: 1_200_000 },
    { kind: 'no-content-type' },
    ...wrongTypes('POST'),
    ...Object.keys(body).map((field): BadInput => ({ kind: 'missing-field', field })),
  ];
  return all.filter((input) => destructive || !hurts(input));
}

/**
 * Random inputs tried after the canonical ones, unless `properties.numRuns` says how many:
 * those already send every kind, and the inputs known to give 500s in common stacks, once each.
 */
const randomInputs = 3;

/** Whether an input is sent to an item (PUT, PATCH): the collection's item for refused writes. */
const toItem = (input: BadInput): boolean => 'method' in input && input.method !== 'POST';

/** The request for `input`; a POST body carries `mark` (the collection's mark field and a fresh value), so what a lenient target made of it can be found. */
function toRequest(input: Exclude<BadInput, { kind: 'invalid-body' }>, collection: CollectionProfile, itemUrl: string | undefined, mark: Record<string, string>): RequestSpec {
  const base = baseBody(collection, 'POST', mark);
  const write = (method: WriteMethod, body: string, headers: Record<string, string> = {}): RequestSpec =>
    method === 'POST' ? { method, path: collection.path, body, headers: { 'content-type': 'application/json', ...headers } } : { method, url: itemUrl!, body, headers: { 'content-type': 'application/json', ...headers } };
  const post = (body: string): RequestSpec => write('POST', body);
  switch (input.kind) {
    case 'malformed-json': return write(input.method, input.body);
    case 'wrong-type': return write(input.method, JSON.stringify({ ...baseBody(collection, input.method, mark), [input.field]: input.value }));
    case 'missing-field': return post(JSON.stringify(Object.fromEntries(Object.entries(base).filter(([k]) => k !== input.field))));
    case 'not-an-object': return write(input.method, JSON.stringify(input.value));
    case 'odd-header': return write(input.method, JSON.stringify(baseBody(collection, input.method, mark)), { [input.name]: input.value });
    case 'oversized': return post(withRawMember(base, 'restprobe_padding', `"${'x'.repeat(input.bytes)}"`));
    // Built as text: JSON.stringify itself would overflow the stack on deep nesting.
    case 'deeply-nested': return post(withRawMember(base, 'restprobe_nested', '['.repeat(input.depth) + ']'.repeat(input.depth)));
    case 'odd-id': return { method: 'GET', path: collection.itemPath.replace('{id}', input.segment) };
    case 'odd-query': return { method: 'GET', path: `${collection.path}?${new URLSearchParams(input.query).toString()}` };
    // JSON text with no Content-Type at all.
    case 'no-content-type': return { method: 'POST', path: collection.path, body: JSON.stringify(base) };
  }
}

/**
 * Sends `input`: the configured invalid body and the canonical malformed JSON are the run's
 * shared error probes (the problem checks judge the same answers), the rest the check's own.
 */
function sendInput(ctx: CheckContext, input: BadInput, collection: CollectionProfile, writable: WritableCollection | undefined, itemUrl: string | undefined): Promise<HttpResponse> {
  // Only a writable collection's examples hold the invalid body.
  if (input.kind === 'invalid-body') return errorProbes.invalidBody(ctx, writable!);
  if (writable && input.kind === 'malformed-json' && input.method === 'POST' && input.body === malformedJson) return errorProbes.malformedJson(ctx, writable);
  return ctx.sendCreating(collection, toRequest(input, collection, itemUrl, freshMark(ctx, collection)));
}

/** `base` as JSON text with one more member whose value is raw JSON text. */
function withRawMember(base: Record<string, unknown>, name: string, rawValue: string): string {
  const head = JSON.stringify(base).slice(0, -1);
  return `${head}${head.length > 1 ? ',' : ''}${JSON.stringify(name)}:${rawValue}}`;
}

function show(input: BadInput): string {
  switch (input.kind) {
    case 'oversized': return `oversized body of ${input.bytes} bytes`;
    case 'deeply-nested': return `body nested ${input.depth} arrays deep`;
    case 'no-content-type': return 'a JSON body without Content-Type';
    case 'invalid-body': return `the configured invalid body ${JSON.stringify(input)}`;
    case 'odd-header': return `${input.method} with ${input.name}: ${JSON.stringify(input.value.slice(0, 60))}${input.value.length > 60 ? '…' : ''}`;
    default: return `${input.kind} ${JSON.stringify({ ...input, kind: undefined }).slice(0, 200)}`;
  }
}

export const badInputNo5xx = defineCheck({
  id: 'ERR-bad-input-no-5xx',
  title: 'Bad input gets a 4xx, and no input a 5xx',
  rule: 'Malformed JSON, a body that is not a JSON object (but an array POSTed to a collection and answered with an array: a bulk create) and the configured invalid body MUST get a 4xx, and any other input (fields of another type, missing fields, oversized or deeply nested bodies, a body without Content-Type, odd ids, query strings, If-Match and Idempotency-Key values, sent in a POST, PUT or PATCH) MUST NOT get a 5xx, which is kept for server faults (§7.1); a 503 with Retry-After sheds load, and the input is sent again once after the wait.',
  severity: 'must',
  needs: ['collection'],
  uses: ['writable', 'destructive'],
  // Oversized and deeply nested bodies can hurt a target: after every other check.
  schedule: 'last',
  async run(ctx: CheckContext, needs) {
    const collection = needs.writable ?? needs.collection;
    const writable = needs.writable !== undefined;
    const taken = collection.methods ?? ['PUT', 'PATCH'];
    const allowed: Allowed = { writable, destructive: needs.destructive === true, updates: writable ? (['PUT', 'PATCH'] as const).filter((m) => taken.includes(m)) : [] };
    if (!writable) ctx.note('bodies not probed: read-only run or no create body (safety.readOnly, collections[].create.body)');
    else if (!allowed.destructive) ctx.note('oversized and deeply nested bodies not sent (safety.destructive is false)');
    // PUT and PATCH go to the collection's item for refused writes, made when the first of them is sent.
    let item: Promise<CreatedResource> | undefined;
    let sniffed = false;
    let coerced = false;
    let bulk = false;
    // A 5xx is the finding to name: bad input merely accepted is reported only when no input got one.
    let accepted: CheckFailure | undefined;
    await checkProperty(ctx, {
      arbitrary: arbitraries(collection, allowed),
      examples: canonical(collection, allowed),
      randomCases: randomInputs,
      show,
      predicate: async (input) => {
        const itemUrl = toItem(input) && needs.writable ? (await (item ??= refusedWritesItem(ctx, needs.writable))).url : undefined;
        const answer = async (): Promise<HttpResponse | undefined> => {
          try {
            return await sendInput(ctx, input, collection, needs.writable, itemUrl);
          } catch (err) {
            // A server may refuse an oversized upload by closing the connection (RFC 9110 §15.5.14).
            if (isRestprobeError(err, 'ERR_PROTOCOL')) {
              if (input.kind === 'oversized') {
                ctx.note(`${show(input)}: the server closed the connection before the upload ended`);
                return undefined;
              }
              // A dropped connection is no answer at all: worse than a 5xx.
              throw new CheckFailure(`the server dropped the connection for ${show(input)} (${err.message}), expected a 4xx`, '4xx', 'connection dropped');
            }
            throw err;
          }
        };
        let res = await answer();
        if (res === undefined) return;
        // A 503 that says when to come back sheds load (a gateway, a node at capacity) and says
        // nothing of the input: sent once more after the wait, and the second answer is judged.
        const shedMs = res.status === 503 ? retryAfterFromNow(res) : undefined;
        if (shedMs !== undefined && shedMs <= ctx.profile.http.maxRetryWaitMs) {
          ctx.note(`${describe(res)} for ${show(input)} with Retry-After: ${res.headers['retry-after']}: shed, not judged; sent again after ${shedMs} ms`);
          await waitFor(ctx, shedMs);
          res = await answer();
          if (res === undefined) return;
        }
        if (res.status >= 500) throw new CheckFailure(`${describe(res)} for ${show(input)}, expected a 4xx`, '4xx', String(res.status), res.exchangeIndex);
        const refused = res.status >= 400 && res.status <= 499;
        if (mustBeRefused(input, res.json) && !refused) {
          accepted ??= new CheckFailure(`${describe(res)} for ${show(input)}, expected a 4xx: the input is bad and must be refused`, '4xx', String(res.status), res.exchangeIndex);
        }
        if (isBulkCreate(input, res.json) && !refused && !bulk) {
          bulk = true;
          ctx.note(`${describe(res)} for ${show(input)}: accepted, as a bulk create may be`);
        }
        if (input.kind === 'wrong-type' && !refused && !coerced) {
          coerced = true;
          ctx.note(`${describe(res)} for ${show(input)}: accepted, as a field typed to take any value, or coerced, may be`);
        }
        if (input.kind === 'no-content-type' && res.status < 300 && !sniffed) {
          sniffed = true;
          ctx.note(`${describe(res)} for a JSON body without Content-Type: the server examined the data, as RFC 9110 §8.3 allows`);
        }
      },
    });
    if (accepted) throw accepted;
  },
});

export const badInputChecks = [badInputNo5xx];
