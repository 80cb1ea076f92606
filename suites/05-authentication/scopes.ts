/** §5.4 and §7's 403 row: a valid credential without the scope is refused with 403, on every call, and the refused call changes nothing. */
import { volatileAcrossNoChange } from '../../src/model/server-kept-fields.js';
import { defineCheck } from '../../src/model/check.js';
import type { CheckContext, HttpResponse } from '../../src/model/context.js';
import type { WritableCollection } from '../../src/model/needs.js';
import { isObject } from '../../src/model/json.js';
import { scopeAs401, withKey } from '../../src/check-kit/auth.js';
import { describe, expectEvery } from '../../src/check-kit/expect.js';
import { deepEqual, diffRepresentations } from '../../src/check-kit/compare.js';
import { itemPath } from '../../src/check-kit/probes.js';
import { listedItems, pagePath } from '../../src/check-kit/pagination.js';
import { setupError } from '../../src/check-kit/setup.js';

/** The item as the full credential reads it: its representation, or what happened to it. */
async function readWithFullKey(ctx: CheckContext, url: string): Promise<{ res: HttpResponse; body?: Record<string, unknown> }> {
  const res = await ctx.http.send({ method: 'GET', url });
  return { res, ...(res.status === 200 && isObject(res.json) && { body: res.json }) };
}

/**
 * What a refused write to the item did anyway, compared with the item as it was just before
 * (`before`, updated to the state now); undefined when nothing changed.
 */
async function itemChange(ctx: CheckContext, c: WritableCollection, url: string, before: { body: Record<string, unknown>; readDrift: readonly string[] }): Promise<string | undefined> {
  const now = await readWithFullKey(ctx, url);
  if (now.res.status === 404 || now.res.status === 410) return `the item is gone (${describe(now.res)} with the full credential)`;
  if (now.body === undefined) {
    ctx.note(`after a refused write, ${describe(now.res)} with the full credential: whether the write was applied is not known`);
    return undefined;
  }
  const diff = diffRepresentations(before.body, now.body, [...volatileAcrossNoChange(c), ...before.readDrift]);
  before.body = now.body;
  return diff.length === 0 ? undefined : `it changed the item (${diff.slice(0, 3).join('; ')})`;
}

/**
 * What a refused POST created anyway: the items of the collection's listing filtered by the
 * POST's mark, each registered for cleanup; undefined when there are none. A collection it
 * cannot be filtered by leaves the POST unexamined, noted.
 */
async function createdAnyway(ctx: CheckContext, c: WritableCollection, mark: string | undefined): Promise<string | undefined> {
  if (mark === undefined || !c.filters.includes(c.markField!)) {
    ctx.note(`a refused POST was not looked for in ${c.path}: the collection has no mark field it filters on (collections[].mark, collections[].filters)`);
    return undefined;
  }
  const res = await ctx.http.send({ method: 'GET', path: pagePath(c, { filters: { [c.markField!]: mark } }) });
  const data = listedItems(res, c);
  if (res.status !== 200 || data === undefined) {
    ctx.note(`after a refused POST, ${describe(res)} listing by its mark: whether it created an item is not known`);
    return undefined;
  }
  // Only items that carry the mark: a listing that ignores the filter shows others too.
  const made = data.filter((x) => x[c.markField!] === mark);
  for (const x of made) if (x[c.idField] !== undefined) ctx.track(ctx.http.url(itemPath(c, String(x[c.idField]))));
  return made.length === 0 ? undefined : `it created ${made.length === 1 ? 'an item' : `${made.length} items`} all the same (found by its ${c.markField} in ${describe(res)})`;
}

