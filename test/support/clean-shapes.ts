/**
 * Test support: the clean reference server's response shapes, as a report of a run
 * against it would record them: the baseline VER-compatible-within-major compares a
 * faulty server (or a variant) with, as a release is compared with the last good one.
 */
import { runChecks } from '../../src/engine/run.js';
import type { ShapeBaseline } from '../../src/model/shape.js';
import { shapeBaselineOf } from '../../src/report/shape-baseline.js';
import { compatibleWithinMajor } from '../../suites/09-versioning/compatibility.js';
import { startTarget } from './target.js';

let taken: Promise<ShapeBaseline> | undefined;

/** The clean server's shapes, taken once per test file (a handful of requests per collection). */
export function cleanShapes(): Promise<ShapeBaseline> {
  taken ??= (async () => {
    const target = await startTarget();
    try {
      const startedAt = new Date().toISOString();
      const { results } = await runChecks({ profile: target.profile, checks: [compatibleWithinMajor], seed: 1, client: target.client });
      return shapeBaselineOf({ startedAt, checks: results });
    } finally {
      await target.close();
    }
  })();
  return taken;
}
