/** §4 method contract: GET, HEAD and OPTIONS. */
import { defineCheck } from '../../src/model/check.js';
import { describe, ensure, expectHeader, expectJsonObject, expectStatus } from '../../src/check-kit/expect.js';
import { parseAllow } from '../../src/check-kit/probes.js';
import { fetchPage } from '../../src/check-kit/pagination.js';

export const getCollection200 = defineCheck({
  id: 'END-get-collection-200',
  title: 'GET on a collection answers 200 with a page',
  rule: 'GET on a collection MUST answer 200 with a page of results: an object with a `data` array and, for cursor pagination, a `next_cursor` string or null.',
  severity: 'must',
  needs: ['collection'],
  async run(ctx, { collection }) {
    // fetchPage asserts the page shape of the collection's own pagination style.
    await fetchPage(ctx, collection, {});
  },
});

export const getItem200 = defineCheck({
  id: 'END-get-item-200',
  title: 'GET on an item answers 200 with its representation',
  rule: 'GET on an existing item MUST answer 200 with the item\'s JSON representation.',
  severity: 'must',
  needs: ['writable'],
  async run(ctx, { writable }) {
    const item = await ctx.create(writable);
    const res = await ctx.http.send({ method: 'GET', url: item.url });
    expectStatus(res, 200);
    const body = expectJsonObject(res, 'the item');
    const idField = item.collection.idField;
    ensure(String(body[idField]) === item.id, `${describe(res)}: "${idField}" is ${JSON.stringify(body[idField])}, expected ${JSON.stringify(item.id)}`, item.id, String(body[idField]));
  },
});

/**
 * Headers a HEAD repeats from GET when GET sends them (RFC 9110 §9.3.2). Not
 * Content-Length or Vary: a HEAD response MAY omit fields known only after generating content.
 */
const headHeaders = ['content-type', 'etag', 'last-modified', 'cache-control', 'content-language'];

export const headMatchesGet = defineCheck({
  id: 'END-head-matches-get',
  title: 'HEAD answers like GET, without a body',
  rule: 'HEAD MUST answer with the status and header fields GET would send (Content-Type, ETag, Cache-Control…) and MUST NOT carry content (RFC 9110 §9.3.2).',
  severity: 'must',
  needs: ['writable'],
  dependsOn: ['END-etag-stable'],
  async run(ctx, { writable }) {
    const item = await ctx.create(writable);
    const get = await ctx.http.send({ method: 'GET', url: item.url });
    const head = await ctx.http.send({ method: 'HEAD', url: item.url });
    ensure(head.status === get.status, `HEAD answered ${head.status} where GET answered ${get.status}, expected the same status`, String(get.status), String(head.status));
    ensure(head.text.length === 0, `${describe(head)} carried ${head.text.length} bytes of content, expected none`, 'no content', `${head.text.length} bytes`);
    const differ = headHeaders
      .filter((h) => get.headers[h] !== undefined && head.headers[h] !== get.headers[h])
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
    expectStatus(res, [200, 204]);
    const allow = parseAllow(expectHeader(res, 'Allow')) ?? [];
    ensure(allow.includes('GET'), `${describe(res)}: Allow is "${res.headers['allow']}", expected it to list GET`, 'GET listed', res.headers['allow']);
  },
});

export const readChecks = [getCollection200, getItem200, headMatchesGet, optionsAllow];
