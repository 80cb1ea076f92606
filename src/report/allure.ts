/**
 * `--format allure`: Allure results (`allure-results/`), written with allure-js-commons'
 * own reporter runtime, as allure-vitest writes them: one test per result (named for its
 * check and collection, so Allure keeps its history across runs) with its status, labels
 * (section as suite and feature, severity, check id), the rule as description, the
 * exchanges (in Allure's HTTP exchange form) and the reproducing curl as attachments, and
 * the seed as a parameter.
 * `npx allure generate allure-results` (Allure 3) renders them.
 *
 * The runtime writes through a writer of ours that collects the files as text, so they
 * reach the disk the way every report does: through the secret scrub.
 */
import {
  ALLURE_HTTP_EXCHANGE_CONTENT_TYPE,
  ALLURE_HTTP_EXCHANGE_FILE_EXTENSION,
  ALLURE_HTTP_EXCHANGE_SCHEMA_VERSION,
  ContentType,
  Status,
  type HttpExchange,
  type Label,
  type Parameter,
  type StatusDetails,
  type TestResult,
  type TestResultContainer,
} from 'allure-js-commons';
import { ReporterRuntime, stringifyEnvInfo, type Writer } from 'allure-js-commons/sdk/reporter';
import type { Category, EnvironmentInfo } from 'allure-js-commons/sdk';
import { resultName, type CheckResult, type ExchangeRecord } from '../model/result.js';
import type { Severity } from '../model/section.js';
import { capped, evidenceText, exchangeSummary, reproducingCurl } from './evidence-text.js';
import { isFailing, type Report } from './model.js';
import type { ReportFile } from './write.js';
import { notRunResults, skipReason } from './wording.js';

/** The folder the results go to, inside the report directory (Allure's usual name). */
export const allureResultsDir = 'allure-results';

const severities: Record<Severity, string> = { must: 'critical', should: 'normal', info: 'trivial' };

/** Collects what the runtime writes, as text files under {@link allureResultsDir}. */
class CollectingWriter implements Writer {
  readonly files: ReportFile[] = [];
  private add(name: string, content: string): void {
    this.files.push({ path: `${allureResultsDir}/${name}`, content });
  }
  writeResult(result: TestResult): void {
    this.add(`${result.uuid}-result.json`, JSON.stringify(result));
  }
  writeGroup(result: TestResultContainer): void {
    this.add(`${result.uuid}-container.json`, JSON.stringify(result));
  }
  writeAttachment(distFileName: string, content: Buffer): void {
    this.add(distFileName, content.toString('utf8'));
  }
  writeAttachmentFromPath(distFileName: string): void {
    throw new Error(`restprobe writes no attachment from a file (${distFileName})`);
  }
  writeEnvironmentInfo(info: EnvironmentInfo): void {
    this.add('environment.properties', stringifyEnvInfo(info));
  }
  writeCategoriesDefinitions(categories: Category[]): void {
    this.add('categories.json', JSON.stringify(categories));
  }
  writeGlobals(distFileName: string, info: unknown): void {
    this.add(distFileName, JSON.stringify(info));
  }
}

/** Allure's categories for what restprobe's statuses and error codes mean. */
const categories: Category[] = [
  { name: 'Rule broken by the target', matchedStatuses: [Status.FAILED] },
  { name: 'Blocked by a failed dependency', matchedStatuses: [Status.BROKEN], messageRegex: '^not run: .*' },
  { name: 'Could not run (setup, transport, harness)', matchedStatuses: [Status.BROKEN] },
  { name: 'Not configured or not applicable', matchedStatuses: [Status.SKIPPED] },
];

function status(result: CheckResult, strict: boolean): Status {
  switch (result.status) {
    case 'pass':
      return Status.PASSED;
    case 'skip':
      return Status.SKIPPED;
    case 'error':
      return Status.BROKEN;
    case 'fail':
      return Status.FAILED;
    case 'warn':
      return isFailing(result, strict) ? Status.FAILED : Status.PASSED;
  }
}

function statusDetails(result: CheckResult): StatusDetails {
  const { expected, found } = result.evidence;
  const message = result.status === 'skip' ? skipReason(result) : result.status === 'warn' ? `warning: ${result.message}` : result.message;
  return {
    ...(message !== '' && { message: capped(message) }),
    ...(result.status !== 'pass' && result.status !== 'skip' && { trace: evidenceText(result) }),
    ...(expected !== undefined && { expected }),
    ...(found !== undefined && { actual: found }),
  };
}

function labels(result: CheckResult, report: Report): Label[] {
  const section = report.sections.find((s) => s.section === result.section);
  const suite = `${result.section} ${section?.name ?? ''}`.trim();
  return [
    { name: 'parentSuite', value: 'restprobe' },
    { name: 'suite', value: suite },
    ...(result.collection !== undefined ? [{ name: 'subSuite', value: result.collection }] : []),
    { name: 'epic', value: 'REST API contract conventions' },
    { name: 'feature', value: suite },
    { name: 'story', value: result.id },
    { name: 'severity', value: severities[result.severity] },
    { name: 'checkId', value: result.id },
    { name: 'framework', value: 'restprobe' },
    ...(result.status === 'warn' ? [{ name: 'tag', value: 'warning' }] : []),
    ...(result.errorCode !== undefined ? [{ name: 'tag', value: result.errorCode }] : []),
  ];
}

