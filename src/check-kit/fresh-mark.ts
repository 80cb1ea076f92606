/** A fresh mark for a body the check writes itself (as text, or to send twice alike). */
import type { CheckContext } from '../model/context.js';
import type { CollectionProfile } from '../model/profile.js';

/**
 * The collection's mark field with a fresh value, to spread into a create body; nothing
 * where the collection has no mark field. `ctx.sendCreating` marks a JSON body itself; a
 * body sent as text, or one sent twice alike, takes its mark from here, so that what a
 * lenient target made of it can be found by it after a run killed mid-create.
 *
 * @example
 * ```ts
 * const body = JSON.stringify({ ...c.createBody, ...freshMark(ctx, c) }); // {"name":"…","label":"restprobe-1a2b3c4d-5e6f7a8b"}
 * ```
 */
export function freshMark(ctx: CheckContext, c: CollectionProfile): Record<string, string> {
  return c.markField === undefined ? {} : { [c.markField]: ctx.newMark() };
}
