import { defineConfig } from 'vitest/config';

// The project's own tests. Conformance runs (`restprobe run`) use no config file:
// the runner passes its settings to vitest directly.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'suites/**/*.test.ts', 'reference-server/test/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'threads',
    testTimeout: 60_000,
  },
});
