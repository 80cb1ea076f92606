/**
 * The walk checks on listings built as frameworks build them: a filter that matches by
 * containment (django-filter's icontains, Sequelize's iLike '%v%'), a raw one-character id as
 * the cursor on a fresh database.
 */
import { describe, expect, it } from 'vitest';
import type { TargetProfile } from '../src/model/profile.js';
import { jsonOf, pathOf, queryOf, withJson, type Rewrites } from './support/rewriting-proxy.js';
import { startVariant } from './support/target.js';
import { verdictsOf } from './support/verdicts.js';
import { tamperings } from '../suites/04-endpoints/pagination.js';

/** `?name=` on projects matches every name that contains the value, in any case. */
const containsName: Rewrites = {
  request: (req) => {
    const query = queryOf(req);
    const name = query.get('name');
    if (req.method !== 'GET' || pathOf(req) !== '/v2/projects' || name === null) return req;
    query.delete('name');
    query.set('x-contains-name', name);
    return { ...req, path: `/v2/projects?${query}` };
  },
  response: (res, req) => {
    const wanted = queryOf(req).get('x-contains-name');
    if (wanted === null || res.status !== 200) return res;
    const page = jsonOf(res);
    return withJson(res, { ...page, data: (page.data as { name?: string }[]).filter((i) => String(i.name).toLowerCase().includes(wanted.toLowerCase())) });
  },
};

const byName = (p: TargetProfile): TargetProfile => ({ ...p, collections: p.collections.map((c) => (c.name === 'projects' ? { ...c, filters: [...c.filters, 'name'] } : c)) });

describe('END-filter-matches and a filter that matches by containment', () => {
  it('passes: the differing item it makes holds a value that does not contain the filtered one', async () => {
    const got = await verdictsOf(startVariant(containsName), ['END-filter-matches'], byName);
    expect(got.verdicts, got.explain).toEqual({ 'END-filter-matches': 'pass' });
  });
});

describe('the tampered cursors END-cursor-tamper-evident sends', () => {
  it('never include the cursor itself: a one-character cursor (a raw id on a fresh database) is not cut to itself', () => {
    expect(Object.keys(tamperings('7'))).toEqual(['one character changed', 'garbage appended']);
    expect(Object.values(tamperings('7'))).not.toContain('7');
    expect(Object.keys(tamperings('eyJpZCI6N30'))).toEqual(['one character changed', 'truncated', 'garbage appended']);
  });
});
