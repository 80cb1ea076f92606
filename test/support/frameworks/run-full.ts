/**
 * Test support: the whole catalogue run on a framework stand-in, the way `restprobe run
 * --config` runs it (the config written to a file and loaded by loadProfile, so it is
 * validated as a user's would be).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProfile } from '../../../src/config/load.js';
import { runChecks } from '../../../src/engine/run.js';
import { resultName, type CheckResult } from '../../../src/model/result.js';
import { catalogue } from '../../../suites/catalogue.js';
import type { FrameworkStandIn } from './kit.js';

export interface FullRun {
  readonly results: readonly CheckResult[];
  readonly requests: number;
  readonly ms: number;
  /** What the run created and could not remove (its own cleanup's account, each DELETE confirmed). */
  readonly leftovers: readonly unknown[];
  /** The status of `id` (on `collection` when given): the worst over its instances. */
  status(id: string, collection?: string): string | undefined;
  /** One line per result that is not a pass or skip: `ID [collection]: status message`. */
  explain(): string;
}

const rank = { skip: 0, pass: 1, warn: 2, error: 3, fail: 4 } as const;

export interface FullRunOptions {
  /** Which checks of the catalogue run (default: all). */
  readonly select?: (id: string) => boolean;
  /** Changes the stand-in's config before the run (default: as the stand-in gives it). */
  readonly config?: (config: Record<string, unknown>) => Record<string, unknown>;
  readonly seed?: number;
}

export async function runFull(standIn: FrameworkStandIn, o: FullRunOptions = {}): Promise<FullRun> {
  const dir = await mkdtemp(join(tmpdir(), 'restprobe-framework-'));
  try {
    const configPath = join(dir, 'restprobe.config.json');
    await writeFile(configPath, JSON.stringify({ baseUrl: standIn.url, ...(o.config ?? ((c) => c))(standIn.config) }, null, 2));
    const profile = await loadProfile({ configPath, env: standIn.env });
    const started = Date.now();
    const outcome = await runChecks({ profile, checks: catalogue.filter((c) => (o.select ?? (() => true))(c.id)), seed: o.seed ?? 1 });
    const results = outcome.results;
    return {
      results,
      requests: outcome.requests.total,
      leftovers: outcome.leftovers,
      ms: Date.now() - started,
      status(id, collection) {
        const mine = results.filter((r) => r.id === id && (collection === undefined || r.collection === collection));
        return mine.reduce<string | undefined>((w, r) => (w === undefined || rank[r.status] > rank[w as keyof typeof rank] ? r.status : w), undefined);
      },
      explain: () =>
        results
          // Skips too, with their reasons: a check expected to pass that skipped says why.
          .filter((r) => r.status !== 'pass')
          .map((r) => `${resultName(r.id, r.collection)}: ${r.status}${r.errorCode ? ` ${r.errorCode}` : ''} ${r.message}`)
          .join('\n'),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
