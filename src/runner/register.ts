/**
 * Used by the `*.suite.ts` files: registers catalogue checks as vitest tests. Each test
 * runs its check through the engine and hands the outcome to the reporter in
 * `task.meta`; the vitest state itself stays green, because the verdict is the meta's.
 *
 * @example
 * ```ts
 * // suites/07-errors.suite.ts
 * registerChecks(errorChecks);
 * ```
 */
import { inject, test } from 'vitest';
import type { Check } from '../model/check.js';
import { executeCheck } from '../engine/execute.js';
import { filterChecks } from '../engine/select.js';
import { clientForProfile, type HttpClient } from '../http/client.js';
import type { TargetProfile } from '../model/profile.js';
import './settings.js';

let shared: HttpClient | undefined;

/** One client (one keep-alive pool per origin) for every suite file in this worker. */
function clientFor(profile: TargetProfile): HttpClient {
  shared ??= clientForProfile(profile);
  return shared;
}

export function registerChecks(checks: readonly Check[]): void {
  const { profile, seed, selection } = inject('restprobe');
  // The CLI validated the selectors against the whole catalogue; a file keeps its own.
  for (const check of filterChecks(checks, selection)) {
    // Checks touch only what they create, so they can run side by side.
    test.concurrent(check.id, async ({ task }) => {
      task.meta.restprobe = await executeCheck(check, { profile, client: clientFor(profile), seed });
    });
  }
}
