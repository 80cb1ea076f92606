/**
 * The check model: a check is data plus one async function, registered once in its
 * section. The engine resolves its needs, schedules it, and turns what it does into a
 * verdict (see result.ts for verdicts and evidence).
 *
 * @example
 * ```ts
 * export const unknownPath404 = defineCheck({
 *   id: 'ERR-unknown-path-404',
 *   title: 'An unknown path answers 404',
 *   rule: 'A request to a path that names no resource MUST get 404 with a problem+json body.',
 *   severity: 'must',
 *   needs: [],
 *   async run(ctx) {
 *     const res = await ctx.http.send({ method: 'GET', path: '/restprobe-no-such-path' });
 *     expectStatus(res, 404);
 *   },
 * });
 * ```
 */
import type { ConfigKey } from './config-keys.js';
import { sectionOf, type CheckId, type Section, type Severity } from './section.js';

export { sections, type CheckId, type Section, type Severity } from './section.js';
import type { CheckContext, HttpResponse } from './context.js';
import { RestprobeError } from '../errors.js';
import type { NeedName, Resolved } from './needs.js';
import type { RunInputs } from './run-inputs.js';

/** Data a check attaches to its result (`ctx.record(name, value)`): kept in the report whatever the verdict. */
export interface RecordedData {
  /** What the data is, for the report schema's readers. */
  readonly description: string;
  /** The JSON Schema the value follows (the report schema describes the data under `checks[].data`). */
  readonly schema: Readonly<Record<string, unknown>>;
}

/** What {@link CheckDefinition.judgeRecorded} gets besides the data: the result's collection, and notes for its evidence. */
export interface RecordedContext {
  readonly collection: string | undefined;
  note(line: string): void;
}

/**
 * When a check runs. `parallel`: beside other checks (the default; checks touch only what
 * they create). `exclusive`: with nothing else in flight (a rate-limit burst). `last`:
 * after every other check, one at a time (probes that may damage the target). `review`: at
 * the very end, alone, judging the answers the other checks received (`ctx.received()`).
 */
export type Schedule = 'parallel' | 'exclusive' | 'last' | 'review';

/** A class of final HTTP status, for the answers a check's pass may rest on ({@link CheckDefinition.judges}). */
export type AnswerClass = '2xx' | '3xx' | '4xx' | '5xx';

/** Answers a pass rests on unless a check says otherwise: a success, or a client error the check provoked. */
export const defaultJudges: readonly AnswerClass[] = ['2xx', '4xx'];

/** What a check's author writes. */
export interface CheckDefinition<N extends NeedName, U extends NeedName> {
  readonly id: CheckId;
  /** Short human title. */
  readonly title: string;
  /** One normative sentence: what the target MUST (or SHOULD) do. */
  readonly rule: string;
  readonly severity: Severity;
  /** Needs resolved before `run`; an unmet one skips the check, naming its config key. */
  readonly needs: readonly N[];
  /** Optional needs: handed to `run` when met, absent otherwise. */
  readonly uses?: readonly U[];
  readonly schedule?: Schedule;
  /** Sends many requests (a property over writes): started before the others of its class, so a run never waits on it alone at the end. */
  readonly slow?: boolean;
  /**
   * Checks this one waits for. When one of them fails (or warns, or is blocked), this check
   * keeps its own verdict unless it would only repeat that finding (it could not make its
   * fixture, or failed on the same answer or root cause): then it is blocked, not failed.
   */
  readonly dependsOn?: readonly CheckId[];
  /**
   * Checks whose rule this one's method takes for granted (a conditional GET relies on a
   * stable ETag; a comparison after a GET, on a GET that changes nothing): when one of them
   * fails, whatever this check found cannot be told from that finding, so it is blocked.
   * Each is a dependency too.
   */
  readonly assumes?: readonly CheckId[];
  /**
   * The answers a pass may rest on (default `['2xx', '4xx']`). A check that returns having
   * got none of them (every request answered 5xx, a redirect, or nothing) judged nothing:
   * the engine turns its pass into an error saying what came instead. A check whose rule
   * is about redirects says so: `judges: ['3xx']`.
   */
  readonly judges?: readonly AnswerClass[];
  /** Runs the probe; returns normally on pass, throws {@link CheckFailure} on a violation. */
  run(ctx: CheckContext, needs: Resolved<N> & Partial<Resolved<U>>): Promise<void>;
  /** The data the check attaches to its result, by name (`ctx.record`); recording a name not declared here is a harness fault. */
  readonly records?: Readonly<Record<string, RecordedData>>;
  /**
   * Judges again from the data a run of the check recorded, once a run input it lacked then
   * is given (`merge-reports --baseline` judges what shards recorded without one). It
   * throws as `run` does ({@link CheckFailure}, {@link CheckSkipped}); returning is a pass.
   * Only a check that declares it is judged later, and only by its own code.
   *
   * @example
   * ```ts
   * judgeRecorded(ctx, { shapes }, { baseline }) { judgeShapes(ctx, ctx.collection, shapes as ShapeSnapshot, baseline); }
   * ```
   */
  judgeRecorded?(ctx: RecordedContext, recorded: Readonly<Record<string, unknown>>, inputs: RunInputs): void;
}

