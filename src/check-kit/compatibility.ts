/**
 * The verdict of VER-compatible-within-major from two snapshots, as a pure function: the
 * check's `run` gives it the shapes it just took, and its `judgeRecorded` the shapes a shard
 * recorded without a baseline (`merge-reports --baseline`), so both judge alike.
 */
import type { ShapeBaseline, ShapeSnapshot } from '../model/shape.js';
import { compareSnapshots } from './shapes.js';

/** What {@link judgeCompatibility} decided; a skip's `needsBaseline` says whether `--baseline` would let it judge. */
export type CompatibilityVerdict =
  | { readonly status: 'pass'; readonly notes: readonly string[] }
  | { readonly status: 'skip'; readonly message: string; readonly needsBaseline: boolean }
  | { readonly status: 'fail'; readonly message: string; readonly expected: string; readonly found: string; readonly notes: readonly string[] };

/**
 * §9.3–9.4 for one collection: `skip` without a baseline (naming `--baseline`), without the
 * collection's shapes in it, or when the baseline was taken on another major version
 * (breaking changes are what a new major version is for); `fail` listing every breaking
 * change; `pass` otherwise, with the safe changes and what was not compared as notes.
 *
 * @example
 * ```ts
 * const verdict = judgeCompatibility('projects', snapshot, baseline); // the `baseline` need: --baseline's shapes
 * if (verdict.status === 'fail') console.log(verdict.found); // "GET /v2/projects/{id} (item) $.id: was string, is now number"
 * ```
 */
export function judgeCompatibility(collection: string, now: ShapeSnapshot, baseline: ShapeBaseline | undefined): CompatibilityVerdict {
  if (baseline === undefined) {
    return { status: 'skip', needsBaseline: true, message: `no earlier report to compare with; this run's report records ${collection}'s response shapes for the next run's --baseline` };
  }
  const before = baseline.collections[collection];
  if (before === undefined) return { status: 'skip', needsBaseline: true, message: `the baseline of ${baseline.takenAt} holds no response shapes of ${collection}` };
  if (before.version !== undefined && now.version !== undefined && before.version !== now.version) {
    return { status: 'skip', needsBaseline: false, message: `the baseline of ${baseline.takenAt} was taken on major version ${before.version}, this run is on ${now.version}: breaking changes are allowed across major versions (§9.3); take a baseline on ${now.version}` };
  }
  const changes = compareSnapshots(before, now);
  const notes = [...changes.safe.map((line) => `safe change since the baseline: ${line}`), ...changes.unobserved.map((line) => `not compared: ${line}`)];
  const n = changes.breaking.length;
  if (n === 0) return { status: 'pass', notes };
  const found = changes.breaking.join('; ');
  return {
    status: 'fail',
    message: `${n} breaking change${n === 1 ? '' : 's'} in ${collection} since the baseline of ${baseline.takenAt}${now.version === undefined ? '' : ` within major version ${now.version}`}: ${found}; expected the same status codes, fields and types, with only optional fields added (§9.4)`,
    expected: 'the same status codes, fields and types as the baseline; only optional fields added',
    found,
    notes,
  };
}
