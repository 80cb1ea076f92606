/** A check's plain waits: no request, only time, which the check's deadline can cut short. */
import type { CheckContext } from '../model/context.js';
import { pauseFor } from '../http/polite.js';

/**
 * Waits `ms`; the check's deadline (or the run's cancellation) ends the wait.
 *
 * @example
 * ```ts
 * await waitFor(ctx, 500); // a store that commits an idempotency key after it answers
 * ```
 */
export const waitFor = (ctx: CheckContext, ms: number): Promise<void> => pauseFor(ms, ctx.signal);
