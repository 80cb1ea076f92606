/**
 * The engine's entry point: runs the selected checks against one target and returns every
 * verdict. The CLI and the self-tests run checks through it (the vitest adapter runs each
 * check through the same `executeCheck`, with vitest owning the order).
 *
 * A pool of `http.concurrency` checks in flight, taken in the seeded plan order:
 * `parallel` checks side by side; an `exclusive` check only once nothing else is in
 * flight, with nothing beside it; `last` checks after all others, one at a time. A check
 * waits for the checks it depends on; when one of them failed (or warned, or was itself
 * blocked) it is blocked (error ERR_BLOCKED), not run. A dependency that could not run
 * (ERR_SETUP, a transport error) blocks nothing: the dependent judges for itself.
 */
import type { Check } from '../model/check.js';
import type { CheckResult } from '../model/result.js';
import type { TargetProfile } from '../model/profile.js';
import { clientForProfile, type HttpClient } from '../http/client.js';
import { blockedResult, damagedResult, executeCheck } from './execute.js';
import { guard } from '../http/guards.js';
import { politely } from '../http/polite.js';
import { probeHealth, worse, type Damage } from './health.js';
import { planOrder } from './schedule.js';
import type { Leftover } from './ledger.js';
import { runShared } from './context.js';

export interface RunInput {
  readonly profile: TargetProfile;
  readonly checks: readonly Check[];
  readonly seed: number;
  /** The client to send through; default: one made from the profile, closed at the end. */
  readonly client?: HttpClient;
  /** Called as each check ends, in the order they end. */
  readonly onResult?: (result: CheckResult) => void;
  /** Aborting stops new checks from starting; running ones finish and clean up. */
  readonly signal?: AbortSignal;
  /** Aborting ends the running checks at once, as at their deadline: they clean up and stop. */
  readonly stop?: AbortSignal;
  /** Each check's time limit; default 30 × http.timeoutMs. */
  readonly checkDeadlineMs?: number;
}

export interface RunOutcome {
  /** What the run created and could not remove. */
  readonly leftovers: Leftover[];
  /** Cleanup requests sent after `safety.maxRequests` was reached (only to delete what the run created). */
  readonly cleanupBeyondCap: number;
  /** Time requests spent held by the run's pace or a 429's pause. */
  readonly waitedMs: number;
  /** Set when the target stopped answering as before after a check that may hurt it. */
  readonly damage?: Damage;
  /** The verdicts of the checks that ran, in plan order. */
  readonly results: CheckResult[];
  /** Every selected check's id, in the order the plan starts them. */
  readonly order: string[];
  /** Whether the run was cancelled before every check started. */
  readonly interrupted: boolean;
}

/** Whether a dependency's verdict makes its dependents meaningless. */
const blocks = (r: CheckResult | undefined): r is CheckResult =>
  r !== undefined && (r.status === 'fail' || r.status === 'warn' || r.errorCode === 'ERR_BLOCKED');

/**
 * @example
 * ```ts
 * const { results } = await runChecks({ profile, checks: catalogue, seed: 42 });
 * ```
 */
export async function runChecks(input: RunInput): Promise<RunOutcome> {
  const plan = planOrder(input.checks, input.seed);
  const client = input.client ?? clientForProfile(input.profile);
  const limit = Math.max(1, input.profile.http.concurrency);
  const shared = runShared(input.profile);
  const done = new Map<string, CheckResult>();
  const running = new Map<string, Promise<void>>();
  let exclusive = false;
  const waiting = [...plan];

  /** Its dependencies have ended, and a `last` check has no other check left before it. */
  const ready = (c: Check): boolean =>
    !c.dependsOn.some((id) => running.has(id) || waiting.some((w) => w.id === id)) &&
    !(c.schedule === 'last' && waiting.some((w) => w.schedule !== 'last'));

  /** The next check to start now, if any: the first ready one in plan order, when its class lets it start. */
  const nextToStart = (): number => {
    if (exclusive || running.size >= limit) return -1;
    let i = waiting.findIndex(ready);
    // Only a dependency cycle leaves nothing ready with nothing running: break it in plan order.
    if (i === -1 && running.size === 0) i = 0;
    if (i === -1) return -1;
    // An exclusive or last check first in line waits for the pool to drain; nothing overtakes it.
    return waiting[i]!.schedule !== 'parallel' && running.size > 0 ? -1 : i;
  };

  // A probe before anything runs, to compare with after each check that may hurt the target.
  const healthSend = guard((req) => client.send(req), [politely(shared.pacer, shared.polite, () => {})]);
  const hasLast = plan.some((c) => c.schedule === 'last');
  const baseline = hasLast ? await probeHealth(input.profile, healthSend) : [];
  let damage: Damage | undefined;

  const start = (check: Check): void => {
    const blocker = check.dependsOn.map((id) => done.get(id)).find(blocks);
    const settle = async (result: CheckResult): Promise<void> => {
      if (check.schedule === 'last' && damage === undefined) {
        const now = await probeHealth(input.profile, healthSend);
        if (worse(baseline, now)) damage = { after: check.id, before: baseline, now };
      }
      done.set(check.id, result);
      running.delete(check.id);
      exclusive = false;
      input.onResult?.(result);
    };
    const work = damage
      ? Promise.resolve(damagedResult(check, damage)).then(settle)
      : blocker
      ? Promise.resolve(blockedResult(check, blocker)).then(settle)
      : executeCheck(check, {
          profile: input.profile,
          client,
          seed: input.seed,
          shared,
          ...(input.stop !== undefined && { signal: input.stop }),
          ...(input.checkDeadlineMs !== undefined && { deadlineMs: input.checkDeadlineMs }),
        }).then(settle);
    running.set(check.id, work);
  };

  try {
    while (waiting.length > 0 && !input.signal?.aborted) {
      const i = nextToStart();
      if (i === -1) {
        await Promise.race(running.values());
        continue;
      }
      const check = waiting.splice(i, 1)[0]!;
      if (check.schedule !== 'parallel') exclusive = true;
      start(check);
    }
    await Promise.all(running.values());
  } finally {
    if (!input.client) await client.close();
  }
  return {
    ...(damage !== undefined && { damage }),
    leftovers: shared.ledger.leftovers(),
    waitedMs: Math.round(shared.pacer.waitedMs),
    cleanupBeyondCap: client.budget.cleanupBeyondCap,
    results: plan.map((c) => done.get(c.id)).filter((r): r is CheckResult => r !== undefined),
    order: plan.map((c) => c.id),
    interrupted: waiting.length > 0,
  };
}
