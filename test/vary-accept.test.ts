/**
 * END-vary-accept judges a choice between representations, not a refusal: an API with one
 * representation that answers 406 to other types (DRF with JSONRenderer alone, Spring, ASP.NET
 * with ReturnHttpNotAcceptable) owes no Vary, since RFC 9110 §12.5.1 lets an origin disregard
 * Accept as well; an API that serves another format to its Accept (a browsable API's HTML)
 * owes Vary on both answers.
 */
import { describe, expect, it } from 'vitest';
import { otherFormatsAccept } from '../src/check-kit/probes.js';
import type { ProxiedResponse, Rewrites } from './support/rewriting-proxy.js';
import { startVariant } from './support/target.js';
import { verdictsOf } from './support/verdicts.js';

const withoutVary = (res: ProxiedResponse): ProxiedResponse => ({ ...res, headers: Object.fromEntries(Object.entries(res.headers).filter(([k]) => k !== 'vary')) });
const notAcceptable: ProxiedResponse = {
  status: 406,
  headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store' },
  body: JSON.stringify({ type: 'about:blank', title: 'Not Acceptable', status: 406, detail: 'Could not satisfy the request Accept header.' }),
};

describe('END-vary-accept', () => {
  it('passes an API with one representation that refuses other types 406 and sends no Vary', async () => {
    // The reference server without its CSV listings, and without Vary anywhere.
    const jsonOnly: Rewrites = { response: (res) => withoutVary(res.headers['content-type']?.startsWith('text/csv') ? notAcceptable : res) };
    const got = await verdictsOf(startVariant(jsonOnly), ['END-vary-accept']);
    expect(got.verdicts, got.explain).toEqual({ 'END-vary-accept': 'pass' });
    expect(got.notes.join('\n')).toMatch(/Accept chooses no other representation here, so Vary is not required/);
  });

  it('fails an API that serves HTML to a browser\'s Accept without Vary, on the JSON answer and on the HTML one', async () => {
    const html = (vary: boolean): Rewrites => ({
      request: (req) =>
        req.method === 'GET' && req.headers['accept'] === otherFormatsAccept
          ? { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'private, no-cache', ...(vary && { vary: 'Accept' }) }, body: '<html><body>projects</body></html>' }
          : req,
      response: withoutVary,
    });
    const got = await verdictsOf(startVariant(html(false)), ['END-vary-accept']);
    expect(got.verdicts, got.explain).toEqual({ 'END-vary-accept': 'fail' });
    expect(got.explain).toMatch(/END-vary-accept: fail GET \/v2\/\S+ → 200 application\/json carries Vary null although Accept chooses between application\/json and text\/html here, expected Vary to name Accept/);
    // Vary on the HTML alone is not enough: the JSON answer is a cached variant too.
    const half = await verdictsOf(startVariant(html(true)), ['END-vary-accept']);
    expect(half.verdicts, half.explain).toEqual({ 'END-vary-accept': 'fail' });
    expect(half.explain).toMatch(/→ 200 application\/json carries Vary null/);
    // Vary on the JSON alone is not enough either: the HTML answer is the other variant.
    const jsonOnly: Rewrites = { request: html(false).request! };
    const other = await verdictsOf(startVariant(jsonOnly), ['END-vary-accept']);
    expect(other.verdicts, other.explain).toEqual({ 'END-vary-accept': 'fail' });
    expect(other.explain).toMatch(/→ 200 text\/html carries Vary null although Accept chooses between application\/json and text\/html here/);
  });

  it('passes an API whose JSON writer serves the listing as problem+json to the probe that admits it (ASP.NET Core MVC, Spring 5: application/*+json), with no Vary: problem+json is no representation of the listing', async () => {
    const aspNet: Rewrites = {
      request: (req) => (req.method === 'GET' && req.headers['accept'] === otherFormatsAccept ? notAcceptable : req),
      response: (res, req) => {
        const plain = withoutVary(res);
        return req.method === 'GET' && (req.headers['accept'] ?? '').startsWith('application/x-restprobe-unsupported') && res.status === 406 ? { ...plain, status: 200, headers: { ...plain.headers, 'content-type': 'application/problem+json; charset=utf-8' }, body: '{"data":[],"next_cursor":null}' } : plain;
      },
    };
    const got = await verdictsOf(startVariant(aspNet), ['END-vary-accept']);
    expect(got.verdicts, got.explain).toEqual({ 'END-vary-accept': 'pass' });
  });
});
