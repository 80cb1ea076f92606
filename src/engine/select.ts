/**
 * `--only` and `--skip` (and the vitest adapter's `only`/`skip`): a selector is a section
 * prefix (`ERR`) or a check id (`ERR-problem-json-content-type`). An unknown selector is a
 * usage error, not silence; so are two checks with one id, which no selector could tell apart.
 */
import type { Check } from '../model/check.js';
import { sections } from '../model/section.js';
import { RestprobeError } from '../errors.js';

export interface Selection {
  readonly only: readonly string[];
  readonly skip: readonly string[];
}

/**
 * The non-empty, trimmed items of repeated and comma-separated values: how every way of
 * running checks takes its selectors (and the CLI its other list flags).
 *
 * @example
 * ```ts
 * splitList(['ERR,END', ' LIM ']); // ['ERR', 'END', 'LIM']
 * ```
 */
export function splitList(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v.length > 0);
}

/**
 * A selection from selector lists as given (repeated, comma-separated or both).
 *
 * @example
 * ```ts
 * selectionOf(['ERR,END'], ['ERR-bad-input-no-5xx']); // { only: ['ERR', 'END'], skip: ['ERR-bad-input-no-5xx'] }
 * ```
 */
export function selectionOf(only: readonly string[] | undefined, skip: readonly string[] | undefined): Selection {
  // `--only ""` (an unset variable in a CI job) would run the whole catalogue instead of a part.
  if (only !== undefined && only.length > 0 && splitList(only).length === 0) throw new RestprobeError('ERR_USAGE', '--only: no check or section given');
  return { only: splitList(only), skip: splitList(skip) };
}

const matches = (check: Check, selector: string): boolean => check.id === selector || check.section === selector;

/**
 * @example
 * ```ts
 * selectChecks(catalogue, { only: ['ERR'], skip: ['ERR-bad-input-no-5xx'] });
 * ```
 */
export function selectChecks(checks: readonly Check[], selection: Selection): Check[] {
  assertUniqueIds(checks);
  validateSelection(checks, selection);
  return filterChecks(checks, selection);
}

/** Fails when two checks share an id: results, dependencies and selectors go by id. */
function assertUniqueIds(checks: readonly Check[]): void {
  const ids = checks.map((c) => c.id);
  const repeated = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
  if (repeated.length > 0) throw new RestprobeError('ERR_USAGE', `check ids must be unique; repeated: ${repeated.join(', ')}`);
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
  if (selector.toUpperCase() in sections) return ` (did you mean the section ${selector.toUpperCase()}?)`;
  const lower = selector.toLowerCase();
  const near = checks.find((c) => c.id.toLowerCase().includes(lower) || lower.includes(c.id.toLowerCase()));
  return near ? ` (did you mean ${near.id}?)` : ` (sections: ${Object.keys(sections).join(', ')})`;
}
