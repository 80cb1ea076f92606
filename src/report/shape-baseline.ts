/**
 * The response shapes an earlier report recorded (VER-compatible-within-major), as the
 * profile hands them to a run compared with it (`--baseline`).
 */
import type { ShapeBaseline, ShapeSnapshot } from '../model/shape.js';
import type { Report } from './model.js';

/**
 * Every collection's shapes in `report`, by collection name.
 *
 * @example
 * ```ts
 * const profile = { ...loaded, shapeBaseline: shapeBaselineOf(await readReport('previous.json', '--baseline')) };
 * ```
 */
export function shapeBaselineOf(report: Pick<Report, 'startedAt' | 'checks'>): ShapeBaseline {
  const collections: Record<string, ShapeSnapshot> = {};
  for (const r of report.checks) if (r.shapes !== undefined && r.collection !== undefined) collections[r.collection] = r.shapes;
  return { takenAt: report.startedAt, collections };
}
