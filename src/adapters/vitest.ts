/**
 * `restprobe/vitest`: runs restprobe checks as vitest tests, so a team's own vitest setup
 * (its reporters, `--shard`, allure-vitest, CI annotations) shows conformance verdicts
 * beside its other tests.
 *
 * Each registered check becomes one vitest test, named by its id and title. The check runs
 * through the same engine as `restprobe run` ({@link executeCheck}), and its verdict maps
 * onto vitest's outcomes:
 *
 * | restprobe | vitest |
 * |---|---|
 * | pass  | passes |
 * | fail  | fails: the check's message, the rule, and a curl command that reproduces the exchange |
 * | warn  | passes, with a `warning` annotation (`context.annotate`) holding the same text |
 * | skip  | skipped (`context.skip`), naming the config key that would enable the check |
 * | error | fails: `could not run: …` |
 *
 * vitest has no `warn`: the annotation shows in the verbose, JUnit and GitHub Actions
 * reporters (not in the default reporter's line for a passing test), and every test's
 * `meta.restprobe` holds the verdict (`{ id, status, severity, seed }`) for the JSON
 * reporter and custom reporters.
 *
 * Scheduling is vitest's here, not restprobe's: the checks of one registration run one at
 * a time, in catalogue order, except that a check runs after the registered checks it
 * depends on (`dependsOn`) and `last` checks run at the end. A check whose dependency
 * failed or warned in the same registration is not run (`could not run: it depends on …`),
 * as with `restprobe run`; a dependency vitest did not run (filtered out with `-t`, in
 * another file) blocks nothing. `exclusive` checks are alone only within their
 * registration: vitest may run other test files against the same target at the same time.
 *
 * Every message comes from a result the engine has already scrubbed of secrets.
 *
 * @example
 * ```ts
 * // test/conformance.test.ts
 * import { registerCatalogue } from 'restprobe/vitest';
 *
 * registerCatalogue({ config: 'restprobe.config.json', baseUrl: process.env.STAGING_URL, skip: ['LIM'] });
 * ```
 */
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, test, type TestContext } from 'vitest';
import { catalogue } from '../../suites/catalogue.js';
import { loadProfile } from '../config/load.js';
import { blockedResult, executeCheck } from '../engine/execute.js';
import { selectChecks } from '../engine/select.js';
import { instancesOf } from '../engine/instances.js';
import { runShared, type RunShared } from '../engine/context.js';
import { RestprobeError } from '../errors.js';
import { clientForProfile, type HttpClient } from '../http/client.js';
import type { Check } from '../model/check.js';
import type { TargetProfile } from '../model/profile.js';
import { ranks, worstOf, type CheckResult } from '../model/result.js';
import { reproducingCurl } from '../report/evidence-text.js';
import { skipReason } from '../report/wording.js';
import { scrubSecrets } from '../secrets-scrub.js';

export { defineCheck, CheckFailure, CheckSkipped, sections } from '../model/check.js';
export type { Check, CheckDefinition, CheckId, Schedule, Section, Severity } from '../model/check.js';
export type { CheckContext, CreatedResource, HttpResponse, HttpSession, RequestSpec } from '../model/context.js';
export type { NeedName, NeedValue, WalkableCollection, WritableCollection } from '../model/needs.js';
export type { CollectionProfile, TargetProfile } from '../model/profile.js';
export type { CheckResult, Status } from '../model/result.js';
// The response describer is renamed: `describe` here would shadow vitest's.
export { brief, describe as describeResponse, ensure, expectHeader, expectJsonObject, expectStatus, summarise } from '../check-kit/expect.js';
export { catalogue } from '../../suites/catalogue.js';

/** Where the checks run and which of them; the same settings as `restprobe run`'s flags. */
export interface VitestAdapterOptions {
  /** Path of a restprobe config file, JSON or YAML (like `-c`). Without it, only the checks that need no config run; the rest skip. */
  readonly config?: string;
  /** The base URL to probe; wins over `baseUrl` in the config file. */
  readonly baseUrl?: string;
  /** Section prefixes (`ERR`) or check ids to keep, like `--only`. An unknown one throws when registering. */
  readonly only?: readonly string[];
  /** Section prefixes or check ids to leave out, like `--skip`. */
  readonly skip?: readonly string[];
  /** Seed of the property checks (like `--seed`); default random. A failing property check's message names the seed that replays it. */
  readonly seed?: number;
  /** Where `{ "env": NAME }` secrets in the config are read; default `process.env`, read when the tests start. */
  readonly env?: Record<string, string | undefined>;
  /** Send no POST, PUT, PATCH or DELETE (like `--read-only`); checks that write skip, naming `safety.readOnly`. */
  readonly readOnly?: boolean;
  /** Name of the `describe` group; default `restprobe`. */
  readonly name?: string;
}

