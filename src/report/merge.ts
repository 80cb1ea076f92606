/**
 * `restprobe merge-reports`: the reports of the n shards of one run (`--shard i/n`, the
 * same seed and selection) made into the report of the whole run, as if it had run in
 * one job. Refuses reports that do not make one run: a shard missing or given twice,
 * different seeds, targets, strictness or restprobe versions, a result in two shards.
 */
import { RestprobeError } from '../errors.js';
import { resultName } from '../model/result.js';
import { buildReport, type Report } from './model.js';

/** Fails with one line naming what does not match. */
function refuse(message: string): never {
  throw new RestprobeError('ERR_USAGE', `merge-reports: ${message}`);
}

/** The one value every report has for a field, or a refusal naming the reports that differ. */
function same<T>(reports: readonly Report[], labels: readonly string[], what: string, of: (r: Report) => T): T {
  const first = of(reports[0]!);
  const other = reports.findIndex((r) => of(r) !== first);
  if (other !== -1) refuse(`${labels[0]} and ${labels[other]} differ in ${what} (${String(first)} and ${String(of(reports[other]!))}): they are not shards of one run`);
  return first;
}

function checkShards(reports: readonly Report[], labels: readonly string[]): void {
  reports.forEach((r, i) => {
    if (r.shard === undefined) refuse(`${labels[i]} is not a shard's report (it was not written with --shard)`);
  });
  const total = same(reports, labels, 'the number of shards', (r) => r.shard!.total);
  for (let index = 1; index <= total; index++) {
    const given = reports.map((r, i) => [r.shard!.index, labels[i]] as const).filter(([n]) => n === index);
    if (given.length === 0) refuse(`shard ${index} of ${total} is missing`);
    if (given.length > 1) refuse(`shard ${index} of ${total} is given twice (${given.map(([, l]) => l).join(', ')})`);
  }
}

/**
 * One report from the shards' reports.
 *
 * @example
 * ```ts
 * const whole = mergeReports([shard1, shard2], ['shard-1/restprobe-report.json', 'shard-2/restprobe-report.json']);
 * whole.shard; // undefined: the whole run
 * ```
 */
export function mergeReports(reports: readonly Report[], labels: readonly string[] = reports.map((_, i) => `report ${i + 1}`)): Report {
  if (reports.length === 0) refuse('no report given');
  checkShards(reports, labels);
  const seed = same(reports, labels, 'seed', (r) => r.seed);
  const strict = same(reports, labels, '--strict', (r) => r.strict);
  const baseUrl = same(reports, labels, 'target', (r) => r.target.baseUrl);
  const version = same(reports, labels, 'restprobe version', (r) => r.tool.version);
  const shards = [...reports].sort((a, b) => a.shard!.index - b.shard!.index);
  const owner = new Map<string, number>();
  for (const r of shards) {
    for (const c of r.checks) {
      const name = resultName(c.id, c.collection);
      if (owner.has(name)) refuse(`${name} is in shard ${owner.get(name)} and shard ${r.shard!.index}: the shards overlap (the same selection in each?)`);
      owner.set(name, r.shard!.index);
    }
  }
  const start = Math.min(...shards.map((r) => Date.parse(r.startedAt)));
  const end = Math.max(...shards.map((r) => Date.parse(r.startedAt) + r.durationMs));
  const damage = shards.find((r) => r.damage !== undefined)?.damage;
  // A shard that was interrupted leaves the whole run interrupted, with every shard's checks not run.
  const stopped = shards.flatMap((r) => (r.interrupted === undefined ? [] : [r.interrupted]));
  return buildReport({
    baseUrl,
    startedAt: new Date(start),
    durationMs: end - start,
    seed,
    strict,
    version,
    results: shards.flatMap((r) => r.checks),
    order: shards.flatMap((r) => r.runOrder),
    leftovers: shards.flatMap((r) => r.leftovers),
    cleanupBeyondCap: shards.reduce((sum, r) => sum + r.cleanupBeyondCap, 0),
    ...(damage !== undefined && { damage }),
    ...(stopped.length > 0 && { interruption: { signal: stopped[0]!.signal, notRun: stopped.flatMap((i) => i.notRun), mark: stopped.map((i) => i.mark).join(' or ') } }),
  });
}
