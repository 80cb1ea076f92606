/**
 * END-if-none-match-304 on conditional GETs as real stacks answer them: behind a proxy that
 * weakens the 200's ETag when it compresses (nginx's gzip) and leaves the 304's be, with Vary
 * fields in another order on the 304; and Rails, which matches If-None-Match tags exactly.
 */
import { describe, expect, it } from 'vitest';
import { pathOf, type Rewrites } from './support/rewriting-proxy.js';
import { startVariant } from './support/target.js';
import { verdictsOf } from './support/verdicts.js';

const item = /^\/v2\/projects\/[^/]+$/;

describe('END-if-none-match-304', () => {
  it('takes a 304 whose ETag is the 200\'s in the other strength (a compressing proxy weakened the 200\'s), and its Vary in another order, noting the strength', async () => {
    const proxy: Rewrites = {
      response: (res, req) => {
        if (req.method !== 'GET' || !item.test(pathOf(req)) || res.headers['etag'] === undefined) return res;
        if (res.status === 200) return { ...res, headers: { ...res.headers, etag: `W/${res.headers['etag'].replace(/^W\//, '')}`, vary: 'Accept, Accept-Encoding' } };
        return res.status === 304 ? { ...res, headers: { ...res.headers, vary: 'accept-encoding, accept' } } : res;
      },
    };
    const got = await verdictsOf(startVariant(proxy), ['END-if-none-match-304']);
    expect(got.verdicts, got.explain).toEqual({ 'END-if-none-match-304': 'pass' });
    expect(got.notes.join('\n')).toMatch(/the same tag in another strength/);
  });

  it('fails an exact-match server (Rails) on the other strength only, saying it is the weak comparison If-None-Match uses', async () => {
    const exact: Rewrites = {
      request: (req) => {
        const inm = req.headers['if-none-match'];
        return req.method === 'GET' && item.test(pathOf(req)) && inm?.startsWith('W/') ? { ...req, headers: { ...req.headers, 'if-none-match': '"no-such-tag"' } } : req;
      },
    };
    const got = await verdictsOf(startVariant(exact), ['END-if-none-match-304']);
    expect(got.verdicts, got.explain).toEqual({ 'END-if-none-match-304': 'fail' });
    expect(got.explain).toMatch(/in its other strength, which the weak comparison If-None-Match uses matches, RFC 9110 §13\.1\.2/);
  });
});
