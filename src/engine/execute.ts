/**
 * Runs one check and turns what happened into an honest outcome:
 * - an unmet need → skip, naming the config key that would meet it; nothing is sent;
 * - returned normally → pass, when it got an answer its rule is about (`judges`; 2xx or 4xx by
 *   default); else error (every answer a 5xx, an unasked-for redirect, or none: nothing was
 *   judged), or skip when it sent nothing at all;
 * - CheckFailure → fail (warn when the check's severity is `should` or `info`, or for a ShouldFailure);
 * - CheckSkipped → skip;
 * - a fixture that could not be made → error (ERR_SETUP), with the exchange and a root cause;
 * - a transport error, the deadline, or anything else → error. A check never passes because it could not run.
 *
 * At the check's deadline its signal aborts: new requests are refused, in-flight ones are
 * aborted, cleanup runs, and the session closes, so nothing is created after cleanup.
 */
import { setMaxListeners } from 'node:events';
import { CheckFailure, CheckSkipped, ShouldFailure, type Check } from '../model/check.js';
import { resultName, type CheckResult, type Evidence, type Status } from '../model/result.js';
import type { ConfigKey } from '../model/config-keys.js';
import { Unmet, resolveNeeds, resolveOptional } from '../model/needs.js';
import type { TargetProfile } from '../model/profile.js';
import type { RunInputs } from '../model/run-inputs.js';
import { RestprobeError, type RestprobeErrorCode } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { scrubSecrets } from '../secrets-scrub.js';
import { RunContext, runShared, type RunShared } from './context.js';
import type { Damage } from './health.js';

export interface ExecuteOptions {
  readonly profile: TargetProfile;
  readonly client: HttpClient;
  readonly seed: number;
  /** The whole check's time limit; default {@link checkDeadlineMs}. */
  readonly deadlineMs?: number;
  /** Aborting it ends the check as at its deadline: requests aborted, cleanup, session closed. */
  readonly signal?: AbortSignal;
  /** What the run's checks share (created items, pace); default: this check's own. */
  readonly shared?: RunShared;
  /** The collection this run of the check is about (`profile` then holds only it): named in the result. */
  readonly collection?: string;
  /** What the run is given besides the profile (an earlier report's shapes); needs resolve against them. */
  readonly inputs?: RunInputs;
}

/** Exchanges kept in a failure's evidence; property checks can send hundreds. */
const maxFailureExchanges = 25;

export interface Outcome {
  status: Status;
  message: string;
  configKey?: ConfigKey | undefined;
  expected?: string | undefined;
  found?: string | undefined;
  focus?: number | undefined;
  errorCode?: RestprobeErrorCode | undefined;
  rootCause?: string | undefined;
}

/**
 * @example
 * ```ts
 * const result = await executeCheck(check, { profile, client, seed: 42 });
 * if (result.status === 'fail') console.log(result.message, result.evidence.exchanges[0]?.curl);
 * ```
 */