export const scope403 = defineCheck({
  id: 'AUT-scope-403',
  title: 'A credential without the write scope gets 403 on every write, and changes nothing',
  rule: 'A valid credential that lacks the scope for a call MUST get 403 on every call, never 2xx, and never 401, which would say the credential itself is not valid; and a refused write MUST change nothing (conventions §5.4, §7; the 403\'s problem+json body is judged by the ERR- problem checks).',
  severity: 'must',
  needs: ['writable', 'limitedCredential'],
  async run(ctx, { writable: c, limitedCredential: limited }) {
    const item = await ctx.create(c);
    const as = withKey(limited, limited.value.value);
    const read = await ctx.http.send({ method: 'GET', url: item.url, ...as });
    if (read.status === 401) throw setupError(read, `${describe(read)} with auth.limited: the credential is not accepted at all, so a missing scope cannot be shown`);
    // A 404 (or 403) to the read: the credential may belong to another tenant, whose writes a 404 rightly hides (RFC 9110 §15.5.4); only a reader of the item shows a missing write scope.
    if (read.status < 200 || read.status > 299) throw setupError(read, `${describe(read)} with auth.limited reading an item just created: it cannot read the item (another tenant's credential?), so its writes' refusals say nothing of a scope; auth.limited must be a read-only credential of the same tenant`);
    const first = await readWithFullKey(ctx, item.url);
    if (first.body === undefined) throw setupError(first.res, `${describe(first.res)} reading the item just created, so a refused write's effect cannot be seen`);
    // Fields that change between two reads alone (a view counter, a last-read time) say nothing of a write.
    const second = await readWithFullKey(ctx, item.url);
    const readDrift = second.body === undefined ? [] : Object.keys({ ...first.body, ...second.body }).filter((k) => !deepEqual(first.body![k], second.body![k]));
    if (readDrift.length > 0) ctx.note(`reading the item alone changes ${readDrift.join(', ')}: not judged as a write's effect`);
    const before = { body: second.body ?? first.body, readDrift };
    const scopes = limited.scopes.length > 0 ? ` (scopes ${limited.scopes.join(' ')})` : '';
    // What each refused write did all the same, by its response: found by reading with the full credential after it.
    const applied = new Map<HttpResponse, string>();
    const refused = (res: HttpResponse): boolean => res.status < 200 || res.status > 299;
    // Bodies the target would accept from a credential with the scope; a POST that goes through is cleaned up.
    const mark = c.markField === undefined ? undefined : ctx.newMark();
    const post = await ctx.sendCreating(c, { method: 'POST', path: c.path, json: { ...c.createBody, ...(mark !== undefined && { [c.markField!]: mark }) }, ...as });
    const writes = [post];
    if (refused(post)) {
      const made = await createdAnyway(ctx, c, mark);
      if (made !== undefined) applied.set(post, made);
    }
    const itemWrites = [
      ...(c.replaceBody !== undefined ? [{ method: 'PUT', json: c.replaceBody }] : []),
      ...(c.patchBody !== undefined ? [{ method: 'PATCH', json: c.patchBody }] : []),
      { method: 'DELETE' },
    ];
    for (const spec of itemWrites) {
      const res = await ctx.http.send({ ...spec, url: item.url, ...as });
      writes.push(res);
      const change = refused(res) ? await itemChange(ctx, c, item.url, before) : undefined;
      if (change !== undefined) applied.set(res, change);
    }
    const problemOf = (res: HttpResponse): string | undefined => {
      if (!refused(res)) return `${describe(res)}: the write went through`;
      if (res.status === 401) return `${describe(res)}: 401 says the credential is not valid, but it is; it lacks the scope`;
      if (res.status !== 403) return describe(res);
      const change = applied.get(res);
      return change === undefined ? undefined : `${describe(res)}, but ${change}`;
    };
    expectEvery(writes, problemOf, (bad, all, found) => `${bad} of ${all} writes with a credential without write scope${scopes} were not refused with 403 and no effect — ${found}; expected 403, and nothing changed`, '403, nothing changed', (bad) => (bad.every((r) => r.status === 401) ? scopeAs401 : undefined));
  },
});

export const scopeChecks = [scope403];