/**
 * Registers the restprobe catalogue (or the part `only`/`skip` select) as vitest tests,
 * in one `describe` group. Call it at the top level of a vitest test file.
 *
 * The profile is loaded and the HTTP client made in the group's `beforeAll`: a config
 * problem or an unset secret fails the group there, with every problem listed. The client
 * is closed in `afterAll`. Each test has no vitest timeout of its own: the check's own
 * deadline (30 × `http.timeoutMs`) bounds it. See the module comment for the verdict
 * mapping and for what vitest, not restprobe, schedules.
 *
 * @returns The checks registered, in the order their tests run.
 * @throws RestprobeError (`ERR_USAGE`) when `only` or `skip` names no section or check, or `seed` is not an integer.
 *
 * @example
 * ```ts
 * import { registerCatalogue } from 'restprobe/vitest';
 *
 * registerCatalogue({
 *   config: 'restprobe.config.json',            // secrets as { "env": "STAGING_API_KEY" }
 *   baseUrl: process.env.STAGING_URL,
 *   only: ['END', 'ERR'],
 *   skip: ['ERR-bad-input-no-5xx'],
 *   readOnly: true,
 * });
 * ```
 */
export function registerCatalogue(options: VitestAdapterOptions = {}): readonly Check[] {
  return registerChecks(catalogue, options);
}

/**
 * Registers checks as vitest tests, in one `describe` group: a team's own checks written
 * with {@link defineCheck}, the catalogue, or both (`[...catalogue, ...mine]`). `only` and
 * `skip` select among `checks`, and must name a section or one of their ids.
 *
 * Everything else is as {@link registerCatalogue}.
 *
 * @returns The checks registered, in the order their tests run.
 * @throws RestprobeError (`ERR_USAGE`) when two checks share an id, when `only` or `skip` names no section or check, or `seed` is not an integer.
 *
 * @example
 * ```ts
 * import { defineCheck, expectStatus, expectJsonObject, registerChecks } from 'restprobe/vitest';
 *
 * const projectsList = defineCheck({
 *   id: 'END-team-projects-list',
 *   title: 'The projects list answers 200',
 *   rule: 'GET on the projects collection MUST answer 200 with a JSON object.',
 *   severity: 'must',
 *   needs: ['collection'],
 *   async run(ctx, { collection }) {
 *     const res = await ctx.http.send({ method: 'GET', path: collection.path });
 *     expectStatus(res, 200);
 *     expectJsonObject(res);
 *   },
 * });
 *
 * registerChecks([projectsList], { config: 'restprobe.config.json', name: 'team checks' });
 * ```
 */
export function registerChecks(checks: readonly Check[], options: VitestAdapterOptions = {}): readonly Check[] {
  assertUniqueIds(checks);
  const selection = { only: splitList(options.only), skip: splitList(options.skip) };
  const ordered = testOrder(selectChecks(checks, selection));
  const seed = seedOf(options.seed);

  let session: Session | undefined;
  /** Verdicts so far in this group, for checks that depend on them. */
  const results = new Map<string, CheckResult>();

  describe(options.name ?? 'restprobe', { concurrent: false, shuffle: false }, () => {
    beforeAll(async () => {
      const profile = await loadOrExplain(options);
      session = { profile, client: clientForProfile(profile), shared: runShared(profile) };
    });

    afterAll(async () => {
      await session?.client.close();
      session = undefined;
    });

    for (const check of ordered) {
      // timeout 0: no vitest timer; the engine's per-check deadline bounds the check.
      test(`${check.id} — ${check.title}`, { timeout: 0, concurrent: false }, async (context) => {
        if (session === undefined) throw verdictError('CheckNotRun', 'could not run: the restprobe profile was not loaded (see the beforeAll error)');
        const blocker = check.dependsOn.map((id) => results.get(id)).find(blocks);
        const result = blocker ? blockedResult(check, blocker) : await runOnEachCollection(check, session, seed);
        results.set(check.id, result);
        await report(result, context, session.profile, seed);
      });
    }
  });
  return ordered;
}

/** What the group's checks share: the profile, one client, the ledger of what they created and the pace. */
interface Session {
  readonly profile: TargetProfile;
  readonly client: HttpClient;
  readonly shared: RunShared;
}

/**
 * Runs the check once per collection it applies to (as runChecks does; vitest's tests are
 * named before the profile is loaded, so one test stands for them all): the worst verdict,
 * its message naming its collection.
 */
async function runOnEachCollection(check: Check, session: Session, seed: number): Promise<CheckResult> {
  const results: CheckResult[] = [];
  for (const instance of instancesOf([check], session.profile)) {
    results.push(await executeCheck(check, { profile: instance.profile, client: session.client, seed, shared: session.shared, ...(instance.collection !== undefined && { collection: instance.collection }) }));
  }
  const worst = worstOf(results, ranks.outcome);
  if (worst === undefined) throw new RestprobeError('ERR_HARNESS', `${check.id} has no instance to run`);
  return worst.collection === undefined ? worst : { ...worst, message: `[${worst.collection}] ${worst.message}` };
}