export async function executeCheck(check: Check, opts: ExecuteOptions): Promise<CheckResult> {
  const started = performance.now();
  const resolved = resolveNeeds(check.needs, opts.profile, opts.inputs);
  if (resolved instanceof Unmet) {
    return resultOf(check, { status: 'skip', message: resolved.reason, configKey: resolved.configKey }, started, emptyEvidence());
  }
  const deadlineMs = opts.deadlineMs ?? checkDeadlineMs(opts.profile);
  const deadline = new AbortController();
  // Each request in flight listens on the check's signal until it ends; a burst has dozens at once.
  setMaxListeners(0, deadline.signal);
  // Without a run's shared state, the check's own: its fixtures end with it.
  const shared = opts.shared ?? runShared(opts.profile);
  const ctx = new RunContext(opts.profile, opts.client, opts.seed, deadline.signal, resultName(check.id, opts.collection), shared);
  let outcome: Outcome;
  try {
    await withDeadline(check.run(ctx, { ...resolveOptional(check.uses, opts.profile, opts.inputs), ...resolved } as never), deadlineMs, deadline, opts.signal);
    // A check passes only on what it judged: assertions that hold for a 503 prove nothing.
    const refused = ctx.answers.refusal(check.judges);
    outcome = refused === undefined ? { status: 'pass', message: '' } : { ...refused, ...(refused.status === 'error' && { errorCode: 'ERR_SETUP', focus: lastExchange(ctx) }) };
  } catch (err) {
    outcome = judge(check, err, ctx);
  } finally {
    // Whatever the check left running (a retry, a stray request) stops before its cleanup.
    if (!deadline.signal.aborted) deadline.abort(new RestprobeError('ERR_HARNESS', `${check.id} had ended: a request it left running was stopped`));
    await ctx.finish();
    if (opts.shared === undefined) await shared.fixtures.close();
  }
  const keepAll = outcome.status !== 'pass' && outcome.status !== 'skip';
  const scrub = (text: string): string => scrubSecrets(text, ctx.http.secrets);
  const evidence: Evidence = {
    ...(outcome.expected !== undefined && { expected: scrub(outcome.expected) }),
    ...(outcome.found !== undefined && { found: scrub(outcome.found) }),
    // A pass keeps a summary line per exchange; a problem keeps the last exchanges whole.
    ...(keepAll ? around(ctx, outcome.focus) : { exchanges: ctx.http.records('summary') }),
    // Every request the check sent, as the target saw them: retries, raw and dedicated connections and its cleanup included.
    requestCount: shared.tally.of(resultName(check.id, opts.collection)),
    notes: ctx.notes.map(scrub),
    ...(ctx.propertyEvidence && { property: ctx.propertyEvidence }),
  };
  const undeclared = Object.keys(ctx.recorded).filter((name) => !(name in check.records));
  if (undeclared.length > 0) outcome = { status: 'error', message: `harness fault: ${check.id} recorded ${undeclared.join(', ')}, which its records do not declare`, errorCode: 'ERR_HARNESS', rootCause: 'harness fault' };
  const judged = resultOf(check, { ...outcome, message: scrub(outcome.message), rootCause: outcome.rootCause === undefined ? undefined : scrub(outcome.rootCause) }, started, evidence);
  // Recorded data is the check's own (shapes hold names and types, no values), but a name may still be a key the target minted.
  const result = Object.keys(ctx.recorded).length === 0 ? judged : { ...judged, data: JSON.parse(scrub(JSON.stringify(ctx.recorded))) as Record<string, unknown> };
  return opts.collection === undefined ? result : { ...result, collection: opts.collection };
}

/**
 * A check not judged because a check it depends on did not pass, and what it found itself
 * could only repeat that: it could not make its fixture, it failed on the same finding
 * (`same`), or its method takes that check's rule for granted. Its own evidence is kept, and
 * its own result noted, so a reader sees what it tried.
 */
export function blockedResult(own: CheckResult, dependency: CheckResult, same?: string): CheckResult {
  const why = `${dependency.id} ${dependency.status === 'fail' ? 'failed' : dependency.status === 'warn' ? 'warned' : 'could not run'}`;
  const { configKey: _k, errorCode: _c, rootCause: _r, ...kept } = own;
  const evidence = { ...own.evidence, notes: [...own.evidence.notes, `its own result, not reported: ${own.status}: ${own.message}`] };
  return { ...kept, status: 'error', message: `not judged: it depends on ${why}${same === undefined ? '' : `, and found the same: ${same}`}`, errorCode: 'ERR_BLOCKED', rootCause: why, evidence };
}

/** A check whose run failed inside restprobe itself (past executeCheck's own handling): an error, never a verdict. */
export function harnessFaultResult(check: Check, err: unknown): CheckResult {
  const message = `harness fault: ${err instanceof Error ? err.message : String(err)}`;
  return resultOf(check, { status: 'error', message, errorCode: 'ERR_HARNESS', rootCause: 'harness fault' }, performance.now(), emptyEvidence());
}

/** A check not run, or ended, because the run stopped early (its circuit breaker tripped): one root cause for all of them. */
export function stoppedResult(check: Check, why: RestprobeError): CheckResult {
  return resultOf(check, { status: 'error', message: `not run: ${why.message}`, errorCode: why.code, rootCause: why.rootCause ?? why.message }, performance.now(), emptyEvidence());
}

/** A check not run because an earlier check broke the target: it would only measure the damage. */
export function damagedResult(check: Check, damage: Damage): CheckResult {
  const why = `the target stopped working after ${damage.after}`;
  return resultOf(check, { status: 'error', message: `not run: ${why} (${damage.now.join('; ')}; before: ${damage.before.join('; ')})`, errorCode: 'ERR_BLOCKED', rootCause: why }, performance.now(), emptyEvidence());
}

