import type { ShapeBaseline } from './shape.js';
import type { ReceiverTarget } from './receiver-need.js';
import type { OpenApiDocument } from './openapi-document.js';

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
  /** The webhook receiver that receiver-mode checks send deliveries to (`restprobe webhooks check-receiver`). */
  readonly receiver?: ReceiverTarget;
  /** The API's OpenAPI document, read from `openapi` (or `--openapi`) before the run. */
  readonly openapi?: OpenApiDocument;
}
