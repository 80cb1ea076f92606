/**
 * The suite's file order: the files that hold a worker longest start first, so the suite
 * does not end with two cores waiting on one long file. vitest orders by the durations it
 * cached on the last run, and without that cache (a fresh clone, as CI runs it) by file size,
 * which put the fault matrix (three-line files, a minute and more each) last.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Path prefixes of the longest files, longest first (vitest's durations, 2-core machine). */
const longest = [
  'test/install.test.ts',
  'test/fault-matrix',
  'test/rate-limits.test.ts',
  'test/run-endings.test.ts',
  'test/cli.test.ts',
  'test/oauth-tokens.test.ts',
  'test/vacuous-passes.test.ts',
  'test/vitest-adapter.test.ts',
  'test/secret-leaks.test.ts',
  'test/verdict-accuracy.test.ts',
  'test/exact-counts.test.ts',
  'test/github-action.test.ts',
];

function rank(spec: TestSpecification): number {
  const path = spec.moduleId.slice(spec.project.config.root.length + 1);
  const i = longest.findIndex((prefix) => path.startsWith(prefix));
  return i === -1 ? longest.length : i;
}

/** vitest's own order (cached durations, else size), with the known longest files first. */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: within a rank, vitest's order stays.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
