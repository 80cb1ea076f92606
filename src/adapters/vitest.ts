/**
 * `restprobe/vitest`: runs restprobe checks as vitest tests, so a team's own vitest setup
 * (its reporters, `--shard`, allure-vitest, CI annotations) shows conformance verdicts
 * beside its other tests.
 *
 * Each registered check becomes one vitest test, named by its id and title. The check runs
 * through the same engine as `restprobe run` ({@link runChecks}), and its verdict maps
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
 * Scheduling is restprobe's, not vitest's: when the group starts, the checks whose tests
 * vitest will run (all of them, or what `-t` or `.only` left) run once through the engine
 * ({@link runChecks}), as with `restprobe run`: in the seeded plan order, `http.concurrency`
 * at a time, `exclusive` checks alone and `last` checks at the end, each once per collection
 * it applies to. A check whose dependency failed or warned is blocked (`could not run: it
 * depends on …`); a dependency vitest does not run (filtered out with `-t`, in another file)
 * blocks nothing. Each test waits for its own check's verdicts and reports the worst over its
 * collections. `exclusive` checks are alone only within their registration: vitest may run
 * other test files against the same target at the same time.
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
import { afterAll, beforeAll, describe, test, type TestContext } from 'vitest';
import { catalogue } from '../../suites/catalogue.js';
import { loadProfile } from '../config/load.js';
import { runChecks } from '../engine/run.js';
import { documentFor } from '../engine/openapi-input.js';
import { clientForProfile } from '../http/client.js';
import { parseSeed } from '../engine/seed.js';
import { selectChecks, selectionOf } from '../engine/select.js';
import { RestprobeError } from '../errors.js';
import type { Check } from '../model/check.js';
import type { TargetProfile } from '../model/profile.js';
import { ranks, worstOf, type CheckResult } from '../model/result.js';
import { reproducingCurl } from '../report/evidence-text.js';
import { skipReason } from '../report/wording.js';
import { scrubSecrets } from '../secrets-scrub.js';
import { VerdictsByCheck } from './verdicts-by-check.js';

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
 * The profile is loaded and the run started in the group's `beforeAll`: a config problem
 * or an unset secret fails the group there, with every problem listed. `afterAll` waits for
 * the run to end (its cleanup included). Each test has no vitest timeout of its own: the
 * check's own deadline (30 × `http.timeoutMs`) bounds it. See the module comment for the
 * verdict mapping and for how the engine schedules the checks.
 *
 * @returns The checks registered, in the order their tests are listed (the engine chooses the order they run in).
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
 * @returns The checks registered, in the order their tests are listed (the engine chooses the order they run in).
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
  const selected = selectChecks(checks, selectionOf(options.only, options.skip));
  const seed = parseSeed(options.seed, 'restprobe/vitest seed');
  const testName = (check: Check): string => `${check.id} — ${check.title}`;

  let profile: TargetProfile | undefined;
  let verdicts: VerdictsByCheck | undefined;
  let run: Promise<unknown> | undefined;

  describe(options.name ?? 'restprobe', { concurrent: false, shuffle: false }, () => {
    // vitest reads the first parameter as fixtures, and takes only a destructuring pattern there.
    beforeAll(async ({}, suite) => {
      profile = await loadOrExplain(options);
      // The checks whose tests vitest runs: `-t` and `.only` select here too.
      const running = new Set(suite.tasks.filter((t) => t.type === 'test' && t.mode === 'run').map((t) => t.name));
      const toRun = selected.filter((c) => running.has(testName(c)));
      const byCheck = new VerdictsByCheck(toRun, profile);
      verdicts = byCheck;
      // Started, not awaited: each test waits for its own check's verdicts.
      const client = clientForProfile(profile);
      const openapi = await documentFor(profile, toRun, client).finally(() => client.close());
      run = runChecks({ profile, checks: toRun, seed, ...(openapi !== undefined && { inputs: { openapi } }), onResult: (r) => byCheck.add(r) }).then(
        () => byCheck.end(),
        (err: unknown) => byCheck.end(err),
      );
    }, 0);

    // timeout 0 (here and in beforeAll): the engine's per-check deadlines bound the run.
    afterAll(async () => {
      await run;
    }, 0);

    for (const check of selected) {
      test(testName(check), { timeout: 0, concurrent: false }, async (context) => {
        if (profile === undefined || verdicts === undefined) throw verdictError('CheckNotRun', 'could not run: the restprobe profile was not loaded (see the beforeAll error)');
        await report(worstOutcome(check, await verdicts.of(check.id)), context, profile, seed);
      });
    }
  });
  return selected;
}

/**
 * The one verdict a test shows for a check run once per collection (vitest's tests are
 * named before the profile is loaded, so one test stands for them all): the worst
 * outcome, its message naming its collection.
 */
function worstOutcome(check: Check, results: readonly CheckResult[]): CheckResult {
  const worst = worstOf(results, ranks.outcome);
  if (worst === undefined) throw new RestprobeError('ERR_HARNESS', `${check.id} has no instance to run`);
  return worst.collection === undefined ? worst : { ...worst, message: `[${worst.collection}] ${worst.message}` };
}

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
