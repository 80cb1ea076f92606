/**
 * `restprobe webhooks check-receiver URL --secret-env NAME [--scheme …]`: receiver mode.
 * The secret is read from the environment and never printed. Exit 0 when every check
 * passed (or skipped), 1 on a failure, 3 when the receiver could not be reached.
 */
import { ExitCode, RestprobeError } from '../errors.js';
import { checkReceiver } from '../webhooks/check-receiver.js';
import { signatureSchemes, type SignatureScheme } from '../webhooks/signing.js';
import { scrubSecrets } from '../secrets-scrub.js';

export interface CheckReceiverOptions {
  readonly secretEnv: string;
  readonly scheme: string;
  readonly answerWithinMs: string;
  readonly toleranceSeconds: string;
  readonly processedUrl?: string;
  readonly json?: boolean;
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
  const results = await checkReceiver({ url: target.href, secret, scheme: opts.scheme as SignatureScheme, answerWithinMs: within, toleranceSeconds: tolerance, ...(opts.processedUrl !== undefined && { processedUrl: opts.processedUrl }) });
  const scrub = (text: string) => scrubSecrets(text, [{ envName: opts.secretEnv, value: secret }]);
  if (opts.json === true) out.write(`${scrub(JSON.stringify({ receiver: target.href, scheme: opts.scheme, checks: results }, null, 2))}\n`);
  else {
    for (const r of results) {
      out.write(scrub(`${r.status.toUpperCase().padEnd(5)} ${r.id}  ${r.title}${r.message ? `\n      ${r.message}` : ''}\n`));
      if (r.status !== 'pass') for (const line of r.evidence) out.write(scrub(`      · ${line}\n`));
    }
    const count = (s: string) => results.filter((r) => r.status === s).length;
    out.write(`\n${count('pass')} passed, ${count('fail')} failed, ${count('skip')} skipped, ${count('error')} could not run\n`);
  }
  if (results.some((r) => r.status === 'error')) return ExitCode.unreachable;
  return results.some((r) => r.status === 'fail') ? ExitCode.failures : ExitCode.ok;
}