/** A registered check: its definition, with the section its id names and the defaults filled in. */
export interface Check<N extends NeedName = NeedName, U extends NeedName = NeedName> extends CheckDefinition<N, U> {
  readonly section: Section;
  readonly uses: readonly U[];
  readonly schedule: Schedule;
  readonly slow: boolean;
  readonly dependsOn: readonly CheckId[];
  readonly assumes: readonly CheckId[];
  readonly judges: readonly AnswerClass[];
  readonly records: Readonly<Record<string, RecordedData>>;
}

/** Registers a check's definition; the section comes from the id. */
export function defineCheck<const N extends NeedName = never, const U extends NeedName = never>(def: CheckDefinition<N, U>): Check<N, U> {
  if (!/^[A-Z]{3}-[a-z0-9]+(?:-[a-z0-9]+)*$/.test(def.id)) throw new Error(`check id "${def.id}" is not <PREFIX>-<kebab-slug>`);
  const assumes = def.assumes ?? [];
  const dependsOn = [...new Set([...(def.dependsOn ?? []), ...assumes])];
  return { ...def, section: sectionOf(def.id)!, uses: def.uses ?? [], schedule: def.schedule ?? 'parallel', slow: def.slow ?? false, dependsOn, assumes, judges: def.judges ?? defaultJudges, records: def.records ?? {} };
}

/** One conventions section's checks, as the catalogue lists them. */
export interface SectionChecks {
  readonly section: Section;
  readonly checks: readonly Check[];
}

/**
 * Registers a section's checks: the one place a check is listed. Every id must carry the
 * section's prefix, and no id may repeat.
 */
export function defineSection(section: Section, checks: readonly Check[]): SectionChecks {
  const foreign = checks.filter((c) => c.section !== section).map((c) => c.id);
  if (foreign.length > 0) throw new Error(`section ${section} lists checks of other sections: ${foreign.join(', ')}`);
  const ids = checks.map((c) => c.id);
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (repeated.length > 0) throw new Error(`section ${section} lists ${repeated.join(', ')} twice`);
  return { section, checks };
}

/**
 * Thrown by a check (through the assertion helpers) when the target breaks the rule.
 * The message says what was found, then what was expected.
 */
export class CheckFailure extends Error {
  override readonly name = 'CheckFailure';
  constructor(
    message: string,
    readonly expected?: string,
    readonly found?: string,
    /** The exchange that broke the rule (HttpResponse.exchangeIndex), when one did. */
    readonly exchange?: number,
    /**
     * What is wrong at the target, in one line shared by every check that fails for the same
     * reason ("error responses are not labelled application/problem+json"): reports group
     * such failures as one fix, and a check that depends on one failing for this cause is
     * blocked rather than failed a second time. Set only by the one helper that detects it.
     */
    readonly rootCause?: string,
  ) {
    super(message);
  }
}

/**
 * Thrown when a fixture a check needs cannot be made (an item created, a page walked, a
 * token fetched): setup is not a verdict, so the check ends as `error` (ERR_SETUP), naming
 * the exchange, instead of blaming the target for the rule it was about to test.
 *
 * @example
 * ```ts
 * if (res.status !== 201) throw new SetupFailure(res, `creating a projects item failed: POST /v2/projects answered ${res.status}`);
 * ```
 */
export class SetupFailure extends RestprobeError {
  constructor(res: HttpResponse, message: string, rootCause = `${res.method} ${new URL(res.url).pathname} answered ${res.status}`) {
    super('ERR_SETUP', `setup: ${message}`, [], { exchange: res.exchangeIndex, rootCause });
  }
}

/**
 * A breach of the SHOULD part of a MUST check's rule (a code reused: refused, as it MUST
 * be, but the tokens of its first use not revoked, as it SHOULD): a warn, never a fail.
 */
export class ShouldFailure extends CheckFailure {}

/**
 * Thrown when a check does not apply to what the target answered (no 304 to observe).
 * Config that is missing is a need, resolved before the check runs; `configKey` names a
 * key only when changing it would make the check apply.
 */
export class CheckSkipped extends Error {
  override readonly name = 'CheckSkipped';
  constructor(
    message: string,
    readonly configKey?: ConfigKey,
  ) {
    super(message);
  }
}
