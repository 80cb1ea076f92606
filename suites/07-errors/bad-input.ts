/** §7 errors: bad client input never gets a 5xx (a property over generated bad inputs). */
import fc from 'fast-check';
import { defineCheck } from '../../src/model/check.js';
import { CheckFailure } from '../../src/model/check.js';
import type { CheckContext, RequestSpec } from '../../src/model/context.js';
import type { CollectionProfile } from '../../src/model/profile.js';
import { describe } from '../../src/check-kit/expect.js';
import { isRestprobeError } from '../../src/errors.js';
import { checkProperty } from '../../src/check-kit/property.js';
import { sendTracked } from '../../src/check-kit/probes.js';

/** One bad input; each kind names what is wrong with it. */
type BadInput =
  | { kind: 'malformed-json'; body: string }
  | { kind: 'wrong-type'; field: string; value: unknown }
  | { kind: 'missing-field'; field: string }
  | { kind: 'not-an-object'; value: unknown }
  | { kind: 'oversized'; bytes: number }
  | { kind: 'deeply-nested'; depth: number }
  | { kind: 'odd-id'; segment: string }
  | { kind: 'odd-query'; query: Record<string, string> }
  | { kind: 'no-content-type' };

/**
 * Kinds a server MUST refuse with a 4xx. The others MUST NOT get a 5xx but may succeed:
 * an omitted field may be optional, unknown members are ignored (tolerant reader, §9.5),
 * a larger body limit may admit an oversized body, an odd id or query may name nothing
 * wrong, and RFC 9110 §8.3 lets a server examine a body that has no Content-Type.
 */
const mustRefuse: ReadonlySet<BadInput['kind']> = new Set(['malformed-json', 'not-an-object', 'wrong-type']);

/** The JSON type of a value, as a wrong-type probe must differ from it. */
function jsonType(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** Values of another JSON type than `v`, never null (which may clear an optional field). */
function wrongValuesFor(v: unknown): fc.Arbitrary<unknown> {
  const all: [string, fc.Arbitrary<unknown>][] = [
    ['number', fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))],
    ['boolean', fc.boolean()],
    ['string', fc.string({ maxLength: 8 })],
    ['array', fc.array(fc.integer(), { maxLength: 3 })],
    ['object', fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 })],
  ];
  return fc.oneof(...all.filter(([type]) => type !== jsonType(v)).map(([, arb]) => arb));
}

/** Path segments that trip naive routers and decoders. */
const oddSegments = ['%00', '%2e%2e%2f', '..%2f..', '%ff%fe', '%25', '%', '~', '-1', '0', 'null', '9'.repeat(2048), '%E2%80%AE', 'a%20b'];
const oddValues = ['-1', '0', 'abc', '1e9', '99999999999999999999', '%', '[]', '{}', '', ' ', 'null', '\u0000'];
const queryKeys = ['limit', 'cursor', 'after', 'offset', 'sort', 'v', 'status'];

/** What a run lets the probe send: writes at all, and bodies that can hurt a target. */
interface Allowed {
  readonly writable: boolean;
  readonly destructive: boolean;
}

/** The kinds `--no-destructive` (safety.destructive: false) keeps back. */
const hurts = (input: BadInput): boolean => input.kind === 'oversized' || input.kind === 'deeply-nested';

function arbitraries(collection: CollectionProfile, { writable, destructive }: Allowed): fc.Arbitrary<BadInput> {
  const body = collection.createBody ?? {};
  const fields = Object.keys(body);
  const reads: fc.Arbitrary<BadInput>[] = [
    fc.oneof(fc.constantFrom(...oddSegments), fc.string({ maxLength: 40 }).map(encodeURIComponent)).map((segment) => ({ kind: 'odd-id' as const, segment })),
    fc.dictionary(fc.oneof(fc.constantFrom(...queryKeys), fc.string({ maxLength: 8 })), fc.oneof(fc.constantFrom(...oddValues), fc.string({ maxLength: 20 })), { minKeys: 1, maxKeys: 3 }).map((query) => ({ kind: 'odd-query' as const, query })),
  ];
  if (!writable) return fc.oneof(...reads);
  const writes: fc.Arbitrary<BadInput>[] = [
    fc.string({ maxLength: 30 }).map((s) => ({ kind: 'malformed-json' as const, body: `{${s}` })),
    fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 })).map((value) => ({ kind: 'not-an-object' as const, value })),
    fc.constant({ kind: 'no-content-type' as const }),
    ...(destructive
      ? [
          fc.integer({ min: 100, max: 20_000 }).map((depth): BadInput => ({ kind: 'deeply-nested', depth })),
          fc.integer({ min: 1_100_000, max: 2_500_000 }).map((bytes): BadInput => ({ kind: 'oversized', bytes })),
        ]
      : []),
  ];
  if (fields.length > 0) {
    writes.push(fc.constantFrom(...fields).chain((field) => wrongValuesFor(body[field]).map((value) => ({ kind: 'wrong-type' as const, field, value }))));
    writes.push(fc.constantFrom(...fields).map((field) => ({ kind: 'missing-field' as const, field })));
  }
  return fc.oneof(...reads, ...writes);
}

