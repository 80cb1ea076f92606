/** What checks need of the `version` section. */
import type { ConfigKey } from '../../../model/config-keys.js';
import { need } from '../../../model/need.js';
import type { TargetProfile } from '../../../model/profile.js';
import { Unmet } from '../../../model/unmet.js';
import type { VersionProfile } from './profile.js';

/** The API's versioning, when the config describes it well enough to name a version in a request. */
function versioning(p: TargetProfile): VersionProfile | Unmet {
  const v = p.version;
  if (v === undefined) return new Unmet('no API version configured', 'version');
  if (v.scheme === 'header' && v.header.toLowerCase() === 'accept' && v.vendor === undefined) return new Unmet('the header scheme in Accept needs the vendor of application/vnd.<vendor>+json', 'version');
  return v;
}

/** The versioning, when its `list` of versions is not empty. */
function withVersions(p: TargetProfile, list: 'deprecated' | 'removed' | 'renames', key: ConfigKey, what: string): VersionProfile | Unmet {
  const v = versioning(p);
  if (v instanceof Unmet) return v;
  return v[list].length > 0 ? v : new Unmet(`no ${what} configured`, key);
}


/** The needs the API's versioning meets. */
export const versionNeeds = {
  /** How the API names its version (`version`: scheme and current version). */
  version: need<VersionProfile>({ label: 'the API version scheme', keys: ['version'], resolve: versioning }),
  /** The versioning, with deprecated versions to judge. */
  deprecatedVersions: need<VersionProfile>({ label: 'deprecated API versions', keys: ['version', 'version.deprecated'], resolve: (p) => withVersions(p, 'deprecated', 'version.deprecated', 'deprecated version') }),
  /** The versioning, with removed versions to judge. */
  removedVersions: need<VersionProfile>({ label: 'removed API versions', keys: ['version', 'version.removed'], resolve: (p) => withVersions(p, 'removed', 'version.removed', 'removed version') }),
  /** The versioning, with field renames in transition (and deprecated versions that still carry the old names). */
  renames: need<VersionProfile>({
    label: 'field renames in transition',
    keys: ['version', 'version.renames', 'version.deprecated'],
    resolve: (p) => {
      const v = withVersions(p, 'renames', 'version.renames', 'field rename in transition');
      if (v instanceof Unmet) return v;
      return v.deprecated.length > 0 ? v : new Unmet('no deprecated version to carry the old names', 'version.deprecated');
    },
  }),
} as const;
