/**
 * §9.3–9.4 compatibility within a major version: this run's response shapes against an
 * earlier report's (`--baseline`). Without a baseline the check still records the shapes,
 * so that this run's report can be the next run's baseline, and skips naming `--baseline`:
 * a first run has nothing to compare with, and a check never passes because it could not judge.
 */
import { CheckFailure, CheckSkipped, defineCheck } from '../../src/model/check.js';
import type { ShapeBaseline, ShapeSnapshot } from '../../src/model/shape.js';
import { snapshotCollection } from '../../src/check-kit/shape-probes.js';
import { judgeCompatibility } from '../../src/check-kit/compatibility.js';

/** The verdict on `now` against the baseline's shapes of `collection`, thrown as a check throws it. */
function judgeShapes(ctx: { note(line: string): void }, collection: string, now: ShapeSnapshot, baseline: ShapeBaseline | undefined): void {
  const verdict = judgeCompatibility(collection, now, baseline);
  if (verdict.status === 'skip') throw new CheckSkipped(verdict.message, verdict.needsBaseline ? '--baseline' : undefined);
  for (const line of verdict.notes) ctx.note(line);
  if (verdict.status === 'fail') throw new CheckFailure(verdict.message, verdict.expected, verdict.found);
}

export const compatibleWithinMajor = defineCheck({
  id: 'VER-compatible-within-major',
  title: 'Within one major version, responses keep their fields, types and status codes',
  rule: 'Within one major version the API MUST make only safe changes (§9.3, §9.4): against an earlier run the same requests answer the same status codes, and no response field is removed, renamed or given another type, while added optional fields and enum values are fine.',
  severity: 'must',
  needs: ['collection'],
  uses: ['writable', 'baseline'],
  records: {
    shapes: {
      description: "The collection's response shapes, whatever the verdict: a later run's --baseline compares with them. Names, JSON types and status codes only, no values.",
      schema: { $ref: 'restprobe.report.schema.json#/definitions/shapeSnapshot' },
    },
  },
  async run(ctx, { collection: c, writable, baseline }) {
    const now = await snapshotCollection(ctx, c, writable?.name === c.name ? writable : undefined);
    ctx.record('shapes', now);
    judgeShapes(ctx, c.name, now, baseline);
  },
  // A shard run without --baseline recorded its shapes: merge-reports --baseline judges them here.
  judgeRecorded(ctx, { shapes }, { baseline }) {
    if (ctx.collection === undefined || shapes === undefined) throw new CheckSkipped('no response shapes were recorded');
    judgeShapes(ctx, ctx.collection, shapes as ShapeSnapshot, baseline);
  },
});
