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

/** The projects listing as HAL: items in _embedded.projects, the next page's URL in _links.next.href, left out on the last page (Spring HATEOAS). */
const hal: Rewrites = {
  response: (res, req) => {
    if (req.method !== 'GET' || pathOf(req) !== '/v2/projects' || res.status !== 200) return res;
    const page = jsonOf(res) as { data: unknown[]; next_cursor: string | null };
    const next = page.next_cursor === null ? undefined : `/v2/projects?${new URLSearchParams({ ...Object.fromEntries(queryOf(req)), cursor: page.next_cursor })}`;
    return withJson(res, { _embedded: { projects: page.data }, _links: { self: { href: req.path }, ...(next && { next: { href: next } }) } });
  },
};
const halEnvelope = (p: TargetProfile): TargetProfile => ({ ...p, collections: p.collections.map((c) => (c.name === 'projects' ? { ...c, pagination: { ...c.pagination, envelope: { items: '/_embedded/projects', next: '/_links/next/href', nextIs: 'url' as const } } } : c)) });

describe('a configured envelope whose last page leaves its next member out (HAL, JSON:API)', () => {
  it('ends the walk there: the walk checks and the cursor checks pass (the page shape is END-pagination-terminates\' and END-get-collection-200\'s to fail, by the conventions)', async () => {
    const ids = ['END-pagination-complete-walk', 'END-filter-matches', 'END-sort-honoured', 'END-cursor-tamper-400'] as const;
    const got = await verdictsOf(startVariant(hal), ids, halEnvelope);
    expect(got.verdicts, got.explain).toEqual(Object.fromEntries(ids.map((id) => [id, 'pass'])));
  });
});

describe('END-cursor-tamper-400 and a string that is no cursor', () => {
  const answered = (items: 'none' | 'first page'): Rewrites => ({
    request: (req) => {
      const query = queryOf(req);
      if (req.method !== 'GET' || pathOf(req) !== '/v2/projects' || query.get('cursor') !== 'restprobe-not-a-cursor') return req;
      if (items === 'first page') {
        query.delete('cursor');
        return { ...req, path: `/v2/projects?${query}` };
      }
      return { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body: JSON.stringify({ data: [], next_cursor: null }) };
    },
  });

  it('passes an empty page for it (Prisma answers a cursor that names no record so), and fails the first page (the cursor ignored)', async () => {
    const empty = await verdictsOf(startVariant(answered('none')), ['END-cursor-tamper-400']);
    expect(empty.verdicts, empty.explain).toEqual({ 'END-cursor-tamper-400': 'pass' });
    const ignored = await verdictsOf(startVariant(answered('first page')), ['END-cursor-tamper-400']);
    expect(ignored.verdicts, ignored.explain).toEqual({ 'END-cursor-tamper-400': 'fail' });
    expect(ignored.explain).toMatch(/where a cursor that decodes to no position can get only a 4xx or an empty page/);
  });
});

describe('RES-nested-listing and a sub-collection listed without paging under a cursor-paged owner', () => {
  it('reads the items and judges whose they are', async () => {
    // The tasks of a project, all of them in data, no next_cursor (a small sub-collection nobody pages).
    const unpagedTasks: Rewrites = {
      response: (res, req) => {
        if (req.method !== 'GET' || !/^\/v2\/projects\/[^/]+\/tasks$/.test(pathOf(req)) || res.status !== 200) return res;
        const page = jsonOf(res) as { data: unknown[] };
        return withJson(res, { data: page.data });
      },
    };
    const got = await verdictsOf(startVariant(unpagedTasks), ['RES-nested-listing']);
    expect(got.verdicts, got.explain).toEqual({ 'RES-nested-listing': 'pass' });
  });
});