/** What a check threw, as an outcome: its verdict, a skip, or an error. Also judges what `judgeRecorded` throws (rejudge.ts). */
export function judge(check: Check, err: unknown, ctx: Pick<RunContext, 'note'> & { readonly http?: Pick<RunContext['http'], 'exchanges'> }): Outcome {
  if (err instanceof CheckFailure) {
    return { status: check.severity === 'must' && !(err instanceof ShouldFailure) ? 'fail' : 'warn', message: err.message, expected: err.expected, found: err.found, focus: err.exchange, rootCause: err.rootCause };
  }
  if (err instanceof CheckSkipped) return { status: 'skip', message: err.message, configKey: err.configKey };
  if (err instanceof RestprobeError) {
    return { status: 'error', message: err.message, errorCode: err.code, focus: err.exchange ?? lastExchange(ctx), rootCause: err.rootCause ?? rootCauseOf(err) };
  }
  // The stack goes to the evidence for a bug report, never into the message.
  if (err instanceof Error && err.stack) ctx.note(err.stack);
  return { status: 'error', message: `harness fault: ${err instanceof Error ? err.message : String(err)}`, errorCode: 'ERR_HARNESS', rootCause: 'harness fault' };
}

/** Transport errors group by what went wrong, not by URL: "no complete response within 300 ms (ERR_TIMEOUT)". */
function rootCauseOf(err: RestprobeError): string {
  const what = err.message.replace(/^[A-Z]+ \S+: /, '');
  return `${what} (${err.code})`;
}

function lastExchange(ctx: { readonly http?: Pick<RunContext['http'], 'exchanges'> }): number | undefined {
  return ctx.http !== undefined && ctx.http.exchanges.length > 0 ? ctx.http.exchanges.length - 1 : undefined;
}

export function resultOf(check: Check, o: Outcome, started: number, evidence: Evidence): CheckResult {
  return {
    id: check.id,
    section: check.section,
    title: check.title,
    rule: check.rule,
    severity: check.severity,
    status: o.status,
    message: o.message,
    ...(o.configKey !== undefined && { configKey: o.configKey }),
    ...(o.status === 'error' && o.errorCode !== undefined && { errorCode: o.errorCode }),
    ...(o.status !== 'pass' && o.status !== 'skip' && o.rootCause !== undefined && { rootCause: o.rootCause }),
    durationMs: Math.round(performance.now() - started),
    evidence,
  };
}

function emptyEvidence(): Evidence {
  return { exchanges: [], requestCount: 0, notes: [] };
}

/** A problem's evidence: the last exchanges whole, with the one the verdict is about. */
function around(ctx: RunContext, focus: number | undefined): Pick<Evidence, 'exchanges' | 'focus'> {
  const { records, focus: at } = ctx.http.recordsAround(focus, maxFailureExchanges);
  return { exchanges: records, ...(at !== undefined && { focus: at }) };
}

/**
 * A check's whole run is bounded too: every request is, but a property check makes many.
 * Thirty request timeouts is far beyond any check against a healthy target.
 */
export function checkDeadlineMs(profile: TargetProfile): number {
  return 30 * profile.http.timeoutMs;
}

/**
 * Races the check against its deadline and the run's stop signal; either aborts the
 * check's own signal, which aborts its requests.
 */
async function withDeadline(run: Promise<void>, ms: number, controller: AbortController, stop: AbortSignal | undefined): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let onStop: (() => void) | undefined;
  const deadline = new Promise<never>((_, reject) => {
    const end = (err: RestprobeError): void => {
      controller.abort(err);
      reject(err);
    };
    timer = setTimeout(() => end(new RestprobeError('ERR_TIMEOUT', `the check did not finish within ${ms} ms (30 × http.timeoutMs)`, [], { rootCause: `a check overran its ${ms} ms deadline (ERR_TIMEOUT)` })), ms);
    // The run's own reason when it gave one (its circuit breaker), else an interruption.
    onStop = () => end(stop?.reason instanceof RestprobeError ? stop.reason : new RestprobeError('ERR_INTERRUPTED', 'interrupted: the run was stopped while this check ran', [], { rootCause: 'the run was interrupted' }));
    if (stop?.aborted) onStop();
    else stop?.addEventListener('abort', onStop, { once: true });
  });
  // A check abandoned at its deadline may still reject later: that is no unhandled rejection.
  run.catch(() => {});
  try {
    await Promise.race([run, deadline]);
  } finally {
    clearTimeout(timer);
    if (onStop) stop?.removeEventListener('abort', onStop);
  }
}
