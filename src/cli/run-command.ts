/**
 * `restprobe run`: load the profile, check the target answers at all, run the suites,
 * print live lines and a summary, write the reports, and choose the exit code.
 */
import { catalogue } from '../../suites/catalogue.js';
import { receiverCatalogue } from '../../suites/06-events/receiver.js';
import { loadProfile } from '../config/load.js';
import { instancesOf } from '../engine/instances.js';
import { runChecks } from '../engine/run.js';
import { healthPhase, type Health } from '../engine/health.js';
import { paceLine, runPace } from '../engine/pace.js';
import { selectChecks, selectionOf, splitList, type Selection } from '../engine/select.js';
import { parseSeed } from '../engine/seed.js';
import { parseShard, shardChecks, type Shard } from '../engine/shard.js';
import { RestprobeError } from '../errors.js';
import { clientForProfile, type HttpClient } from '../http/client.js';
import type { Check } from '../model/check.js';
import type { TargetProfile } from '../model/profile.js';
import { resultName } from '../model/result.js';
import { readBaseline, withBaseline } from '../report/baseline.js';
import { buildReport, type Report } from '../report/model.js';
import { shapeBaselineOf } from '../report/shape-baseline.js';
import { documentFor } from '../engine/openapi-input.js';
import type { OpenApiDocument } from '../model/openapi-document.js';
import { renderCheckLine, renderSummary } from '../report/terminal.js';
import { prepareReportDir, type ReportFormat } from '../report/write.js';
import { LedgerFile } from '../engine/ledger-file.js';
import { exitCodeOfReport } from './exit-code.js';
import { cleanupCommandLine, earlierLeftovers } from './earlier-runs.js';
import { interruptionOf, Interrupts } from './interrupts.js';
import { parseFormats } from './formats.js';
import { Progress } from './progress.js';
import { publishReports } from './publish.js';
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
  readonly ca?: string;
  /** commander's `--no-destructive`: false when given. */
  readonly destructive?: boolean;
  readonly plainHttpUrl?: string;
  /** `--openapi`: the API's OpenAPI document. */
  readonly openapi?: string;
  /** An earlier restprobe-report.json to compare with (`--baseline`). */
  readonly baseline?: string;
  /** `i/n`: run only this shard of the selected checks (`--shard`). */
  readonly shard?: string;
}

/** Runs and returns the exit code; throws RestprobeError for usage, config and reachability problems. */
export async function runCommand(baseUrl: string | undefined, opts: RunOptions, out: NodeJS.WriteStream = process.stdout): Promise<number> {
  const formats = parseFormats(opts.format);
  const seed = parseSeed(opts.seed, '--seed');
  const selection = selectionOf(opts.only, opts.skip);
  // A receiver-mode check judges a team's own receiver, which `run` has none of: say where it runs.
  const receiverOnly = selection.only.filter((s) => receiverCatalogue.some((c) => c.id === s));
  if (receiverOnly.length > 0) throw new RestprobeError('ERR_USAGE', `${receiverOnly.join(', ')}: receiver mode, run by restprobe webhooks check-receiver URL --secret-env NAME, not by restprobe run`);
  const matching = selectChecks(catalogue, selection);
  if (matching.length === 0) {
    throw new RestprobeError('ERR_USAGE', `no check selected: ${describeSelection(selection)} matches no check in the catalogue (see restprobe checks)`);
  }
  const shard = opts.shard === undefined ? undefined : parseShard(opts.shard);
  if (shard !== undefined && opts.seed === undefined) {
    throw new RestprobeError('ERR_USAGE', `--shard ${opts.shard} needs --seed n, the same in every shard, so the shards' reports merge into one run's (restprobe merge-reports)`);
  }
  const selected = shard === undefined ? matching : shardChecks(matching, shard);
  const profile = await loadProfile({ configPath: opts.config, baseUrl, readOnly: opts.readOnly, ...(opts.proxy !== undefined && { proxy: opts.proxy }), nodes: splitList(opts.node), ...(opts.ca !== undefined && { ca: opts.ca }), ...(opts.destructive === false && { destructive: false }), ...(opts.plainHttpUrl !== undefined && { plainHttpUrl: opts.plainHttpUrl }), ...(opts.openapi !== undefined && { openapi: opts.openapi }) });
  // Harness-side problems end the run here, with one line, before any check runs.
  await prepareReportDir(opts.reportDir);
  const previous = opts.baseline === undefined ? undefined : await readBaseline(opts.baseline);
  const cleanupHint = cleanupCommandLine(opts.reportDir, opts.config, baseUrl);
  const earlier = await earlierLeftovers(opts.reportDir);
  if (earlier.line !== undefined) out.write(`restprobe: ${earlier.line}; ${cleanupHint} deletes them\n`);
  if (earlier.unreadable !== undefined) out.write(`restprobe: ${earlier.unreadable}\n`);
  const client = clientForProfile(profile);
  try {
    // One health phase: harness-side problems end the run here; its answers are the damage check's baseline.
    const health = await healthPhase(profile, (req) => client.send(req));
    const openapi = await documentFor(profile, selected, client);
    return await runAndReport(profile, client, health, selected, seed, formats, opts, out, { previous, openapi, shard, cleanupHint, freshLedger: earlier.fresh });
  } finally {
    await client.close();
  }
}

