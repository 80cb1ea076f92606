/**
 * Whether a route needs credentials at all. On a public route (reads open, writes protected,
 * as §5 leaves open; `[AllowAnonymous]`, NestJS `@Public()`) a credential is ignored, good or
 * forged, so whether one is taken shows nothing there. The answer read is the run's shared
 * probe without credentials, which AUT-missing-credentials-401 judges.
 */
import { CheckSkipped } from '../model/check.js';
import type { CheckContext, HttpResponse } from '../model/context.js';
import type { CollectionProfile } from '../model/profile.js';
import { describe } from './expect.js';
import { errorProbes } from './probes.js';

/** The listing's answer to a request without credentials, and whether it served one (a 2xx). */
export async function withoutCredentials(ctx: CheckContext, collection: CollectionProfile): Promise<{ readonly res: HttpResponse; readonly open: boolean }> {
  const res = await errorProbes.withoutCredentials(ctx, collection);
  return { res, open: res.status >= 200 && res.status < 300 };
}

/**
 * Skips unless the collection's listing refuses a request without credentials; returns that refusal.
 *
 * @example
 * ```ts
 * const refusal = (await requireProtected(ctx, collection, 'whether a key in the URL is accepted')).status;
 * ```
 */
export async function requireProtected(ctx: CheckContext, collection: CollectionProfile, what: string): Promise<HttpResponse> {
  const { res, open } = await withoutCredentials(ctx, collection);
  if (open) throw new CheckSkipped(`${describe(res)} without credentials: ${collection.path} is public, so ${what} cannot be seen there`, 'collections');
  return res;
}
