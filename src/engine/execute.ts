/**
 * Runs one check and turns what happened into an honest outcome:
 * - returned normally → pass;
 * - CheckFailure → fail (warn when the check's severity is `should` or `info`);
 * - CheckSkipped, or an unmet requirement → skip, with the config key that enables it;
 * - a transport error or anything else → error. A check never passes because it could not run.
 */
import { CheckFailure, CheckSkipped, type Check, type CheckResult, type Evidence, type Requirement, type Status } from '../model/check.js';
import type { TargetProfile } from '../model/profile.js';
import { RestprobeError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { scrubSecrets } from '../secrets-scrub.js';
import { RunContext } from './context.js';

export interface ExecuteOptions {
  readonly profile: TargetProfile;
  readonly client: HttpClient;
  readonly seed: number;
}

/** Exchanges kept in a failure's evidence; property checks can send hundreds. */
const maxFailureExchanges = 25;

/**
 * @example
 * ```ts
 * const result = await executeCheck(check, { profile, client, seed: 42 });
 * if (result.status === 'fail') console.log(result.message, result.evidence.exchanges[0]?.curl);
 * ```
 */
export async function executeCheck(check: Check, opts: ExecuteOptions): Promise<CheckResult> {
  const started = performance.now();
  const ctx = new RunContext(opts.profile, opts.client, opts.seed);
  let status: Status;
  let message: string;
  let configKey: string | undefined;
  let expected: string | undefined;
  let found: string | undefined;
  let focus: number | undefined;

  try {
    requireAll(check.requires, ctx);
    await withDeadline(check.run(ctx), checkDeadlineMs(opts.profile));
    status = 'pass';
    message = '';
  } catch (err) {
    if (err instanceof CheckFailure) {
      status = check.severity === 'must' ? 'fail' : 'warn';
      message = err.message;
      expected = err.expected;
      found = err.found;
      focus = err.exchange;
    } else if (err instanceof CheckSkipped) {
      status = 'skip';
      message = err.message;
      configKey = err.configKey;
    } else if (err instanceof RestprobeError) {
      status = 'error';
      message = err.message;
    } else {
      status = 'error';
      message = `harness fault: ${err instanceof Error ? err.message : String(err)}`;
      // The stack goes to the evidence for a bug report, never into the message.
      if (err instanceof Error && err.stack) ctx.note(err.stack);
    }
  } finally {
    await ctx.finish();
  }

  const keepAll = status !== 'pass' && status !== 'skip';
  const scrub = (text: string): string => scrubSecrets(text, ctx.http.secrets);
  const evidence: Evidence = {
    ...(expected !== undefined && { expected: scrub(expected) }),
    ...(found !== undefined && { found: scrub(found) }),
    // A pass keeps a summary line per exchange; a problem keeps the last exchanges whole.
    ...(keepAll ? around(ctx, focus) : { exchanges: ctx.http.records('summary') }),
    requestCount: ctx.http.exchanges.length,
    notes: ctx.notes.map(scrub),
    ...(ctx.propertyEvidence && { property: ctx.propertyEvidence }),
  };
  return {
    id: check.id,
    section: check.section,
    title: check.title,
    rule: check.rule,
    severity: check.severity,
    status,
    message: scrub(message),
    ...(configKey !== undefined && { configKey }),
    durationMs: Math.round(performance.now() - started),
    evidence,
  };
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

async function withDeadline(run: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RestprobeError('ERR_TIMEOUT', `the check did not finish within ${ms} ms (30 × http.timeoutMs)`)), ms);
  });
  try {
    await Promise.race([run, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Skips (through the context's own accessors, which name the config key) unless every requirement is met. */
function requireAll(requires: readonly Requirement[], ctx: RunContext): void {
  for (const r of requires) {
    if (r === 'collection') ctx.collection();
    else if (r === 'write') ctx.writableCollection();
    else if (!ctx.profile.auth.apiKey) throw new CheckSkipped('no credentials configured', 'auth.apiKey');
  }
}
