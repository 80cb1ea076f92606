import { describe, expect, it } from 'vitest';
import { readEnvelope, readItems } from './page-envelope.js';
import type { PaginationProfile } from './profile.js';

const cursor: PaginationProfile = { style: 'cursor', param: 'cursor', limitParam: 'limit', offsetParam: 'offset', pageParam: 'page', firstPage: 1, sortParam: 'sort' };
const byUrl: PaginationProfile = { ...cursor, envelope: { items: '/results', next: '/next', nextIs: 'url' } };
const page = (json: unknown) => ({ json, text: JSON.stringify(json), url: 'http://api.test/v1/items/?limit=2' });

describe('readEnvelope', () => {
  it('reads the conventions\' page without a configured envelope, and says what is missing', () => {
    expect(readEnvelope(page({ data: [{ id: 1 }], next_cursor: 'c2' }), cursor)).toEqual({ items: [{ id: 1 }], nextCursor: 'c2' });
    expect(readEnvelope(page({ data: [{ id: 1 }] }), cursor)).toEqual({ found: '"next_cursor" is missing', expected: '"next_cursor" a string or null' });
    expect(readEnvelope(page([{ id: 1 }]), cursor)).toEqual({ found: 'the body is a JSON array', expected: 'a JSON object with a "data" array' });
  });

  it('takes the cursor from a next URL, absolute or relative, on any origin (it is read, never followed)', () => {
    expect(readEnvelope(page({ results: [], next: 'http://api.test/v1/items/?cursor=cD0y&limit=2' }), byUrl)).toEqual({ items: [], nextCursor: 'cD0y' });
    expect(readEnvelope(page({ results: [], next: '?cursor=cD0z' }), byUrl)).toEqual({ items: [], nextCursor: 'cD0z' });
    expect(readEnvelope(page({ results: [], next: null }), byUrl)).toEqual({ items: [], nextCursor: null });
    // A backend behind a TLS-terminating proxy names itself.
    expect(readEnvelope(page({ results: [], next: 'http://backend:8000/v1/items/?cursor=x' }), byUrl)).toEqual({ items: [], nextCursor: 'x' });
  });

  it('follows nested and escaped pointers; "" is the body itself', () => {
    const nested: PaginationProfile = { ...cursor, envelope: { items: '/page/a~1b', next: '/page/next', nextIs: 'cursor' } };
    expect(readEnvelope(page({ page: { 'a/b': [{ id: 1 }], next: null } }), nested)).toEqual({ items: [{ id: 1 }], nextCursor: null });
    expect(readItems(page([{ id: 1 }]), { items: '', next: '/next', nextIs: 'cursor' })).toEqual([{ id: 1 }]);
    expect(readItems(page({ results: [1] }), { items: '/results', next: '/next', nextIs: 'cursor' })).toEqual({ found: '"results" holds non-objects', expected: 'item representations in "results"' });
  });
});