function parameters(result: CheckResult, report: Report): Parameter[] {
  const property = result.evidence.property;
  // Excluded from Allure's history key: a result stays the same test across seeds and targets.
  return [
    ...(result.collection !== undefined ? [{ name: 'collection', value: result.collection }] : []),
    { name: 'seed', value: String(property?.seed ?? report.seed), excluded: true },
    { name: 'target', value: report.target.baseUrl, excluded: true },
    ...(property?.path !== undefined ? [{ name: 'property path', value: property.path, excluded: true }] : []),
  ];
}

/** Header pairs as Allure's HTTP exchange lists them. */
const nameValues = (headers: Record<string, string | string[]>): { name: string; value: string }[] =>
  Object.entries(headers).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((one) => ({ name, value: one })));

/** One exchange in Allure's HTTP exchange form, which its report shows as a request and a response. */
function httpExchange(x: ExchangeRecord): HttpExchange {
  const contentType = (h: Record<string, string | string[]>): string | undefined => [h['content-type'] ?? []].flat()[0];
  return {
    schemaVersion: ALLURE_HTTP_EXCHANGE_SCHEMA_VERSION,
    request: {
      method: x.request.method,
      url: x.request.url,
      headers: nameValues(x.request.headers),
      ...(x.request.body !== undefined && { body: { value: x.request.body, encoding: 'utf8', ...(contentType(x.request.headers) !== undefined && { contentType: contentType(x.request.headers)! }) } }),
    },
    ...(x.response && {
      response: {
        status: x.response.status,
        headers: nameValues(x.response.headers),
        ...(x.response.body !== undefined && { body: { value: x.response.body, encoding: 'utf8', truncated: x.response.bodyTruncated === true, ...(contentType(x.response.headers) !== undefined && { contentType: contentType(x.response.headers)! }) } }),
      },
    }),
    ...(x.error !== undefined && { error: { message: x.error } }),
  };
}

function writeTest(runtime: ReporterRuntime, result: CheckResult, report: Report, start: number): void {
  const name = resultName(result.id, result.collection);
  const uuid = runtime.startTest({
    name: `${name}: ${result.title}`,
    fullName: `restprobe:${name}`,
    description: result.rule,
    status: status(result, report.strict),
    statusDetails: statusDetails(result),
    labels: labels(result, report),
    parameters: parameters(result, report),
    start,
  });
  const attach = (title: string, content: string, contentType: string): void =>
    runtime.writeAttachment(uuid, undefined, title, Buffer.from(content), { contentType });
  const curl = reproducingCurl(result);
  if (curl !== undefined && result.status !== 'pass') attach('curl (reproduces the verdict)', curl, ContentType.TEXT);
  result.evidence.exchanges.forEach((x, i) =>
    runtime.writeAttachment(uuid, undefined, `${i + 1}. ${exchangeSummary(x)}`, Buffer.from(JSON.stringify(httpExchange(x))), { contentType: ALLURE_HTTP_EXCHANGE_CONTENT_TYPE, fileExtension: ALLURE_HTTP_EXCHANGE_FILE_EXTENSION }),
  );
  if (result.evidence.property) attach('property replay', JSON.stringify(result.evidence.property, null, 2), ContentType.JSON);
  runtime.stopTest(uuid, { stop: start + Math.round(result.durationMs) });
  runtime.writeTest(uuid);
}

/**
 * The Allure result files for a report, under `allure-results/`.
 *
 * @example
 * ```ts
 * renderAllure(report).map((f) => f.path);
 * // ['allure-results/0b7c…-result.json', 'allure-results/4e1a…-attachment.txt', …, 'allure-results/environment.properties', 'allure-results/categories.json']
 * ```
 */
export function renderAllure(report: Report): ReportFile[] {
  const writer = new CollectingWriter();
  const runtime = new ReporterRuntime({
    writer,
    categories,
    environmentInfo: { target: report.target.baseUrl, seed: String(report.seed), strict: String(report.strict), requests: String(report.requests), ...(report.waits !== undefined && report.waits.count > 0 && { waited: `${report.waits.wallMs} ms in ${report.waits.count} retries` }), restprobe: report.tool.version, ...(report.shard && { shard: `${report.shard.index}/${report.shard.total}` }), ...(report.interrupted && { interrupted: report.interrupted.signal }) },
  });
  const start = Date.parse(report.startedAt);
  // The checks an interrupted run never started are skipped tests saying so.
  for (const result of [...report.checks, ...notRunResults(report)]) writeTest(runtime, result, report, start);
  runtime.writeEnvironmentInfo();
  runtime.writeCategoriesDefinitions();
  return writer.files;
}
