/**
 * The circuit breaker counts requests in a row the target left unanswered, trips at its
 * limit with one error naming the target's state, and then refuses every request.
 */
import { describe, expect, it } from 'vitest';
import { RestprobeError } from '../errors.js';
import { CircuitBreaker } from './breaker.js';
import { guard, type Send } from './guards.js';
import type { RawRequest } from './client.js';

const req: RawRequest = { method: 'GET', url: 'http://127.0.0.1:9/v2/projects', headers: {} };
const answered: Send = async () => ({ status: 503, headers: {}, body: Buffer.alloc(0) });
const failing = (code: 'ERR_TIMEOUT' | 'ERR_TARGET_UNREACHABLE' | 'ERR_PROTOCOL' | 'ERR_BODY_TOO_LARGE'): Send => async (r) => {
  throw new RestprobeError(code, `${r.method} ${r.url}: failed`);
};

/** Sends `n` requests as `owner` through the breaker, ignoring their errors. */
async function send(breaker: CircuitBreaker, transport: Send, n: number, owner = 'END-get-item-200', request: RawRequest = req): Promise<void> {
  const through = guard(transport, [breaker.guard(owner)]);
  for (let i = 0; i < n; i++) await through(request).catch(() => undefined);
}

describe('CircuitBreaker', () => {
  it('trips at the limit of unanswered requests in a row, naming the state and where it began', async () => {
    const breaker = new CircuitBreaker(3);
    const seen: RestprobeError[] = [];
    breaker.onTrip((why) => seen.push(why));
    await send(breaker, failing('ERR_TIMEOUT'), 2, 'AUT-first');
    expect(breaker.tripped).toBeUndefined();
    await send(breaker, failing('ERR_TIMEOUT'), 1, 'AUT-second');
    expect(breaker.tripped).toMatchObject({ code: 'ERR_TARGET_UNREACHABLE', message: 'the target stopped answering: 3 consecutive requests timed out, since AUT-first; the run stopped (http.maxConsecutiveFailures is 3)' });
    expect(breaker.tripped?.rootCause).toBe(breaker.tripped?.message);
    expect(seen).toEqual([breaker.tripped]);
  });

  it('says which failures when they differ', async () => {
    const breaker = new CircuitBreaker(3);
    await send(breaker, failing('ERR_TARGET_UNREACHABLE'), 2);
    await send(breaker, failing('ERR_PROTOCOL'), 1);
    expect(breaker.tripped?.message).toMatch(/^the target stopped answering: 3 consecutive requests got no answer \(2 were refused, 1 broke off mid-exchange\), since END-get-item-200;/);
  });

  it('any answer resets the count, a 503 included', async () => {
    const breaker = new CircuitBreaker(3);
    await send(breaker, failing('ERR_TIMEOUT'), 2);
    await send(breaker, answered, 1);
    await send(breaker, failing('ERR_TIMEOUT'), 2);
    expect(breaker.tripped).toBeUndefined();
  });

  it('does not count what restprobe cancelled, nor a body past the cap (an answer)', async () => {
    const breaker = new CircuitBreaker(2);
    const cancelled = new AbortController();
    cancelled.abort();
    await send(breaker, failing('ERR_TIMEOUT'), 3, 'END-x', { ...req, signal: cancelled.signal });
    await send(breaker, failing('ERR_BODY_TOO_LARGE'), 3);
    expect(breaker.tripped).toBeUndefined();
  });

  it('once tripped, refuses every request unsent, with the same error', async () => {
    const breaker = new CircuitBreaker(1);
    await send(breaker, failing('ERR_TIMEOUT'), 1);
    let sent = 0;
    const through = guard(async () => {
      sent++;
      return { status: 200, headers: {}, body: Buffer.alloc(0) };
    }, [breaker.guard('ERR-later')]);
    await expect(through(req)).rejects.toBe(breaker.tripped);
    expect(sent).toBe(0);
  });

  it('a trip from elsewhere (a wait the run cannot afford) wins once, and a listener added later hears it', () => {
    const breaker = new CircuitBreaker(10);
    const first = new RestprobeError('ERR_RATE_LIMITED', 'the target asked restprobe to wait 86400 s');
    breaker.trip(first);
    breaker.trip(new RestprobeError('ERR_TARGET_UNREACHABLE', 'later'));
    let heard: RestprobeError | undefined;
    breaker.onTrip((why) => (heard = why));
    expect(heard).toBe(first);
  });
});
