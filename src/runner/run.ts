/**
 * Drives vitest programmatically over the suite files, with the profile handed to the
 * tests through provide/inject, and collects every outcome.
 *
 * Pool and isolation are chosen on purpose: the suites share nothing mutable but the
 * HTTP client, so one thread runs every file without per-file isolation (isolation costs
 * 0.15–0.4 s a file here), and the checks inside a file run concurrently.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVitest } from 'vitest/node';
import type { CheckResult } from '../model/check.js';
import { RestprobeError } from '../errors.js';
import { ResultCollector } from './collector.js';
import type { RunSettings } from './settings.js';

const interruptSignals = ['SIGINT', 'SIGTERM'] as const;

export interface RunOutcome {
  readonly results: CheckResult[];
  /** Suite files that failed to load, unhandled errors: the harness failed. */
  readonly harnessErrors: string[];
}

const here = dirname(fileURLToPath(import.meta.url));
/** `<package>` when running from sources, `<package>/dist` when compiled. */
const suitesRoot = resolve(here, '..', '..');
/** The suites are in the language the runner itself runs in. */
const suiteExt = extname(fileURLToPath(import.meta.url));

export function suiteFiles(): string[] {
  const dir = join(suitesRoot, 'suites');
  if (!existsSync(dir)) throw new RestprobeError('ERR_HARNESS', `no suites folder at ${dir}: is the package built (npm run build)?`);
  return readdirSync(dir).filter((f) => f.endsWith(`.suite${suiteExt}`)).sort().map((f) => join(dir, f));
}

/**
 * @example
 * ```ts
 * const { results } = await runSuites({ profile, seed: 42, selection: { only: ['ERR'], skip: [] } });
 * ```
 */
export async function runSuites(settings: RunSettings, onResult?: (r: CheckResult) => void, signal?: AbortSignal): Promise<RunOutcome> {
  const collector = new ResultCollector(onResult);
  const files = suiteFiles();
  const signalListeners = new Map(interruptSignals.map((sig) => [sig, new Set(process.listeners(sig))]));
  const vitest = await createVitest(
    'test',
    {
      config: false,
      root: suitesRoot,
      dir: join(suitesRoot, 'suites'),
      include: [`**/*.suite${suiteExt}`],
      watch: false,
      reporters: [collector],
      pool: 'threads',
      isolate: false,
      maxWorkers: 1,
      maxConcurrency: settings.profile.http.concurrency,
      provide: { restprobe: settings },
      passWithNoTests: true,
      testTimeout: 0,
      hookTimeout: 0,
      silent: true,
    },
    { logLevel: 'silent', clearScreen: false, server: { watch: null } },
  );
  // vitest's CLI exits on SIGINT/SIGTERM at once; restprobe owns signals (see run-command).
  for (const [sig, before] of signalListeners) for (const l of process.listeners(sig)) if (!before.has(l)) process.off(sig, l);
  // Cancelling stops new checks; running ones finish, so each deletes what it created.
  const cancel = () => void vitest.cancelCurrentRun('keyboard-input');
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    await vitest.start(files);
    return { results: collector.results, harnessErrors: collector.harnessErrors };
  } finally {
    signal?.removeEventListener('abort', cancel);
    await vitest.close();
  }
}
