/**
 * conditionalWhenRequired: a write of restprobe's own item refused 428 goes again with the
 * precondition the target asked for, and the evidence shows the request as it left; nothing
 * else is touched.
 */
import { describe, expect, it } from 'vitest';
import { testProfile } from '../../test/support/profile.js';
import type { RawRequest, RawResponse } from './client.js';
import { guard } from './guards.js';
import { conditionalWhenRequired } from './precondition-required.js';
import { RecordingSession } from './session.js';

const base = 'http://127.0.0.1:9';
const own = `${base}/things/1`;

/** A target that requires a precondition on writes and shows the item with `shown`; what it was sent, in order. */
function target(shown: RawResponse) {
  const sent: RawRequest[] = [];
  const send = async (req: RawRequest): Promise<RawResponse> => {
    sent.push(req);
    if (req.method === 'GET') return shown;
    const conditional = ['if-match', 'if-none-match', 'if-unmodified-since'].some((h) => req.headers[h] !== undefined);
    return { status: conditional ? 200 : 428, headers: {}, body: Buffer.from('{}') };
  };
  return { sent, send };
}

const item = (headers: Record<string, string>): RawResponse => ({ status: 200, headers, body: Buffer.from('{"id":1}') });

function session(send: (req: RawRequest) => Promise<RawResponse>, notes: string[]): RecordingSession {
  return new RecordingSession({ send: guard(send, [conditionalWhenRequired((url) => url === own || url === `${base}/things/2`, (line) => notes.push(line))]), protocolErrors: [] }, testProfile(base));
}

describe('a write refused 428 Precondition Required', () => {
  it("of restprobe's own item goes again with the item's ETag, once noted, and the evidence shows If-Match", async () => {
    const { sent, send } = target(item({ etag: '"v7"' }));
    const notes: string[] = [];
    const http = session(send, notes);
    const res = await http.send({ method: 'PATCH', url: own, json: { name: 'x' } });
    expect(res.status).toBe(200);
    expect(sent.map((r) => `${r.method} ${r.headers['if-match'] ?? ''}`)).toEqual(['PATCH ', 'GET ', 'PATCH "v7"']);
    // The read carries the credentials, not the write's body headers.
    expect(sent[1]!.headers['content-type']).toBeUndefined();
    expect(sent[1]!.headers['X-API-Key'] ?? sent[1]!.headers['x-api-key']).toBeDefined();
    expect(http.records('full')[0]!.request.headers['if-match']).toBe('"v7"');
    await http.send({ method: 'PATCH', url: own, json: { name: 'y' } });
    expect(notes).toEqual([`PATCH /things/1 answered 428 Precondition Required: the target requires conditional writes, so restprobe sends its PATCH requests to its own items again with If-Match: "v7" after a GET of the item (200)`]);
  });

  it('goes with If-Unmodified-Since where the item has a Last-Modified and no ETag', async () => {
    const { sent, send } = target(item({ 'last-modified': 'Tue, 01 Sep 2026 10:00:00 GMT' }));
    await session(send, []).send({ method: 'DELETE', url: own });
    expect(sent.at(-1)!.headers['if-unmodified-since']).toBe('Tue, 01 Sep 2026 10:00:00 GMT');
  });

  it('never sends a weak ETag (If-Match compares strongly): Last-Modified, else If-Match: *', async () => {
    const { sent, send } = target(item({ etag: 'W/"v7"' }));
    await session(send, []).send({ method: 'PATCH', url: own, json: {} });
    expect(sent.at(-1)!.headers['if-match']).toBe('*');
  });

  it("times each step from its own start, and lets cleanup's read go past a spent budget as its DELETE may", async () => {
    const { sent, send } = target(item({ etag: '"v7"' }));
    const guarded = guard(send, [conditionalWhenRequired(() => true, () => {})]);
    await guarded({ method: 'DELETE', url: own, headers: {}, outsideBudget: true, startedAt: 1 });
    expect(sent.map((r) => [r.method, r.outsideBudget, r.startedAt])).toEqual([['DELETE', true, 1], ['GET', true, undefined], ['DELETE', true, undefined]]);
  });

  it('creates with a PUT only if still absent, and sends If-Match: * where the item could not be read', async () => {
    const absent = target({ status: 404, headers: {}, body: Buffer.alloc(0) });
    await session(absent.send, []).send({ method: 'PUT', url: own, json: {} });
    expect(absent.sent.at(-1)!.headers['if-none-match']).toBe('*');
    const refused = target({ status: 401, headers: {}, body: Buffer.alloc(0) });
    await session(refused.send, []).send({ method: 'DELETE', url: own, auth: false });
    expect(refused.sent.at(-1)!.headers['if-match']).toBe('*');
  });

  it('is the answer where the item is not restprobe\'s, or the write carried a precondition of its own', async () => {
    const { sent, send } = target(item({ etag: '"v7"' }));
    const http = session(send, []);
    expect((await http.send({ method: 'DELETE', url: `${base}/things/3` })).status).toBe(428);
    expect((await http.send({ method: 'PUT', url: own, json: {}, headers: { 'If-Match': '"v1"' } })).status).toBe(200);
    expect(sent.map((r) => r.method)).toEqual(['DELETE', 'PUT']);
  });
});
