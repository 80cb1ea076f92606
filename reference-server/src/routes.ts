/**
 * The API under `/v2`: every path, the methods it implements, and whether each takes a
 * body. One server instance owns one set of stores.
 */
import { apiKeyRoutes, apiKeysPath } from './api-keys.js';
import type { KeyRing } from './auth.js';
import { param, requiredBody, type Operation } from './context.js';
import { memberKind, memberMaxLimit, membersPath, memberListing, type MemberData } from './members.js';
import { eventKind, eventListing, eventsPath, type EventData } from './events.js';
import { sessionRoutes, type SessionStore } from './sessions.js';
import { projectKind, projectListing, projectPath, projectsPath, seedProject, type ProjectData } from './projects.js';
import { notFound } from './problem.js';
import { createItem, getItem, itemRoute, listItems, listItemsByOffset, listItemsByPageNumber } from './resources.js';
import { IdempotencyStore } from './idempotency.js';
import { currentVersion, deprecatedAt, deprecatedVersion, deprecationNoticePath, renames, sunsetAt } from './versions.js';
import { link } from './links.js';
import { jsonReply } from './respond.js';
import type { Route } from './router.js';
import type { FaultName } from './faults.js';
import { faultActive, withoutFaults } from './request-faults.js';
import { Collection, type IdScheme } from './store.js';
import { completionAction, taskKind, taskListing, type Completions, type TaskData } from './tasks.js';
import { represent } from './resources.js';
import { restorationAction, type Restorations } from './restorations.js';
import { readAction, takeAction } from './noun-actions.js';
import { Webhooks } from './webhooks.js';
import { openApiDocument, openApiPaths } from './openapi.js';

/** What a fresh set of stores starts with. */
export interface RouteOptions {
  /** Bulk projects to create up front (see `seedProject`); none by default. */
  readonly seedProjects?: number;
  /** The projects listing's maximum page size; default 100 (pagination.ts). */
  readonly projectsMaxLimit?: number;
  /** The keys that authenticate; `/v2/api-keys` mints into it. */
  readonly keys: KeyRing;
  /** The session records; `/v2/sessions` logs in and out of it. */
  readonly sessions: SessionStore;
  /** How the stores choose ids; `uuid` by default. */
  readonly ids?: IdScheme;
  /** Webhook subscriptions and deliveries; every write to projects and tasks emits an event. */
  readonly webhooks?: Webhooks;
  /** The active faults, for the few that add a route (`verb-in-path`). */
  readonly faults?: ReadonlySet<FaultName>;
}

