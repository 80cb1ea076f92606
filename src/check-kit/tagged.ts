/** An item read for its validator: the conditional checks (§4) and the cross-node ETag check (§1) start from it. */
import type { CheckContext, HttpResponse } from '../model/context.js';
import { describe, ensure, expectHeader, expectStatus } from './expect.js';
import { isEntityTag } from './http-grammar.js';
import { sharedGet } from './probes.js';

/**
 * GETs the item and returns the response and its ETag; fails unless 200 with a valid ETag.
 * `shared`: the item is the run's {@link sharedItem}, which no check changes, so one GET of
 * it serves every check that reads its validator ({@link sharedGet}).
 *
 * @example
 * ```ts
 * const { etag } = await tagged(ctx, item.url, 'GET before the writes');
 * ```
 */
export async function tagged(ctx: CheckContext, url: string, what: string, { shared = false }: { readonly shared?: boolean } = {}): Promise<{ res: HttpResponse; etag: string }> {
  return taggedAnswer(shared ? await sharedGet(ctx, { url }) : await ctx.http.send({ method: 'GET', url }), what);
}

/**
 * {@link tagged} for a GET already answered (a shared one): the response and its ETag; fails
 * unless 200 with a valid ETag.
 *
 * @example
 * ```ts
 * const { etag } = taggedAnswer(sequence.before, 'GET before the PUT');
 * ```
 */
export function taggedAnswer(res: HttpResponse, what: string): { res: HttpResponse; etag: string } {
  expectStatus(res, 200, what);
  const etag = expectHeader(res, 'ETag', what);
  ensure(isEntityTag(etag), `${describe(res)}: ETag ${etag} is not an entity-tag, expected "opaque" or W/"opaque" (RFC 9110 §8.8.3)`, 'entity-tag', etag);
  return { res, etag };
}
