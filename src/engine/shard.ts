/**
 * `--shard i/n`: splits the selected checks into n parts, the same way in every shard
 * (it depends on the selection alone), so n CI jobs together run each check exactly once
 * and `restprobe merge-reports` makes their reports one.
 *
 * What is split are units, never single instances: a check runs on all its collections
 * in one shard; a check and the checks it depends on (or that depend on it) share a shard,
 * so a failure blocks its dependents as in a whole run; and every `exclusive` and `last`
 * check is in one unit, so those keep their order and one-at-a-time rule among themselves.
 * Units go to the least-loaded shard, largest first (a slow check weighs more).
 */
import { RestprobeError } from '../errors.js';
import type { Check } from '../model/check.js';

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly total: number;
}

/** What a slow check weighs against a plain one when balancing shards. */
const slowWeight = 4;

/**
 * `2/3` as a shard; ERR_USAGE for anything else.
 *
 * @example
 * ```ts
 * parseShard('2/3'); // { index: 2, total: 3 }
 * ```
 */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const total = Number(match?.[2]);
  if (!match || total < 1 || index < 1 || index > total) {
    throw new RestprobeError('ERR_USAGE', `--shard: "${text}" is not i/n with 1 ≤ i ≤ n (e.g. --shard 2/3)`);
  }
  return { index, total };
}

/** The units shards are made of: groups of checks that must run in the same shard. */
function units(checks: readonly Check[]): Check[][] {
  const byId = new Map<string, Check>(checks.map((c) => [c.id, c]));
  // Union-find over check ids: dependencies join, and so do all exclusive and last checks.
  const parent = new Map<string, string>(checks.map((c) => [c.id, c.id]));
  const root = (id: string): string => {
    for (let r = parent.get(id)!; ; r = parent.get(r)!) if (parent.get(r) === r) return r;
  };
  const join = (a: string, b: string): void => {
    const [x, y] = [root(a), root(b)].sort();
    parent.set(y!, x!);
  };
  for (const c of checks) for (const dep of c.dependsOn) if (byId.has(dep)) join(c.id, dep);
  const whole = checks.filter((c) => c.schedule !== 'parallel');
  for (const c of whole.slice(1)) join(whole[0]!.id, c.id);
  const groups = new Map<string, Check[]>();
  for (const c of checks) groups.set(root(c.id), [...(groups.get(root(c.id)) ?? []), c]);
  return [...groups.values()];
}

const weight = (unit: readonly Check[]): number => unit.reduce((sum, c) => sum + (c.slow ? slowWeight : 1), 0);

/**
 * The checks of one shard, in the selection's order. Throws ERR_USAGE when the shard gets
 * nothing (more shards than units).
 *
 * @example
 * ```ts
 * shardChecks(selected, { index: 1, total: 2 }); // about half of them; shard 2/2 has the rest
 * ```
 */
export function shardChecks(checks: readonly Check[], shard: Shard): Check[] {
  const loads = Array.from({ length: shard.total }, () => 0);
  const mine = new Set<string>();
  const ordered = units(checks).sort((a, b) => weight(b) - weight(a) || (a[0]!.id < b[0]!.id ? -1 : 1));
  for (const unit of ordered) {
    const target = loads.indexOf(Math.min(...loads));
    loads[target]! += weight(unit);
    if (target === shard.index - 1) for (const c of unit) mine.add(c.id);
  }
  if (mine.size === 0) {
    throw new RestprobeError('ERR_USAGE', `--shard ${shard.index}/${shard.total}: no check falls to this shard (the selection splits into ${ordered.length} parts); use fewer shards`);
  }
  return checks.filter((c) => mine.has(c.id));
}
