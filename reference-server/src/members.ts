/**
 * Members: `{ id, name, role, label, created_at, updated_at }`, the collection listed
 * with offset pagination (`limit` + `offset`, answered with `{ data, total }`).
 */
import { createdAtSort, enumFilter, exactFilter, fieldSort, type ListingSpec } from './listing.js';
import type { ResourceKind } from './resources.js';
import { ruleKind } from './rule-kind.js';
import type { Collection } from './store.js';
import type { FieldRules } from './validation.js';

export type MemberRole = 'owner' | 'editor' | 'viewer';

export type MemberData = {
  readonly name: string;
  readonly role: MemberRole;
  readonly label: string | null;
};

const roles: readonly MemberRole[] = ['owner', 'editor', 'viewer'];

/** Writable fields, in representation order. */
export const memberRules: FieldRules = {
  name: { kind: 'text', required: true, max: 200 },
  role: { kind: 'enum', values: roles, default: 'viewer' },
  label: { kind: 'text', required: false, max: 100 },
};

export const membersPath = '/v2/members';

export function memberPath(id: string): string {
  return `${membersPath}/${encodeURIComponent(id)}`;
}

export function memberKind(store: Collection<MemberData>): ResourceKind<MemberData> {
  return ruleKind({ noun: 'member', store, itemPath: memberPath, rules: memberRules });
}

/** Members come in pages of at most 20: a smaller cap than projects', as APIs differ per collection. */
export const memberMaxLimit = 20;

/** The member listing: filters `role` and `label`, sorts `created_at` (default) and `name`. */
export const memberListing: ListingSpec<MemberData> = {
  filters: [enumFilter('role', roles, (m) => m.role), exactFilter('label', (m) => m.label)],
  sorts: [createdAtSort(), fieldSort('name', (m) => m.name)],
};
