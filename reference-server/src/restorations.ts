/**
 * The restoration of an archived project: a noun action on a top-level collection's items
 * (§2 non-CRUD actions), `POST /v2/projects/{id}/restoration`, open only while the project
 * is archived. The reference config creates its projects archived, so a new project shows
 * the action in its `_links`.
 */
import { link, type RouteLink } from './links.js';
import { actionLinked, type NounAction } from './noun-actions.js';
import type { ProjectData } from './projects.js';
import type { ResourceKind } from './resources.js';
import type { Entry } from './store.js';

/** When each restored project was restored; dropped once it is archived again. */
export type Restorations = Map<string, string>;

export function restorationPath(projectPath: string): string {
  return `${projectPath}/restoration`;
}

/** A project's `_links`: itself and, while it is archived, its restoration. */
export function projectLinks(entry: Entry<ProjectData>, self: string): Record<string, RouteLink> {
  return actionLinked(entry.data.status === 'archived') ? { self: link(self), restoration: link(restorationPath(self)) } : { self: link(self) };
}

/** Keeps "restored" and "active since a restoration" the same fact, whichever way the status was written. */
export function afterProjectWrite(restorations: Restorations, entry: Entry<ProjectData>): void {
  if (entry.data.status === 'archived') restorations.delete(entry.id);
}

/** The restoration of an archived project; a project that is not archived has nothing to restore (409). */
export function restorationAction(kind: ResourceKind<ProjectData>, restorations: Restorations): NounAction<ProjectData> {
  return {
    kind,
    taken: restorations,
    path: (projectId) => restorationPath(kind.itemPath(projectId)),
    body: (projectId, restoredAt) => ({ project_id: projectId, restored_at: restoredAt }),
    apply: (data) => ({ ...data, status: 'active' }),
    closed: (entry) => (entry.data.status === 'archived' ? undefined : 'This project is not archived: there is nothing to restore.'),
    notTaken: 'This project has not been restored.',
  };
}
