/**
 * Every configured collection is checked: a check whose needs are about one collection
 * (a writable one, a cursor walk…) runs once per collection that meets them, and its
 * results are named for it (`END-get-item-200 [books]`). A check about the whole target
 * runs once. When no collection meets a check's needs, it runs once against the whole
 * profile, so its skip names what the config lacks.
 */
import type { Check } from '../model/check.js';
import { needs, resolveNeeds, Unmet, type NeedName } from '../model/needs.js';
import type { TargetProfile } from '../model/profile.js';
import type { RunInputs } from '../model/run-inputs.js';
import { resultName } from '../model/result.js';

/** One run of one check: on one collection, or on the whole target. */
export interface CheckInstance {
  readonly check: Check;
  /** The check's id, with the collection in brackets when it runs on one: `END-get-item-200 [books]`. */
  readonly key: string;
  /** The collection's name, when the instance runs on one. */
  readonly collection?: string;
  /** The profile the instance's needs resolve against: only its collection, when it has one. */
  readonly profile: TargetProfile;
  /** Keys of the instances whose verdicts this one's waits for. */
  readonly dependsOn: readonly string[];
  /** Of those, the keys of the checks its method takes for granted ({@link Check.assumes}). */
  readonly assumes: readonly string[];
}

const perCollection = (names: readonly NeedName[]): boolean => names.some((n) => needs[n].perCollection === true);

/**
 * @example
 * ```ts
 * instancesOf(catalogue, profile).map((i) => i.key);
 * // ['END-get-item-200 [projects]', 'END-get-item-200 [members]', 'ERR-unknown-path-404', …]
 * ```
 */
export function instancesOf(checks: readonly Check[], profile: TargetProfile, inputs: RunInputs = {}): CheckInstance[] {
  const runs = checks.map((check) => ({ check, on: collectionsFor(check, profile, inputs) }));
  const keys = new Set(runs.flatMap(({ check, on }) => (on.length === 0 ? [check.id] : on.map((c) => resultName(check.id, c)))));
  // A dependency on the same collection where there is one, else on the check as a whole.
  const depKeys = (ids: readonly string[], collection: string | undefined): string[] =>
    ids.flatMap((dep) => {
      const same = resultName(dep, collection);
      if (keys.has(same)) return [same];
      if (keys.has(dep)) return [dep];
      return collection === undefined ? [...keys].filter((k) => k.startsWith(`${dep} [`)) : [];
    });
  return runs.flatMap(({ check, on }): CheckInstance[] => {
    if (on.length === 0) return [{ check, key: check.id, profile, dependsOn: depKeys(check.dependsOn, undefined), assumes: depKeys(check.assumes, undefined) }];
    return on.map((name) => ({
      check,
      key: resultName(check.id, name),
      collection: name,
      profile: { ...profile, collections: profile.collections.filter((c) => c.name === name) },
      dependsOn: depKeys(check.dependsOn, name),
      assumes: depKeys(check.assumes, name),
    }));
  });
}

/** The collections a check runs on, one instance each; none when it is about the whole target or no collection meets its needs. */
function collectionsFor(check: Check, profile: TargetProfile, inputs: RunInputs): string[] {
  if (!perCollection([...check.needs, ...check.uses])) return [];
  return profile.collections
    .filter((c) => !(resolveNeeds(check.needs, { ...profile, collections: [c] }, inputs) instanceof Unmet))
    .map((c) => c.name);
}
