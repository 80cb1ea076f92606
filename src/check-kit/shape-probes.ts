/**
 * The fixed probes whose response shapes VER-compatible-within-major records per
 * collection, the same in every run so that two runs' snapshots compare: the listing; where
 * the run may write a create and the created item (`item`), else the listing's first item
 * (`listed item`: another probe, as a stored item's optional fields are not the created
 * one's); then the errors for a missing item and an invalid create. Only names, types and status codes are kept (src/check-kit/shapes.ts).
 */
import type { CheckContext, HttpResponse } from '../model/context.js';
import type { CollectionProfile, TargetProfile } from '../model/profile.js';
import type { WritableCollection } from '../model/needs.js';
import type { ProbeShape, ShapeSnapshot } from '../model/shape.js';
import { listedItems } from './pagination.js';
import { errorProbes, invalidBody, itemPath, sharedGet, sharedItemWithCreate } from './probes.js';
import { setupError } from './setup.js';
import { shapeOf } from './shapes.js';

/**
 * The probe's answer as a snapshot keeps it. A 502, 503 or 504 that outlasted the polite
 * client's retries says the target was unavailable, not what its contract is: the shape is
 * not taken (a setup error), so a flaky moment is never a breaking change.
 */
function probeShape(request: string, res: HttpResponse): ProbeShape {
  if (res.status === 502 || res.status === 503 || res.status === 504) throw setupError(res, `${request} answered ${res.status} (the target unavailable, after retries): its response shape was not taken`);
  return { request, status: res.status, ...(res.json !== undefined && { body: shapeOf(res.json) }) };
}

/** The major version the run sees: the config's current version, else a `/v<n>` segment of the collection's path. */
export function majorVersion(profile: TargetProfile, c: CollectionProfile): string | undefined {
  return profile.version?.current ?? /\/v(\d+)(?:\/|$)/.exec(c.path)?.[1];
}

/** The id of the listing's first item, to read an item on a run that may not create one. */
export function firstListedId(res: HttpResponse, c: CollectionProfile): string | undefined {
  const id = listedItems(res, c)?.[0]?.[c.idField];
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/**
 * Sends the fixed probes to `c` and returns their shapes. With `writable` (the same
 * collection, on a run that may write) it reads the run's shared item, made from the create
 * body, so the item's shape does not depend on what others stored, and judges its create's
 * answer, which it holds in its evidence; without, it reads the listing's first item.
 */
export async function snapshotCollection(ctx: CheckContext, c: CollectionProfile, writable: WritableCollection | undefined): Promise<ShapeSnapshot> {
  const probes: Record<string, ProbeShape> = {};
  const item = `GET ${c.itemPath}`;
  // Where the listing's first item is read, the listing is read now: a shared one may be older than that item.
  const list = writable !== undefined ? await sharedGet(ctx, { path: c.path }) : await ctx.http.send({ method: 'GET', path: c.path });
  probes['list'] = probeShape(`GET ${c.path}`, list);
  if (writable !== undefined) {
    const created = await sharedItemWithCreate(ctx, writable);
    probes['create'] = probeShape(`POST ${c.path}`, created.response);
    probes['item'] = probeShape(item, await sharedGet(ctx, { url: created.url }));
  } else {
    const id = firstListedId(list, c);
    if (id === undefined) ctx.note(`${c.path} listed no item to read: the item's shape is not recorded`);
    else probes['listed item'] = probeShape(`${item} (the listing's first item)`, await ctx.http.send({ method: 'GET', path: itemPath(c, id) }));
  }
  probes['missing item'] = probeShape(`${item} (an id no item has)`, await errorProbes.unknownItem(ctx, c));
  if (writable !== undefined && Object.keys(invalidBody(writable)).length > 0) {
    probes['invalid create'] = probeShape(`POST ${c.path} (a body that fails validation)`, await errorProbes.invalidBody(ctx, writable));
  }
  const version = majorVersion(ctx.profile, c);
  return { ...(version !== undefined && { version }), probes };
}
