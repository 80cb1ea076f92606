/** §4 method contract: POST to a collection. */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { uuidPattern } from '../../src/model/ids.js';
import { CheckFailure, defineCheck } from '../../src/model/check.js';
import type { HttpResponse } from '../../src/model/context.js';
import { describe, ensure, expectHeader, expectJsonObject, expectStatus, brief } from '../../src/check-kit/expect.js';
import { diffRepresentations, pickFields, valuesNotStored } from '../../src/check-kit/compare.js';
import { targetOrigins } from '../../src/check-kit/created-url.js';
import { setupError } from '../../src/check-kit/setup.js';
import { sharedGet, sharedItemWithCreate } from '../../src/check-kit/probes.js';
import { alteredBody } from '../../src/check-kit/altered-body.js';

export const post201Location = defineCheck({
  id: 'END-post-201-location',
  title: 'POST answers 201 with Location',
  rule: 'A POST that creates a resource MUST answer 201 Created with a `Location` header naming the new resource.',
  severity: 'must',
  needs: ['writable'],
  async run(ctx, { writable }) {
    // The create of the item the reading checks share: its answer is judged, in this check's evidence.
    const item = await sharedItemWithCreate(ctx, writable);
    expectStatus(item.response, 201);
    expectHeader(item.response, 'Location');
  },
});

export const postLocationResolves = defineCheck({
  id: 'END-post-location-resolves',
  title: "POST's Location resolves to the created resource",
  rule: 'The `Location` of a 201 MUST name the created resource: a GET on it answers 200 with the representation the POST returned.',
  severity: 'must',
  needs: ['writable'],
  dependsOn: ['END-post-201-location', 'END-create-returns-resource', 'END-get-item-200'],
  assumes: ['END-safe-methods-no-change'],
  async run(ctx, { writable: collection }) {
    const item = await sharedItemWithCreate(ctx, collection);
    const location = item.response.headers['location'];
    // No Location is END-post-201-location's finding; without one there is nothing to follow.
    if (!location) throw setupError(item.response, `${describe(item.response)} has no Location to follow (see END-post-201-location)`, `POST ${collection.path} answers without a Location`);
    const target = new URL(location, item.response.url);
    ensure(targetOrigins(ctx.profile).has(target.origin), `Location ${location} names another origin, expected the created resource on ${ctx.profile.baseUrl}`, ctx.profile.baseUrl, target.origin);
    // Where Location names the shared item's URL, as it does unless relative forms differ: the run's one GET of it.
    const res = target.toString() === item.url ? await sharedGet(ctx, { url: item.url }) : await ctx.http.send({ method: 'GET', url: target.toString() });
    expectStatus(res, 200, `GET on Location ${location}`);
    const body = expectJsonObject(res, `GET on Location ${location}`);
    // Fields the POST left out of its answer are END-create-returns-resource's finding: the GET is held to what the POST did say.
    const diff = diffRepresentations(item.body, pickFields(body, Object.keys(item.body)), collection.volatileFields);
    ensure(diff.length === 0, `GET ${location} returned a different resource than the POST (${diff.slice(0, 3).join('; ')}), expected the created one`, brief(item.body), brief(body));
  },
});

/** Why an answer to a POST carrying a client-sent id breaks the rule; undefined when it keeps it. */
function adoptedOrCrashed(res: HttpResponse, idField: string, sentId: string): string | undefined {
  if (res.status >= 500) return `${describe(res)}: a server error, expected the id ignored or refused with a 4xx`;
  if (res.status >= 400) return undefined;
  if (res.status !== 200 && res.status !== 201) return `${describe(res)}, expected 201 with an id the server chose, or a 4xx`;
  const id = (res.json as Record<string, unknown> | null | undefined)?.[idField];
  if (id === undefined) return `${describe(res)}: no "${idField}" in the body, expected the id the server chose`;
  return String(id) === sentId ? `${describe(res)}: "${idField}" is the client's ${JSON.stringify(sentId)}, expected an id the server chose` : undefined;
}

/** Digits a JSON number holds exactly. */
const exactDigits = /^\d{1,15}$/;

/** Whether a collection's ids go as JSON numbers: declared integers, or digits a number holds exactly. */
const numericIds = (idType: string | undefined, id: string): boolean => idType === 'integer' || exactDigits.test(id);

/** An id as JSON carries it: a number where the ids are numbers. */
const asSent = (id: string, numbers: boolean): string | number => (numbers && exactDigits.test(id) ? Number(id) : id);

