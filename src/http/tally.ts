/**
 * Requests sent, by whom: each check instance (its own requests, their retries, its raw and
 * dedicated connections, its cleanup) and, for what no check sent, the run. The report's
 * counts come from here, so they are the requests the target saw, not the exchanges a
 * check's evidence kept.
 */
import { isRestprobeError } from '../errors.js';
import type { Guard } from './guards.js';

export class RequestTally {
  private readonly counts = new Map<string, number>();

  /**
   * Counts each request `owner` sends. Innermost among the guards, so what an outer guard
   * refuses (a closed session, a read-only run) was never sent; neither is a request whose
   * signal was already aborted, nor one the budget refuses.
   *
   * @example
   * ```ts
   * const send = guard(client.send.bind(client), [politely(pacer, options, note), tally.guard('END-get-item-200 [projects]')]);
   * ```
   */
  guard(owner: string): Guard {
    return (next) => (req) => {
      if (req.signal?.aborted) return next(req);
      return next(req).then(
        (res) => {
          this.add(owner);
          return res;
        },
        (err: unknown) => {
          if (!isRestprobeError(err, 'ERR_REQUEST_BUDGET')) this.add(owner);
          throw err;
        },
      );
    };
  }

  /** Requests sent so far, by everyone. */
  get total(): number {
    let n = 0;
    for (const count of this.counts.values()) n += count;
    return n;
  }

  /** Requests `owner` sent so far. */
  of(owner: string): number {
    return this.counts.get(owner) ?? 0;
  }

  private add(owner: string): void {
    this.counts.set(owner, this.of(owner) + 1);
  }
}
