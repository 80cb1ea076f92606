/**
 * The run's request budget (`safety.maxRequests`): one hard cap shared by every client of
 * a run (preflight, checks, dedicated connections). Only cleanup may go past it, to delete
 * what the run created, and what it spent past the cap is counted for the report.
 */
import { RestprobeError } from '../errors.js';

export class RequestBudget {
  private spent = 0;
  private beyond = 0;

  constructor(readonly limit: number) {}

  /** Requests counted against the cap so far. */
  get sent(): number {
    return this.spent;
  }

  /** Cleanup requests sent after the cap was reached. */
  get cleanupBeyondCap(): number {
    return this.beyond;
  }

  /**
   * Counts one request, or throws ERR_REQUEST_BUDGET when the cap is reached.
   *
   * @example
   * ```ts
   * const budget = new RequestBudget(300);
   * budget.spend(); // throws once 300 requests were sent
   * ```
   */
  spend(purpose: 'probe' | 'cleanup' = 'probe'): void {
    if (this.spent < this.limit) {
      this.spent++;
      return;
    }
    if (purpose === 'cleanup') {
      this.beyond++;
      return;
    }
    throw new RestprobeError('ERR_REQUEST_BUDGET', `request budget spent: ${this.spent} requests sent, safety.maxRequests is ${this.limit}`);
  }
}
