/**
 * The engine's entry point: runs the selected checks against one target and returns every
 * verdict. Every way of running checks goes through it: `restprobe run`, `restprobe webhooks
 * check-receiver`, the self-tests and the vitest adapter.
 *
 * A pool of `http.concurrency` checks in flight, started in the seeded plan order:
 * `parallel` checks side by side; an `exclusive` check only once nothing else is in
 * flight, with nothing beside it; `last` checks after all others, one at a time; `review`
 * checks at the end, judging the answers the others received. A check
 * runs beside the checks it depends on, and its verdict waits for theirs: when one of them
 * failed (or warned, or was itself blocked), the dependent is blocked (error ERR_BLOCKED)
 * only when its own result would repeat that (it could not make its fixture, or failed for
 * the same cause); otherwise its own verdict stands, so one finding never silences a check
 * that could judge its own subject. A dependency that could not run (ERR_SETUP, a transport
 * error) blocks nothing: the dependent judges for itself.
 *
 * Each check runs once per collection it applies to (instances.ts); the run's order,
 * dependencies and results are by instance.
 */
import type { NotRun, RequestCounts } from '../model/run-outcome.js';
import type { Check } from '../model/check.js';
import type { CheckResult } from '../model/result.js';
import type { TargetProfile } from '../model/profile.js';
import type { RunInputs } from '../model/run-inputs.js';
import { clientForProfile, type HttpClient } from '../http/client.js';
import { blockedResult, damagedResult, executeCheck, harnessFaultResult, stoppedResult } from './execute.js';
import { guard } from '../http/guards.js';
import { politely, type Wait } from '../http/polite.js';
import { probeHealth, sameRequests, worse, type Damage, type Health } from './health.js';
import { planOrder } from './schedule.js';
import type { Leftover, LedgerJournal } from './ledger.js';
import { runShared } from './context.js';
import { findingsOf, repeats } from './findings.js';
import { instancesOf, type CheckInstance } from './instances.js';

export type { NotRun };

export interface RunInput {
  readonly profile: TargetProfile;
  readonly checks: readonly Check[];
  readonly seed: number;
  /** What the run is given besides the profile (`--baseline`'s shapes): checks receive them as needs. */
  readonly inputs?: RunInputs;
  /** The client to send through; default: one made from the profile, closed at the end. */
  readonly client?: HttpClient;
  /** Called as each check instance starts, with its name (`END-get-item-200 [projects]`). */
  readonly onStart?: (name: string) => void;
  /** Called as a request starts waiting to be retried (a 429's Retry-After, a backoff): what for, and how long. */
  readonly onWait?: (wait: Wait) => void;
  /** Called as each check ends, in the order they end. */
  readonly onResult?: (result: CheckResult) => void;
  /** Aborting stops new checks from starting; running ones finish and clean up. */
  readonly signal?: AbortSignal;
  /** Aborting ends the running checks at once, as at their deadline: they clean up and stop. */
  readonly stop?: AbortSignal;
  /** What the health phase saw before the run (healthPhase): the damage check's baseline, so the run does not probe again. */
  readonly health?: Health;
  /** Where the ledger writes each change as it happens (the report directory's ledger file); its run id starts every mark. */
  readonly journal?: LedgerJournal;
}


export interface RunOutcome {
  /** What the run created and could not remove. */
  readonly leftovers: Leftover[];
  /** Cleanup requests sent after `safety.maxRequests` was reached (only to delete what the run created). */
  readonly cleanupBeyondCap: number;
  /** Time requests spent held by the run's pace or a 429's pause. */
  readonly waitedMs: number;
  /** The waits (a retry's, or a hold until a spent quota's reset): how many, and the wall-clock time the run spent waiting on at least one. */
  readonly waits: { readonly count: number; readonly wallMs: number };
  /** Every request the run sent (`total`), and those no check sent (`run`: health probes, cleanup of the run's fixtures). */
  readonly requests: RequestCounts;
  /** Set when the target stopped answering as before after a check that may hurt it. */
  readonly damage?: Damage;
  /** The verdicts of the checks that ran, in plan order. */
  readonly results: CheckResult[];
  /** Set when the run stopped early (the target stopped answering, or asked for a wait past http.maxRetryWaitMs): why. Every check not done then is an error with this root cause. */
  readonly stopped?: string;
  /** Every selected check instance's name (`END-get-item-200 [books]`), in the order the plan starts them. */
  readonly order: string[];
  /** Whether the run was cancelled before every check started. */
  readonly interrupted: boolean;
  /** The instances never started, in plan order (empty unless interrupted). */
  readonly notRun: NotRun[];
  /** The value every mark the run gave an item starts with (`restprobe-<run id>`). */
  readonly mark: string;
}

