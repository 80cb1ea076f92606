/**
 * `restprobe run`: load the profile, check the target answers at all, run the suites,
 * print live lines and a summary, write the reports, and choose the exit code.
 */
import { randomInt } from 'node:crypto';
import { loadProfile } from '../config/load.js';
import { selectChecks } from '../engine/select.js';
import { ExitCode, RestprobeError } from '../errors.js';
import { clientForProfile } from '../http/client.js';
import { credentialHeaders, resolveUrl } from '../http/session.js';
import type { TargetProfile } from '../model/profile.js';
import { buildReport, reportFailed } from '../report/model.js';
import { renderCheckLine, renderSummary } from '../report/terminal.js';
import { isReportFormat, reportFormats, writeReports, type ReportFormat } from '../report/write.js';
import { runChecks } from '../engine/run.js';
import { catalogue } from '../../suites/catalogue.js';
import { toolVersion } from './version.js';

export interface RunOptions {
  readonly config?: string;
  readonly only: string[];
  readonly skip: string[];
  readonly reportDir: string;
  readonly format: string;
  readonly seed?: string;
  readonly strict: boolean;
  readonly readOnly: boolean;
  readonly proxy?: string;
  readonly node: string[];
}

/** Runs and returns the exit code; throws RestprobeError for usage, config and reachability problems. */
export async function runCommand(baseUrl: string | undefined, opts: RunOptions, out: NodeJS.WriteStream = process.stdout): Promise<number> {
  const formats = parseFormats(opts.format);
  const seed = parseSeed(opts.seed);
  const selection = { only: splitList(opts.only), skip: splitList(opts.skip) };
  const selected = selectChecks(catalogue, selection);
  const profile = await loadProfile({ configPath: opts.config, baseUrl, readOnly: opts.readOnly, ...(opts.proxy !== undefined && { proxy: opts.proxy }), nodes: splitList(opts.node) });
  await preflight(profile);

  const color = out.isTTY === true && !process.env['NO_COLOR'];
  out.write(`restprobe ${toolVersion()} → ${profile.baseUrl} · ${selected.length} checks · seed ${seed}\n`);
  const startedAt = new Date();
  let done = 0;
  // A cancelled CI job (SIGTERM) or Ctrl-C stops new checks and lets running ones clean up.
  const interrupt = new AbortController();
  const onSignal = () => {
    if (interrupt.signal.aborted) process.exit(ExitCode.unreachable);
    out.write('\nrestprobe: interrupted; letting running checks delete what they created (signal again to quit at once)\n');
    interrupt.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let outcome;
  try {
    outcome = await runChecks({
      profile,
      checks: selected,
      seed,
      signal: interrupt.signal,
      onResult: (result) => {
        done++;
        const line = renderCheckLine(result, { color, secrets: profile.secrets });
        out.write(color ? `[${String(done).padStart(String(selected.length).length)}/${selected.length}] ${line}\n` : `${line}\n`);
      },
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  const { results, order, leftovers, cleanupBeyondCap } = outcome;
  const report = buildReport({
    baseUrl: profile.baseUrl,
    startedAt,
    durationMs: Date.now() - startedAt.getTime(),
    seed,
    strict: opts.strict,
    version: toolVersion(),
    results,
    order,
    leftovers,
    cleanupBeyondCap,
  });
  const paths = await writeReports(report, { dir: opts.reportDir, formats, secrets: profile.secrets });
  out.write(`\n${renderSummary(report, { color, secrets: profile.secrets, reportPaths: paths })}\n`);
  if (interrupt.signal.aborted) {
    throw new RestprobeError('ERR_HARNESS', `interrupted after ${results.length} of ${selected.length} checks; the reports hold those`);
  }
  if (reportFailed(report)) return ExitCode.failures;
  return report.summary.error > 0 ? ExitCode.unreachable : ExitCode.ok;
}

/**
 * Before the run: the target answers at all, and accepts the configured credentials. Either
 * problem is one clear line here, not dozens of misleading verdicts later.
 */
async function preflight(profile: TargetProfile): Promise<void> {
  const client = clientForProfile(profile, { connections: 1, maxRequests: 2 });
  try {
    await client.send({ method: 'GET', url: profile.baseUrl, headers: { accept: 'application/json' } });
    const collection = profile.collections[0];
    const key = profile.auth.apiKey;
    if (collection && key) {
      const url = resolveUrl(profile.baseUrl, collection.path);
      const res = await client.send({ method: 'GET', url, headers: { accept: 'application/json', ...credentialHeaders(profile) } });
      if (res.status === 401) {
        throw new RestprobeError('ERR_CREDENTIALS_REJECTED', `the target refused the configured credentials: GET ${collection.path} answered 401; check $${key.value.envName} (auth.apiKey)`);
      }
    }
  } catch (err) {
    if (err instanceof RestprobeError && (err.code === 'ERR_TARGET_UNREACHABLE' || err.code === 'ERR_TIMEOUT')) {
      throw new RestprobeError(err.code, `cannot reach ${profile.baseUrl}: ${err.message.replace(/^GET \S+: /, '')}`);
    }
    if (err instanceof RestprobeError && err.code === 'ERR_CREDENTIALS_REJECTED') throw err;
    // Anything else (a reset, a huge body) is an answer: the checks will judge it.
  } finally {
    await client.close();
  }
}

function splitList(values: readonly string[]): string[] {
  return values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v.length > 0);
}

function parseFormats(value: string): ReportFormat[] {
  const names = splitList([value]);
  const bad = names.filter((n) => !isReportFormat(n));
  if (bad.length > 0) throw new RestprobeError('ERR_USAGE', `--format: unknown format ${bad.map((b) => `"${b}"`).join(', ')}; expected a comma-separated list of ${reportFormats.join(', ')}`);
  return names.filter(isReportFormat);
}

function parseSeed(value: string | undefined): number {
  if (value === undefined) return randomInt(0, 2 ** 31 - 1);
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new RestprobeError('ERR_USAGE', `--seed: "${value}" is not an integer; expected the seed a report printed`);
  }
  return Number(value) | 0;
}
