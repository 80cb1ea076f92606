/**
 * The harness's own errors: one class, a closed set of codes.
 *
 * A code tells the CLI which exit status to use and tells a check's runner whether a
 * problem is the target's (a finding) or the harness's (an `error` outcome).
 *
 * @example
 * ```ts
 * throw new RestprobeError('ERR_CONFIG_INVALID', 'baseUrl: must be a string');
 * ```
 */
export type RestprobeErrorCode =
  /** The command line was wrong (unknown option, bad value). Exit 2. */
  | 'ERR_USAGE'
  /** The config file could not be read or parsed. Exit 2. */
  | 'ERR_CONFIG_UNREADABLE'
  /** The config file broke the schema. Exit 2. */
  | 'ERR_CONFIG_INVALID'
  /** A secret names an environment variable that is not set. Exit 2. */
  | 'ERR_ENV_MISSING'
  /** The target refused the configured credentials (401). Exit 2. */
  | 'ERR_CREDENTIALS_REJECTED'
  /** A report given to read (--baseline, merge-reports) is missing, not JSON, or breaks the report schema. Exit 2. */
  | 'ERR_REPORT_INVALID'
  /** The OpenAPI document given to `init` cannot be read or parsed, is not OpenAPI 3.0 or 3.1, or has a $ref that does not resolve. Exit 2. */
  | 'ERR_OPENAPI_INVALID'
  /** The target refused the connection, or DNS failed. Exit 3. */
  | 'ERR_TARGET_UNREACHABLE'
  /** The target's TLS certificate is not trusted: give its CA (--ca, http.ca). Exit 3: it cannot be reached safely. */
  | 'ERR_TLS_UNTRUSTED'
  /** The proxy (--proxy) could not be reached, or refused. Exit 3. */
  | 'ERR_PROXY'
  /** The target wants credentials (401) and none are configured. Exit 2. */
  | 'ERR_CREDENTIALS_MISSING'
  /** The target did not answer within the request timeout. */
  | 'ERR_TIMEOUT'
  /** The connection broke mid-exchange, or the response was not valid HTTP. */
  | 'ERR_PROTOCOL'
  /** The target's response body exceeded the body-size cap. */
  | 'ERR_BODY_TOO_LARGE'
  /** The target kept answering 429 past the retries and waits the client rules allow: no verdict. */
  | 'ERR_RATE_LIMITED'
  /** The run would exceed `safety.maxRequests`. */
  | 'ERR_REQUEST_BUDGET'
  /** A check's fixture could not be made (a create, a fetch, a token): not the rule's verdict. */
  | 'ERR_SETUP'
  /** A check did not run because a check it depends on did not pass. */
  | 'ERR_BLOCKED'
  /** The run was stopped (a second SIGINT/SIGTERM) while the check ran; for the CLI, a run a signal interrupted. Exit 130. */
  | 'ERR_INTERRUPTED'
  /** A bug or unexpected state inside restprobe itself. Exit 3. */
  | 'ERR_HARNESS';

export interface RestprobeErrorOptions {
  readonly cause?: unknown;
  readonly exchange?: number;
  readonly rootCause?: string;
}

export class RestprobeError extends Error {
  override readonly name = 'RestprobeError';
  constructor(
    readonly code: RestprobeErrorCode,
    message: string,
    /** One line per problem, for errors that gather several (config validation). */
    readonly problems: readonly string[] = [],
    options: RestprobeErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.exchange = options.exchange;
    this.rootCause = options.rootCause;
  }

  /** The check's exchange this error is about (HttpResponse.exchangeIndex), for the evidence's focus. */
  readonly exchange: number | undefined;
  /** One line shared by every check this same cause stopped, for grouping in reports. */
  readonly rootCause: string | undefined;
}

/**
 * Exit codes of the CLI, one name per meaning. The design gives three meanings the code 3
 * (the target could not be reached; a check could not run; restprobe itself failed); they
 * keep their own names, so code that means one never reads as another. `interrupted` (130,
 * the shell's code for a command Ctrl-C ended) is a run a signal stopped, whatever it
 * found before.
 */
export const ExitCode = {
  ok: 0,
  failures: 1,
  usage: 2,
  /** The target or the proxy could not be reached (or only over untrusted TLS). */
  unreachable: 3,
  /** The run ended, but a check could not run (an `error` outcome): nothing failed, yet not everything was judged. */
  notJudged: 3,
  /** A bug or unexpected state inside restprobe itself. */
  harnessError: 3,
  interrupted: 130,
} as const;

/** The exit code an error of this code ends the CLI with: every code is placed here (no default), so a new one must be. */
export function exitCodeFor(code: RestprobeErrorCode): number {
  switch (code) {
    case 'ERR_USAGE':
    case 'ERR_CONFIG_UNREADABLE':
    case 'ERR_CONFIG_INVALID':
    case 'ERR_ENV_MISSING':
    case 'ERR_CREDENTIALS_REJECTED':
    case 'ERR_CREDENTIALS_MISSING':
    case 'ERR_REPORT_INVALID':
    case 'ERR_OPENAPI_INVALID':
      return ExitCode.usage;
    case 'ERR_INTERRUPTED':
      return ExitCode.interrupted;
    case 'ERR_TARGET_UNREACHABLE':
    case 'ERR_TLS_UNTRUSTED':
    case 'ERR_PROXY':
    case 'ERR_TIMEOUT':
    case 'ERR_PROTOCOL':
    case 'ERR_BODY_TOO_LARGE':
    case 'ERR_RATE_LIMITED':
      return ExitCode.unreachable;
    // A run stopped whole by one of these (the request budget spent before any check, a setup shared by all) judged nothing.
    case 'ERR_REQUEST_BUDGET':
    case 'ERR_SETUP':
    case 'ERR_BLOCKED':
      return ExitCode.notJudged;
    case 'ERR_HARNESS':
      return ExitCode.harnessError;
  }
}

export function isRestprobeError(err: unknown, code?: RestprobeErrorCode): err is RestprobeError {
  return err instanceof RestprobeError && (code === undefined || err.code === code);
}
