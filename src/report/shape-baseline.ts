/**
 * The response shapes an earlier report recorded (VER-compatible-within-major): as the
 * profile hands them to a run compared with it (`run --baseline`), and as `merge-reports
 * --baseline` judges the shapes shards recorded without one.
 */
import { compatibilityCheckId, judgeCompatibility } from '../check-kit/compatibility.js';
import type { CheckResult } from '../model/result.js';
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

/** A result skipped for want of a baseline, judged now against `baseline` from the shapes it recorded. */
function judgedLater(r: CheckResult, baseline: ShapeBaseline): CheckResult {
  if (r.id !== compatibilityCheckId || r.shapes === undefined || r.collection === undefined || r.status !== 'skip' || r.configKey !== '--baseline') return r;
  const verdict = judgeCompatibility(r.collection, r.shapes, baseline);
  const { configKey: _unset, ...rest } = r;
  if (verdict.status === 'skip') return { ...rest, message: verdict.message, ...(verdict.needsBaseline && { configKey: '--baseline' as const }) };
  const notes = [...r.evidence.notes, 'judged by merge-reports --baseline from the shapes this shard recorded (its exchanges are kept as summaries)', ...verdict.notes];
  const evidence = verdict.status === 'fail' ? { ...r.evidence, expected: verdict.expected, found: verdict.found, notes } : { ...r.evidence, notes };
  return { ...rest, status: verdict.status, message: verdict.status === 'fail' ? verdict.message : '', evidence };
}

/**
 * A shard's report with VER-compatible-within-major judged against `baseline`, when the
 * shard ran without `--baseline` (a shard that had one judged for itself).
 *
 * @example
 * ```ts
 * const whole = mergeReports(shards.map((s) => withShapesJudged(s, shapeBaselineOf(previous))));
 * ```
 */
export function withShapesJudged(report: Report, baseline: ShapeBaseline): Report {
  return report.baseline !== undefined ? report : { ...report, checks: report.checks.map((r) => judgedLater(r, baseline)) };
}
