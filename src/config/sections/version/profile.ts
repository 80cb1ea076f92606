/** The `version` section (conventions §9), versions as bare numbers (`v2` → `2`). */
export interface VersionProfile {
  readonly scheme: 'url' | 'header' | 'query';
  readonly current: string;
  readonly deprecated: readonly string[];
  readonly removed: readonly string[];
  /** The header scheme's header: `Accept` (a vendor media type) or one of its own (`X-API-Version`). */
  readonly header: string;
  /** The vendor of `application/vnd.<vendor>+json; version=<n>`, for the header scheme in Accept. */
  readonly vendor?: string;
  readonly queryParam: string;
  /** Fields renamed in transition, by collection name. */
  readonly renames: readonly { readonly collection: string; readonly from: string; readonly to: string }[];
}
