import type { ShapeBaseline } from './shape.js';

/**
 * What a run is given besides the target's config: inputs of this run (flags, earlier
 * reports), not facts of the target, so they stay out of the TargetProfile. Checks receive
 * them through needs, like everything else.
 *
 * @example
 * ```ts
 * await runChecks({ profile, checks, seed, inputs: { baseline: shapeBaselineOf(previous) } });
 * ```
 */
export interface RunInputs {
  /** The response shapes an earlier report recorded (`run --baseline`). */
  readonly baseline?: ShapeBaseline;
}
