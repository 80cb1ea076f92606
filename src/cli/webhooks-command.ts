/**
 * `restprobe webhooks check-receiver URL --secret-env NAME [--scheme …]`: receiver mode.
 * The secret is read from the environment and never printed. Exit 0 when no check failed
 * (a warning, a SHOULD broken, does not fail), 1 on a failure, 3 when the receiver could not
 * be reached.
 */
import { ExitCode, RestprobeError } from '../errors.js';
import { checkReceiver, defaultSettleMs } from '../webhooks/check-receiver.js';
import { signatureSchemes, type SignatureScheme } from '../webhooks/signing.js';
import { scrubSecrets } from '../secrets-scrub.js';

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
  readonly json?: boolean;
}

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
  const headers = parseHeaderLines(opts.header ?? []);
  const results = await checkReceiver({ url: target.href, secret, scheme: opts.scheme as SignatureScheme, answerWithinMs: within, toleranceSeconds: tolerance, settleMs, headers, ...(opts.processedUrl !== undefined && { processedUrl: opts.processedUrl }) });
  const scrub = (text: string) => scrubSecrets(text, [{ envName: opts.secretEnv, value: secret }]);
  if (opts.json === true) out.write(`${scrub(JSON.stringify({ receiver: target.href, scheme: opts.scheme, checks: results }, null, 2))}\n`);
  else {
    for (const r of results) {
      out.write(scrub(`${r.status.toUpperCase().padEnd(5)} ${r.id}  ${r.title}${r.message ? `\n      ${r.message}` : ''}\n`));
      if (r.status !== 'pass') for (const line of r.evidence) out.write(scrub(`      · ${line}\n`));
    }
    const count = (s: string) => results.filter((r) => r.status === s).length;
    out.write(`\n${count('pass')} passed, ${count('fail')} failed, ${count('warn')} warned, ${count('skip')} skipped, ${count('error')} could not run\n`);
  }
  if (results.some((r) => r.status === 'error')) return ExitCode.unreachable;
  return results.some((r) => r.status === 'fail') ? ExitCode.failures : ExitCode.ok;
}
