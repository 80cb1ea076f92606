/** §4 method contract: PUT and PATCH. */
import type { Check } from '../../src/model/check.js';
import { CheckSkipped } from '../../src/model/check.js';
import type { CheckContext, CreatedResource } from '../../src/model/context.js';
import type { CollectionProfile } from '../../src/model/profile.js';
import { describe, ensure, expectJsonObject, expectStatus, brief } from '../../src/checks/expect.js';
import { deepEqual, diffRepresentations, pickFields } from '../../src/checks/compare.js';
import { itemPath, unknownId } from '../../src/checks/probes.js';

function replaceBody(c: CollectionProfile): Record<string, unknown> {
  if (!c.replaceBody) throw new CheckSkipped(`no replace body for ${c.name}`, 'collections[].replace.body');
  return c.replaceBody;
}

function patchBody(c: CollectionProfile): Record<string, unknown> {
  if (!c.patchBody) throw new CheckSkipped(`no patch body for ${c.name}`, 'collections[].patch.body');
  return c.patchBody;
}

/** GETs an item and returns its representation; fails unless 200 with an object. */
async function read(ctx: CheckContext, item: CreatedResource, what: string): Promise<Record<string, unknown>> {
  const res = await ctx.http.send({ method: 'GET', url: item.url });
  expectStatus(res, 200, what);
  return expectJsonObject(res, what);
}

/** Fields of `expected` whose value differs in `actual`, as `field: want → got`. */
function mismatches(expected: Record<string, unknown>, actual: Record<string, unknown>): string[] {
  return Object.keys(expected).filter((k) => !deepEqual(expected[k], actual[k])).map((k) => `${k}: ${brief(expected[k], 40)} → ${brief(actual[k], 40)}`);
}

export const updateReturnsResource: Check = {
  id: 'END-update-returns-resource',
  section: 'END',
  title: 'An update returns the updated resource',
  rule: 'A PUT answered 200 and a PATCH MUST return the updated resource, holding the values just written.',
  severity: 'must',
  requires: ['write'],
  async run(ctx) {
    const collection = ctx.writableCollection();
    if (!collection.replaceBody && !collection.patchBody) throw new CheckSkipped('no replace or patch body', 'collections[].replace.body');
    const item = await ctx.create(collection);
    for (const [method, body] of [['PUT', collection.replaceBody], ['PATCH', collection.patchBody]] as const) {
      if (!body) continue;
      const res = await ctx.http.send({ method, url: item.url, json: body });
      expectStatus(res, method === 'PUT' ? [200, 204] : 200, method);
      if (res.status === 204) {
        ctx.note('PUT answered 204: no representation to compare');
        continue;
      }
      const off = mismatches(body, expectJsonObject(res, method));
      ensure(off.length === 0, `${describe(res)} returned values other than those written (${off.join('; ')}), expected the updated resource`, brief(body), brief(res.json));
    }
  },
};

export const putReplaces: Check = {
  id: 'END-put-replaces',
  section: 'END',
  title: 'PUT replaces the whole resource',
  rule: 'PUT MUST replace the resource: fields the body omits are reset or removed.',
  severity: 'must',
  requires: ['write'],
  async run(ctx) {
    const collection = ctx.writableCollection();
    const replacement = replaceBody(collection);
    const created = collection.createBody ?? {};
    const omitted = Object.keys(created).filter((k) => !(k in replacement) && k !== collection.idField);
    if (omitted.length === 0) throw new CheckSkipped('replace.body names every field of create.body: nothing to observe', 'collections[].replace.body');
    const item = await ctx.create(collection);
    expectStatus(await ctx.http.send({ method: 'PUT', url: item.url, json: replacement }), [200, 204], 'PUT');
    const after = await read(ctx, item, 'GET after PUT');
    const kept = omitted.filter((k) => deepEqual(after[k], created[k])).map((k) => `${k} still ${brief(after[k], 40)}`);
    ensure(kept.length === 0, `after a PUT that omitted them, fields kept their values (${kept.join('; ')}), expected them reset or removed`, 'omitted fields reset', kept.join('; '));
    const off = mismatches(replacement, after);
    ensure(off.length === 0, `after PUT the resource does not hold the new values (${off.join('; ')}), expected the replacement`, brief(replacement), brief(after));
  },
};

export const putIdempotent: Check = {
  id: 'END-put-idempotent',
  section: 'END',
  title: 'PUT is idempotent',
  rule: 'PUT MUST be idempotent: the same PUT twice leaves the same state as once.',
  severity: 'must',
  requires: ['write'],
  async run(ctx) {
    const collection = ctx.writableCollection();
    const replacement = replaceBody(collection);
    const item = await ctx.create(collection);
    expectStatus(await ctx.http.send({ method: 'PUT', url: item.url, json: replacement }), [200, 204], 'first PUT');
    const once = await read(ctx, item, 'GET after the first PUT');
    expectStatus(await ctx.http.send({ method: 'PUT', url: item.url, json: replacement }), [200, 204], 'second PUT');
    const twice = await read(ctx, item, 'GET after the second PUT');
    const diff = diffRepresentations(once, twice, collection.volatileFields);
    ensure(diff.length === 0, `the same PUT sent twice changed the resource again (${diff.join('; ')}), expected the state after one PUT`, brief(once), brief(twice));
  },
};

export const putCreatesMissing: Check = {
  id: 'END-put-creates-missing',
  section: 'END',
  title: 'PUT creates a missing resource',
  rule: 'PUT to an id that does not exist MUST create the resource and answer 201 (RFC 9110 §9.3.4).',
  severity: 'must',
  requires: ['write'],
  async run(ctx) {
    const collection = ctx.writableCollection();
    if (collection.newId === 'none') throw new CheckSkipped('the client cannot make ids for this collection', 'collections[].newId');
    const url = ctx.http.url(itemPath(collection, unknownId()));
    ctx.track(url);
    const res = await ctx.http.send({ method: 'PUT', url, json: collection.createBody });
    expectStatus(res, 201, 'PUT to a missing id');
    const get = await ctx.http.send({ method: 'GET', url });
    expectStatus(get, 200, 'GET after PUT created it');
  },
};

export const patchKeepsUnsent: Check = {
  id: 'END-patch-keeps-unsent',
  section: 'END',
  title: 'PATCH keeps the fields it does not send',
  rule: 'PATCH MUST change only the fields sent: fields not sent are kept.',
  severity: 'must',
  requires: ['write'],
  async run(ctx) {
    const collection = ctx.writableCollection();
    const patch = patchBody(collection);
    const item = await ctx.create(collection);
    const before = await read(ctx, item, 'GET before PATCH');
    expectStatus(await ctx.http.send({ method: 'PATCH', url: item.url, json: patch }), 200, 'PATCH');
    const after = await read(ctx, item, 'GET after PATCH');
    const unsent = Object.fromEntries(Object.entries(before).filter(([k]) => !(k in patch)));
    const lost = diffRepresentations(unsent, pickFields(after, Object.keys(unsent)), collection.volatileFields);
    ensure(lost.length === 0, `PATCH changed fields it did not send (${lost.join('; ')}), expected them kept`, brief(unsent), brief(after));
    const off = mismatches(patch, after);
    ensure(off.length === 0, `after PATCH the sent fields do not hold the new values (${off.join('; ')})`, brief(patch), brief(after));
  },
};


export const updateChecks: readonly Check[] = [updateReturnsResource, putReplaces, putIdempotent, putCreatesMissing, patchKeepsUnsent];
