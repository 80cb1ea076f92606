/**
 * The check model: a check is data plus one async function.
 *
 * @example
 * ```ts
 * export const unknownPath404: Check = {
 *   id: 'ERR-unknown-path-404',
 *   section: 'ERR',
 *   title: 'An unknown path answers 404',
 *   rule: 'A request to a path that names no resource MUST get 404 with a problem+json body.',
 *   severity: 'must',
 *   requires: [],
 *   async run(ctx) {
 *     const res = await ctx.http.send({ method: 'GET', path: '/restprobe-no-such-path' });
 *     expectStatus(res, 404);
 *   },
 * };
 * ```
 */
import type { CheckContext } from './context.js';

/** Conventions sections, by the id prefix that names them. */
export const sections = {
  CON: '1 Constraints',
  RES: '2 Resources and fields',
  STA: '3 States and transitions',
  END: '4 Endpoints',
  AUT: '5 Authentication',
  EVT: '6 Events',
  ERR: '7 Errors',
  LIM: '8 Limits',
  VER: '9 Versioning',
} as const;
export type Section = keyof typeof sections;

/**
 * `must`: a stated rule; breaking it is `fail`.
 * `should`: "optional", "usually", an RFC SHOULD; breaking it is `warn` (fails under --strict).
 * `info`: a broken expectation is reported as `warn`, and never fails a run, even under --strict.
 */
export type Severity = 'must' | 'should' | 'info';

export type Status = 'pass' | 'fail' | 'warn' | 'skip' | 'error';

/**
 * What a check needs before it can run. When a requirement is not met, the check is
 * skipped with the reason and the config key that would enable it.
 */
export type Requirement =
  /** At least one collection in the config (`collections`). */
  | 'collection'
  /** A collection with a `create.body`, and writes allowed (not `--read-only`). */
  | 'write'
  /** Credentials configured (`auth.apiKey`). */
  | 'credentials';

export interface Check {
  /** `<PREFIX>-<kebab-slug>`, stable forever. */
  readonly id: string;
  readonly section: Section;
  /** Short human title. */
  readonly title: string;
  /** One normative sentence: what the target MUST (or SHOULD) do. */
  readonly rule: string;
  readonly severity: Severity;
  readonly requires: readonly Requirement[];
  /** Runs the probe; returns normally on pass, throws {@link CheckFailure} on a violation. */
  run(ctx: CheckContext): Promise<void>;
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
  ) {
    super(message);
  }
}

/** Thrown when a check does not apply to this target; `configKey` would enable it. */
export class CheckSkipped extends Error {
  override readonly name = 'CheckSkipped';
  constructor(
    message: string,
    readonly configKey?: string,
  ) {
    super(message);
  }
}

/** One request and its response as recorded: redacted, bodies truncated. */
export interface ExchangeRecord {
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly headers: Record<string, string>;
    readonly body?: string;
  };
  readonly response?: {
    readonly status: number;
    readonly headers: Record<string, string | string[]>;
    readonly body?: string;
    /** Set when the body was cut for the report (the check saw all of it). */
    readonly bodyTruncated?: boolean;
  };
  /** Transport error instead of a response (timeout, reset, body cap). */
  readonly error?: string;
  readonly durationMs: number;
  /** A curl command that repeats the request, secrets as `$ENV_VAR`. */
  readonly curl: string;
}

/** fast-check replay data, for property checks. */
export interface PropertyEvidence {
  readonly seed: number;
  readonly path?: string;
  readonly numRuns: number;
  readonly counterexample?: string;
  readonly shrunk?: boolean;
}

export interface Evidence {
  readonly expected?: string;
  readonly found?: string;
  /** Exchanges kept for the report: all of them on a failure, a summary line each on a pass. */
  readonly exchanges: readonly ExchangeRecord[];
  /** How many requests the check sent in all. */
  readonly requestCount: number;
  /** Index in `exchanges` of the exchange the verdict is about (its curl reproduces it). */
  readonly focus?: number;
  readonly notes: readonly string[];
  readonly property?: PropertyEvidence;
}

/** The outcome of one check, as reports see it. */
export interface CheckResult {
  readonly id: string;
  readonly section: Section;
  readonly title: string;
  readonly rule: string;
  readonly severity: Severity;
  readonly status: Status;
  readonly message: string;
  /** For skips: the config key (or flag) that would enable the check. */
  readonly configKey?: string;
  readonly durationMs: number;
  readonly evidence: Evidence;
}
