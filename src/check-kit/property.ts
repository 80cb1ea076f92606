/**
 * Property checks on fast-check: run, shrink, then replay the minimal counterexample
 * once more so the evidence holds exactly the exchanges of the failing case, with the
 * seed and path that reproduce it.
 */
import type { Arbitrary } from 'fast-check';
import { fastCheck } from './lazy-libraries.js';
import { CheckFailure } from '../model/check.js';
import type { CheckContext } from '../model/context.js';

export interface PropertyOptions<T> {
  readonly arbitrary: Arbitrary<T>;
  /** Throws CheckFailure when the target breaks the rule for this input. */
  readonly predicate: (input: T) => Promise<void>;
  /**
   * Random cases tried after the examples, unless `properties.numRuns` says how many: few
   * where each case costs many requests.
   */
  readonly randomCases: number;
  /** Describes an input for the failure message. */
  readonly show?: (input: T) => string;
  /** Inputs tried before the random ones, so known-bad cases never depend on luck. */
  readonly examples?: readonly T[];
  /**
   * How many smaller inputs shrinking may try, at most (each costs the predicate's requests);
   * unbounded when absent. The smallest failing input found by then is the counterexample.
   */
  readonly maxShrinks?: number;
}

/**
 * @example
 * ```ts
 * const fc = fastCheck();
 * await checkProperty(ctx, {
 *   arbitrary: fc.string(),
 *   randomCases: 5,
 *   predicate: async (s) => { const r = await ctx.http.send({ method: 'GET', path: `/x?q=${encodeURIComponent(s)}` }); expectStatus(r, [200, 400]); },
 * });
 * ```
 */
export async function checkProperty<T>(ctx: CheckContext, opts: PropertyOptions<T>): Promise<void> {
  const fc = fastCheck();
  const examples = opts.examples ?? [];
  const numRuns = (ctx.profile.properties.numRuns ?? opts.randomCases) + examples.length;
  // Only CheckFailure is a counterexample; a transport or harness error stops the search as it is.
  let fatal: unknown;
  // The exchanges of the last failing case (the most shrunk), in case a replay does not fail.
  let lastFailing: { from: number; to: number; failure: CheckFailure } | undefined;
  // Every input tried after the first failure is a shrink.
  let shrinksTried = 0;
  const details = await fc.check(
    fc.asyncProperty(opts.arbitrary, async (input) => {
      if (fatal !== undefined) return true;
      if (lastFailing !== undefined && ++shrinksTried > (opts.maxShrinks ?? Infinity)) return true;
      const from = ctx.http.recordingMark();
      try {
        await opts.predicate(input);
        return true;
      } catch (err) {
        if (err instanceof CheckFailure) {
          lastFailing = { from, to: ctx.http.recordingMark(), failure: err };
          throw err;
        }
        fatal = err;
        return true;
      }
    }),
    { seed: ctx.seed, numRuns, endOnFailure: false, examples: examples.map((e): [T] => [e]) },
  );
  // A counterexample found before a transport error still stands: report it.
  if (fatal !== undefined && (!details.failed || details.counterexample === null)) throw fatal;
  if (!details.failed || details.counterexample === null) {
    ctx.property({ seed: details.seed, numRuns: details.numRuns });
    return;
  }
  const [input] = details.counterexample;
  if (shrinksTried > (opts.maxShrinks ?? Infinity)) ctx.note(`shrinking stopped after ${opts.maxShrinks} tries: a smaller counterexample may exist`);
  const shown = opts.show ? opts.show(input) : fc.stringify(input);
  ctx.property({
    seed: details.seed,
    path: details.counterexamplePath ?? undefined,
    numRuns: details.numRuns,
    counterexample: shown,
    shrunk: details.numShrinks > 0,
  });
  // Replay the shrunk case alone so the evidence's exchanges are the failing ones.
  const replayFrom = ctx.http.recordingMark();
  try {
    await opts.predicate(input);
  } catch (err) {
    if (err instanceof CheckFailure) {
      ctx.http.keepRecording(replayFrom, ctx.http.recordingMark());
      throw new CheckFailure(
        `${err.message} (counterexample after ${details.numShrinks} shrinks: ${shown}; replay with --seed ${details.seed})`,
        err.expected,
        err.found,
        err.exchange === undefined ? undefined : err.exchange - replayFrom,
      );
    }
    throw err;
  }
  // The replay passed: the evidence is the failing case's own exchanges, not the passing replay's.
  const failed = lastFailing!;
  ctx.http.keepRecording(failed.from, failed.to);
  throw new CheckFailure(
    `${failed.failure.message} — but the same case passed when replayed: the target is not deterministic (counterexample: ${shown}; replay with --seed ${details.seed})`,
    failed.failure.expected,
    failed.failure.found,
    failed.failure.exchange === undefined ? undefined : failed.failure.exchange - failed.from,
  );
}
