/**
 * Secrets out of a report before any writer sees it. Scrubbing works on the report's
 * values, not on the text a writer makes of them: what a check found (messages, evidence,
 * root causes, leftovers) is scrubbed, but what names and structures the report (check
 * ids, titles, rules, config keys, result names, statuses) never is, so a secret that
 * shares letters with `AUT-client-credentials-token` cannot rename the check, and a
 * baseline still matches.
 */
import type { CheckResult } from '../model/result.js';
import type { Secret } from '../model/profile.js';
import { scrubSecrets } from '../secrets-scrub.js';
import type { Report } from './model.js';

/**
 * Members whose strings (or lists of strings) are the report's own words or names, never
 * a target's: left as they are. Objects under them are still walked (a report's `checks`
 * are results, a root cause's `checks` are names).
 */
const structural = new Set([
  'id',
  'title',
  'rule',
  'section',
  'name',
  'severity',
  'status',
  'configKey',
  'errorCode',
  'collection',
  'runOrder',
  'checks',
  'schemaVersion',
  'startedAt',
  'was',
  'now',
]);

function scrubValue(value: unknown, secrets: readonly Secret[], keep: boolean): unknown {
  if (typeof value === 'string') return keep ? value : scrubSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, secrets, keep));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = scrubValue(v, secrets, structural.has(k));
  return out;
}

/**
 * `report` with every secret (and plausible piece of one) replaced by `$ENV_NAME` in what
 * the run found, and its names and structure untouched.
 *
 * @example
 * ```ts
 * const safe = scrubReport(report, profile.secrets);
 * safe.checks[0].id === report.checks[0].id; // true, whatever the secrets
 * ```
 */
export function scrubReport(report: Report, secrets: readonly Secret[]): Report {
  return secrets.length === 0 ? report : (scrubValue(report, secrets, false) as Report);
}

/** One result scrubbed as {@link scrubReport} scrubs a report's (the terminal's live lines). */
export function scrubResult(result: CheckResult, secrets: readonly Secret[]): CheckResult {
  return secrets.length === 0 ? result : (scrubValue(result, secrets, false) as CheckResult);
}
