/** §2 Resources: JSON representations, and sub-collections listed under their owner. */
import { defineCheck } from '../../src/model/check.js';
import type { CreatedResource, HttpResponse } from '../../src/model/context.js';
import { brief, describe, ensure, expectJsonObject, expectStatus } from '../../src/check-kit/expect.js';
import { childListing, createChild } from '../../src/check-kit/children.js';
import { listedItems } from '../../src/check-kit/pagination.js';
import { setupError } from '../../src/check-kit/setup.js';
import { sharedGet, sharedItem } from '../../src/check-kit/probes.js';
import { beforeOf, patchSequence, putSequence, writeOf } from '../../src/check-kit/update-sequences.js';

export const jsonContentType = defineCheck({
  id: 'RES-json-content-type',
  title: 'Successful responses with content are application/json',
  rule: 'Every successful response with content MUST carry `Content-Type: application/json`: clients exchange representations as JSON with that Content-Type (§2).',
  severity: 'must',
  needs: ['collection'],
  uses: ['writable'],
  async run(ctx, { collection, writable }) {
    const responses: HttpResponse[] = [await sharedGet(ctx, { path: collection.path })];
    if (writable) {
      // The create, GET and update of the update checks' sequence (a PATCH, else a PUT), sent once for the run.
      const sequence = writable.patchBody ? await patchSequence(ctx, writable) : writable.replaceBody ? await putSequence(ctx, writable) : undefined;
      if (sequence === undefined) {
        const item = await ctx.create(writable);
        responses.push(item.response, await ctx.http.send({ method: 'GET', url: item.url }));
      } else responses.push(sequence.item.response, beforeOf(sequence), writeOf(sequence, 0));
    } else {
      ctx.note('only the collection is judged: read-only run or no create body (safety.readOnly, collections[].create.body)');
    }
    const mislabelled = responses.filter((r) => r.status >= 200 && r.status < 300 && r.text.length > 0 && r.mediaType !== 'application/json');
    ensure(
      mislabelled.length === 0,
      `${mislabelled.map((r) => `${describe(r)} is labelled ${JSON.stringify(r.headers['content-type'] ?? null)}`).join('; ')}, expected Content-Type: application/json`,
      'application/json',
      mislabelled.map((r) => r.headers['content-type'] ?? 'none').join('; '),
    );
  },
});

export const nestedListing = defineCheck({
  id: 'RES-nested-listing',
  title: 'A sub-collection is listed under its owner, its items at the top level',
  rule: 'An item of a sub-collection MUST be listed at `/<collection>/<id>/<sub-collection>` of its owner and of no other item, and MUST answer GET at its top-level path (§2: nesting shows ownership only, and the nested path is kept for listing).',
  severity: 'must',
  needs: ['nested'],
  // The page shape and GET on an item are those checks' to judge.
  dependsOn: ['END-get-collection-200', 'END-get-item-200'],
  async run(ctx, { nested: { parent, child } }) {
    const owner = await ctx.create(parent);
    // Another item's listing is only read: the run's shared item serves.
    const other = await sharedItem(ctx, parent);
    const listingOf = (item: CreatedResource) => childListing(child, item);
    const { id, url: topLevel } = await createChild(ctx, { parent, child }, owner);
    const listed = async (item: CreatedResource): Promise<{ res: HttpResponse; ids: string[] }> => {
      const res = await ctx.http.send({ method: 'GET', path: listingOf(item) });
      expectStatus(res, 200, `the ${child.name} listing of ${parent.name} ${item.id}`);
      // The page's shape is END-get-collection-200's to judge: only its items are read, through the owner's envelope
      // (a bare array, a configured envelope), whatever the sub-collection's own paging (none, or offsets under a cursor-paged owner).
      const items = listedItems(res, parent);
      if (items === undefined) throw setupError(res, `${describe(res)} lists no items the way ${parent.name}'s pages do, so whose ${child.name} it lists cannot be read`);
      return { res, ids: items.map((x) => String(x[child.idField])) };
    };
    const mine = await listed(owner);
    ensure(mine.ids.includes(String(id)), `${describe(mine.res)} does not list ${child.name} ${id}, created under it, expected it listed under its owner`, String(id), brief(mine.ids));
    const theirs = await listed(other);
    ensure(!theirs.ids.includes(String(id)), `${describe(theirs.res)} lists ${child.name} ${id}, which belongs to ${parent.name} ${owner.id}, expected only the items ${other.id} owns`, 'not listed', brief(theirs.ids));
    const got = await ctx.http.send({ method: 'GET', url: topLevel });
    expectStatus(got, 200, `GET of ${child.name} ${id} at the top level`);
    const body = expectJsonObject(got, `${child.name} ${id} at the top level`);
    ensure(String(body[child.idField]) === String(id), `${describe(got)}: "${child.idField}" is ${brief(body[child.idField])}, expected ${JSON.stringify(String(id))}`, String(id), brief(body[child.idField]));
  },
});

export const representationChecks = [jsonContentType, nestedListing];
