import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareShapes, compareSnapshots, isDataKey, memberPath, parentPath, shapeOf, type ShapeSnapshot } from './shapes.js';

/** JSON objects with at least one member, as a response body is. */
const jsonObject = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue(), { minKeys: 1, maxKeys: 6 });

/** The same value with every string, number and boolean replaced by another of its type. */
function revalue(v: unknown, salt: number): unknown {
  if (typeof v === 'string') return `${v}-${salt}`;
  if (typeof v === 'number') return v + salt;
  if (typeof v === 'boolean') return salt % 2 === 0 ? v : !v;
  if (Array.isArray(v)) return v.map((x) => revalue(x, salt));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, revalue(x, salt)]));
  return v;
}

describe('shapeOf', () => {
  it('keeps field paths and JSON types, merges array elements, and marks members some elements lack', () => {
    expect(shapeOf({ data: [{ id: 'a', n: 1 }, { id: 'b', note: null }], next_cursor: null })).toEqual({
      $: { types: ['object'] },
      '$.data': { types: ['array'] },
      '$.data[]': { types: ['object'] },
      '$.data[].id': { types: ['string'] },
      '$.data[].n': { types: ['number'], optional: true },
      '$.data[].note': { types: ['null'], optional: true },
      '$.next_cursor': { types: ['null'] },
    });
    expect(shapeOf({ 'odd.name': [[1, 'x']] })).toEqual({ $: { types: ['object'] }, '$["odd.name"]': { types: ['array'] }, '$["odd.name"][]': { types: ['array'] }, '$["odd.name"][][]': { types: ['number', 'string'] } });
  });

  it('ignores values: ids, names and counts of the same types give the same shape', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.integer({ min: 1, max: 1000 }), (v, salt) => {
      expect(shapeOf(revalue(v, salt))).toEqual(shapeOf(v));
    }));
  });

  it('names parents the way it names members', () => {
    fc.assert(fc.property(fc.string(), (name) => {
      expect(parentPath(memberPath('$.a[]', name))).toBe('$.a[]');
    }));
    expect(parentPath('$')).toBeUndefined();
    expect(parentPath('$.data[]')).toBe('$.data');
  });
});

