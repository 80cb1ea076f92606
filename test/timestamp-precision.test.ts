/**
 * A store that keeps timestamps coarser than the create's answer showed them (a MySQL DATETIME
 * drops milliseconds: Sequelize's createdAt, sequelize#11798): the item read back is the one
 * created, at the store's precision. Another time is still another resource.
 */
import { describe, expect, it } from 'vitest';
import { jsonOf, withJson, type Rewrites } from './support/rewriting-proxy.js';
import { startVariant } from './support/target.js';
import { verdictsOf } from './support/verdicts.js';

/** Item reads show created_at without its fraction, or `shift`ed seconds later. */
const stored = (shift = 0): Rewrites => ({
  response: (res, req) => {
    const body = jsonOf(res);
    if (req.method !== 'GET' || !/^\/v2\/projects\/[^/?]+$/.test(req.path) || typeof body?.created_at !== 'string') return res;
    const at = new Date(Date.parse(body.created_at) + shift * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
    return withJson(res, { ...body, created_at: at });
  },
});

describe('END-post-location-resolves and a store of coarser timestamps', () => {
  it('takes created_at without its milliseconds for the same instant', async () => {
    const got = await verdictsOf(startVariant(stored()), ['END-post-location-resolves']);
    expect(got.verdicts, got.explain).toEqual({ 'END-post-location-resolves': 'pass' });
  });

  it('still fails a created_at two seconds off', async () => {
    const got = await verdictsOf(startVariant(stored(2)), ['END-post-location-resolves']);
    expect(got.verdicts, got.explain).toEqual({ 'END-post-location-resolves': 'fail' });
  });
});
