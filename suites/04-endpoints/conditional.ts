/**
 * §4 conditional and cache headers: ETag validators, If-None-Match → 304, If-Match → 412,
 * and Vary. Grammars and comparisons per RFC 9110 §8.8.3 and §13.
 */
import { CheckFailure, CheckSkipped, defineCheck } from '../../src/model/check.js';
import type { CheckContext, HttpResponse } from '../../src/model/context.js';
import type { WritableCollection } from '../../src/model/needs.js';
import { brief, describe, ensure, expectJsonObject, expectStatus } from '../../src/check-kit/expect.js';
import { deepEqual, diffRepresentations } from '../../src/check-kit/compare.js';
import { isEntityTag, isWeakTag, sameVaryFields, varyFields, weakMatch } from '../../src/check-kit/http-grammar.js';
import { errorProbes, otherFormatsAccept, sharedGet, sharedItem, staleTag } from '../../src/check-kit/probes.js';
import { expectNoContent, sendExpectingNoContent } from '../../src/check-kit/connection.js';
import { tagged, taggedAnswer } from '../../src/check-kit/tagged.js';
import { answered, beforeOf, staleIfMatch, stepOf, updateSequences, updateWrites, type RefusedWrites, type StaleIfMatch } from '../../src/check-kit/update-sequences.js';
import { isObject } from '../../src/model/json.js';

