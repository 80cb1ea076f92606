/**
 * Projects: `{ id, name, description, status, label, created_at, updated_at }`.
 *
 * `label` is a free marker (a client can tag what it created and list just that).
 */
import { faultActive } from './request-faults.js';
import type { JsonObject } from './body.js';
import { createdAtSort, enumFilter, exactFilter, fieldSort, type ListingSpec } from './listing.js';
import type { ResourceKind } from './resources.js';
import { ruleKind } from './rule-kind.js';
import type { Collection, Entry } from './store.js';
import type { FieldRules } from './validation.js';
import { afterProjectWrite, projectLinks, type Restorations } from './restorations.js';

export type ProjectStatus = 'active' | 'archived';

export type ProjectData = {
  readonly name: string;
  readonly description: string | null;
  readonly status: ProjectStatus;
  readonly label: string | null;
};

const statuses: readonly ProjectStatus[] = ['active', 'archived'];

/** Writable fields, in representation order. */
export const projectRules: FieldRules = {
  name: { kind: 'text', required: true, max: 200 },
  description: { kind: 'text', required: false, max: 2000 },
  status: { kind: 'enum', values: statuses, default: 'active' },
  label: { kind: 'text', required: false, max: 100 },
};

export const projectsPath = '/v2/projects';

export function projectPath(id: string): string {
  return `${projectsPath}/${encodeURIComponent(id)}`;
}

/** The project kind; `afterDelete` cascades to the project's tasks, `restorations` follow the status. */
export function projectKind(
  store: Collection<ProjectData>,
  afterDelete: (entry: Entry<ProjectData>) => void,
  restorations: Restorations,
): ResourceKind<ProjectData> {
  return ruleKind({
    noun: 'project',
    store,
    itemPath: projectPath,
    rules: projectRules,
    beforeBuild(body: JsonObject): void {
      const name = body['name'];
      if (faultActive('wrong-type-500') && name !== undefined && name !== null) {
        // Fault: a careless handler trusts `name` to be a string before any check.
        void (name as string).trim();
      }
    },
    afterDelete: (entry) => {
      restorations.delete(entry.id);
      afterDelete(entry);
    },
    afterWrite: (entry) => afterProjectWrite(restorations, entry),
    links: (entry) => projectLinks(entry, projectPath(entry.id)),
  });
}

/** The project listing: filters `status` and `label`, sorts `created_at` (default) and `name`. */
export const projectListing: ListingSpec<ProjectData> = {
  filters: [enumFilter('status', statuses, (p) => p.status), exactFilter('label', (p) => p.label)],
  sorts: [createdAtSort(), fieldSort('name', (p) => p.name)],
};

/** Bulk projects for `seedProjects`: `seed-000001`, … labelled `seed`. */
export function seedProject(index: number): ProjectData {
  return { name: `seed-${String(index + 1).padStart(6, '0')}`, description: null, status: 'active', label: 'seed' };
}
