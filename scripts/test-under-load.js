#!/usr/bin/env node
/**
 * Runs the test suite while every core is kept busy by another process, as on a shared CI
 * runner: `node scripts/test-under-load.js [vitest args…]` (default: the whole suite).
 * Exits with vitest's code. A timing bound in a test must hold here too: derived from what
 * the test measured, or driven by fake timers (issue 29).
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const burners = Array.from({ length: availableParallelism() }, () =>
  // A tight loop in a child of its own: the scheduler shares each core with the tests.
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);
const stop = () => burners.forEach((b) => b.kill('SIGKILL'));
process.on('exit', stop);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

console.log(`restprobe tests under load: ${burners.length} busy processes beside vitest`);
const vitest = spawn('npx', ['vitest', 'run', ...process.argv.slice(2)], { stdio: 'inherit' });
vitest.on('exit', (code, signal) => {
  stop();
  process.exit(code ?? (signal ? 1 : 0));
});
