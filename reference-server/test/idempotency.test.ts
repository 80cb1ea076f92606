/** The Idempotency-Key store on its own: a repeat while the first request is still being handled gets 409. */
import { describe, expect, it } from 'vitest';
import type { RequestContext } from '../src/context.js';
import { IdempotencyStore } from '../src/idempotency.js';
import { ProblemError } from '../src/problem.js';
import { jsonReply } from '../src/respond.js';

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
