/** §4 method contract: PUT and PATCH. */
import { CheckSkipped, defineCheck } from '../../src/model/check.js';
import type { HttpResponse } from '../../src/model/context.js';
import { describe, ensure, expectHeader, expectJsonObject, expectStatus, brief } from '../../src/check-kit/expect.js';
import { deepEqual, diffRepresentations, pickFields, valuesNotStored } from '../../src/check-kit/compare.js';
import { unknownItemPath } from '../../src/check-kit/probes.js';
import { isObject } from '../../src/model/json.js';
import { beforeOf, patchSequence, putSequence, stepOf, updateSequences } from '../../src/check-kit/update-sequences.js';

/** The representation a GET answered; fails unless 200 with an object. */
function shown(res: HttpResponse, what: string): Record<string, unknown> {
  expectStatus(res, 200, what);
  return expectJsonObject(res, what);
}

/** The representation without `_links`, which is optional and the server's to choose per answer. */
const withoutLinks = ({ _links: _, ...fields }: Record<string, unknown>): Record<string, unknown> => fields;

export const updateReturnsResource = defineCheck({
  id: 'END-update-returns-resource',
  title: 'An update returns the updated resource',
  rule: 'A PUT answered 200 and a PATCH MUST return the updated resource: its id and every field with the value a GET of it shows right after, not the input echoed back nor the state before.',
  severity: 'must',
  needs: ['updatable'],
  // The answer is compared with a GET: a GET that changes the resource is that check's finding.
  dependsOn: ['END-get-item-200'],
  assumes: ['END-safe-methods-no-change'],
  async run(ctx, { updatable: collection }) {
    const idField = collection.idField;
    for (const { method, sequence } of await updateSequences(ctx, collection)) {
      const step = stepOf(sequence, 0);
      const res = step.write;
      expectStatus(res, method === 'PUT' ? [200, 204] : 200, method);
      if (res.status === 204) {
        ctx.note('PUT answered 204: no representation to compare');
        continue;
      }
      const got = expectJsonObject(res, method);
      ensure(String(got[idField]) === sequence.item.id, `${describe(res)}: "${idField}" is ${brief(got[idField])}, expected ${JSON.stringify(sequence.item.id)}: the updated resource, not the input echoed back`, sequence.item.id, brief(got));
      // The resource as it is after the write: a PUT may rightly remove the fields it omitted (§4 rule 3).
      const after = withoutLinks(shown(step.after, `GET after ${method}`));
      const off = diffRepresentations(after, pickFields(got, Object.keys(after)), collection.volatileFields);
      ensure(off.length === 0, `${describe(res)} differs from the resource a GET shows right after it (GET → answer: ${off.join('; ')}), expected the updated resource`, brief(after), brief(got));
    }
  },
});

/** A value a reset may give a field: false, 0, null or empty. */
const resetLike = (v: unknown): boolean => v === null || v === false || v === 0 || v === '' || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);

export const putReplaces = defineCheck({
  id: 'END-put-replaces',
  title: 'PUT replaces the whole resource',
  rule: 'PUT MUST replace the resource: fields the body omits are reset or removed.',
  severity: 'must',
  needs: ['replaceable'],
  dependsOn: ['END-get-item-200'],
  async run(ctx, { replaceable: collection }) {
    const replacement = collection.replaceBody;
    const created = collection.createBody;
    const omitted = Object.keys(created).filter((k) => !(k in replacement) && k !== collection.idField);
    if (omitted.length === 0) throw new CheckSkipped('replace.body names every field of create.body: nothing to observe', 'collections[].replace.body');
    // A field created with the value a reset gives it (false, 0, empty: a todo's completed)
    // looks kept after a PUT that rightly reset it: only the others show a replacement.
    const judged = omitted.filter((k) => !resetLike(created[k]));
    if (judged.length === 0) throw new CheckSkipped(`every field replace.body omits (${omitted.join(', ')}) is created with a value a reset may give it (false, 0, empty), so a reset would not show: give create.body other values there`, 'collections[].create.body');
    if (judged.length < omitted.length) ctx.note(`not judged: ${omitted.filter((k) => !judged.includes(k)).join(', ')}, created with a value a reset may give it`);
    const put = await putSequence(ctx, collection);
    const { write, after: read } = stepOf(put, 0);
    expectStatus(write, [200, 204], 'PUT');
    const after = shown(read, 'GET after PUT');
    const kept = judged.filter((k) => deepEqual(after[k], created[k])).map((k) => `${k} still ${brief(after[k], 40)}`);
    // A read cache the PUT did not clear shows the item as it was before, every field: said, so the cache is not mistaken for a merge.
    const asBefore = put.before?.status === 200 && isObject(put.before.json) && diffRepresentations(put.before.json, after, collection.volatileFields).length === 0;
    const cached = asBefore ? '; the GET after the PUT showed the item exactly as the GET before it, as a read cache the PUT did not clear would' : '';
    ensure(kept.length === 0, `after a PUT that omitted them, fields kept their values (${kept.join('; ')})${cached}, expected them reset or removed (where a value is also the field's default, a model's "open", the reset gives it back: give create.body another value there)`, 'omitted fields reset', kept.join('; '));
    const off = valuesNotStored(replacement, after, (line) => ctx.note(line), collection.writeOnlyFields);
    ensure(off.length === 0, `after PUT the resource does not hold the new values (${off.join('; ')}), expected the replacement`, brief(replacement), brief(after));
  },
});

