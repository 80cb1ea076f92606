/**
 * The error probes on real stacks: a gateway's 502 to one probe (a cold start behind an ALB,
 * nginx's HTML page) is no error body of the API's, so the problem checks judge the others.
 */
import { describe, expect, it } from 'vitest';
import type { Rewrites } from './support/rewriting-proxy.js';
import { startVariant } from './support/target.js';
import { verdictsOf } from './support/verdicts.js';

describe('a gateway that answers one error probe 502 with its own HTML page', () => {
  it('is not judged as the API\'s error body: the problem checks pass on the others, and say so', async () => {
    const badGateway: Rewrites = {
      request: (req) => (req.method === 'POST' && req.body.startsWith('{"restprobe": "malformed",') ? { status: 502, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>502 Bad Gateway</h1></body></html>' } : req),
    };
    const ids = ['ERR-problem-json-content-type', 'ERR-problem-members', 'ERR-problem-status-matches'] as const;
    const got = await verdictsOf(startVariant(badGateway), ids);
    expect(got.verdicts, got.explain).toEqual(Object.fromEntries(ids.map((id) => [id, 'pass'])));
    expect(got.notes.join('\n')).toMatch(/not judged as the API's error bodies: POST \S+ → 502 text\/html/);
  });
});
