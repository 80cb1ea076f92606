/**
 * How checks are classified: by the conventions section their id names, and by severity.
 * Shared by the check model (check.ts) and the result model (result.ts).
 */

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
  DOC: '10 OpenAPI document',
} as const;

export type Section = keyof typeof sections;

/** `<PREFIX>-<kebab-slug>`, stable forever; the prefix names the section. */
export type CheckId = `${Section}-${string}`;

/**
 * `must`: a stated rule; breaking it is `fail`.
 * `should`: "optional", "usually", an RFC SHOULD; breaking it is `warn` (fails under --strict).
 * `info`: a broken expectation is reported as `warn`, and never fails a run, even under --strict.
 */
export type Severity = 'must' | 'should' | 'info';

/** The section a check id names. */
export function sectionOf(id: string): Section | undefined {
  const prefix = id.slice(0, id.indexOf('-'));
  return prefix in sections ? (prefix as Section) : undefined;
}