describe('compareShapes (§9.4)', () => {
  it('lets a link come and go with the item\'s state (the server decides which actions are open), but not _links itself', () => {
    const archived = shapeOf({ id: 'a', _links: { self: '/p/a', restoration: '/p/a/restoration' } });
    const active = shapeOf({ id: 'a', _links: { self: '/p/a' } });
    expect(compareShapes(archived, active).breaking).toEqual([]);
    expect(compareShapes(archived, shapeOf({ id: 'a' })).breaking).toEqual(['$._links: removed (was object)']);
    expect(compareShapes(archived, shapeOf({ id: 'a', _links: { self: 1 } })).breaking).toEqual(['$._links.self: was string, is now number']);
  });

  it('finds nothing between a shape and itself', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => {
      expect(compareShapes(shapeOf(v), shapeOf(v))).toEqual({ breaking: [], safe: [], unobserved: [] });
    }));
  });

  it('never calls an added field breaking, and lists it as safe', () => {
    fc.assert(
      fc.property(jsonObject, fc.jsonValue(), (o, value) => {
        const name = 'restprobe_added';
        const changes = compareShapes(shapeOf(o), shapeOf({ ...o, [name]: value }));
        expect(changes.breaking).toEqual([]);
        expect(changes.safe[0]).toMatch(/^\$\.restprobe_added: added/);
      }),
    );
  });

  it('always calls a removed field breaking (one not named like a value: see isDataKey)', () => {
    fc.assert(
      fc.property(jsonObject, (o) => {
        const [name] = Object.keys(o);
        fc.pre(!isDataKey(memberPath('$', name!)));
        const { [name!]: _gone, ...rest } = o;
        expect(compareShapes(shapeOf(o), shapeOf(rest)).breaking).toContain(`${memberPath('$', name!)}: removed (was ${shapeOf(o)[memberPath('$', name!)]!.types.join(' or ')})`);
      }),
    );
  });

  it('calls a changed type breaking once, not again for what lay under it', () => {
    expect(compareShapes(shapeOf({ id: 'a7', owner: { name: 'x' } }), shapeOf({ id: 7, owner: 'x' })).breaking).toEqual(['$.id: was string, is now number', '$.owner: was object, is now string']);
    // Deep in arrays of arrays too.
    const nested = (n: unknown) => ({ data: [{ steps: [{ checks: [{ n }] }] }] });
    expect(compareShapes(shapeOf(nested(1)), shapeOf(nested('1'))).breaking).toEqual(['$.data[].steps[].checks[].n: was number, is now string']);
  });

  it("judges the types of a listing's items' own fields, and only notes those inside a field: other items may hold free-form data there (a JSONField, a dict[str, Any])", () => {
    const listing = (item: unknown): ShapeSnapshot => ({ probes: { list: { request: 'GET /v2/things', status: 200, body: shapeOf({ data: [item] }) } } });
    const read = (item: unknown): ShapeSnapshot => ({ probes: { 'listed item': { request: 'GET /v2/things/{id}', status: 200, body: shapeOf(item) } } });
    for (const probe of [listing, read]) {
      const freeForm = compareSnapshots(probe({ id: 'a', attributes: { size: 3 } }), probe({ id: 'b', attributes: { size: 'L' } }));
      expect(freeForm.breaking).toEqual([]);
      expect(freeForm.unobserved).toEqual([expect.stringMatching(/attributes\.size: was number in the items read then, is string in those read now; inside a field of items that are not the baseline's, it may be free-form data/)]);
      expect(compareSnapshots(probe({ id: 'a', attributes: {} }), probe({ id: 7, attributes: {} })).breaking).toEqual([expect.stringMatching(/\.id: was string, is now number$/)]);
    }
    // The run's own item is the same every run: inside its fields too, a changed type is breaking.
    const created = (item: unknown): ShapeSnapshot => ({ probes: { item: { request: 'GET /v2/things/{id}', status: 200, body: shapeOf(item) } } });
    expect(compareSnapshots(created({ id: 'a', attributes: { size: 3 } }), created({ id: 'b', attributes: { size: 'L' } })).breaking).toEqual(['GET /v2/things/{id} (item) $.attributes.size: was number, is now string']);
  });

  it('takes null as saying nothing about a type, an empty array as showing no elements, and an optional member as allowed to go', () => {
    expect(compareShapes(shapeOf({ note: 'x' }), shapeOf({ note: null })).breaking).toEqual([]);
    expect(compareShapes(shapeOf({ note: null }), shapeOf({ note: 3 })).breaking).toEqual([]);
    expect(compareShapes(shapeOf({ data: [{ id: 'a' }] }), shapeOf({ data: [] }))).toEqual({ breaking: [], safe: [], unobserved: ['$.data[]: no elements now, so their shape was not seen'] });
    expect(compareShapes(shapeOf({ data: [{ id: 'a', done_at: 'x' }, { id: 'b' }] }), shapeOf({ data: [{ id: 'c' }] })).breaking).toEqual([]);
  });
});

describe('compareSnapshots', () => {
  const snapshot = (status: number, body: unknown): ShapeSnapshot => ({ version: '2', probes: { 'missing item': { request: 'GET /v2/projects/{id}', status, ...(body !== undefined && { body: shapeOf(body) }) } } });
  const problem = { type: 'about:blank', title: 'Not Found', status: 404, detail: 'No project.' };

  it('calls another status code, or an error body that lost a member, breaking', () => {
    expect(compareSnapshots(snapshot(404, problem), snapshot(400, problem)).breaking).toEqual(['GET /v2/projects/{id} (missing item) answered 404, now 400']);
    const { type: _type, ...untyped } = problem;
    expect(compareSnapshots(snapshot(404, problem), snapshot(404, untyped)).breaking).toEqual(['GET /v2/projects/{id} (missing item) $.type: removed (was string)']);
    expect(compareSnapshots(snapshot(404, problem), snapshot(404, undefined)).breaking).toEqual(['GET /v2/projects/{id} (missing item): a JSON body then, none now']);
  });

  it('lists a probe the baseline had and this run did not send as unobserved', () => {
    expect(compareSnapshots(snapshot(404, problem), { probes: {} })).toEqual({ breaking: [], safe: [], unobserved: ['GET /v2/projects/{id} (missing item): not sent this run'] });
  });

  it('notes, and does not call removed, a field missing from stored items the run read: they are other items than the baseline\'s', () => {
    const listing = (items: unknown[]): ShapeSnapshot => ({ probes: { list: { request: 'GET /v2/tasks', status: 200, body: shapeOf({ data: items, next_cursor: null }) } } });
    // Every task listed then was completed (completed_at set); none is now, and the API leaves out empty fields.
    const changes = compareSnapshots(listing([{ id: 'a', completed_at: 'x' }]), listing([{ id: 'b' }, { id: 'c' }]));
    expect(changes.breaking).toEqual([]);
    expect(changes.unobserved).toEqual([`GET /v2/tasks (list) $.data[].completed_at: in none of the items read now (was string); they are not the baseline's items, and a field left out when empty looks the same`]);
    // The listing's own members, and the types of fields seen in both, are still judged.
    expect(compareSnapshots(listing([{ id: 'a' }]), { probes: { list: { request: 'GET /v2/tasks', status: 200, body: shapeOf({ data: [{ id: 7 }] }) } } }).breaking).toEqual(['GET /v2/tasks (list) $.data[].id: was string, is now number', 'GET /v2/tasks (list) $.next_cursor: removed (was null)']);
    const read = (item: unknown): ShapeSnapshot => ({ probes: { 'listed item': { request: 'GET /v2/tasks/{id}', status: 200, body: shapeOf(item) } } });
    expect(compareSnapshots(read({ id: 'a', kind: 'bug', severity: 'high' }), read({ id: 'b', kind: 'chore' })).breaking).toEqual([]);
    // The item the run created answers alike in every run: there a missing field is removed.
    const created = (item: unknown): ShapeSnapshot => ({ probes: { item: { request: 'GET /v2/tasks/{id}', status: 200, body: shapeOf(item) } } });
    expect(compareSnapshots(created({ id: 'a', completed_at: null }), created({ id: 'b' })).breaking).toEqual(['GET /v2/tasks/{id} (item) $.completed_at: removed (was null)']);
  });

  it('takes members named like values for the keys of a map keyed by data, whose keys differ between runs', () => {
    const usage = (days: Record<string, number>) => ({ probes: { item: { request: 'GET /v2/accounts/{id}', status: 200, body: shapeOf({ id: 'a', usage: days, roles: {} }) } } });
    const changes = compareSnapshots(usage({ '2026-11-21': 3 }), usage({ '2026-11-22': 5 }));
    expect(changes.breaking).toEqual([]);
    expect(changes.safe).toEqual([]);
    expect(changes.unobserved).toEqual(['GET /v2/accounts/{id} (item) $.usage["2026-11-21"]: not there now; named like a value (a number, a date, a UUID), it is taken for a key of a map keyed by data, not a field']);
    expect(['8f14e45f-ceea-467f-a0e6-4f2b7e1c9d3a', 'c9f0f895-fb98-4b91-99ef-5a1b2f6c0d4e', '42', '-1'].map((key) => isDataKey(memberPath('$.roles', key)))).toEqual([true, true, true, true]);
    expect(['$.id', '$.v2', '$["odd name"]', '$', '$.data[]'].map(isDataKey)).toEqual([false, false, false, false, false]);
    // A value's type under such a key is still judged.
    expect(compareSnapshots(usage({ '2026-11-21': 3 }), usage({ '2026-11-21': 'x' } as never)).breaking).toEqual(['GET /v2/accounts/{id} (item) $.usage["2026-11-21"]: was number, is now string']);
  });
});
