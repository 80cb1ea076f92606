/** Items of a sub-collection (§2 nesting): created under an owner, addressed at the top level. */
import { CheckFailure } from '../model/check.js';
import type { CreatedResource, FixtureMaker, HttpResponse } from '../model/context.js';
import type { ChildProfile } from '../model/profile.js';
import type { NestedCollection } from '../model/needs.js';
import { brief, describe, expectJsonObject } from './expect.js';
import { setupError } from './setup.js';

/** A child item the check created: its id, its top-level URL (tracked for cleanup), and the create's answer. */
export interface CreatedChild {
  readonly id: string;
  readonly url: string;
  readonly body: Record<string, unknown>;
  readonly response: HttpResponse;
}

/** The nested listing of `owner`'s children. */
export const childListing = (child: ChildProfile, owner: CreatedResource): string => child.path.replace('{id}', encodeURIComponent(owner.id));

/**
 * POSTs the child's create body to `owner`'s nested listing. A failed create is a setup
 * error; a created child without an id fails (it cannot be found at the top level).
 */
export async function createChild(ctx: FixtureMaker, { parent, child }: NestedCollection, owner: CreatedResource): Promise<CreatedChild> {
  const listing = childListing(child, owner);
  const created = await ctx.http.send({ method: 'POST', path: listing, json: child.createBody });
  if (created.status < 200 || created.status > 299) {
    throw setupError(created, `creating a ${child.name} item under ${parent.name} ${owner.id} failed: POST ${listing} answered ${created.status}`);
  }
  const body = expectJsonObject(created, `the ${child.name} item created`);
  const id = body[child.idField];
  if (typeof id !== 'string' && typeof id !== 'number') {
    throw new CheckFailure(`${describe(created)}: no "${child.idField}" in the body, so the ${child.name} item cannot be found at the top level`, child.idField, brief(created.json), created.exchangeIndex);
  }
  // Tracked after its owner: cleanup deletes it first.
  const url = ctx.http.url(child.itemPath.replace('{id}', encodeURIComponent(String(id))));
  ctx.track(url);
  return { id: String(id), url, body, response: created };
}
