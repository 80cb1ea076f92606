/**
 * Idempotency-Key checks (issue 17) proven both ways beyond the reference server's faults:
 * a target that refuses a reused key with 409 instead of 422 conforms; a gateway that drops
 * the header, and a target that answers a reused key with its first result, do not.
 */
import { describe, expect, it } from 'vitest';
import { jsonOf, type ProxiedRequest, type Rewrites } from './support/rewriting-proxy.js';
import { startTarget, startVariant, type Target } from './support/target.js';
import { verdictsOf } from './support/verdicts.js';

const ids = ['END-idempotency-key-replay', 'END-idempotency-key-mismatch'] as const;

/** Each check's worst verdict over its collections, with every message for a mismatch. */
const verdicts = (start: Promise<Target>) => verdictsOf(start, ids);

const keyOf = (req: ProxiedRequest): string | undefined => req.headers['idempotency-key'];

describe('Idempotency-Key checks', () => {
  it('pass on the clean reference server', async () => {
    const got = await verdicts(startTarget());
    expect(got.verdicts, got.explain).toEqual({ 'END-idempotency-key-replay': 'pass', 'END-idempotency-key-mismatch': 'pass' });
  });

  it('pass on a target that refuses a reused key with 409 instead of 422', async () => {
    const rewrites: Rewrites = {
      response: (res) => (res.status === 422 && jsonOf(res)?.type === 'urn:restprobe:problem:idempotency-key-reused' ? { ...res, status: 409, body: JSON.stringify({ ...jsonOf(res), status: 409 }) } : res),
    };
    const got = await verdicts(startVariant(rewrites));
    expect(got.verdicts, got.explain).toEqual({ 'END-idempotency-key-replay': 'pass', 'END-idempotency-key-mismatch': 'pass' });
  });

  it('fail the replay (and block the mismatch) behind a gateway that drops the header', async () => {
    const rewrites: Rewrites = {
      request: (req) => ({ ...req, headers: Object.fromEntries(Object.entries(req.headers).filter(([name]) => name !== 'idempotency-key')) }),
    };
    const got = await verdicts(startVariant(rewrites));
    expect(got.verdicts, got.explain).toEqual({ 'END-idempotency-key-replay': 'fail', 'END-idempotency-key-mismatch': 'error' });
  });

  it('warn on a target that answers a reused key with the first result, whatever the body', async () => {
    // The target remembers only the key: a repeat is the first request again.
    const first = new Map<string, string>();
    const rewrites: Rewrites = {
      request: (req) => {
        const key = keyOf(req);
        if (req.method !== 'POST' || key === undefined) return req;
        if (!first.has(key)) first.set(key, req.body);
        return { ...req, body: first.get(key)! };
      },
    };
    const got = await verdicts(startVariant(rewrites));
    expect(got.verdicts, got.explain).toEqual({ 'END-idempotency-key-replay': 'pass', 'END-idempotency-key-mismatch': 'warn' });
  });
});
