import { describe, expect, it } from 'vitest';
import { needs, Unmet } from '../../../model/needs.js';
import { testProfile, thingsCollection } from '../../../../test/support/profile.js';
import type { CollectionProfile } from '../../../model/profile.js';

describe('sortableWalk', () => {
  const profileWith = (c: Partial<CollectionProfile>) => ({ ...testProfile('http://127.0.0.1:1'), collections: [{ ...thingsCollection, createBody: { name: 'thing', title: 'a thing' }, ...c }] });

  it('never sorts by the mark field: every item of a walk set shares the mark, which would stand in for each item\'s own value', () => {
    expect(needs.sortableWalk.resolve(profileWith({ markField: 'name', filters: ['name'], sorts: ['name'] }), {})).toBeInstanceOf(Unmet);
    expect(needs.sortableWalk.resolve(profileWith({ markField: 'name', filters: ['name'], sorts: ['name', 'title'] }), {})).toMatchObject({ sortField: 'title' });
    expect(needs.sortableWalk.resolve(profileWith({ sorts: ['name'] }), {})).toMatchObject({ sortField: 'name' });
  });
});