export const putIdempotent = defineCheck({
  id: 'END-put-idempotent',
  title: 'PUT is idempotent',
  rule: 'PUT MUST be idempotent: the same PUT twice leaves the same state as once.',
  severity: 'must',
  needs: ['replaceable'],
  dependsOn: ['END-get-item-200'],
  assumes: ['END-safe-methods-no-change'],
  async run(ctx, { replaceable: collection }) {
    const put = await putSequence(ctx, collection);
    const first = stepOf(put, 0);
    expectStatus(first.write, [200, 204], 'first PUT');
    const once = shown(first.after, 'GET after the first PUT');
    const second = stepOf(put, 1);
    expectStatus(second.write, [200, 204], 'second PUT');
    const twice = shown(second.after, 'GET after the second PUT');
    const diff = diffRepresentations(once, twice, collection.volatileFields);
    ensure(diff.length === 0, `the same PUT sent twice changed the resource again (${diff.join('; ')}), expected the state after one PUT`, brief(once), brief(twice));
  },
});

export const putCreatesMissing = defineCheck({
  id: 'END-put-creates-missing',
  title: 'PUT creates a missing resource: 201 with Location',
  rule: 'PUT to an id that does not exist MUST create the resource and answer 201 with `Location` (RFC 9110 §9.3.4 demands the 201, where the conventions\' PUT row says "200 or 204"; their status table gives a 201 its Location).',
  severity: 'must',
  needs: ['clientIds'],
  dependsOn: ['END-get-item-200'],
  async run(ctx, { clientIds: collection }) {
    const url = ctx.http.url(unknownItemPath(collection));
    // Registered before the PUT: a run stopped while it is in flight still lists it.
    ctx.track(url, { beforeCreate: true });
    const res = await ctx.http.send({ method: 'PUT', url, json: collection.createBody });
    expectStatus(res, 201, 'PUT to a missing id');
    expectHeader(res, 'Location', 'the 201 of a PUT that created the resource');
    const get = await ctx.http.send({ method: 'GET', url });
    expectStatus(get, 200, 'GET after PUT created it');
  },
});

export const patchKeepsUnsent = defineCheck({
  id: 'END-patch-keeps-unsent',
  title: 'PATCH keeps the fields it does not send',
  rule: 'PATCH MUST change only the fields sent: fields not sent are kept.',
  severity: 'must',
  needs: ['patchable'],
  dependsOn: ['END-get-item-200'],
  assumes: ['END-safe-methods-no-change'],
  async run(ctx, { patchable: collection }) {
    const patch = collection.patchBody;
    const patched = await patchSequence(ctx, collection);
    const before = shown(beforeOf(patched), 'GET before PATCH');
    const step = stepOf(patched, 0);
    // Its subject is what a GET shows after: a 204 where 200 is owed is END-update-returns-resource's finding.
    const res = step.write;
    expectStatus(res, [200, 204], 'PATCH');
    if (res.status === 204) ctx.note('PATCH answered 204 (the conventions ask 200 with the resource: END-update-returns-resource judges that)');
    const after = shown(step.after, 'GET after PATCH');
    // Links are the server's to compute from the new state (an action shown or not, §3): no field the PATCH left alone.
    const unsent = Object.fromEntries(Object.entries(withoutLinks(before)).filter(([k]) => !(k in patch)));
    const lost = diffRepresentations(unsent, pickFields(after, Object.keys(unsent)), collection.volatileFields);
    ensure(lost.length === 0, `PATCH changed fields it did not send (${lost.join('; ')}), expected them kept`, brief(unsent), brief(after));
    const off = valuesNotStored(patch, after, (line) => ctx.note(line), collection.writeOnlyFields);
    ensure(off.length === 0, `after PATCH the sent fields do not hold the new values (${off.join('; ')})`, brief(patch), brief(after));
  },
});


export const updateChecks = [updateReturnsResource, putReplaces, putIdempotent, putCreatesMissing, patchKeepsUnsent];
