/** Registration holds the catalogue together: ids name their section, once each. */
import { describe, expect, it } from 'vitest';
import { defineCheck, defineSection } from './check.js';
import { needs, resolveNeeds, Unmet } from './needs.js';
import { configKeys } from './config-keys.js';
import { testProfile } from '../../test/support/profile.js';
import { thingsCollection } from '../../test/support/items-server.js';

const base = { title: 't', rule: 'The target MUST do the thing.', severity: 'must' as const, needs: [], run: async () => {} };

describe('defineCheck and defineSection', () => {
  it('takes the section from the id and fills in the defaults', () => {
    expect(defineCheck({ ...base, id: 'LIM-some-rule' })).toMatchObject({ section: 'LIM', schedule: 'parallel', dependsOn: [], uses: [] });
  });

  it('refuses an id that is not <PREFIX>-<kebab-slug>', () => {
    expect(() => defineCheck({ ...base, id: 'LIM-Some_Rule' })).toThrow(/not <PREFIX>-<kebab-slug>/);
  });

  it('refuses a check listed in another section, and an id listed twice', () => {
    const check = defineCheck({ ...base, id: 'LIM-some-rule' });
    expect(() => defineSection('ERR', [check])).toThrow(/section ERR lists checks of other sections: LIM-some-rule/);
    expect(() => defineSection('LIM', [check, check])).toThrow(/lists LIM-some-rule twice/);
  });
});

describe('needs', () => {
  it('every need names only known config keys', () => {
    for (const [name, need] of Object.entries(needs)) for (const key of need.keys) expect(configKeys, name).toContain(key);
  });

  it('an unmet need names the key that would meet it; a met one hands over its value', () => {
    const bare = testProfile('http://127.0.0.1:9');
    expect(resolveNeeds(['writable'], bare)).toEqual(new Unmet('no collection with a create body', 'collections[].create.body'));
    expect(resolveNeeds(['writable'], { ...bare, safety: { ...bare.safety, readOnly: true } })).toMatchObject({ configKey: 'safety.readOnly' });
    expect(resolveNeeds(['nodes'], bare)).toMatchObject({ configKey: 'nodes' });
    const things = { ...bare, collections: [thingsCollection()] };
    expect(resolveNeeds(['writable', 'credentials'], things)).toEqual({ writable: things.collections[0], credentials: bare.auth.apiKey });
    expect(resolveNeeds(['replaceable'], things)).toMatchObject({ configKey: 'collections[].replace.body' });
    expect(resolveNeeds(['cursorWalk'], things)).toMatchObject({ configKey: 'collections[].mark' });
  });
});

describe('collections[].methods', () => {
  const base = { ...testProfile('http://127.0.0.1:9'), collections: [{ ...thingsCollection(), replaceBody: { name: 'r' }, patchBody: { name: 'p' } }] };
  const only = (methods: readonly ('GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE')[]) => ({ ...base, collections: [{ ...base.collections[0]!, methods }] });

  it('creates nothing where it cannot DELETE it again, and nothing where it cannot POST', () => {
    expect(resolveNeeds(['writable'], only(['GET', 'POST', 'PUT', 'PATCH']))).toEqual(new Unmet('things takes no DELETE: restprobe would leave what it creates', 'collections[].methods'));
    expect(resolveNeeds(['writable'], only(['GET', 'DELETE']))).toMatchObject({ configKey: 'collections[].methods' });
  });

  it('takes no action and makes no sub-collection item in a collection it cannot DELETE from again', () => {
    const child = { name: 'parts', path: '/things/{id}/parts', itemPath: '/parts/{id}', idField: 'id', createBody: { n: 1 }, actions: ['completion'] };
    const acting = (methods: readonly ('GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE')[]) => ({ ...base, collections: [{ ...base.collections[0]!, methods, actions: ['restoration'], children: [child] }] });
    expect(resolveNeeds(['actions'], acting(['GET', 'POST', 'PUT', 'PATCH']))).toEqual(new Unmet('things names state-dependent actions but takes no DELETE: restprobe would leave what it creates', 'collections[].methods'));
    expect(resolveNeeds(['nested'], acting(['GET', 'POST']))).toEqual(new Unmet('things has sub-collections but takes no DELETE: restprobe would leave what it creates', 'collections[].methods'));
    expect(resolveNeeds(['actions'], acting(['GET', 'DELETE']))).toMatchObject({ configKey: 'collections[].methods' });
    // Where it may, the collection comes as the checks may write to it: no PUT body it does not take.
    const met = resolveNeeds(['actions'], acting(['GET', 'POST', 'PATCH', 'DELETE'])) as { actions: { collection: { replaceBody?: unknown }; child?: unknown; actions: string[] }[] };
    expect(met.actions.map((a) => [a.child === undefined ? 'own' : 'child', a.actions, a.collection.replaceBody])).toEqual([['own', ['restoration'], undefined], ['child', ['completion'], undefined]]);
  });

  it('sends no PUT or PATCH the collection does not take: their bodies vanish from what checks see', () => {
    const resolved = resolveNeeds(['writable', 'updatable'], only(['GET', 'POST', 'PATCH', 'DELETE'])) as Record<string, { replaceBody?: unknown; patchBody?: unknown }>;
    expect(resolved['writable']).toMatchObject({ replaceBody: undefined, patchBody: { name: 'p' } });
    expect(resolveNeeds(['replaceable'], only(['GET', 'POST', 'PATCH', 'DELETE']))).toEqual(new Unmet('things takes no PUT', 'collections[].methods'));
    expect(resolveNeeds(['clientIds'], only(['GET', 'POST', 'PATCH', 'DELETE']))).toEqual(new Unmet('things takes no PUT', 'collections[].methods'));
    expect(resolveNeeds(['updatable'], only(['GET', 'POST', 'DELETE']))).toEqual(new Unmet('things takes neither PUT nor PATCH', 'collections[].methods'));
  });
});
