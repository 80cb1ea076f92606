import type { ConfigKey } from './config-keys.js';
import type { TargetProfile } from './profile.js';
import type { RunInputs } from './run-inputs.js';
import type { Unmet } from './unmet.js';

/**
 * One need of the vocabulary: what it is, the config keys that enable it, and how it is met.
 * It stands alone, like {@link Unmet}, so each config section's needs can declare theirs
 * without importing the vocabulary that composes them.
 *
 * @example
 * ```ts
 * export const versionNeeds = {
 *   version: need<VersionProfile>({ label: 'the API version scheme', keys: ['version'], resolve: versioning }),
 * } as const;
 * ```
 */
export interface Need<T> {
  /** What the need is, for the catalogue: "a writable collection". */
  readonly label: string;
  /** The keys that enable it, for `restprobe checks --json` and docs/checks.md. */
  readonly keys: readonly ConfigKey[];
  /** Met by one collection: a check that needs it runs once per collection that meets it. */
  readonly perCollection?: true;
  /** Resolved against the target's profile and, for what a run is given besides (an earlier report), the run's inputs. */
  resolve(profile: TargetProfile, inputs: RunInputs): T | Unmet;
}

/** A need, its value's type inferred from its resolver. */
export const need = <T>(n: Need<T>): Need<T> => n;
