/**
 * A DELETE answered 202 Accepted queues the deletion (a soft-delete job, an event-sourced
 * store): the item may be there a moment longer. END-delete-then-404 does not judge a GET
 * right after such an answer; END-delete-204 judges the 202 itself.
 */
import { describe, expect, it } from 'vitest';
import type { Rewrites } from './support/rewriting-proxy.js';
import { startVariant, type Variant } from './support/target.js';
import { verdictsOf } from './support/verdicts.js';

/** Answers an item's DELETE 202 and sends it upstream 300 ms later. */
function queuedDeletes(proxy: () => Variant['proxy']): Rewrites {
  return {
    request: (req) => {
      if (req.method !== 'DELETE' || !/^\/v2\/(projects|members)\/[^/]+$/.test(req.path)) return req;
      setTimeout(() => void proxy().upstream(req).catch(() => undefined), 300);
      return { status: 202, headers: { 'content-type': 'application/json' }, body: '{"status":"queued"}' };
    },
  };
}

describe('a DELETE answered 202 (queued)', () => {
  it('END-delete-then-404 skips, saying the item may be there until the deletion runs; END-delete-204 fails the 202', async () => {
    let variant: Variant | undefined;
    const start = startVariant(queuedDeletes(() => variant!.proxy)).then((v) => (variant = v));
    const got = await verdictsOf(start, ['END-delete-then-404', 'END-delete-204']);
    expect(got.verdicts, got.explain).toEqual({ 'END-delete-then-404': 'skip', 'END-delete-204': 'fail' });
    expect(got.explain).toMatch(/END-delete-then-404: skip DELETE \S+ → 202 .*: the deletion was accepted for later/);
  });
});