/** What the report is set against: an earlier report (`--baseline`), and the shard this run is; how to clean up after it. */
interface Context {
  readonly previous: Report | undefined;
  /** The API's OpenAPI document, when a selected check holds answers to it. */
  readonly openapi: OpenApiDocument | undefined;
  readonly shard: Shard | undefined;
  /** The command that deletes what the run leaves (`restprobe cleanup reports -c restprobe.config.json`). */
  readonly cleanupHint: string;
  /** Whether the report directory's ledger may start afresh: every earlier run there ended and left nothing. */
  readonly freshLedger: boolean;
}

async function runAndReport(profile: TargetProfile, client: HttpClient, health: Health, selected: readonly Check[], seed: number, formats: readonly ReportFormat[], opts: RunOptions, out: NodeJS.WriteStream, { previous, openapi, shard, cleanupHint, freshLedger }: Context): Promise<number> {
  const color = out.isTTY === true && !process.env['NO_COLOR'];
  out.write(`restprobe ${toolVersion()} → ${profile.baseUrl} · ${selected.length} checks${shard ? ` (shard ${shard.index}/${shard.total})` : ''} · seed ${seed}\n`);
  const pace = runPace(profile);
  // The earlier run's response shapes, for VER-compatible-within-major to compare with; the document the DOC checks hold answers to.
  const inputs = { ...(previous !== undefined && { baseline: shapeBaselineOf(previous) }), ...(openapi !== undefined && { openapi }) };
  // Counted with the inputs: a check may run once per collection the document describes.
  const instances = instancesOf(selected, profile, inputs).length;
  if (pace !== undefined) out.write(`restprobe: ${paceLine(pace, instances)}\n`);
  const startedAt = new Date();
  const progress = new Progress({ out, live: out.isTTY === true && process.env['TERM'] !== 'dumb', total: instances, requests: () => client.requestCount });
  // Every item the run creates is on disk the moment it exists, whatever ends the run.
  const journal = LedgerFile.open(opts.reportDir, { baseUrl: profile.baseUrl, version: toolVersion(), secrets: profile.secrets, fresh: freshLedger });
  // Signals are heard until the reports are written: a second or third one never loses them.
  const interrupts = Interrupts.listen({ out, onQuit: () => `what the run created and did not delete is listed in ${journal.path} (marks start ${journal.mark}); ${cleanupHint} deletes it` });
  try {
    // The health phase's requests, sent before the run: the run's own.
    const beforeRun = client.requestCount;
    let outcome;
    try {
      outcome = await runChecks({
        profile,
        checks: selected,
        seed,
        inputs,
        client,
        health,
        signal: interrupts.interrupt,
        stop: interrupts.stop,
        journal,
        onStart: (name) => progress.started(name),
        onWait: (wait) => progress.waiting(wait),
        onResult: (result) => progress.finished(resultName(result.id, result.collection), renderCheckLine(result, { color, secrets: profile.secrets })),
      });
    } finally {
      progress.stop();
      interrupts.checksEnded();
    }
    journal.end();
    const { results, order, leftovers, cleanupBeyondCap, damage, notRun, mark } = outcome;
    const interruption = interruptionOf(interrupts, outcome);
    const built = buildReport({
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
      requests: { total: outcome.requests.total + beforeRun, run: outcome.requests.run + beforeRun },
      waits: outcome.waits,
      ...(damage !== undefined && { damage }),
      ...(shard !== undefined && { shard }),
      ...(interruption !== undefined && { interruption }),
    });
    const report = withBaseline(built, previous, new Set(catalogue.map((c) => c.id)));
    const paths = await publishReports(report, { dir: opts.reportDir, formats, secrets: profile.secrets }, out);
    out.write(`\n${renderSummary(report, { color, secrets: profile.secrets, reportPaths: paths })}\n`);
    const waited = waitLine(outcome.waits, report.durationMs, profile);
    if (waited !== undefined) out.write(`${waited}\n`);
    if (interruption !== undefined) {
      const left = leftovers.length > 0 ? `; ${leftovers.length} left on the target (listed above): ${cleanupHint} deletes them` : '';
      throw new RestprobeError('ERR_INTERRUPTED', `interrupted by ${interruption.signal} after ${results.length} of ${results.length + notRun.length} checks; the reports say so and list the ${notRun.length} not run; the items the run created carry marks starting ${mark}${left}`);
    }
    return exitCodeOfReport(report);
  } finally {
    journal.close();
    interrupts.close();
  }
}

/**
 * When waiting on the target took most of the run (the summary line above says how long it
 * waited), the setting that paces under the quota instead; undefined otherwise.
 */
export function waitLine(waits: { readonly count: number; readonly wallMs: number }, durationMs: number, profile: TargetProfile): string | undefined {
  if (waits.count === 0 || waits.wallMs <= durationMs / 2 || profile.http.maxRequestsPerSecond !== undefined) return undefined;
  return `most of the run (${Math.round(waits.wallMs / 1000)} s of ${Math.round(durationMs / 1000)} s) was waiting on the target's rate limit: set http.maxRequestsPerSecond under its quota to pace the run instead`;
}

/** `--only ERR --skip ERR-x`, for messages. */
function describeSelection(selection: Selection): string {
  const parts = [...selection.only.map((s) => `--only ${s}`), ...selection.skip.map((s) => `--skip ${s}`)];
  return parts.length > 0 ? parts.join(' ') : 'the selection';
}