/** One canonical case of each kind, tried before the random ones. */
function canonical(collection: CollectionProfile, { writable, destructive }: Allowed): BadInput[] {
  const reads: BadInput[] = [{ kind: 'odd-id', segment: '%00' }, { kind: 'odd-query', query: { limit: 'abc' } }, { kind: 'odd-query', query: { cursor: '%%%' } }];
  if (!writable) return reads;
  const body = collection.createBody ?? {};
  const all: BadInput[] = [
    ...reads,
    { kind: 'malformed-json', body: '{' },
    { kind: 'not-an-object', value: [] },
    { kind: 'not-an-object', value: [body] },
    { kind: 'deeply-nested', depth: 10_000 },
    { kind: 'oversized', bytes: 1_200_000 },
    { kind: 'no-content-type' },
    ...Object.entries(body).flatMap(([field, sent]): BadInput[] => [
      ...[0, {}, 'restprobe'].filter((value) => jsonType(value) !== jsonType(sent)).map((value): BadInput => ({ kind: 'wrong-type', field, value })),
      { kind: 'missing-field', field },
    ]),
  ];
  return all.filter((input) => destructive || !hurts(input));
}

function toRequest(input: BadInput, collection: CollectionProfile): RequestSpec {
  const base = collection.createBody ?? {};
  const post = (body: string): RequestSpec => ({ method: 'POST', path: collection.path, body, headers: { 'content-type': 'application/json' } });
  switch (input.kind) {
    case 'malformed-json': return post(input.body);
    case 'wrong-type': return post(JSON.stringify({ ...base, [input.field]: input.value }));
    case 'missing-field': return post(JSON.stringify(Object.fromEntries(Object.entries(base).filter(([k]) => k !== input.field))));
    case 'not-an-object': return post(JSON.stringify(input.value));
    case 'oversized': return post(withRawMember(base, 'restprobe_padding', `"${'x'.repeat(input.bytes)}"`));
    // Built as text: JSON.stringify itself would overflow the stack on deep nesting.
    case 'deeply-nested': return post(withRawMember(base, 'restprobe_nested', '['.repeat(input.depth) + ']'.repeat(input.depth)));
    case 'odd-id': return { method: 'GET', path: collection.itemPath.replace('{id}', input.segment) };
    case 'odd-query': return { method: 'GET', path: `${collection.path}?${new URLSearchParams(input.query).toString()}` };
    // JSON text with no Content-Type at all.
    case 'no-content-type': return { method: 'POST', path: collection.path, body: JSON.stringify(base) };
  }
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
    default: return `${input.kind} ${JSON.stringify({ ...input, kind: undefined }).slice(0, 200)}`;
  }
}

export const badInputNo5xx = defineCheck({
  id: 'ERR-bad-input-no-5xx',
  title: 'Bad input gets a 4xx, and no input a 5xx',
  rule: 'Malformed JSON, a body that is not a JSON object and a field of the wrong type MUST get a 4xx, and any other input (missing fields, oversized or deeply nested bodies, a body without Content-Type, odd ids and query strings) MUST NOT get a 5xx, which is kept for server faults (§7.1).',
  severity: 'must',
  needs: ['collection'],
  uses: ['writable', 'destructive'],
  // Oversized and deeply nested bodies can hurt a target: after every other check.
  schedule: 'last',
  async run(ctx: CheckContext, needs) {
    const collection = needs.writable ?? needs.collection;
    const allowed = { writable: needs.writable !== undefined, destructive: needs.destructive === true };
    const writable = allowed.writable;
    if (!writable) ctx.note('bodies not probed: read-only run or no create body (safety.readOnly, collections[].create.body)');
    else if (!allowed.destructive) ctx.note('oversized and deeply nested bodies not sent (safety.destructive is false)');
    let sniffed = false;
    await checkProperty(ctx, {
      arbitrary: arbitraries(collection, allowed),
      examples: canonical(collection, allowed),
      show,
      predicate: async (input) => {
        let res;
        try {
          res = await sendTracked(ctx, collection, toRequest(input, collection));
        } catch (err) {
          // A server may refuse an oversized upload by closing the connection (RFC 9110 §15.5.14).
          if (isRestprobeError(err, 'ERR_PROTOCOL')) {
            if (input.kind === 'oversized') {
              ctx.note(`${show(input)}: the server closed the connection before the upload ended`);
              return;
            }
            // A dropped connection is no answer at all: worse than a 5xx.
            throw new CheckFailure(`the server dropped the connection for ${show(input)} (${err.message}), expected a 4xx`, '4xx', 'connection dropped');
          }
          throw err;
        }
        if (res.status >= 500) throw new CheckFailure(`${describe(res)} for ${show(input)}, expected a 4xx`, '4xx', String(res.status), res.exchangeIndex);
        if (mustRefuse.has(input.kind) && (res.status < 400 || res.status > 499)) {
          throw new CheckFailure(`${describe(res)} for ${show(input)}, expected a 4xx: the input is bad and must be refused`, '4xx', String(res.status), res.exchangeIndex);
        }
        if (input.kind === 'no-content-type' && res.status < 300 && !sniffed) {
          sniffed = true;
          ctx.note(`${describe(res)} for a JSON body without Content-Type: the server examined the data, as RFC 9110 §8.3 allows`);
        }
      },
    });
  },
});

export const badInputChecks = [badInputNo5xx];