/**
 * An id no item has, of the same kind as `like`, the id the server chose for an item: a
 * number for numeric ids, digits of the same length for longer ones (a snowflake id), a UUID
 * for UUIDs, hex of the same length for hex ids (a MongoDB ObjectId). A server that checks a
 * client-sent id's type (a model reused for input, an ORM column) refuses any other kind, so
 * only one of its own kind shows whether it is adopted.
 */
function unusedIdLike(like: string, numbers: boolean): string | number {
  if (numbers) return 2_000_000_000 + randomInt(100_000_000);
  if (/^\d{16,}$/.test(like)) return `9${Array.from({ length: like.length - 1 }, () => randomInt(10)).join('')}`;
  if (uuidPattern.test(like)) return randomUUID();
  if (/^[0-9a-f]{16,64}$/i.test(like)) return randomBytes(like.length).toString('hex').slice(0, like.length);
  return `restprobe-client-${randomUUID()}`;
}

export const postServerChoosesId = defineCheck({
  id: 'END-post-server-chooses-id',
  title: 'On POST the server chooses the id',
  rule: 'On POST to a collection the server MUST choose the id: an id the client sends, new or already taken, is ignored or refused with a 4xx, never adopted, never answered with a 5xx, and never lets the POST replace the item that has it (§4.2).',
  severity: 'must',
  needs: ['writable'],
  dependsOn: ['END-get-item-200'],
  assumes: ['END-safe-methods-no-change'],
  async run(ctx, { writable: collection }) {
    const idField = collection.idField;
    // An item first: the unused id is made of its id's kind, which a server that validates a client-sent id lets through.
    const existing = await ctx.create(collection);
    const numbers = numericIds(collection.idType, existing.id);
    const fresh = unusedIdLike(existing.id, numbers);
    const sent = await ctx.sendCreating(collection, { method: 'POST', path: collection.path, json: { ...collection.createBody, [idField]: fresh } });
    const freshWrong = adoptedOrCrashed(sent, idField, String(fresh));
    if (freshWrong) throw new CheckFailure(freshWrong, 'an id the server chose, or a 4xx', String(sent.status), sent.exchangeIndex);
    if (sent.status >= 400) ctx.note(`the server refused a client-sent "${idField}" ${JSON.stringify(fresh)} with ${sent.status}`);
    // An id that is taken: the POST must not reach the item that has it.
    const read = await ctx.http.send({ method: 'GET', url: existing.url });
    expectStatus(read, 200, 'GET of the item whose id the POST sends');
    const before = expectJsonObject(read, 'the item whose id the POST sends');
    const clash = await ctx.sendCreating(collection, {
      method: 'POST',
      path: collection.path,
      json: { ...(alteredBody(collection.createBody, idField, 'clash') ?? collection.createBody), [idField]: asSent(existing.id, numbers) },
    });
    const clashWrong = adoptedOrCrashed(clash, idField, existing.id);
    if (clashWrong) throw new CheckFailure(`POST with the id of an existing item — ${clashWrong}`, 'an id the server chose, or a 4xx', String(clash.status), clash.exchangeIndex);
    const after = await ctx.http.send({ method: 'GET', url: existing.url });
    expectStatus(after, 200, 'GET of the item whose id the POST sent');
    const diff = diffRepresentations(before, expectJsonObject(after), collection.volatileFields);
    ensure(diff.length === 0, `a POST carrying the id of ${existing.id} changed that item (${diff.join('; ')}), expected it untouched`, brief(before), brief(after.json));
  },
});

export const createReturnsResource = defineCheck({
  id: 'END-create-returns-resource',
  title: 'A create returns the created resource',
  rule: 'A create MUST return the created resource: its id and every field the client sent, with the values sent.',
  severity: 'must',
  needs: ['writable'],
  async run(ctx, { writable: collection }) {
    // Compared with every value the POST really carried, the item's mark too.
    const item = await sharedItemWithCreate(ctx, collection);
    const sent = item.sent;
    const body = expectJsonObject(item.response, 'the create response');
    ensure(body[collection.idField] !== undefined, `${describe(item.response)}: no "${collection.idField}" in the body, expected the created resource`, collection.idField, brief(body));
    const missing = valuesNotStored(sent, body, (line) => ctx.note(line), collection.writeOnlyFields);
    ensure(missing.length === 0, `${describe(item.response)}: the body does not hold what was sent (${missing.join('; ')}), expected the created resource`, brief(sent), brief(body));
  },
});


export const createChecks = [post201Location, postLocationResolves, postServerChoosesId, createReturnsResource];