/** Whether a dependency's verdict makes its dependents meaningless (as in runChecks). */
const blocks = (r: CheckResult | undefined): r is CheckResult =>
  r !== undefined && (r.status === 'fail' || r.status === 'warn' || r.errorCode === 'ERR_BLOCKED');

/** Turns one verdict into the test's outcome. */
async function report(result: CheckResult, context: TestContext, profile: TargetProfile, seed: number): Promise<void> {
  // For reporters that read task meta (the JSON reporter, allure): the verdict vitest has no word for.
  Object.assign(context.task.meta, { restprobe: { id: result.id, status: result.status, severity: result.severity, seed } });
  const scrub = (text: string): string => scrubSecrets(text, profile.secrets);
  switch (result.status) {
    case 'pass':
      return;
    case 'warn':
      await context.annotate(scrub(`warn (${result.severity}): ${verdictText(result, seed)}`), 'warning');
      return;
    case 'skip':
      context.skip(scrub(skipReason(result)));
      return;
    case 'fail':
      throw verdictError('CheckFailed', scrub(verdictText(result, seed)));
    case 'error': {
      const curl = reproducingCurl(result);
      const why = result.errorCode === 'ERR_BLOCKED' ? result.message.replace(/^not run: /, '') : result.message;
      throw verdictError('CheckNotRun', scrub([`could not run: ${why}`, ...(curl ? [`Reproduce: ${curl}`] : [])].join('\n')));
    }
  }
}

/** The message, the rule, the property replay seed, and the curl of the exchange the verdict is about. */
function verdictText(result: CheckResult, seed: number): string {
  const lines = [result.message, `Rule: ${result.rule}`];
  if (result.evidence.property) lines.push(`Replay: pass seed: ${result.evidence.property.seed} to the restprobe/vitest options (this run's seed is ${seed})`);
  const curl = reproducingCurl(result);
  if (curl) lines.push(`Reproduce: ${curl}`);
  return lines.join('\n');
}

/** An error whose stack is its message alone: frames inside the adapter would only be noise in a report. */
function verdictError(name: string, message: string): Error {
  const err = new Error(message);
  err.name = name;
  err.stack = `${name}: ${message}`;
  return err;
}

/** loadProfile, with a config error's problems in the message (vitest shows the message, not `problems`). */
async function loadOrExplain(options: VitestAdapterOptions): Promise<TargetProfile> {
  try {
    return await loadProfile({
      ...(options.config !== undefined && { configPath: options.config }),
      ...(options.baseUrl !== undefined && { baseUrl: options.baseUrl }),
      env: options.env ?? process.env,
      readOnly: options.readOnly ?? false,
    });
  } catch (err) {
    if (!(err instanceof RestprobeError)) throw err;
    throw verdictError('RestprobeConfigError', [`restprobe could not load its profile: ${err.message} (${err.code})`, ...err.problems.map((p) => `  - ${p}`)].join('\n'));
  }
}

/** Test order: the given order, each check after the checks it depends on, `last` checks at the end. */
function testOrder(checks: readonly Check[]): Check[] {
  const byId = new Map(checks.map((c) => [c.id, c]));
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const out: Check[] = [];
  const place = (check: Check, lastPhase: boolean): void => {
    // A dependency cycle keeps the given order.
    if (placed.has(check.id) || visiting.has(check.id)) return;
    visiting.add(check.id);
    for (const id of check.dependsOn) {
      const dep = byId.get(id);
      if (dep && (lastPhase || dep.schedule !== 'last')) place(dep, lastPhase);
    }
    visiting.delete(check.id);
    placed.add(check.id);
    out.push(check);
  };
  for (const c of checks) if (c.schedule !== 'last') place(c, false);
  for (const c of checks) if (c.schedule === 'last') place(c, true);
  return out;
}

function assertUniqueIds(checks: readonly Check[]): void {
  const ids = checks.map((c) => c.id);
  const repeated = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
  if (repeated.length > 0) throw new RestprobeError('ERR_USAGE', `restprobe/vitest: check ids must be unique; repeated: ${repeated.join(', ')}`);
}

/** Like the CLI, a selector list may also be comma-separated. */
function splitList(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v.length > 0);
}

function seedOf(seed: number | undefined): number {
  if (seed === undefined) return randomInt(0, 2 ** 31 - 1);
  if (!Number.isSafeInteger(seed)) throw new RestprobeError('ERR_USAGE', `restprobe/vitest: seed ${seed} is not an integer; pass the seed a failure message named`);
  return seed | 0;
}
