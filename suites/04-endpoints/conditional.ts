/**
 * §4 conditional and cache headers: ETag validators, If-None-Match → 304, If-Match → 412,
 * and Vary. Grammars and comparisons per RFC 9110 §8.8.3 and §13.
 */
import { CheckFailure, CheckSkipped, defineCheck } from '../../src/model/check.js';
import type { CheckContext, CreatedResource, HttpResponse, RequestSpec } from '../../src/model/context.js';
import { brief, describe, ensure, expectHeader, expectJsonObject, expectStatus } from '../../src/check-kit/expect.js';
import { diffRepresentations } from '../../src/check-kit/compare.js';
import { isEntityTag, isWeakTag, varyFields } from '../../src/check-kit/http-grammar.js';
import { unsupportedAccept } from '../../src/check-kit/probes.js';
import { RestprobeError } from '../../src/errors.js';

/** A strong tag no server issues, for mismatches. */
const staleTag = '"restprobe-stale-etag"';

/** GETs the item and returns the response and its ETag; fails unless 200 with a valid ETag. */
export async function tagged(ctx: CheckContext, url: string, what: string): Promise<{ res: HttpResponse; etag: string }> {
  const res = await ctx.http.send({ method: 'GET', url });
  expectStatus(res, 200, what);
  const etag = expectHeader(res, 'ETag', what);
  ensure(isEntityTag(etag), `${describe(res)}: ETag ${etag} is not an entity-tag, expected "opaque" or W/"opaque" (RFC 9110 §8.8.3)`, 'entity-tag', etag);
  return { res, etag };
}

export const etagPresent = defineCheck({
  id: 'END-etag-present',
  title: 'GET of an item carries a valid ETag',
  rule: 'GET of an item MUST carry an `ETag` that is a valid entity-tag (strong `"x"` or weak `W/"x"`); on a collection page an ETag is noted, not required.',
  severity: 'must',
  needs: ['writable'],
  dependsOn: ['END-get-item-200'],
  async run(ctx, { writable: collection }) {
    const item = await ctx.create(collection);
    await tagged(ctx, item.url, 'GET of an item');
    const page = await ctx.http.send({ method: 'GET', path: collection.path });
    const etag = page.headers['etag'];
    ctx.note(`GET ${collection.path}: ${etag === undefined ? 'no ETag (allowed)' : isEntityTag(etag) ? `ETag ${etag}` : `ETag ${etag} is not an entity-tag`}`);
  },
});

export const etagStable = defineCheck({
  id: 'END-etag-stable',
  title: 'The ETag of an unchanged resource is stable',
  rule: 'Repeated GETs of an unchanged resource MUST carry the same ETag.',
  severity: 'must',
  needs: ['writable'],
  dependsOn: ['END-etag-present', 'END-safe-methods-no-change'],
  async run(ctx, { writable }) {
    const item = await ctx.create(writable);
    const first = await tagged(ctx, item.url, 'first GET');
    const second = await tagged(ctx, item.url, 'second GET');
    ensure(first.etag === second.etag, `two GETs of an unchanged item carried ETags ${first.etag} and ${second.etag}, expected the same validator`, first.etag, second.etag);
  },
});

/** The writes a check can make on an item of an updatable collection: PUT with the replace body, PATCH with the patch body. */
function writes(item: CreatedResource): [RequestSpec, ...RequestSpec[]] {
  const c = item.collection;
  const out: RequestSpec[] = [];
  if (c.replaceBody) out.push({ method: 'PUT', url: item.url, json: c.replaceBody });
  if (c.patchBody) out.push({ method: 'PATCH', url: item.url, json: c.patchBody });
  const [first, ...rest] = out;
  if (!first) throw new RestprobeError('ERR_HARNESS', `no replace or patch body for ${c.name}, though the check needs an updatable collection`);
  return [first, ...rest];
}

