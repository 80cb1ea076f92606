/** The `version` section as a {@link VersionProfile}: versions as bare numbers, defaults applied. */
import type { RawConfig } from '../../raw-config.js';
import type { VersionProfile } from './profile.js';

/** What `version` holds where the config says nothing. */
export const versionDefaults = {
  versionHeader: 'Accept',
  versionQueryParam: 'v',
  versionList: [] as readonly string[],
} as const;

/** A version as the checks use it: `v2` and `2` are both `2`. */
const bareVersion = (v: string): string => v.replace(/^v/i, '');

export function versionProfile(raw: NonNullable<RawConfig['version']>): VersionProfile {
  return {
    scheme: raw.scheme,
    current: bareVersion(raw.current),
    deprecated: (raw.deprecated ?? versionDefaults.versionList).map(bareVersion),
    removed: (raw.removed ?? versionDefaults.versionList).map(bareVersion),
    header: raw.header ?? versionDefaults.versionHeader,
    ...(raw.vendor !== undefined && { vendor: raw.vendor }),
    queryParam: raw.queryParam ?? versionDefaults.versionQueryParam,
    renames: raw.renames ?? [],
  };
}
