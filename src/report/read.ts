/**
 * Reads a report restprobe wrote earlier (`--baseline`, `merge-reports`) and holds it to
 * the report schema that ships with the package
 * (fixtures/schema/restprobe.report.schema.json), so what the comparison or the merge
 * builds on is what the schema promises. Compiled on first use: only these commands pay.
 */
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { newAjv } from '../ajv-lib.js';
import { RestprobeError } from '../errors.js';
import { problemsFromAjv } from '../config/problems.js';
import { packageRoot } from '../package-root.js';
import { reportSchemaVersion, type Report } from './model.js';

/** Problems listed with the error, at most (one broken field often breaks many). */
const maxProblems = 8;

/**
 * Absolute path of the bundled report schema.
 *
 * @example
 * ```ts
 * reportSchemaPath(); // '/…/restprobe/fixtures/schema/restprobe.report.schema.json'
 * ```
 */
export function reportSchemaPath(): string {
  return join(packageRoot(), 'fixtures', 'schema', 'restprobe.report.schema.json');
}

let validator: ValidateFunction<Report> | undefined;

/**
 * The compiled report validator (every problem, with the data that broke it).
 *
 * @example
 * ```ts
 * const validate = reportValidator();
 * validate(JSON.parse(text)); // true for a report restprobe wrote
 * ```
 */
export function reportValidator(): ValidateFunction<Report> {
  if (validator) return validator;
  const ajv = newAjv('draft-07', { allErrors: true, verbose: true, strict: true }, ['date-time']);
  validator = ajv.compile<Report>(JSON.parse(readFileSync(reportSchemaPath(), 'utf8')) as object);
  return validator;
}

/**
 * An earlier version's report as the current version: versions 1 to 3 only lacked
 * optional fields; version 4 held a result's recorded shapes as `shapes`, now `data.shapes`;
 * versions before 6 had no `failureCauses` (no failure named its cause); version 7 added the
 * section `DOC`, so a version-6 report is one as it is.
 * Anything else is left for the validator to judge.
 */
function upgrade(data: unknown): unknown {
  if (data === null || typeof data !== 'object') return data;
  const version = (data as { schemaVersion?: unknown }).schemaVersion;
  if (version === 6) return { ...data, schemaVersion: reportSchemaVersion };
  if (version !== 1 && version !== 2 && version !== 3 && version !== 4 && version !== 5) return data;
  const checks = (data as { checks?: unknown }).checks;
  const moved = Array.isArray(checks)
    ? checks.map((c: unknown) => {
        if (c === null || typeof c !== 'object' || !('shapes' in c)) return c;
        const { shapes, ...rest } = c as { shapes: unknown };
        return { ...rest, data: { shapes } };
      })
    : checks;
  // Before version 6 no failure named its cause, so none shared one.
  return { failureCauses: [], ...data, schemaVersion: reportSchemaVersion, ...(Array.isArray(checks) && { checks: moved }) };
}

/**
 * The report in a file, validated. A report of an earlier schema version is read as the
 * current one (see `upgrade`: a version-4 result's `shapes` become `data.shapes`). Throws
 * ERR_REPORT_INVALID naming `what` (`--baseline`) and the file.
 *
 * @example
 * ```ts
 * const previous = await readReport('reports/previous.json', '--baseline');
 * previous.checks.length; // 130
 * ```
 */
export async function readReport(path: string, what: string): Promise<Report> {
  const fail = (why: string, problems: readonly string[] = [], cause?: unknown): never => {
    throw new RestprobeError('ERR_REPORT_INVALID', `${what} ${path}: ${why}`, problems, { cause });
  };
  let text = '';
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    fail(`cannot read it (${(err as { code?: string }).code ?? String(err)})`, [], err);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    fail(`not JSON (${(err as Error).message}); give a restprobe-report.json`, [], err);
  }
  const upgraded = upgrade(data);
  const validate = reportValidator();
  if (!validate(upgraded)) {
    const problems = problemsFromAjv(validate.errors ?? []);
    fail(`not a restprobe report of schemaVersion ${reportSchemaVersion} (see fixtures/schema/restprobe.report.schema.json): ${problems[0]}`, problems.slice(0, maxProblems));
  }
  return upgraded as Report;
}