/** The result named for the collection its instance ran on. */
const named = (r: CheckResult, instance: CheckInstance): CheckResult => (instance.collection === undefined || r.collection !== undefined ? r : { ...r, collection: instance.collection });

/** Whether a dependency's verdict may block its dependents: it found something, or was itself blocked. */
const blocks = (r: CheckResult | undefined): r is CheckResult =>
  r !== undefined && (r.status === 'fail' || r.status === 'warn' || r.errorCode === 'ERR_BLOCKED');

/**
 * @example
 * ```ts
 * const { results } = await runChecks({ profile, checks: catalogue, seed: 42 });
 * ```
 */
export async function runChecks(input: RunInput): Promise<RunOutcome> {
  const plan = planOrder(instancesOf(input.checks, input.profile, input.inputs), input.seed);
  const planned = new Set(plan.map((i) => i.key));
  const client = input.client ?? clientForProfile(input.profile);
  const limit = Math.max(1, input.profile.http.concurrency);
  const shared = runShared(input.profile, input.journal, plan.some((i) => i.check.schedule === 'review'));
  if (input.onWait) shared.pacer.onWait(input.onWait);
  /** Final verdicts. */
  const done = new Map<string, CheckResult>();
  /** What each final result found, with what its blockers found: what a dependent's failure may repeat. */
  const found = new Map<string, ReadonlySet<string>>();
  // When the breaker trips, running checks end at once (they clean up, as far as the target lets them) and no other starts.
  const halt = new AbortController();
  shared.breaker.onTrip((why) => halt.abort(why));
  const stop = input.stop === undefined ? halt.signal : AbortSignal.any([input.stop, halt.signal]);
  /** Verdicts of checks that ran beside a dependency still undecided: final once it is. */
  const held = new Map<string, { instance: CheckInstance; result: CheckResult }>();
  const running = new Map<string, Promise<void>>();
  let exclusive = false;
  const waiting = [...plan];

  /** The next check to start now, if any: the first in plan order, when its class lets it start. */
  const nextToStart = (): number => {
    if (exclusive || running.size >= limit || waiting.length === 0) return -1;
    const next = waiting[0]!;
    // A last or review check waits for every other to end; an exclusive one for an empty pool.
    if ((next.check.schedule === 'last' || next.check.schedule === 'review') && running.size > 0) return -1;
    return next.check.schedule !== 'parallel' && running.size > 0 ? -1 : 0;
  };

  /**
   * Makes held verdicts final whose dependencies are final: blocked when one of them
   * failed, warned or was blocked and the check's own result would repeat that (or its
   * method assumes that check's rule); the check's own verdict otherwise. A skip stays a
   * skip (the key that enables the check is still worth saying), and a failure is never
   * hidden behind a warning.
   */
  const decide = (): void => {
    for (let progress = true; progress; ) {
      progress = false;
      for (const [key, { instance, result }] of held) {
        if (instance.dependsOn.some((dep) => planned.has(dep) && !done.has(dep))) continue;
        const unpassed = instance.dependsOn.filter((dep) => blocks(done.get(dep)));
        const mine = findingsOf(result);
        const blockers =
          result.status === 'skip'
            ? []
            : unpassed.filter((dep) => !(result.status === 'fail' && done.get(dep)!.status === 'warn') && (instance.assumes.includes(dep) || repeats(result, mine, found.get(dep)!)));
        held.delete(key);
        const same = mine.find((f) => blockers.some((dep) => found.get(dep)!.has(f)));
        const final = blockers.length > 0 ? named(blockedResult(result, done.get(blockers[0]!)!, same), instance) : result;
        done.set(key, final);
        // What a dependency that did not pass found is passed on, so a check further down the chain repeating it is blocked too.
        found.set(key, new Set([...mine, ...unpassed.flatMap((dep) => [...found.get(dep)!])]));
        input.onResult?.(final);
        progress = true;
      }
    }
  };

  // A probe before anything runs, to compare with after each check that may hurt the target.
  const healthSend = guard((req) => client.send({ ...req, signal: stop }), [politely(shared.pacer, shared.polite, () => {}), shared.breaker.guard('the health probe'), shared.tally.guard('the health probe')]);
  const hasLast = plan.some((i) => i.check.schedule === 'last');
  const baseline = input.health ?? (hasLast ? await probeHealth(input.profile, healthSend) : []);
  let damage: Damage | undefined;

  // A check runs beside the checks it depends on (its verdict waits for theirs), so a chain
  // of dependencies costs no more time than its slowest link.
  const start = (instance: CheckInstance): void => {
    const { check, key } = instance;
    input.onStart?.(key);
    const settle = async (result: CheckResult): Promise<void> => {
      try {
        if (check.schedule === 'last' && damage === undefined && !stop.aborted) {
          const now = await probeHealth(input.profile, healthSend, baseline);
          if (!stop.aborted && worse(baseline, now)) damage = { after: key, before: sameRequests(baseline, now), now };
        }
      } finally {
        running.delete(key);
        exclusive = false;
        held.set(key, { instance, result: named(result, instance) });
        decide();
      }
    };
    const tripped = shared.breaker.tripped;
    const work = tripped
      ? Promise.resolve(stoppedResult(check, tripped)).then(settle)
      : damage
      ? Promise.resolve(damagedResult(check, damage)).then(settle)
      : executeCheck(check, {
          profile: instance.profile,
          client,
          seed: input.seed,
          shared,
          ...(instance.collection !== undefined && { collection: instance.collection }),
          ...(input.inputs !== undefined && { inputs: input.inputs }),
          signal: stop,
        })
          // executeCheck turns what a check throws into a verdict; this is for a bug in restprobe itself.
          .catch((err: unknown) => harnessFaultResult(check, err))
          .then(settle);
    running.set(key, work);
  };

  try {
    while (waiting.length > 0 && !input.signal?.aborted) {
      const i = nextToStart();
      if (i === -1) {
        if (running.size === 0) break;
        await Promise.race(running.values());
        continue;
      }
      const instance = waiting.splice(i, 1)[0]!;
      if (instance.check.schedule !== 'parallel') exclusive = true;
      start(instance);
    }
    await Promise.all(running.values());
    // A dependency that never ran (the run was interrupted) leaves its dependents' verdicts as they came.
    for (const [key, { result }] of held) done.set(key, result);
  } finally {
    await shared.fixtures.close();
    if (!input.client) await client.close();
  }
  return {
    ...(damage !== undefined && { damage }),
    leftovers: [...shared.ledger.leftovers(), ...shared.unrevoked],
    waitedMs: Math.round(shared.pacer.waitedMs),
    waits: shared.pacer.waits,
    requests: { total: shared.tally.total, run: shared.tally.total - plan.reduce((n, i) => n + shared.tally.of(i.key), 0) },
    ...(shared.breaker.tripped !== undefined && { stopped: shared.breaker.tripped.message }),
    cleanupBeyondCap: client.budget.cleanupBeyondCap,
    results: plan.map((i) => done.get(i.key)).filter((r): r is CheckResult => r !== undefined),
    order: plan.map((i) => i.key),
    interrupted: waiting.length > 0,
    notRun: waiting.map(({ check, collection }) => ({ id: check.id, section: check.section, title: check.title, rule: check.rule, severity: check.severity, ...(collection !== undefined && { collection }) })),
    mark: shared.ledger.mark,
  };
}
