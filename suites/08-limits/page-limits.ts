/** §8.4: every collection has a `limit` with a maximum cap; an unbounded list is never returned. */
import type { Check } from '../../src/model/check.js';
import { CheckSkipped } from '../../src/model/check.js';
import type { CheckContext } from '../../src/model/context.js';
import type { CollectionProfile } from '../../src/model/profile.js';
import { describe, ensure, expectStatus } from '../../src/checks/expect.js';
import { anyWalkableCollection, createMarked, fetchPage, pagePath } from '../../src/checks/pagination.js';

/** Above this cap, filling a page past the maximum costs too many requests for a check. */
const maxItemsToCreate = 1000;

/** A walkable collection with a known maximum, filled with maxLimit + 1 marked items. */
async function filledPastMax(ctx: CheckContext): Promise<{ c: CollectionProfile & { markField: string }; max: number; filters: Readonly<Record<string, string>> }> {
  const c = anyWalkableCollection(ctx);
  const max = c.pagination.maxLimit;
  if (max === undefined) throw new CheckSkipped(`the maximum page size of ${c.name} is not configured`, 'collections[].pagination.maxLimit');
  if (max >= maxItemsToCreate) throw new CheckSkipped(`maxLimit ${max} would need more than ${maxItemsToCreate} items to observe`, 'collections[].pagination.maxLimit');
  const { filters } = await createMarked(ctx, c, max + 1);
  return { c, max, filters };
}

export const defaultPageBounded: Check = {
  id: 'LIM-default-page-bounded',
  section: 'LIM',
  title: 'A collection without limit answers a bounded page',
  rule: 'A collection MUST NOT return an unbounded list: without `limit`, a page MUST hold at most the maximum page size.',
  severity: 'must',
  requires: ['write'],
  async run(ctx) {
    const { c, max, filters } = await filledPastMax(ctx);
    const page = await fetchPage(ctx, c, { filters });
    ensure(page.items.length <= max, `${describe(page.res)}: ${page.items.length} items without a limit, expected at most the maximum ${max}`, `≤ ${max}`, String(page.items.length));
  },
};

export const limitCapped: Check = {
  id: 'LIM-limit-capped',
  section: 'LIM',
  title: 'A limit above the maximum is clamped or refused',
  rule: 'A `limit` above the maximum MUST be clamped to at most the maximum or refused with 400 or 422; a page never holds more items than the cap.',
  severity: 'must',
  requires: ['write'],
  async run(ctx) {
    const { c, max, filters } = await filledPastMax(ctx);
    const res = await ctx.http.send({ method: 'GET', path: pagePath(c, { limit: max + 1, filters }) });
    if (res.status === 400 || res.status === 422) return ctx.note(`limit=${max + 1} refused with ${res.status}`);
    const page = await fetchPage(ctx, c, { limit: max + 1, filters });
    ensure(page.items.length <= max, `${describe(page.res)}: ${page.items.length} items for limit=${max + 1}, expected at most the maximum ${max} (or 400/422)`, `≤ ${max}`, String(page.items.length));
  },
};

export const limitInvalid400: Check = {
  id: 'LIM-limit-invalid-400',
  section: 'LIM',
  title: 'Zero, negative and non-numeric limits are refused',
  rule: 'A `limit` that is zero, negative or not an integer MUST get 400 or 422.',
  severity: 'must',
  requires: ['collection'],
  async run(ctx) {
    const c = ctx.collection();
    for (const limit of ['0', '-1', 'abc', '1.5']) {
      const params = new URLSearchParams({ [c.pagination.limitParam]: limit });
      const res = await ctx.http.send({ method: 'GET', path: `${c.path}?${params}` });
      expectStatus(res, [400, 422], `limit=${limit}`);
    }
  },
};

export const pageLimitChecks: readonly Check[] = [defaultPageBounded, limitCapped, limitInvalid400];
