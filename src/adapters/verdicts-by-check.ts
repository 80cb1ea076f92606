/**
 * The adapter's hand-over from the engine to vitest's tests: the engine reports verdicts
 * by instance as they end, in its own order; each test waits for all of its check's.
 */
import { instancesOf } from '../engine/instances.js';
import type { Check } from '../model/check.js';
import type { TargetProfile } from '../model/profile.js';
import type { CheckResult } from '../model/result.js';

interface Waiting {
  /** Instances still to end. */
  left: number;
  readonly results: CheckResult[];
  readonly settled: Promise<readonly CheckResult[]>;
  readonly resolve: (results: readonly CheckResult[]) => void;
  readonly reject: (err: unknown) => void;
}

/**
 * Verdicts collected per check id.
 *
 * @example
 * ```ts
 * const verdicts = new VerdictsByCheck(checks, profile);
 * void runChecks({ profile, checks, seed, onResult: (r) => verdicts.add(r) }).then(() => verdicts.end(), (e) => verdicts.end(e));
 * await verdicts.of('END-get-item-200'); // its results on every collection
 * ```
 */
export class VerdictsByCheck {
  readonly #byId = new Map<string, Waiting>();

  constructor(checks: readonly Check[], profile: TargetProfile) {
    const counts = new Map<string, number>();
    for (const i of instancesOf(checks, profile)) counts.set(i.check.id, (counts.get(i.check.id) ?? 0) + 1);
    for (const [id, left] of counts) {
      let resolve!: Waiting['resolve'];
      let reject!: Waiting['reject'];
      const settled = new Promise<readonly CheckResult[]>((res, rej) => ((resolve = res), (reject = rej)));
      // A test that never asks (vitest stopped early) must not leave an unhandled rejection.
      settled.catch(() => {});
      this.#byId.set(id, { left, results: [], settled, resolve, reject });
    }
  }

  /** One instance's verdict, as the engine reports it. */
  add(result: CheckResult): void {
    const waiting = this.#byId.get(result.id);
    if (waiting === undefined) return;
    waiting.results.push(result);
    if (--waiting.left === 0) waiting.resolve(waiting.results);
  }

  /** The run is over: every check gets what it has (or the run's error when it has nothing). */
  end(err?: unknown): void {
    for (const w of this.#byId.values()) {
      if (w.results.length > 0 || err === undefined) w.resolve(w.results);
      else w.reject(err);
    }
  }

  /** Every verdict of check `id` once all its instances ended (or the run did). */
  of(id: string): Promise<readonly CheckResult[]> {
    return this.#byId.get(id)?.settled ?? Promise.resolve([]);
  }
}