export const etagPresent = defineCheck({
  id: 'END-etag-present',
  title: 'GET of an item carries a valid ETag',
  rule: 'GET of an item MUST carry an `ETag` that is a valid entity-tag (strong `"x"` or weak `W/"x"`); on a collection page an ETag is noted, not required.',
  severity: 'must',
  needs: ['writable'],
  dependsOn: ['END-get-item-200'],
  async run(ctx, { writable: collection }) {
    const item = await sharedItem(ctx, collection);
    await tagged(ctx, item.url, 'GET of an item', { shared: true });
    const page = await sharedGet(ctx, { path: collection.path });
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
  dependsOn: ['END-etag-present'],
  assumes: ['END-safe-methods-no-change'],
  async run(ctx, { writable }) {
    const item = await sharedItem(ctx, writable);
    let first = await tagged(ctx, item.url, 'first GET', { shared: true });
    let second = await tagged(ctx, item.url, 'second GET');
    // A representation that moved only in the fields the server changes on its own
    // (collections[].volatileFields: a timestamp) rightly gets another ETag, one hashed from the
    // content first of all: two more GETs, back to back, judge it.
    const movedOnItsOwn = (): boolean => first.etag !== second.etag && first.res.text !== second.res.text && isObject(first.res.json) && isObject(second.res.json) && diffRepresentations(first.res.json, second.res.json, writable.volatileFields).length === 0;
    if (movedOnItsOwn()) {
      ctx.note(`the item's representation changed between the run's shared GET and this one in its volatile fields (${writable.volatileFields.join(', ')}), and its ETag with it (${first.etag}, ${second.etag}): two GETs back to back judge it`);
      first = second;
      second = await tagged(ctx, item.url, 'third GET');
      if (movedOnItsOwn()) throw new CheckSkipped(`the item's representation changed in its volatile fields between two GETs back to back as well, and its ETag with it (${first.etag}, ${second.etag}): a resource that changes on every read shows no stable validator to judge`);
    }
    ensure(first.etag === second.etag, `two GETs of an unchanged item carried ETags ${first.etag} and ${second.etag}, expected the same validator`, first.etag, second.etag);
  },
});

export const etagChangesOnWrite = defineCheck({
  id: 'END-etag-changes-on-write',
  title: 'The ETag changes after every write',
  rule: 'After a write that changes a resource, GET MUST carry a different ETag.',
  severity: 'must',
  needs: ['updatable'],
  dependsOn: ['END-etag-present'],
  async run(ctx, { updatable }) {
    // The first PUT of the shared PUT sequence, and the shared PATCH, each to a fresh item.
    let changed = 0;
    for (const { method, body, sequence } of await updateSequences(ctx, updatable)) {
      const before = taggedAnswer(beforeOf(sequence), `GET before the ${method}`);
      const step = stepOf(sequence, 0);
      expectStatus(step.write, [200, 204], method);
      const after = taggedAnswer(step.after, `GET after ${method}`);
      // A write that leaves the representation as it was may keep its ETag, which tags the
      // representation (RFC 9110 §8.8.3): a content-hash ETag rightly does, where the write sent
      // only values the item had, or values it does not show (a write-only field, one ignored).
      const shown = isObject(before.res.json) ? before.res.json : {};
      const sendsNew = Object.entries(body).some(([k, v]) => !deepEqual(shown[k], v));
      const seenChanged = isObject(after.res.json) && diffRepresentations(shown, after.res.json, updatable.volatileFields).length > 0;
      if (!seenChanged) ctx.note(`${method} ${sendsNew ? 'sent values the representation does not show (write-only, or ignored)' : 'sent only values the item had'}, and left it as it was: its ETag may stay`);
      else {
        changed++;
        ensure(after.etag !== before.etag, `after ${method} changed the item, GET still carried ETag ${before.etag}, expected a new validator`, 'a new ETag', before.etag);
      }
    }
    if (changed === 0) throw new CheckSkipped('no configured write changed the item, so no change of its ETag can be asked for: give collections[].replace.body or patch.body values the create body does not have', 'collections[].replace.body');
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
  assumes: ['END-etag-stable'],
  async run(ctx, { writable }) {
    const item = await sharedItem(ctx, writable);
    const { res: ok, etag } = await tagged(ctx, item.url, 'GET', { shared: true });
    const otherStrength = isWeakTag(etag) ? etag.slice(2) : `W/${etag}`;
    // The ETag as sent first; the other strength last, named for what it tests (Rails and Rack match tags exactly).
    const probes: [string, string][] = [[etag, ''], [`${staleTag}, ${etag}`, ' (the ETag in a list)'], [otherStrength, ` (the ETag ${etag} in its other strength, which the weak comparison If-None-Match uses matches, RFC 9110 §13.1.2)`]];
    for (const [tag, what] of probes) {
      const res = await ctx.http.send({ method: 'GET', url: item.url, headers: { 'if-none-match': tag } });
      expectStatus(res, 304, `GET with If-None-Match: ${tag}${what}`);
      // The 304's ETag by weak comparison (nginx's gzip weakens the 200's and leaves the 304's be, §8.8.1), its Vary as a set of fields.
      const same = (h: string): boolean => (h === 'etag' ? weakMatch(res.headers[h], ok.headers[h]!) : sameVaryFields(res.headers[h], ok.headers[h]!));
      const missing = [
        ...notModifiedSame.filter((h) => ok.headers[h] !== undefined && !same(h)),
        ...notModifiedPresent.filter((h) => ok.headers[h] !== undefined && res.headers[h] === undefined),
      ];
      if (res.headers['etag'] !== undefined && res.headers['etag'] !== etag && weakMatch(res.headers['etag'], etag)) ctx.note(`${describe(res)} carries ETag ${res.headers['etag']} where the 200 carried ${etag}: the same tag in another strength (a proxy that compresses weakens the 200's)`);
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
    const item = await sharedItem(ctx, writable);
    const { etag } = await tagged(ctx, item.url, 'GET', { shared: true });
    const notModified = await sendExpectingNoContent(ctx, { method: 'GET', url: item.url, headers: { 'if-none-match': etag } }, { method: 'GET', url: item.url });
    if (notModified.res.status !== 304) throw new CheckSkipped(`no 304 to observe: If-None-Match got ${notModified.res.status} (see END-if-none-match-304)`);
    expectNoContent(notModified, 'the 304');
  },
});

/** 412 for each write, and the item after them as it was before. */
function expectRefusedUnchanged({ which, sent, before, after }: RefusedWrites, c: WritableCollection): void {
  for (const res of sent) expectStatus(res, 412, `${res.method} with If-Match naming ${which}`);
  const methods = sent.map((res) => res.method).join(' and ');
  const current = expectJsonObject(before, `GET before ${methods} with If-Match`);
  expectStatus(after, 200, `GET after a refused ${methods}`);
  const diff = diffRepresentations(current, expectJsonObject(after), c.volatileFields);
  ensure(diff.length === 0, `${methods} with If-Match naming ${which} answered 412 but the item changed (${diff.join('; ')}), expected it unchanged`, brief(current), brief(after.json));
}

/**
 * Judges one check's writes of the shared sequence: those with the never-issued tag, then,
 * once a configured write made the ETag stale (each judged as it goes), those with the previous one.
 */
async function expectStaleRefused(ctx: CheckContext, u: WritableCollection, pick: (s: StaleIfMatch) => readonly RefusedWrites[]): Promise<void> {
  const sequence = await staleIfMatch(ctx, u);
  const created = taggedAnswer(sequence.created, 'GET before a write');
  const [neverIssued, previous] = pick(sequence);
  expectRefusedUnchanged(answered(sequence, neverIssued), u);
  // The configured writes in turn, until one changes the ETag (a replace body that repeats the create body's values may not).
  for (const { write, after } of sequence.staleMaking) {
    expectStatus(write, [200, 204], `${write.method} that makes the ETag stale`);
    if (taggedAnswer(after, `GET after ${write.method}`).etag === created.etag) continue;
    expectRefusedUnchanged(answered(sequence, previous), u);
    return;
  }
  if (sequence.failure !== undefined) throw sequence.failure;
  ctx.note(`no configured write changed the ETag ${created.etag}, so the previous ETag was not sent (END-etag-changes-on-write judges whether it should have changed)`);
}

export const ifMatch412 = defineCheck({
  id: 'END-if-match-412',
  title: 'PUT and PATCH with a stale If-Match answer 412 and change nothing',
  rule: 'PUT or PATCH with an `If-Match` that does not match the current ETag (one never issued, or the item\'s previous one) MUST answer 412 and MUST NOT apply the change.',
  severity: 'must',
  needs: ['updatable'],
  dependsOn: ['END-etag-present', 'END-etag-changes-on-write'],
  assumes: ['END-safe-methods-no-change'],
  run: (ctx, { updatable }) => expectStaleRefused(ctx, updatable, (s) => s.updates),
});

export const ifMatchDelete412 = defineCheck({
  id: 'END-if-match-delete-412',
  title: 'DELETE with a stale If-Match answers 412 and deletes nothing',
  rule: 'DELETE with an `If-Match` that does not match the current ETag MUST answer 412 and leave the item in place (the conventions name If-Match for PUT and PATCH; RFC 9110 §13.1.1 applies it to every method).',
  severity: 'must',
  needs: ['updatable'],
  dependsOn: ['END-etag-present', 'END-etag-changes-on-write'],
  assumes: ['END-safe-methods-no-change'],
  run: (ctx, { updatable }) => expectStaleRefused(ctx, updatable, (s) => s.deletes),
});

export const ifMatchApplies = defineCheck({
  id: 'END-if-match-applies',
  title: 'If-Match with the current ETag applies the write',
  rule: 'PUT, PATCH or DELETE with an `If-Match` naming the current ETag (or `*`) MUST be applied.',
  severity: 'must',
  needs: ['updatable'],
  assumes: ['END-etag-stable'],
  async run(ctx, { updatable }) {
    const item = await ctx.create(updatable);
    let { etag } = await tagged(ctx, item.url, 'GET');
    const writes = updateWrites(item);
    const [star] = writes;
    const withStar = async () => expectStatus(await ctx.http.send({ ...star, headers: { 'if-match': '*' } }), [200, 204], `${star.method} with If-Match: *`);
    // If-Match compares strongly (RFC 9110 §13.1.1): a weak tag never matches, rightly. `*`
    // matches any current representation, weak tag or not (Express's and NestJS's are weak).
    if (isWeakTag(etag)) {
      await withStar();
      ctx.note(`the item's ETag ${etag} is weak, which If-Match can never match: only If-Match: * was judged`);
      return;
    }
    for (const [i, spec] of writes.entries()) {
      // The first write takes the tag just read; each later one the tag the write before it made.
      if (i > 0) ({ etag } = await tagged(ctx, item.url, `GET before ${spec.method}`));
      expectStatus(await ctx.http.send({ ...spec, headers: { 'if-match': etag } }), [200, 204], `${spec.method} with If-Match: ${etag}`);
    }
    await withStar();
    ({ etag } = await tagged(ctx, item.url, 'GET before DELETE'));
    expectStatus(await ctx.http.send({ method: 'DELETE', url: item.url, headers: { 'if-match': etag } }), [200, 204], `DELETE with If-Match: ${etag}`);
  },
});

export const varyAccept = defineCheck({
  id: 'END-vary-accept',
  title: 'Responses whose representation Accept chooses say so in Vary',
  rule: 'Where the request\'s `Accept` chooses between representations (another media type gets a 2xx in it), each such response MUST carry `Vary` naming Accept (conventions §4, conditional and cache headers; RFC 9110 §12.5.5); a 406 for a type the API does not serve chooses none, since the origin may also disregard Accept (RFC 9110 §12.5.1).',
  severity: 'must',
  needs: ['collection'],
  async run(ctx, { collection }) {
    const ok = await sharedGet(ctx, { path: collection.path });
    expectStatus(ok, 200, `GET ${collection.path}`);
    // problem+json is no representation of the listing: a JSON writer that takes application/*+json
    // (ASP.NET Core MVC, Spring 5) serves it for the probe's own problem+json fallback.
    const variant = (res: HttpResponse): boolean => res.status >= 200 && res.status < 300 && res.mediaType !== ok.mediaType && res.mediaType !== 'application/problem+json';
    const refused = await errorProbes.unsupportedAccept(ctx, collection);
    const other = variant(refused) ? refused : await ctx.http.send({ method: 'GET', path: collection.path, headers: { accept: otherFormatsAccept } });
    if (!variant(other)) {
      const problemJson = [refused, other].some((res) => res.status >= 200 && res.status < 300 && res.mediaType === 'application/problem+json');
      ctx.note(`${describe(refused)} and ${describe(other)}: Accept chooses no other representation here${problemJson ? ' (the listing labelled problem+json, for the probe that admits it, is no representation of it and is not judged)' : ''}, so Vary is not required`);
      return;
    }
    for (const res of [ok, other]) {
      if (!varyFields(res.headers['vary']).some((f) => f === 'accept' || f === '*')) {
        throw new CheckFailure(
          `${describe(res)} carries Vary ${JSON.stringify(res.headers['vary'] ?? null)} although Accept chooses between ${ok.mediaType} and ${other.mediaType} here, expected Vary to name Accept`,
          'Vary: Accept',
          res.headers['vary'] ?? 'none',
          res.exchangeIndex,
        );
      }
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
  ifMatchDelete412,
  ifMatchApplies,
  varyAccept,
];
