/** §4 method contract: GET, HEAD and OPTIONS. */
import { CheckSkipped, defineCheck } from '../../src/model/check.js';
import { splitList } from '../../src/check-kit/http-grammar.js';
import { describe, ensure, expectHeader, expectJsonObject, expectStatus } from '../../src/check-kit/expect.js';
import { parseAllow, sharedGet, sharedItem } from '../../src/check-kit/probes.js';
import type { HttpResponse } from '../../src/model/context.js';
import { pageOf } from '../../src/check-kit/pagination.js';
import { expectNoContent, sendExpectingNoContent } from '../../src/check-kit/connection.js';

export const getCollection200 = defineCheck({
  id: 'END-get-collection-200',
  title: 'GET on a collection answers 200 with a page',
  rule: 'GET on a collection MUST answer 200 with a page of results: an object with a `data` array and, for cursor pagination, a `next_cursor` string or null (every configured collection is tried).',
  severity: 'must',
  needs: ['collection'],
  async run(ctx) {
    // The page shape of each collection's own pagination style: the one check that judges it,
    // on the run's one plain GET of the listing.
    for (const collection of ctx.profile.collections) pageOf(await sharedGet(ctx, { path: collection.path }), collection, { judgeShape: true });
  },
});

export const getItem200 = defineCheck({
  id: 'END-get-item-200',
  title: 'GET on an item answers 200 with its representation',
  rule: 'GET on an existing item MUST answer 200 with the item\'s JSON representation.',
  severity: 'must',
  needs: ['writable'],
  async run(ctx, { writable }) {
    const item = await sharedItem(ctx, writable);
    const res = await sharedGet(ctx, { url: item.url });
    expectStatus(res, 200);
    const body = expectJsonObject(res, 'the item');
    const idField = item.collection.idField;
    ensure(String(body[idField]) === item.id, `${describe(res)}: "${idField}" is ${JSON.stringify(body[idField])}, expected ${JSON.stringify(item.id)}`, item.id, String(body[idField]));
  },
});

export const headMatchesGet = defineCheck({
  id: 'END-head-matches-get',
  title: 'HEAD answers like GET, without content',
  rule: 'HEAD MUST answer with the status GET would and MUST NOT carry content, not even bytes after its header section (RFC 9110 §9.3.2, §6.4.1).',
  severity: 'must',
  needs: ['writable'],
  async run(ctx, { writable }) {
    const item = await sharedItem(ctx, writable);
    const get = await sharedGet(ctx, { url: item.url });
    const head = await sendExpectingNoContent(ctx, { method: 'HEAD', url: item.url }, { method: 'GET', url: item.url });
    ensure(head.res.status === get.status, `HEAD answered ${head.res.status} where GET answered ${get.status}, expected the same status`, String(get.status), String(head.res.status));
    expectNoContent(head, 'the HEAD response');
  },
});

/**
 * Headers a HEAD repeats from GET when GET sends them (RFC 9110 §9.3.2). Not
 * Content-Length or Vary: a HEAD response MAY omit fields known only after generating content.
 */
const headHeaders = ['content-type', 'etag', 'last-modified', 'cache-control', 'content-language'];

