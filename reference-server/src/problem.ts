/**
 * Problem details (RFC 9457): the one shape every error body has.
 *
 * Pipeline stages and handlers throw a {@link ProblemError}; the pipeline turns it into
 * a response in one place (`respond.ts`), so no error can leave in another shape.
 */

/** One offending field of a request. */
export interface FieldError {
  /** The property name (or `(body)` for the body as a whole, or a query parameter). */
  readonly field: string;
  readonly message: string;
}

/** A problem details object, before faults and serialisation. */
export interface Problem {
  /** A URI: `about:blank` for generic statuses, a URN for the server's own problem types. */
  readonly type: string;
  readonly title: string;
  /** Equal to the HTTP status (RFC 9457 §3.1.2). */
  readonly status: number;
  /** A sentence that helps the client fix the request. Never echoes secrets. */
  readonly detail: string;
  readonly errors?: readonly FieldError[];
}

/** Thrown anywhere in the request pipeline to answer with a problem. */
export class ProblemError extends Error {
  override readonly name = 'ProblemError';
  constructor(
    readonly problem: Problem,
    /** Headers the status needs (Allow on 405, WWW-Authenticate on 401, …). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(problem.detail);
  }
}

/** The server's own problem types. Generic statuses use `about:blank` instead. */
export const problemTypes = {
  validationFailed: 'urn:restprobe:problem:validation-failed',
  malformedJson: 'urn:restprobe:problem:malformed-json',
  bodyRequired: 'urn:restprobe:problem:body-required',
  invalidQuery: 'urn:restprobe:problem:invalid-query-parameter',
} as const;

/**
 * Reason phrases as RFC 9110 §15 spells them. Used for the status line and for the
 * title of `about:blank` problems, which RFC 9457 §4.2.1 says should be the phrase.
 */
const reasonPhrases: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  303: 'See Other',
  304: 'Not Modified',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  410: 'Gone',
  408: 'Request Timeout',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** The RFC 9110 reason phrase of a status this server sends. */
export function reasonPhrase(status: number): string {
  return reasonPhrases[status] ?? 'Unknown';
}

/** A problem of type `about:blank`: the status says it all, the title is its phrase. */
export function genericProblem(status: number, detail: string): Problem {
  return { type: 'about:blank', title: reasonPhrase(status), status, detail };
}

/** 404 for a path or an id that names nothing. */
export function notFound(detail = 'No resource exists at this path.'): ProblemError {
  return new ProblemError(genericProblem(404, detail));
}

/** 422: the body is well-formed JSON but some fields break the resource's rules. */
export function validationFailed(errors: readonly FieldError[]): ProblemError {
  const fields = [...new Set(errors.map((e) => e.field))].join(', ');
  return new ProblemError({
    type: problemTypes.validationFailed,
    title: 'Validation failed',
    status: 422,
    detail: `The request body has invalid fields: ${fields}. See errors for each one.`,
    errors,
  });
}

/**
 * 400: some query parameters cannot be used. The detail repeats each error's message
 * (fixed texts, never the value sent), so that it names limits such as the maximum page size.
 */
export function invalidQuery(errors: readonly FieldError[]): ProblemError {
  const fields = [...new Set(errors.map((e) => e.field))].join(', ');
  const reasons = errors.map((e) => `${e.field} ${e.message}`).join('; ');
  return new ProblemError({
    type: problemTypes.invalidQuery,
    title: 'Invalid query parameter',
    status: 400,
    detail: `These query parameters have invalid values: ${fields} (${reasons}). See errors for each one.`,
    errors,
  });
}
