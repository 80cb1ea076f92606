/**
 * Projects: `{ id, name, description, status, created_at, updated_at }`.
 */
import type { JsonObject } from './body.js';
import type { RequestContext } from './context.js';
import type { FieldError } from './problem.js';
import type { ResourceKind, Write } from './resources.js';
import { singleParam } from './pagination.js';
import type { Collection, Entry } from './store.js';
import { applyFields, resetOptionalFields, throwIfInvalid, type FieldRules } from './validation.js';

export type ProjectStatus = 'active' | 'archived';

export type ProjectData = {
  readonly name: string;
  readonly description: string | null;
  readonly status: ProjectStatus;
};

const statuses: readonly ProjectStatus[] = ['active', 'archived'];

/** Writable fields, in representation order. */
export const projectRules: FieldRules = {
  name: { kind: 'text', required: true, max: 200 },
  description: { kind: 'text', required: false, max: 2000 },
  status: { kind: 'enum', values: statuses, default: 'active' },
};

export const projectsPath = '/v2/projects';

export function projectPath(id: string): string {
  return `${projectsPath}/${encodeURIComponent(id)}`;
}

/** The project kind; `afterDelete` cascades to the project's tasks. */
export function projectKind(
  store: Collection<ProjectData>,
  afterDelete: (entry: Entry<ProjectData>) => void,
): ResourceKind<ProjectData> {
  return {
    noun: 'project',
    store,
    itemPath: projectPath,
    build(body: JsonObject, write: Write<ProjectData>, ctx: RequestContext): ProjectData {
      const name = body['name'];
      if (ctx.faults.has('wrong-type-500') && name !== undefined && name !== null) {
        // Fault: a careless handler trusts `name` to be a string before any check.
        void (name as string).trim();
      }
      // client-sent id, created_at, updated_at, project_id are not rules: ignored.
      const { values, errors } = applyFields(projectRules, body, write.mode, write.current);
      throwIfInvalid(errors);
      return values as ProjectData; // every rule passed, so the shape holds
    },
    resetOptional(current: ProjectData): ProjectData {
      return resetOptionalFields(projectRules, current) as ProjectData;
    },
    afterDelete,
  };
}

/** The `status` filter of the project listing. */
export function projectFilter(query: URLSearchParams, errors: FieldError[]): (data: ProjectData) => boolean {
  const status = singleParam(query, 'status', errors);
  if (status === undefined) return () => true;
  if (!(statuses as readonly string[]).includes(status)) {
    errors.push({ field: 'status', message: `must be one of ${statuses.map((s) => `"${s}"`).join(', ')}` });
    return () => true;
  }
  return (data) => data.status === status;
}
