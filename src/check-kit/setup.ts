/**
 * Setup is not a verdict: when a fixture a check needs cannot be made (an item created, a
 * page walked, a token fetched), the check ends as `error` (ERR_SETUP), naming the
 * exchange, instead of blaming the target for the rule it was about to test.
 */
import { SetupFailure } from '../model/check.js';
import type { HttpResponse } from '../model/context.js';

/**
 * @example
 * ```ts
 * if (res.status !== 201) throw setupError(res, `creating a projects item failed: POST /v2/projects answered ${res.status}`);
 * ```
 */
export function setupError(res: HttpResponse, message: string, rootCause?: string): SetupFailure {
  return new SetupFailure(res, message, rootCause);
}
