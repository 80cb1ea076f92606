/**
 * Tasks: `{ id, project_id, title, done, created_at, updated_at }`, listed under their
 * project and addressed at the top level, with the completion noun action.
 */
import type { JsonObject } from './body.js';
import { createdAtSort, enumFilter, fieldSort, type ListingSpec } from './listing.js';
import type { FieldError } from './problem.js';
import { actionLinked, type NounAction } from './noun-actions.js';
import type { ResourceKind, Write } from './resources.js';
import type { Collection, Entry } from './store.js';
import { faultActive } from './request-faults.js';
import { link, type RouteLink } from './links.js';
import { projectPath } from './projects.js';
import { applyFields, resetOptionalFields, throwIfInvalid, type FieldRules } from './validation.js';

export type TaskData = {
  readonly project_id: string;
  readonly title: string;
  readonly done: boolean;
};

/** Writable fields besides `project_id`, which is checked against the projects. */
export const taskRules: FieldRules = {
  title: { kind: 'text', required: true, max: 200 },
  done: { kind: 'boolean', default: false },
};

export function taskPath(id: string): string {
  return `/v2/tasks/${encodeURIComponent(id)}`;
}

export function completionPath(taskId: string): string {
  return `${taskPath(taskId)}/completion`;
}

/** When each done task was completed. A task is done exactly when it has an entry here. */
export type Completions = Map<string, string>;

/**
 * The owning project of a write: the nested path's for POST, the body's for PUT-create
 * (required), the body's or the current one's otherwise (a task can move).
 */
function ownerOf(
  body: JsonObject,
  write: Write<TaskData>,
  projectExists: (id: string) => boolean,
  errors: FieldError[],
): string | undefined {
  if (write.parentId !== undefined) return write.parentId;
  const sent = body['project_id'];
  if (sent === undefined && write.current !== undefined) return write.current.project_id;
  if (sent === undefined || sent === null) {
    errors.push({ field: 'project_id', message: 'is required: name the project this task belongs to' });
  } else if (typeof sent !== 'string') {
    errors.push({ field: 'project_id', message: 'must be a string' });
  } else if (!projectExists(sent)) {
    errors.push({ field: 'project_id', message: 'must name an existing project' });
  } else {
    return sent;
  }
  return undefined;
}

export function taskKind(
  store: Collection<TaskData>,
  completions: Completions,
  projectExists: (id: string) => boolean,
): ResourceKind<TaskData> {
  return {
    noun: 'task',
    store,
    itemPath: taskPath,
    build(body: JsonObject, write: Write<TaskData>): TaskData {
      const { values, errors } = applyFields(taskRules, body, write.mode, write.current);
      const projectId = ownerOf(body, write, projectExists, errors);
      throwIfInvalid(errors);
      return { project_id: projectId, ...values } as TaskData; // every rule passed
    },
    resetOptional(current: TaskData): TaskData {
      return { ...current, ...resetOptionalFields(taskRules, current) } as TaskData;
    },
    afterWrite(entry: Entry<TaskData>): void {
      // Keep "done" and "has a completion" the same fact, whichever way it was written.
      if (!entry.data.done) completions.delete(entry.id);
      else if (!completions.has(entry.id)) completions.set(entry.id, entry.updatedAt);
    },
    afterDelete(entry: Entry<TaskData>): void {
      completions.delete(entry.id);
    },
    links(entry: Entry<TaskData>): Record<string, RouteLink> {
      // Fault `link-dead`: the owner's link names a path that does not exist.
      // Fault `link-id-unset`: the link is built before the id is known, so it names `undefined`.
      const project = faultActive('link-dead') ? `/v2/project/${encodeURIComponent(entry.data.project_id)}` : projectPath(faultActive('link-id-unset') ? 'undefined' : entry.data.project_id);
      const links: Record<string, RouteLink> = { self: link(taskPath(entry.id)), project: link(project) };
      // The completion action is open only while the task is not done.
      if (actionLinked(!entry.data.done)) links['completion'] = link(faultActive('verb-in-path') ? `${taskPath(entry.id)}/complete` : completionPath(entry.id));
      return links;
    },
  };
}

/** A project's task listing: filter `done`, sorts `created_at` (default) and `title`. */
export function taskListing(projectId: string): ListingSpec<TaskData> {
  return {
    filters: [enumFilter('done', ['true', 'false'], (t) => t.done, 'must be "true" or "false"')],
    sorts: [createdAtSort(), fieldSort('title', (t) => t.title)],
    within: (t) => t.project_id === projectId,
  };
}

/** The completion of a task: `POST /v2/tasks/{id}/completion` marks it done; completing it again changes nothing. */
export function completionAction(kind: ResourceKind<TaskData>, completions: Completions): NounAction<TaskData> {
  return {
    kind,
    taken: completions,
    path: completionPath,
    body: (taskId, completedAt) => ({ task_id: taskId, completed_at: completedAt }),
    apply: (data) => ({ ...data, done: true }),
    notTaken: 'This task has not been completed.',
  };
}
