/**
 * A noun action on an item (conventions §2 non-CRUD actions): `POST <item>/<noun>` takes
 * it (201 + Location; again, 200 with the same record), `GET <item>/<noun>` reads the
 * record (404 until it is taken). A task's completion and a project's restoration are two.
 */
import { faultActive } from './request-faults.js';
import { genericProblem, notFound, ProblemError } from './problem.js';
import type { ResourceKind } from './resources.js';
import { jsonReply, type Reply } from './respond.js';
import type { Entry, Fields } from './store.js';

export interface NounAction<D extends Fields> {
  readonly kind: ResourceKind<D>;
  /** When the action was taken, by item id; the kind's `afterWrite` drops an entry when the item leaves the taken state. */
  readonly taken: Map<string, string>;
  /** The record's path, for an item id. */
  path(id: string): string;
  /** The record as answered. */
  body(id: string, takenAt: string): Record<string, unknown>;
  /** The item's data once the action is taken. */
  apply(data: D): D;
  /** Why the action is closed on an item it was not taken on (answered 409); undefined: open. */
  closed?(entry: Entry<D>): string | undefined;
  /** Said when the record is read before the action was taken (`This task has not been completed.`). */
  readonly notTaken: string;
}

function itemOf<D extends Fields>(action: NounAction<D>, id: string): Entry<D> {
  const entry = action.kind.store.get(id);
  if (entry === undefined) throw notFound(`No ${action.kind.noun} exists with this id.`);
  return entry;
}

/** POST: takes the action once; a repeat answers the same record. */
export function takeAction<D extends Fields>(action: NounAction<D>, id: string): Reply {
  const entry = itemOf(action, id);
  const existing = action.taken.get(id);
  if (existing !== undefined) return recordReply(200, action.body(id, existing), existing);
  const closed = action.closed?.(entry);
  if (closed !== undefined) throw new ProblemError(genericProblem(409, closed));
  const updated = action.kind.store.update(id, action.apply(entry.data));
  action.kind.afterWrite?.(updated);
  if (!action.taken.has(id)) action.taken.set(id, updated.updatedAt);
  const takenAt = action.taken.get(id)!;
  return recordReply(201, action.body(id, takenAt), takenAt, faultActive('action-location-dropped') ? {} : { Location: action.path(id) });
}

/**
 * An action record as answered. Faults `action-record-as-hal` (labelled application/hal+json)
 * and `action-time-as-number` (its time as epoch milliseconds) break only the server's
 * OpenAPI document, which says application/json and a date-time string.
 */
function recordReply(status: number, record: Record<string, unknown>, takenAt: string, headers: Readonly<Record<string, string>> = {}): Reply {
  const value = faultActive('action-time-as-number') ? Object.fromEntries(Object.entries(record).map(([k, v]) => [k, v === takenAt ? Date.parse(takenAt) : v])) : record;
  const reply = jsonReply(status, value, headers);
  return faultActive('action-record-as-hal') ? { ...reply, content: { type: 'application/hal+json', value } } : reply;
}

/** GET: the record once taken, 404 before. */
export function readAction<D extends Fields>(action: NounAction<D>, id: string): Reply {
  const entry = itemOf(action, id);
  // Fault `action-on-get`: reading an open action takes it, as a verb-on-GET endpoint would.
  if (faultActive('action-on-get') && !action.taken.has(id) && action.closed?.(entry) === undefined) return takeAction(action, id);
  const takenAt = action.taken.get(id);
  if (takenAt === undefined) throw notFound(action.notTaken);
  return recordReply(200, action.body(id, takenAt), takenAt);
}

/** Whether `_links` names an action, open or not (faults `link-open-action-missing`, `link-closed-action-shown`). */
export function actionLinked(open: boolean): boolean {
  return open ? !faultActive('link-open-action-missing') : faultActive('link-closed-action-shown');
}
