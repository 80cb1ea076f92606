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
  /** The target refused the connection, or DNS failed. Exit 3. */
  | 'ERR_TARGET_UNREACHABLE'
  /** The target did not answer within the request timeout. */
  | 'ERR_TIMEOUT'
  /** The connection broke mid-exchange, or the response was not valid HTTP. */
  | 'ERR_PROTOCOL'
  /** The target's response body exceeded the body-size cap. */
  | 'ERR_BODY_TOO_LARGE'
  /** The run would exceed `safety.maxRequests`. */
  | 'ERR_REQUEST_BUDGET'
  /** A bug or unexpected state inside restprobe itself. Exit 3. */
  | 'ERR_HARNESS';

export class RestprobeError extends Error {
  override readonly name = 'RestprobeError';
  constructor(
    readonly code: RestprobeErrorCode,
    message: string,
    /** One line per problem, for errors that gather several (config validation). */
    readonly problems: readonly string[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Exit codes of the CLI, as the design fixes them. */
export const ExitCode = { ok: 0, failures: 1, usage: 2, unreachable: 3 } as const;

/** The exit code an error of this code ends the CLI with. */
export function exitCodeFor(code: RestprobeErrorCode): number {
  switch (code) {
    case 'ERR_USAGE':
    case 'ERR_CONFIG_UNREADABLE':
    case 'ERR_CONFIG_INVALID':
    case 'ERR_ENV_MISSING':
    case 'ERR_CREDENTIALS_REJECTED':
      return ExitCode.usage;
    default:
      return ExitCode.unreachable;
  }
}

export function isRestprobeError(err: unknown, code?: RestprobeErrorCode): err is RestprobeError {
  return err instanceof RestprobeError && (code === undefined || err.code === code);
}
