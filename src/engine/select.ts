/**
 * `--only` and `--skip`: a selector is a section prefix (`ERR`) or a check id
 * (`ERR-problem-json-content-type`). An unknown selector is a usage error, not silence.
 */
import type { Check } from '../model/check.js';
import { sections } from '../model/section.js';
import { RestprobeError } from '../errors.js';

export interface Selection {
  readonly only: readonly string[];
  readonly skip: readonly string[];
}

const matches = (check: Check, selector: string): boolean => check.id === selector || check.section === selector;

/**
 * @example
 * ```ts
 * selectChecks(catalogue, { only: ['ERR'], skip: ['ERR-bad-input-no-5xx'] });
 * ```
 */
export function selectChecks(checks: readonly Check[], selection: Selection): Check[] {
  validateSelection(checks, selection);
  return filterChecks(checks, selection);
}

/** Fails on selectors that name neither a section nor a check of `checks` (the whole catalogue). */
function validateSelection(checks: readonly Check[], selection: Selection): void {
  const problems = [...selection.only, ...selection.skip]
    .filter((s) => !(s in sections) && !checks.some((c) => c.id === s))
    .map((s) => `unknown check or section "${s}"${suggest(s, checks)}`);
  if (problems.length > 0) throw new RestprobeError('ERR_USAGE', problems.join('; '), problems);
}

/** The checks a (validated) selection keeps. */
function filterChecks(checks: readonly Check[], selection: Selection): Check[] {
  return checks.filter(
    (c) => (selection.only.length === 0 || selection.only.some((s) => matches(c, s))) && !selection.skip.some((s) => matches(c, s)),
  );
}

function suggest(selector: string, checks: readonly Check[]): string {
  const lower = selector.toLowerCase();
  const near = checks.find((c) => c.id.toLowerCase().includes(lower) || lower.includes(c.id.toLowerCase()));
  return near ? ` (did you mean ${near.id}?)` : ` (sections: ${Object.keys(sections).join(', ')})`;
}
