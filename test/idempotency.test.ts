/**
 * Idempotency-Key checks (issue 17) proven both ways beyond the reference server's faults:
 * a target that refuses a reused key with 409 instead of 422 conforms; a gateway that drops
 * the header, and a target that answers a reused key with its first result, do not.
 */
import { describe, expect, it } from 'vitest';
import { jsonOf, pathOf, type ProxiedRequest, type ProxiedResponse, type Rewrites } from './support/rewriting-proxy.js';
import { startTarget, startVariant, type Target } from './support/target.js';
import { verdictsOf } from './support/verdicts.js';
import type { TargetProfile } from '../src/model/profile.js';

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

  it('send another body with the reused key where the collection has no mark field (one value changed), so the clean server refuses it and passes; a repeat of the same body is a retry, rightly replayed', async () => {
    const unmarked = (p: TargetProfile): TargetProfile => ({ ...p, collections: p.collections.map(({ markField: _, ...c }) => c) });
    const got = await verdictsOf(startTarget(), ['END-idempotency-key-mismatch'], unmarked);
    expect(got.verdicts, got.explain).toEqual({ 'END-idempotency-key-mismatch': 'pass' });
  });

  it('where the changed value breaks the field\'s own rule (a name that takes no suffix), refused with a key of its own too: a skip, not a pass, since the body and not the key was refused', async () => {
    // Before, the validation 422 passed as "the reused key was refused".
    const unmarked = (p: TargetProfile): TargetProfile => ({ ...p, collections: p.collections.map(({ markField: _, ...c }) => c) });
    const strictName: Rewrites = {
      request: (req) => (req.method === 'POST' && pathOf(req) === '/v2/projects' && /\(restprobe other\)/.test(req.body) ? { status: 422, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify({ type: 'about:blank', title: 'Unprocessable Content', status: 422, detail: 'name: no brackets', errors: [{ field: 'name', message: 'no brackets' }] }) } : req),
    };
    const got = await verdictsOf(startVariant(strictName), ['END-idempotency-key-mismatch'], unmarked);
    expect(got.explain).toMatch(/^END-idempotency-key-mismatch: skip the reused key with another body was refused with 422, but that body is refused with a key of its own too/m);
  });

  it('take a 409 to the retry right after the first answer (a store that commits the key after it answers: still in flight) as the draft has it, retry once, and pass on the stored result', async () => {
    // Before, the 409 failed the replay check ("expected the stored 201").
    const seen = new Set<string>();
    let conflicts = 0;
    const inFlight: Rewrites = {
      request: (req) => {
        const key = req.headers['idempotency-key'];
        if (req.method !== 'POST' || key === undefined) return req;
        if (seen.has(key) && conflicts === 0) {
          conflicts++;
          return { status: 409, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify({ type: 'about:blank', title: 'Conflict', status: 409, detail: 'A request with this key is being processed.' }) };
        }
        seen.add(key);
        return req;
      },
    };
    const got = await verdictsOf(startVariant(inFlight), ['END-idempotency-key-replay']);
    expect(got.verdicts, got.explain).toEqual({ 'END-idempotency-key-replay': 'pass' });
    expect(conflicts).toBe(1);
  });

  it('send the other body again after a 409 at once (the first request still in flight), and judge that answer: a store that then hands the first result to any body warns, where the 409 passed it before', async () => {
    const seen = new Map<string, ProxiedResponse>();
    const answered = new Set<string>();
    // The first answer per key is stored; a request with the key right away gets 409; later, the stored answer whatever the body.
    const inFlightThenAnyBody: Rewrites = {
      request: (req) => {
        const key = req.headers['idempotency-key'];
        if (req.method !== 'POST' || key === undefined || !seen.has(key)) return req;
        if (!answered.has(key)) {
          answered.add(key);
          return { status: 409, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify({ type: 'about:blank', title: 'Conflict', status: 409, detail: 'A request with this key is being processed.' }) };
        }
        return seen.get(key)!;
      },
      response: (res, req) => {
        const key = req.headers['idempotency-key'];
        if (req.method === 'POST' && key !== undefined && !seen.has(key)) seen.set(key, res);
        return res;
      },
    };
    const got = await verdictsOf(startVariant(inFlightThenAnyBody), ['END-idempotency-key-mismatch']);
    expect(got.verdicts, got.explain).toEqual({ 'END-idempotency-key-mismatch': 'warn' });
    expect(got.explain).toMatch(/the first result came back for another request/);
  });

  it('pass on a target that takes only UUIDs as keys (the draft\'s example: a quoted bare UUID)', async () => {
    const uuid = /^"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"$/;
    const rewrites: Rewrites = {
      response: (res, req) => {
        const key = keyOf(req);
        return key === undefined || uuid.test(key) ? res : { status: 400, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'Idempotency-Key must be a UUID.' }) };
      },
    };
    const got = await verdicts(startVariant(rewrites));
    expect(got.verdicts, got.explain).toEqual({ 'END-idempotency-key-replay': 'pass', 'END-idempotency-key-mismatch': 'pass' });
  });

  it('send the key bare where the quoted form is refused (a store that parses it as a UUID: Java, .NET, Python), noted, and judge as ever', async () => {
    const bareUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const rewrites: Rewrites = {
      request: (req) => {
        const key = keyOf(req);
        return key === undefined || bareUuid.test(key) ? req : { status: 400, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'Idempotency-Key must be a UUID.' }) };
      },
    };
    const got = await verdicts(startVariant(rewrites));
    expect(got.verdicts, got.explain).toEqual({ 'END-idempotency-key-replay': 'pass', 'END-idempotency-key-mismatch': 'pass' });
    expect(got.notes.join('\n')).toMatch(/for the key in the draft's quoted form .*: the key is sent bare/);
  });

  it('pass a store that replays the status and body but no Location (the body names the same id), noted', async () => {
    const stored = new Map<string, ProxiedResponse>();
    const bodyOnly: Rewrites = {
      request: (req) => {
        const key = keyOf(req);
        const hit = key === undefined ? undefined : stored.get(key);
        return req.method === 'POST' && hit !== undefined ? { ...hit, headers: { 'content-type': hit.headers['content-type'] ?? 'application/json' } } : req;
      },
      response: (res, req) => {
        const key = keyOf(req);
        if (req.method === 'POST' && key !== undefined && !stored.has(key)) stored.set(key, res);
        return res;
      },
    };
    const got = await verdictsOf(startVariant(bodyOnly), ['END-idempotency-key-replay']);
    expect(got.verdicts, got.explain).toEqual({ 'END-idempotency-key-replay': 'pass' });
    expect(got.notes.join('\n')).toMatch(/the retry's answer carries no Location .*: the store replays the status and body/);
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