export const headHeadersMatch = defineCheck({
  id: 'END-head-headers-match',
  title: "HEAD sends GET's header fields",
  rule: 'HEAD SHOULD send the header fields GET would send (Content-Type, ETag, Cache-Control…): RFC 9110 §9.3.2 asks no more than SHOULD and lets a server omit fields determined only while generating the content, and the conventions say nothing of HEAD headers.',
  severity: 'should',
  needs: ['writable'],
  dependsOn: ['END-head-matches-get'],
  assumes: ['END-etag-stable'],
  async run(ctx, { writable }) {
    const item = await sharedItem(ctx, writable);
    // A GET of its own, just before the HEAD: header values may move with time (a CDN's countdown).
    const get = await ctx.http.send({ method: 'GET', url: item.url });
    const head = await ctx.http.send({ method: 'HEAD', url: item.url });
    // An ETag hashed from the content (Django's ConditionalGetMiddleware, Spring's ShallowEtagHeaderFilter)
    // is known only once the content is generated: a HEAD may leave it out (RFC 9110 §9.3.2), not send another.
    if (get.headers['etag'] !== undefined && head.headers['etag'] === undefined) ctx.note(`HEAD sends no ETag where GET sends ${get.headers['etag']}: one hashed from the content, which a HEAD may leave out (RFC 9110 §9.3.2)`);
    const differ = headHeaders
      .filter((h) => get.headers[h] !== undefined && head.headers[h] !== get.headers[h] && !(h === 'etag' && head.headers[h] === undefined))
      .map((h) => `${h}: GET ${JSON.stringify(get.headers[h])}, HEAD ${JSON.stringify(head.headers[h] ?? null)}`);
    ensure(differ.length === 0, `HEAD's headers differ from GET's — ${differ.join('; ')}; expected the same values`, 'the same header values as GET', differ.join('; '));
  },
});

export const optionsAllow = defineCheck({
  id: 'END-options-allow',
  title: 'OPTIONS answers with Allow',
  rule: 'A successful OPTIONS response SHOULD list the supported methods in `Allow` (RFC 9110 §9.3.7).',
  severity: 'should',
  needs: ['collection'],
  async run(ctx, { collection }) {
    const res = await ctx.http.send({ method: 'OPTIONS', path: collection.path });
    expectOptionsServed(res);
    expectStatus(res, [200, 204]);
    const allow = parseAllow(expectHeader(res, 'Allow')) ?? [];
    ensure(allow.includes('GET'), `${describe(res)}: Allow is "${res.headers['allow']}", expected it to list GET`, 'GET listed', res.headers['allow']);
  },
});

/**
 * OPTIONS is optional (RFC 9110 §9.1): a 405 or 501 (Starlette answers 405 with an Allow) is
 * lawful, and leaves no successful OPTIONS for the OPTIONS checks to judge.
 */
function expectOptionsServed(res: HttpResponse): void {
  if (res.status === 405 || res.status === 501) throw new CheckSkipped(`${describe(res)}: OPTIONS is not served here, so there is no successful OPTIONS to judge`);
}

/** `type/subtype` with optional parameters (RFC 9110 §8.3.1). */
const mediaType = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+\s*(?:;.*)?$/;

export const optionsAcceptPatch = defineCheck({
  id: 'END-options-accept-patch',
  title: 'OPTIONS names the PATCH media types',
  rule: 'OPTIONS on a resource whose `Allow` lists PATCH SHOULD carry `Accept-Patch` naming the media types PATCH takes (RFC 5789 §3.1).',
  severity: 'should',
  needs: ['writable'],
  async run(ctx, { writable }) {
    const item = await sharedItem(ctx, writable);
    const res = await ctx.http.send({ method: 'OPTIONS', url: item.url });
    expectOptionsServed(res);
    expectStatus(res, [200, 204], 'OPTIONS on an item');
    const allow = parseAllow(res.headers['allow']);
    if (allow === undefined) throw new CheckSkipped(`${describe(res)} has no Allow, so whether PATCH is supported is unknown (see END-options-allow)`);
    if (!allow.includes('PATCH')) throw new CheckSkipped(`${describe(res)}: Allow "${res.headers['allow']}" does not list PATCH`);
    const types = splitList(expectHeader(res, 'Accept-Patch', 'OPTIONS on an item that allows PATCH'));
    const bad = types.filter((t) => !mediaType.test(t));
    ensure(types.length > 0 && bad.length === 0, `${describe(res)}: Accept-Patch "${res.headers['accept-patch']}" is not a list of media types, expected e.g. application/merge-patch+json`, '1#media-type', res.headers['accept-patch']);
  },
});

export const readChecks = [getCollection200, getItem200, headMatchesGet, headHeadersMatch, optionsAllow, optionsAcceptPatch];