export const etagChangesOnWrite = defineCheck({
  id: 'END-etag-changes-on-write',
  title: 'The ETag changes after every write',
  rule: 'After a write that changes a resource, GET MUST carry a different ETag.',
  severity: 'must',
  needs: ['updatable'],
  dependsOn: ['END-etag-present'],
  async run(ctx, { updatable }) {
    const item = await ctx.create(updatable);
    let { etag } = await tagged(ctx, item.url, 'GET before the writes');
    for (const spec of writes(item)) {
      expectStatus(await ctx.http.send(spec), [200, 204], spec.method);
      const after = await tagged(ctx, item.url, `GET after ${spec.method}`);
      ensure(after.etag !== etag, `after ${spec.method} changed the item, GET still carried ETag ${etag}, expected a new validator`, 'a new ETag', etag);
      etag = after.etag;
    }
  },
});


/**
 * Header fields a 304 must carry when the 200 does (RFC 9110 §15.4.5): ETag and Vary with
 * the same value; Cache-Control, Content-Location and Expires present (a time-based
 * Expires may move between the two responses).
 */
const notModifiedSame = ['etag', 'vary'];
const notModifiedPresent = ['cache-control', 'content-location', 'expires'];

export const ifNoneMatch304 = defineCheck({
  id: 'END-if-none-match-304',
  title: 'If-None-Match with the current ETag answers 304',
  rule: 'GET with `If-None-Match` naming the current ETag (weak comparison) MUST answer 304 carrying the ETag, Cache-Control and Vary a 200 would carry; any other tag MUST get 200.',
  severity: 'must',
  needs: ['writable'],
  dependsOn: ['END-etag-stable'],
  async run(ctx, { writable }) {
    const item = await ctx.create(writable);
    const { res: ok, etag } = await tagged(ctx, item.url, 'GET');
    const weakForm = isWeakTag(etag) ? etag.slice(2) : `W/${etag}`;
    for (const tag of [etag, weakForm, `${staleTag}, ${etag}`]) {
      const res = await ctx.http.send({ method: 'GET', url: item.url, headers: { 'if-none-match': tag } });
      expectStatus(res, 304, `GET with If-None-Match: ${tag}`);
      const missing = [
        ...notModifiedSame.filter((h) => ok.headers[h] !== undefined && res.headers[h] !== ok.headers[h]),
        ...notModifiedPresent.filter((h) => ok.headers[h] !== undefined && res.headers[h] === undefined),
      ];
      ensure(missing.length === 0, `${describe(res)} differs from the 200 in ${missing.map((h) => `${h} (${JSON.stringify(res.headers[h] ?? null)} vs ${JSON.stringify(ok.headers[h])})`).join(', ')}, expected the fields a 200 carries`, 'the 200\'s ETag, Cache-Control, Vary', missing.join(', '));
    }
    const other = await ctx.http.send({ method: 'GET', url: item.url, headers: { 'if-none-match': staleTag } });
    expectStatus(other, 200, `GET with If-None-Match: ${staleTag} (another tag)`);
  },
});

export const notModifiedNoBody = defineCheck({
  id: 'END-not-modified-no-body',
  title: 'A 304 carries no body',
  rule: 'A 304 response MUST NOT carry content (RFC 9110 §6.4.1, §15.4.5).',
  severity: 'must',
  needs: ['writable'],
  // Without a 304 there is nothing to observe: its own check judges that.
  dependsOn: ['END-if-none-match-304'],
  async run(ctx, { writable }) {
    const item = await ctx.create(writable);
    const { etag } = await tagged(ctx, item.url, 'GET');
    // A parser must not read a 304's body, so bytes after it show up as a broken connection.
    const http = ctx.dedicatedHttp();
    const res = await http.send({ method: 'GET', url: item.url, headers: { 'if-none-match': etag } });
    if (res.status !== 304) throw new CheckSkipped(`no 304 to observe: If-None-Match got ${res.status} (see END-if-none-match-304)`);
    ensure(res.text.length === 0, `${describe(res)} carried ${res.text.length} bytes, expected none`);
    let follow: HttpResponse | undefined;
    try {
      follow = await http.send({ method: 'GET', url: item.url });
    } catch (err) {
      if (!(err instanceof Error && /mid-exchange/.test(err.message))) throw err;
    }
    const broken = http.protocolErrors.length > 0 || follow === undefined || follow.status !== 200;
    ensure(!broken, `bytes followed the 304's headers on the connection (${http.protocolErrors[0] ?? 'the next request on it failed'}): the 304 carried a body, expected none`, 'no content after a 304', http.protocolErrors.join('; ') || 'broken connection');
  },
});

