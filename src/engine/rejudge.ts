/**
 * Judging later: a result a check could not judge for want of a run input (a skip), judged
 * again from the data it recorded once the input is given, by the check's own
 * `judgeRecorded`. The engine decides the verdict, as it does for `run`; a report only
 * carries it. `merge-reports --baseline` judges so the shapes shards recorded without one.
 */
import type { Check } from '../model/check.js';
import type { CheckResult } from '../model/result.js';
import type { RunInputs } from '../model/run-inputs.js';
import { judge, resultOf, type Outcome } from './execute.js';

/**
 * Each result whose check declares `judgeRecorded`, skipped with data recorded, judged again
 * with `inputs`; every other result as it was. `by` says who judged, in the evidence
 * (`merge-reports --baseline`).
 *
 * @example
 * ```ts
 * const judged = judgeRecorded(shard.checks, catalogue, { baseline: shapeBaselineOf(previous) }, 'merge-reports --baseline');
 * ```
 */
export function judgeRecorded(results: readonly CheckResult[], checks: readonly Check[], inputs: RunInputs, by: string): CheckResult[] {
  const byId = new Map<string, Check>(checks.map((c) => [c.id, c]));
  return results.map((r) => {
    const check = byId.get(r.id);
    return check?.judgeRecorded === undefined || r.data === undefined || r.status !== 'skip' ? r : judgedAgain(check, r, r.data, inputs, by);
  });
}

function judgedAgain(check: Check, r: CheckResult, data: Readonly<Record<string, unknown>>, inputs: RunInputs, by: string): CheckResult {
  const notes: string[] = [];
  const note = (line: string): void => void notes.push(line);
  let outcome: Outcome;
  try {
    check.judgeRecorded!({ collection: r.collection, note }, data, inputs);
    outcome = { status: 'pass', message: '' };
  } catch (err) {
    outcome = judge(check, err, { note });
  }
  // Still not judged: the skip's new reason, the evidence it had.
  if (outcome.status === 'skip') {
    const { configKey: _was, ...rest } = r;
    return { ...rest, message: outcome.message, ...(outcome.configKey !== undefined && { configKey: outcome.configKey }) };
  }
  const why = `judged by ${by} from the ${Object.keys(data).join(', ')} this shard recorded (its exchanges are kept as summaries)`;
  const evidence = { ...r.evidence, ...(outcome.expected !== undefined && { expected: outcome.expected }), ...(outcome.found !== undefined && { found: outcome.found }), notes: [...r.evidence.notes, why, ...notes] };
  const { configKey: _skipKey, ...kept } = r;
  const judged = resultOf(check, outcome, performance.now(), evidence);
  return { ...kept, status: judged.status, message: judged.message, ...(judged.errorCode !== undefined && { errorCode: judged.errorCode }), ...(judged.rootCause !== undefined && { rootCause: judged.rootCause }), evidence };
}