/** Fresh stores (empty, or seeded) and the routes that serve them. */
export function createRoutes(options: RouteOptions): Route<Operation>[] {
  const projectStore = new Collection<ProjectData>(options.ids);
  projectStore.seed(options.seedProjects ?? 0, seedProject);
  const memberStore = new Collection<MemberData>(options.ids);
  const taskStore = new Collection<TaskData>(options.ids);
  const completions: Completions = new Map();
  const restorations: Restorations = new Map();
  const members = memberKind(memberStore);
  const events = eventKind(new Collection<EventData>(options.ids));
  // Every create honours Idempotency-Key (§4 rule 6), one store for every node.
  const idempotent = new IdempotencyStore();

  const tasks = taskKind(taskStore, completions, (id) => projectStore.get(id) !== undefined);
  const projects = projectKind(
    projectStore,
    (project) => {
      // Deleting a project deletes its tasks.
      for (const task of taskStore.filter((t) => t.project_id === project.id)) {
        taskStore.delete(task.id);
        tasks.afterDelete?.(task);
      }
    },
    restorations,
  );
  const completion = completionAction(tasks, completions);
  const restoration = restorationAction(projects, restorations);

  // The document describes these routes; it never changes, so it is written once.
  const openApi = jsonReply(200, openApiDocument());
  const routes: Route<Operation>[] = [
    // Public, like any API's documentation: no credentials needed to read it.
    ...openApiPaths.map((pattern) => ({ pattern, operations: { GET: { access: 'open', handler: () => openApi } } }) satisfies Route<Operation>),
    ...apiKeyRoutes(options.keys),
    ...(options.webhooks?.routes() ?? []),
    ...sessionRoutes(options.keys, options.sessions),
    {
      pattern: '/v2',
      operations: {
        // The index names no resource: any valid credential may read it.
        GET: { access: 'authenticated', handler: () => jsonReply(200, { _links: { projects: link(projectsPath), members: link(membersPath), events: link(eventsPath), api_keys: link(apiKeysPath) } }) },
      },
    },
    {
      // The deprecation notice a deprecated version's `Link: rel="deprecation"` names (RFC 9745 §3).
      pattern: deprecationNoticePath,
      operations: {
        GET: {
          access: 'authenticated',
          handler: () =>
            jsonReply(200, {
              version: deprecatedVersion,
              deprecated_at: new Date(deprecatedAt * 1000).toISOString(),
              sunset_at: new Date(sunsetAt * 1000).toISOString(),
              successor: currentVersion,
              renamed_fields: renames.map((r) => ({ path: link(r.path), from: r.from, to: r.to })),
            }),
        },
      },
    },
    {
      pattern: projectsPath,
      operations: {
        GET: {
          csv: true,
          handler: (ctx) => {
            const label = ctx.query.get('label');
            if (ctx.method === 'HEAD' && label !== null && faultActive('head-collection-creates')) {
              // Fault: a HEAD of a filtered listing "warms" it with a placeholder project.
              projectStore.insert(projectStore.newId(), { name: 'placeholder', description: null, status: 'active', label });
            }
            if (ctx.method === 'GET' && [...ctx.query.keys()].length === 0 && faultActive('listing-read-creates')) {
              // Fault: a plain read of the listing seeds a sample project, which no filter of a caller's asks for.
              projectStore.insert(projectStore.newId(), { name: 'sample', description: null, status: 'active', label: null });
            }
            return listItems(projects, ctx, { scope: projectsPath, listing: projectListing, maxLimit: options.projectsMaxLimit });
          },
        },
        POST: {
          body: 'required',
          handler: idempotent.wrap((ctx) => createItem(projects, ctx, requiredBody(ctx), { collectionPath: projectsPath })),
        },
      },
    },
    itemRoute(`${projectsPath}/:id`, projects),
    {
      // A noun action on a top-level item: open while the project is archived.
      pattern: `${projectsPath}/:id/restoration`,
      operations: {
        GET: { handler: (ctx) => readAction(restoration, param(ctx, 'id')) },
        POST: { body: 'optional', handler: (ctx) => takeAction(restoration, param(ctx, 'id')) },
      },
    },
    {
      pattern: membersPath,
      operations: {
        GET: { csv: true, handler: (ctx) => listItemsByOffset(members, ctx, { listing: memberListing, maxLimit: memberMaxLimit }) },
        POST: {
          body: 'required',
          handler: idempotent.wrap((ctx) => createItem(members, ctx, requiredBody(ctx), { collectionPath: membersPath })),
        },
      },
    },
    {
      pattern: eventsPath,
      operations: {
        GET: { csv: true, handler: (ctx) => listItemsByPageNumber(events, ctx, { listing: eventListing }) },
        POST: { body: 'required', handler: idempotent.wrap((ctx) => createItem(events, ctx, requiredBody(ctx), { collectionPath: eventsPath })) },
      },
    },
    {
      // An append-only log: no PUT, PATCH or DELETE on an event (405 with Allow).
      pattern: `${eventsPath}/:id`,
      operations: { GET: { handler: (ctx) => getItem(events, param(ctx, 'id')) } },
    },
    itemRoute(`${membersPath}/:id`, members),
    {
      pattern: `${projectsPath}/:id/tasks`,
      operations: {
        GET: {
          handler: (ctx) => {
            const projectId = param(ctx, 'id');
            if (projectStore.get(projectId) === undefined) throw missingProject();
            // Fault `nested-listing-unscoped`: every project's tasks, whoever the owner.
            const listing = faultActive('nested-listing-unscoped') ? { ...taskListing(projectId), within: () => true } : taskListing(projectId);
            return listItems(tasks, ctx, { scope: `${projectPath(projectId)}/tasks`, listing });
          },
        },
        POST: {
          body: 'required',
          handler: idempotent.wrap((ctx) => {
            const projectId = param(ctx, 'id');
            if (projectStore.get(projectId) === undefined) throw missingProject();
            return createItem(tasks, ctx, requiredBody(ctx), {
              collectionPath: `${projectPath(projectId)}/tasks`,
              parentId: projectId,
            });
          }),
        },
      },
    },
    itemRoute('/v2/tasks/:id', tasks, () => {
      // Fault `task-only-nested`: a task is listed under its project but not served at the top level.
      if (faultActive('task-only-nested')) throw notFound();
    }),
    // Fault `verb-in-path`: the action is also served (and linked) at a verb, `/complete`.
    ...(options.faults?.has('verb-in-path') ? ['complete'] : []).concat('completion').map((noun) => ({
      pattern: `/v2/tasks/:id/${noun}`,
      operations: {
        GET: { handler: (ctx) => readAction(completion, param(ctx, 'id')) },
        // A noun action: no body is needed, but a JSON object is tolerated.
        POST: { body: 'optional', handler: (ctx) => takeAction(completion, param(ctx, 'id')) },
      },
    } satisfies Route<Operation>)),
  ];
  const webhooks = options.webhooks;
  if (webhooks === undefined) return routes;
  // An event's data is the item as stored: no fault of the request's bends it.
  const project = (id: string) => { const e = projectStore.get(id); return e && withoutFaults(() => represent(projects, e)); };
  const task = (id: string) => { const e = taskStore.get(id); return e && withoutFaults(() => represent(tasks, e)); };
  const emitting: Record<string, (r: Route<Operation>) => Route<Operation>> = {
    [projectsPath]: (r) => webhooks.emitting(r, 'project', project),
    [`${projectsPath}/:id`]: (r) => webhooks.emitting(r, 'project', project),
    [`${projectsPath}/:id/tasks`]: (r) => webhooks.emitting(r, 'task', task),
    '/v2/tasks/:id': (r) => webhooks.emitting(r, 'task', task),
    '/v2/tasks/:id/completion': (r) => webhooks.emitting(r, 'task', task, 'completed'),
    [`${projectsPath}/:id/restoration`]: (r) => webhooks.emitting(r, 'project', project, 'restored'),
  };
  return routes.map((r) => emitting[r.pattern]?.(r) ?? r);
}

function missingProject(): Error {
  return notFound('No project exists with this id.');
}
