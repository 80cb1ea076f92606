/**
 * The Idempotency-Key store on its own: a repeat while the first request is still being handled
 * gets 409; and through the server, a deeply nested body is answered as it is without the key.
 */
import { describe, expect, it } from 'vitest';
import type { RequestContext } from '../src/context.js';
import { canonical, idempotencyProblems, IdempotencyStore } from '../src/idempotency.js';
import { ProblemError } from '../src/problem.js';
import { jsonReply } from '../src/respond.js';
import { startHarness, type Exchange } from './client.js';

const request = (key: string, body: Record<string, unknown>): RequestContext =>
  ({ method: 'POST', path: '/v2/projects', headers: { 'idempotency-key': key }, params: {}, query: new URLSearchParams(), body, faults: new Set(), credentials: { scopes: [], keys: ['k'] } }) as unknown as RequestContext;

describe('IdempotencyStore', () => {
  it('answers a concurrent repeat with 409, then replays the result once the first is done', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let handled = 0;
    const handler = new IdempotencyStore().wrap(async () => {
      handled++;
      await gate;
      return jsonReply(201, { id: 'one' });
    });
    const first = handler(request('"k1"', { name: 'a' }));
    await expect(handler(request('"k1"', { name: 'a' }))).rejects.toSatisfy((e) => e instanceof ProblemError && e.problem.status === 409);
    release();
    const stored = await first;
    expect(await handler(request('k1', { name: 'a' }))).toBe(stored);
    expect(handled).toBe(1);
  });
});

describe('Idempotency-Key with deeply nested bodies', () => {
  // Small in bytes, deep enough that a recursive walk overflows the call stack.
  const depth = 20_000;
  const deepObject = (leaf: number): string => `{"name":"deep","extra":${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}}`;
  const deepArray = `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('answers as it does without the key: never a 500', async () => {
    const h = await startHarness();
    try {
      const post = (body: string, key?: string): Promise<Exchange> =>
        h.call('POST', '/v2/projects', { body, headers: { 'content-type': 'application/json', ...(key !== undefined && { 'idempotency-key': key }) } });
      // Without the key: the unknown deep member is ignored (tolerant reader), and an array is not an object.
      expect((await post(deepObject(1))).status).toBe(201);
      expect((await post(deepArray)).status).toBe(422);
      const first = await post(deepObject(1), 'k1');
      expect(first.status).toBe(201);
      // The repeat is the stored result, and another deep body under the key is refused as a reuse.
      const repeat = await post(deepObject(1), 'k1');
      expect(repeat.status).toBe(201);
      expect(repeat.json().id).toBe(first.json().id);
      const other = await post(deepObject(2), 'k1');
      expect(other.status).toBe(422);
      expect(other.json().type).toBe(idempotencyProblems.reused);
      const array = await post(deepArray, 'k2');
      expect(array.status).toBe(422);
      expect(array.headers['content-type']).toBe('application/problem+json');
    } finally {
      await h.close();
    }
  });

  it('canonicalises without recursion: members sorted, otherwise JSON', () => {
    expect(canonical({ b: [1, { d: null, c: 'x' }], a: true })).toBe('{"a":true,"b":[1,{"c":"x","d":null}]}');
    expect(canonical([])).toBe('[]');
    expect(canonical({})).toBe('{}');
    const deep = JSON.parse(`${'['.repeat(depth)}"s"${']'.repeat(depth)}`) as unknown;
    expect(canonical(deep)).toBe(`${'['.repeat(depth)}"s"${']'.repeat(depth)}`);
  });
});
