import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/support/longest-first.js';

// The project's own tests. (`restprobe run` does not use vitest; the `restprobe/vitest`
// adapter runs inside a team's own vitest config.)
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'suites/**/*.test.ts', 'reference-server/test/**/*.test.ts', 'test/**/*.test.ts'],
    // Forks: a test file's process is ended however busy it is left (a worker thread stuck in a loop
    // kept `vitest run` from exiting after every test had passed).
    pool: 'forks',
    // A fork runs its files one after another in one module cache: loading the harness, the
    // reference server and their dependencies once per fork, not once per file, saved a fifth
    // of the suite's CPU (8 min 6 s → 6 min 54 s on this 2-core machine). Tests restore what
    // they change (timers, process.env) for the files after them.
    isolate: false,
    // Many files mostly wait (timeouts, child processes): more workers than the 2 cores.
    maxWorkers: 4,
    testTimeout: 60_000,
    // The longest files first, in a fresh clone too (test/support/longest-first.ts).
    sequence: { sequencer: LongestFirst },
    // Temporary files under one directory, removed at the end (test/support/temp-root.ts).
    globalSetup: ['test/support/temp-root.ts'],
    // Tests run on GitHub Actions too: their runs must not append to the job's summary.
    env: { GITHUB_STEP_SUMMARY: '' },
  },
});
