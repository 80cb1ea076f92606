/**
 * The response shapes an earlier report recorded (VER-compatible-within-major's `shapes`
 * data): the run input `--baseline` hands to a run (`run --baseline`), and to the engine's
 * judging of what shards recorded without one (`merge-reports --baseline`).
 */
import type { ShapeBaseline, ShapeSnapshot } from '../model/shape.js';
import type { Report } from './model.js';

/**
 * Every collection's shapes in `report`, by collection name.
 *
 * @example
 * ```ts
 * await runChecks({ profile, checks, seed, inputs: { baseline: shapeBaselineOf(await readBaseline('previous.json')) } });
 * ```
 */
export function shapeBaselineOf(report: Pick<Report, 'startedAt' | 'checks'>): ShapeBaseline {
  const collections: Record<string, ShapeSnapshot> = {};
  for (const r of report.checks) {
    const shapes = r.data?.['shapes'];
    if (shapes !== undefined && r.collection !== undefined) collections[r.collection] = shapes as ShapeSnapshot;
  }
  return { takenAt: report.startedAt, collections };
}
