/**
 * A config written by hand names no volatile fields, and the API bumps `updated_at` on every
 * write (Rails, Django auto_now, Sequelize, Prisma @updatedAt): the default volatile fields
 * take it for the server's own, so the update checks judge the fields the client sent.
 * Declared `[]`, every field is compared, and the same API fails them.
 */
import { describe, expect, it } from 'vitest';
import { collectionProfile } from '../src/config/sections/collections/load.js';
import type { RawCollection } from '../src/config/raw-config.js';
import type { TargetProfile } from '../src/model/profile.js';
import { jsonOf, withJson, type Rewrites } from './support/rewriting-proxy.js';
import { startVariant } from './support/target.js';
import { verdictsOf } from './support/verdicts.js';

/** Every item shown with the time of the answer as its updated_at: a write always moves it. */
const bumpsUpdatedAt: Rewrites = {
  response: (res, req) => {
    const body = jsonOf(res);
    const stamp = (item: unknown) => (typeof item === 'object' && item !== null && 'id' in item ? { ...item, updated_at: new Date(Date.now() + Math.random() * 1000).toISOString() } : item);
    if (!/^\/v2\/(projects|members)\/[^/]+$/.test(new URL(req.path, 'http://x').pathname) || typeof body !== 'object' || body === null) return res;
    return withJson(res, stamp(body));
  },
};

const ids = ['END-patch-keeps-unsent', 'END-update-returns-resource'] as const;

/** The reference config's collections as a hand-written config without volatileFields would load them, or with `[]`. */
const handWritten = (volatile: 'default' | 'none') => (p: TargetProfile): TargetProfile => ({
  ...p,
  collections: p.collections.map((c) => {
    const raw: RawCollection = { name: c.name, path: c.path, ...(c.createBody && { create: { body: c.createBody } }), ...(c.replaceBody && { replace: { body: c.replaceBody } }), ...(c.patchBody && { patch: { body: c.patchBody } }) };
    const loaded = collectionProfile(raw);
    return { ...c, volatileFields: volatile === 'none' ? [] : loaded.volatileFields, ...(volatile === 'default' && loaded.volatileByDefault && { volatileByDefault: true as const }) };
  }),
});

describe('the default volatile fields', () => {
  it('take an updated_at a write moves for the server\'s own: the update checks pass', async () => {
    const got = await verdictsOf(startVariant(bumpsUpdatedAt), ids, handWritten('default'));
    expect(got.verdicts, got.explain).toEqual({ 'END-patch-keeps-unsent': 'pass', 'END-update-returns-resource': 'pass' });
  });

  it('declared [], compare it too: the same API fails', async () => {
    const got = await verdictsOf(startVariant(bumpsUpdatedAt), ids, handWritten('none'));
    expect(got.verdicts['END-patch-keeps-unsent'], got.explain).toBe('fail');
  });

  it('are not ignored across a call that must change nothing: a GET that bumps version still fails END-safe-methods-no-change', async () => {
    // Every GET of an item counts itself into the item's version, as a read that writes would.
    const reads = new Map<string, number>();
    const readsBumpVersion: Rewrites = {
      response: (res, req) => {
        const path = new URL(req.path, 'http://x').pathname;
        const body = jsonOf(res);
        if (req.method !== 'GET' || !/^\/v2\/(projects|members)\/[^/]+$/.test(path) || typeof body !== 'object' || body === null) return res;
        reads.set(path, (reads.get(path) ?? 0) + 1);
        return withJson(res, { ...body, version: reads.get(path) });
      },
    };
    const got = await verdictsOf(startVariant(readsBumpVersion), ['END-safe-methods-no-change'], handWritten('default'));
    expect(got.verdicts['END-safe-methods-no-change'], got.explain).toBe('fail');
    expect(got.explain).toMatch(/version: \d+ → \d+/);
  });
});
