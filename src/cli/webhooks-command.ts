/**
 * `restprobe webhooks check-receiver URL --secret-env NAME [--scheme …]`: receiver mode.
 * The receiver-mode checks run through the engine with the receiver as the run's base URL,
 * and are reported as `restprobe run`'s are: a line per check as it ends and the summary,
 * or the JSON report on stdout (`--json`); with `--report-dir` or `--format`, the report
 * files too. The secret is read from the environment and never printed (`$NAME` in curl
 * commands). Exit 0 when no check failed (a warning, a SHOULD broken, does not fail), 1 on
 * a failure, 3 when the receiver could not be reached, 130 when a signal cut the checks short
 * (the report says so, as `run`'s does).
 */
import { RestprobeError } from '../errors.js';
import { defaultSettleMs, receiverSecrets, receiverTarget, runReceiverChecks } from './check-receiver.js';
import { signatureSchemes, type SignatureScheme } from '../webhooks/signing.js';
import { buildReport } from '../report/model.js';
import { renderJson } from '../report/json.js';
import { scrubReport } from '../report/scrub.js';
import { renderCheckLine, renderSummary } from '../report/terminal.js';
import { prepareReportDir } from '../report/write.js';
import { exitCodeOfReport } from './exit-code.js';
import { interruptionOf, Interrupts } from './interrupts.js';
import { parseFormats } from './formats.js';
import { publishReports } from './publish.js';
import { toolVersion } from './version.js';

export interface CheckReceiverOptions {
  readonly secretEnv: string;
  readonly scheme: string;
  readonly answerWithinMs: string;
  readonly toleranceSeconds: string;
  readonly processedUrl?: string;
  /** How long the processed count may take to settle, in ms (default 2000). */
  readonly settleMs?: string;
  /** `Name: value` lines, sent with every delivery (repeatable). */
  readonly header?: readonly string[];
  /** The stripe scheme's event api_version. */
  readonly stripeApiVersion?: string;
  /** The JSON report on stdout instead of the terminal lines and summary. */
  readonly json?: boolean;
  /** Where report files go (as `run --report-dir`); given alone, in `run`'s default formats. */
  readonly reportDir?: string;
  /** Report formats (as `run --format`); given alone, into `reports`. */
  readonly format?: string;
}

/** `run`'s default report formats, for a `--report-dir` given without `--format`. */
const defaultFormats = 'json,junit,md,html';

/** `Name: value` lines as headers (lower-case names); a line that is not one is a usage error. */
export function parseHeaderLines(lines: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const m = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*(.*?)[ \t]*$/.exec(line);
    if (m === null || /[\r\n\0]/.test(m[2]!)) throw new RestprobeError('ERR_USAGE', `--header: "${line}" is not "Name: value"`);
    headers[m[1]!.toLowerCase()] = m[2]!;
  }
  return headers;
}

/** Whether `text` is an absolute http or https URL. */
function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

export async function checkReceiverCommand(url: string, opts: CheckReceiverOptions, env: NodeJS.ProcessEnv = process.env, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new RestprobeError('ERR_USAGE', `"${url}" is not a URL`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new RestprobeError('ERR_USAGE', `"${url}" is not an http or https URL`);
  if (!(signatureSchemes as readonly string[]).includes(opts.scheme)) throw new RestprobeError('ERR_USAGE', `--scheme: "${opts.scheme}" is not one of ${signatureSchemes.join(', ')}`);
  const secret = env[opts.secretEnv];
  if (secret === undefined || secret === '') throw new RestprobeError('ERR_ENV_MISSING', `environment variable ${opts.secretEnv} (--secret-env) is not set`);
  const within = Number(opts.answerWithinMs);
  const tolerance = Number(opts.toleranceSeconds);
  if (!Number.isSafeInteger(within) || within < 1) throw new RestprobeError('ERR_USAGE', `--answer-within-ms: "${opts.answerWithinMs}" is not a positive whole number`);
  if (!Number.isSafeInteger(tolerance) || tolerance < 1) throw new RestprobeError('ERR_USAGE', `--tolerance-seconds: "${opts.toleranceSeconds}" is not a positive whole number`);
  const settleMs = Number(opts.settleMs ?? defaultSettleMs);
  if (!Number.isSafeInteger(settleMs) || settleMs < 0) throw new RestprobeError('ERR_USAGE', `--settle-ms: "${opts.settleMs ?? ''}" is not a whole number of milliseconds`);
  if (opts.processedUrl !== undefined && !isHttpUrl(opts.processedUrl.replace('{id}', 'evt_1'))) throw new RestprobeError('ERR_USAGE', `--processed-url: "${opts.processedUrl}" is not an http or https URL ({id} stands for the event id)`);
  const headers = parseHeaderLines(opts.header ?? []);
  if (opts.stripeApiVersion !== undefined && !/^\d{4}-\d\d-\d\d(\.[a-z]+)?$/.test(opts.stripeApiVersion)) throw new RestprobeError('ERR_USAGE', `--stripe-api-version: "${opts.stripeApiVersion}" is not a Stripe API version (2024-06-20, 2025-01-27.acacia)`);
  const files = opts.reportDir === undefined && opts.format === undefined ? undefined : { dir: opts.reportDir ?? 'reports', formats: parseFormats(opts.format ?? defaultFormats) };
  if (files !== undefined) await prepareReportDir(files.dir);

  const color = (out as NodeJS.WriteStream).isTTY === true && !process.env['NO_COLOR'];
  const startedAt = new Date();
  const receiver = { url: target.href, secret, secretEnv: opts.secretEnv, scheme: opts.scheme as SignatureScheme, answerWithinMs: within, toleranceSeconds: tolerance, settleMs, headers, ...(opts.processedUrl !== undefined && { processedUrl: opts.processedUrl }), ...(opts.stripeApiVersion !== undefined && { stripeApiVersion: opts.stripeApiVersion }) };
  const secrets = receiverSecrets(receiverTarget(receiver));
  // As `run`: the first signal starts no new check, the second ends the running one; the report is written either way.
  const interrupts = Interrupts.listen({ out, onQuit: () => 'deliveries leave nothing of restprobe\'s to clean up' });
  try {
    let ran;
    try {
      ran = await runReceiverChecks(receiver, { signal: interrupts.interrupt, stop: interrupts.stop, ...(opts.json !== true && { onResult: (r) => out.write(`${renderCheckLine(r, { color, secrets })}\n`) }) });
    } finally {
      interrupts.checksEnded();
    }
    const { profile, outcome } = ran;
    const interruption = interruptionOf(interrupts, outcome);
    const report = buildReport({ baseUrl: profile.baseUrl, startedAt, durationMs: Date.now() - startedAt.getTime(), seed: 0, strict: false, version: toolVersion(), results: outcome.results, order: outcome.order, leftovers: outcome.leftovers, ...(interruption !== undefined && { interruption }) });
    const paths = files === undefined ? [] : await publishReports(report, { ...files, secrets: profile.secrets }, out);
    if (opts.json === true) out.write(renderJson(scrubReport(report, profile.secrets)));
    else out.write(`\n${renderSummary(report, { color, secrets: profile.secrets, reportPaths: paths })}\n`);
    if (interruption !== undefined) throw new RestprobeError('ERR_INTERRUPTED', `interrupted by ${interruption.signal} after ${outcome.results.length} of ${outcome.results.length + interruption.notRun.length} checks; the report says so and lists the ${interruption.notRun.length} not run`);
    return exitCodeOfReport(report);
  } finally {
    interrupts.close();
  }
}
