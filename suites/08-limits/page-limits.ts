/** §8.4: every collection has a `limit` with a maximum cap; an unbounded list is never returned. */
import { defineCheck } from '../../src/model/check.js';
import type { CheckContext } from '../../src/model/context.js';
import { describe, ensure, expectStatus } from '../../src/check-kit/expect.js';
import type { CappedWalk } from '../../src/model/needs.js';
import { createMarked, fetchPage, pagePath } from '../../src/check-kit/pagination.js';

/** Fills a capped collection with maxLimit + 1 marked items. */
async function filledPastMax(ctx: CheckContext, c: CappedWalk): Promise<{ max: number; filters: Readonly<Record<string, string>> }> {
  const { filters } = await createMarked(ctx, c, c.maxLimit + 1);
  return { max: c.maxLimit, filters };
}

export const defaultPageBounded = defineCheck({
  id: 'LIM-default-page-bounded',
  title: 'A collection without limit answers a bounded page',
  rule: 'A collection MUST NOT return an unbounded list: without `limit`, a page MUST hold at most the maximum page size.',
  severity: 'must',
  needs: ['cappedWalk'],
  dependsOn: ['END-get-collection-200'],
  async run(ctx, { cappedWalk: c }) {
    const { max, filters } = await filledPastMax(ctx, c);
    const page = await fetchPage(ctx, c, { filters });
    ensure(page.items.length <= max, `${describe(page.res)}: ${page.items.length} items without a limit, expected at most the maximum ${max}`, `≤ ${max}`, String(page.items.length));
  },
});

export const limitCapped = defineCheck({
  id: 'LIM-limit-capped',
  title: 'A limit above the maximum is clamped or refused',
  rule: 'A `limit` above the maximum MUST be clamped to at most the maximum or refused with 400 or 422; a page never holds more items than the cap.',
  severity: 'must',
  needs: ['cappedWalk'],
  dependsOn: ['END-get-collection-200'],
  async run(ctx, { cappedWalk: c }) {
    const { max, filters } = await filledPastMax(ctx, c);
    const res = await ctx.http.send({ method: 'GET', path: pagePath(c, { limit: max + 1, filters }) });
    if (res.status === 400 || res.status === 422) return ctx.note(`limit=${max + 1} refused with ${res.status}`);
    const page = await fetchPage(ctx, c, { limit: max + 1, filters });
    ensure(page.items.length <= max, `${describe(page.res)}: ${page.items.length} items for limit=${max + 1}, expected at most the maximum ${max} (or 400/422)`, `≤ ${max}`, String(page.items.length));
  },
});

export const limitInvalid400 = defineCheck({
  id: 'LIM-limit-invalid-400',
  title: 'Zero, negative and non-numeric limits are refused',
  rule: 'A `limit` that is zero, negative or not an integer MUST get 400 or 422.',
  severity: 'must',
  needs: ['collection'],
  async run(ctx, { collection: c }) {
    for (const limit of ['0', '-1', 'abc', '1.5']) {
      const params = new URLSearchParams({ [c.pagination.limitParam]: limit });
      const res = await ctx.http.send({ method: 'GET', path: `${c.path}?${params}` });
      expectStatus(res, [400, 422], `limit=${limit}`);
    }
  },
});

export const pageLimitChecks = [defaultPageBounded, limitCapped, limitInvalid400];
