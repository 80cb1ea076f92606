/**
 * What a run produces: verdicts and the evidence behind them, as every report sees them.
 * Apart from the check model (check.ts), which says what a check is.
 */
import type { RestprobeErrorCode } from '../errors.js';
import type { ConfigKey } from './config-keys.js';
import type { Section, Severity } from './section.js';

export type Status = 'pass' | 'fail' | 'warn' | 'skip' | 'error';

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
  /** The collection this result is about, when the check ran once per collection. */
  readonly collection?: string;
  readonly section: Section;
  readonly title: string;
  readonly rule: string;
  readonly severity: Severity;
  readonly status: Status;
  readonly message: string;
  /** For skips: the config key (or flag) that would enable the check. */
  readonly configKey?: ConfigKey;
  /** For errors: the harness's error code (`ERR_SETUP`: a fixture could not be made; `ERR_BLOCKED`: a prerequisite check did not pass). */
  readonly errorCode?: RestprobeErrorCode;
  /**
   * For errors: one line shared by every check that could not run for the same reason
   * ("POST /v2/projects answered 500"), so reports group them. For a fail or warn, when the
   * check names one: what is wrong at the target, shared by every check failing for the same
   * reason ("error responses are not labelled application/problem+json"): one fix, grouped.
   */
  readonly rootCause?: string;
  readonly durationMs: number;
  readonly evidence: Evidence;
  /**
   * The data the check recorded (`ctx.record`), by the names its `records` declare, whatever
   * its verdict (VER-compatible-within-major's `shapes`: what a later run's `--baseline`
   * compares with). Scrubbed like the rest of the result.
   */
  readonly data?: Readonly<Record<string, unknown>>;
}

/** How reports name a result: its id, with its collection when it has one (`END-get-item-200 [books]`). */
export const resultName = (id: string, collection?: string): string => (collection === undefined ? id : `${id} [${collection}]`);

/**
 * Orders of badness for the one result that stands for a check's runs over several
 * collections. Findings first (reports, the fault matrix): a failure or warning on any
 * collection is what the check found. Outcome first (the vitest adapter): an error fails
 * the test, so it must not hide behind a warning, which passes it.
 */
export const ranks = {
  finding: { skip: 0, pass: 1, error: 2, warn: 3, fail: 4 },
  outcome: { skip: 0, pass: 1, warn: 2, error: 3, fail: 4 },
} as const satisfies Record<string, Record<Status, number>>;

/** The worst of `results` by `rank` (the first of equals), or undefined for none. */
export function worstOf<R extends Pick<CheckResult, 'status'>>(results: readonly R[], rank: Record<Status, number> = ranks.finding): R | undefined {
  return results.reduce<R | undefined>((worst, r) => (worst === undefined || rank[r.status] > rank[worst.status] ? r : worst), undefined);
}

/** The result that stands for a check's runs over several collections: its worst finding. */
export const worstFinding = <R extends Pick<CheckResult, 'status'>>(results: readonly R[]): R | undefined => worstOf(results, ranks.finding);