export const ifMatch412 = defineCheck({
  id: 'END-if-match-412',
  title: 'If-Match with a stale ETag answers 412 and changes nothing',
  rule: 'PUT, PATCH or DELETE with an `If-Match` that does not match the current ETag MUST answer 412 and MUST NOT apply the change.',
  severity: 'must',
  needs: ['updatable'],
  dependsOn: ['END-etag-present', 'END-safe-methods-no-change'],
  async run(ctx, { updatable }) {
    const item = await ctx.create(updatable);
    const before = expectJsonObject((await tagged(ctx, item.url, 'GET before')).res);
    for (const spec of [...writes(item), { method: 'DELETE', url: item.url }]) {
      const res = await ctx.http.send({ ...spec, headers: { 'if-match': staleTag } });
      expectStatus(res, 412, `${spec.method} with a stale If-Match`);
      const now = await ctx.http.send({ method: 'GET', url: item.url });
      expectStatus(now, 200, `GET after a refused ${spec.method}`);
      const diff = diffRepresentations(before, expectJsonObject(now), item.collection.volatileFields);
      ensure(diff.length === 0, `${spec.method} answered 412 but the item changed (${diff.join('; ')}), expected it unchanged`, brief(before), brief(now.json));
    }
  },
});

export const ifMatchApplies = defineCheck({
  id: 'END-if-match-applies',
  title: 'If-Match with the current ETag applies the write',
  rule: 'PUT, PATCH or DELETE with an `If-Match` naming the current ETag (or `*`) MUST be applied.',
  severity: 'must',
  needs: ['updatable'],
  dependsOn: ['END-etag-stable'],
  async run(ctx, { updatable }) {
    const item = await ctx.create(updatable);
    if (isWeakTag((await tagged(ctx, item.url, 'GET')).etag)) {
      // If-Match compares strongly (RFC 9110 §13.1.1): a weak tag never matches, rightly.
      throw new CheckSkipped('the item has a weak ETag, which If-Match can never match');
    }
    for (const spec of writes(item)) {
      const { etag } = await tagged(ctx, item.url, `GET before ${spec.method}`);
      expectStatus(await ctx.http.send({ ...spec, headers: { 'if-match': etag } }), [200, 204], `${spec.method} with If-Match: ${etag}`);
    }
    const [star] = writes(item);
    expectStatus(await ctx.http.send({ ...star, headers: { 'if-match': '*' } }), [200, 204], `${star.method} with If-Match: *`);
    const { etag } = await tagged(ctx, item.url, 'GET before DELETE');
    expectStatus(await ctx.http.send({ method: 'DELETE', url: item.url, headers: { 'if-match': etag } }), [200, 204], `DELETE with If-Match: ${etag}`);
  },
});

export const varyAccept = defineCheck({
  id: 'END-vary-accept',
  title: 'Responses that depend on Accept say so in Vary',
  rule: 'A response that differs by the request\'s `Accept` MUST carry `Vary` naming Accept.',
  severity: 'must',
  needs: ['collection'],
  async run(ctx, { collection }) {
    const ok = await ctx.http.send({ method: 'GET', path: collection.path });
    expectStatus(ok, 200, `GET ${collection.path}`);
    const refused = await ctx.http.send({ method: 'GET', path: collection.path, headers: { accept: unsupportedAccept } });
    if (refused.status === ok.status && refused.mediaType === ok.mediaType) {
      ctx.note('the response does not depend on Accept: Vary is not required');
      return;
    }
    if (!varyFields(ok.headers['vary']).some((f) => f === 'accept' || f === '*')) {
      throw new CheckFailure(
        `${describe(ok)} carries Vary ${JSON.stringify(ok.headers['vary'] ?? null)} although Accept changes the answer (${describe(refused)}), expected Vary to name Accept`,
        'Vary: Accept',
        ok.headers['vary'] ?? 'none',
      );
    }
  },
});

export const conditionalChecks = [
  etagPresent,
  etagStable,
  etagChangesOnWrite,
  ifNoneMatch304,
  notModifiedNoBody,
  ifMatch412,
  ifMatchApplies,
  varyAccept,
];
