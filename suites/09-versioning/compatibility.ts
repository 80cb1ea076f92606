/**
 * §9.3–9.4 compatibility within a major version: this run's response shapes against an
 * earlier report's (`--baseline`). Without a baseline the check still records the shapes,
 * so that this run's report can be the next run's baseline, and skips naming `--baseline`:
 * a first run has nothing to compare with, and a check never passes because it could not judge.
 */
import { CheckSkipped, defineCheck } from '../../src/model/check.js';
import { ensure } from '../../src/check-kit/expect.js';
import { snapshotCollection } from '../../src/check-kit/shape-probes.js';
import { compareSnapshots } from '../../src/check-kit/shapes.js';

export const compatibleWithinMajor = defineCheck({
  id: 'VER-compatible-within-major',
  title: 'Within one major version, responses keep their fields, types and status codes',
  rule: 'Within one major version the API MUST make only safe changes (§9.3, §9.4): against an earlier run the same requests answer the same status codes, and no response field is removed, renamed or given another type, while added optional fields and enum values are fine.',
  severity: 'must',
  needs: ['collection'],
  uses: ['writable'],
  async run(ctx, { collection: c, writable }) {
    const now = await snapshotCollection(ctx, c, writable?.name === c.name ? writable : undefined);
    ctx.recordShapes(now);
    const baseline = ctx.profile.shapeBaseline;
    if (baseline === undefined) throw new CheckSkipped(`no earlier report to compare with; this run's report records ${c.name}'s response shapes for the next run's --baseline`, '--baseline');
    const before = baseline.collections[c.name];
    if (before === undefined) throw new CheckSkipped(`the baseline of ${baseline.takenAt} holds no response shapes of ${c.name}`, '--baseline');
    if (before.version !== undefined && now.version !== undefined && before.version !== now.version) {
      throw new CheckSkipped(`the baseline of ${baseline.takenAt} was taken on major version ${before.version}, this run is on ${now.version}: breaking changes are allowed across major versions (§9.3); take a baseline on ${now.version}`);
    }
    const changes = compareSnapshots(before, now);
    for (const line of changes.safe) ctx.note(`safe change since the baseline: ${line}`);
    for (const line of changes.unobserved) ctx.note(`not compared: ${line}`);
    const n = changes.breaking.length;
    ensure(
      n === 0,
      `${n} breaking change${n === 1 ? '' : 's'} in ${c.name} since the baseline of ${baseline.takenAt}${now.version === undefined ? '' : ` within major version ${now.version}`}: ${changes.breaking.join('; ')}; expected the same status codes, fields and types, with only optional fields added (§9.4)`,
      'the same status codes, fields and types as the baseline; only optional fields added',
      changes.breaking.join('; '),
    );
  },
});
