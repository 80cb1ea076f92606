/** §4 method contract: POST to a collection. */
import { randomUUID } from 'node:crypto';
import { defineCheck } from '../../src/model/check.js';
import { describe, ensure, expectHeader, expectJsonObject, expectStatus, brief } from '../../src/check-kit/expect.js';
import { diffRepresentations, pickFields } from '../../src/check-kit/compare.js';
import { sendTracked } from '../../src/check-kit/probes.js';
import { targetOrigins } from '../../src/check-kit/created-url.js';

export const post201Location = defineCheck({
  id: 'END-post-201-location',
  title: 'POST answers 201 with Location',
  rule: 'A POST that creates a resource MUST answer 201 Created with a `Location` header naming the new resource.',
  severity: 'must',
  needs: ['writable'],
  async run(ctx, { writable }) {
    const item = await ctx.create(writable);
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
  dependsOn: ['END-post-201-location', 'END-create-returns-resource', 'END-get-item-200', 'END-safe-methods-no-change'],
  async run(ctx, { writable: collection }) {
    const item = await ctx.create(collection);
    const location = expectHeader(item.response, 'Location');
    const target = new URL(location, item.response.url);
    ensure(targetOrigins(ctx.profile).has(target.origin), `Location ${location} names another origin, expected the created resource on ${ctx.profile.baseUrl}`, ctx.profile.baseUrl, target.origin);
    const res = await ctx.http.send({ method: 'GET', url: target.toString() });
    expectStatus(res, 200, `GET on Location ${location}`);
    const body = expectJsonObject(res, `GET on Location ${location}`);
    const diff = diffRepresentations(item.body, body, collection.volatileFields);
    ensure(diff.length === 0, `GET ${location} returned a different resource than the POST (${diff.slice(0, 3).join('; ')}), expected the created one`, brief(item.body), brief(body));
  },
});

export const postServerChoosesId = defineCheck({
  id: 'END-post-server-chooses-id',
  title: 'On POST the server chooses the id',
  rule: 'On POST to a collection the server MUST choose the id: an id sent by the client is not adopted.',
  severity: 'must',
  needs: ['writable'],
  async run(ctx, { writable: collection }) {
    const clientId = `restprobe-client-${randomUUID()}`;
    const res = await sendTracked(ctx, collection, { method: 'POST', path: collection.path, json: { ...collection.createBody, [collection.idField]: clientId } });
    if (res.status === 400 || res.status === 422) {
      ctx.note(`the server refused a client-sent "${collection.idField}" with ${res.status}`);
      return;
    }
    // 201 itself is END-post-201-location's to judge: any success shows whose id was kept.
    expectStatus(res, [200, 201], 'POST with a client-sent id');
    const id = expectJsonObject(res)[collection.idField];
    ensure(id !== undefined && String(id) !== clientId, `${describe(res)}: "${collection.idField}" is the client's ${JSON.stringify(clientId)}, expected an id the server chose`, 'a server-chosen id', String(id));
  },
});

export const createReturnsResource = defineCheck({
  id: 'END-create-returns-resource',
  title: 'A create returns the created resource',
  rule: 'A create MUST return the created resource: its id and every field the client sent.',
  severity: 'must',
  needs: ['writable'],
  async run(ctx, { writable: collection }) {
    const item = await ctx.create(collection);
    const body = expectJsonObject(item.response, 'the create response');
    ensure(body[collection.idField] !== undefined, `${describe(item.response)}: no "${collection.idField}" in the body, expected the created resource`, collection.idField, brief(body));
    const sent = collection.createBody ?? {};
    const missing = diffRepresentations(sent, pickFields(body, Object.keys(sent)), []);
    ensure(missing.length === 0, `${describe(item.response)}: the body does not hold what was sent (${missing.join('; ')}), expected the created resource`, brief(sent), brief(body));
  },
});


export const createChecks = [post201Location, postLocationResolves, postServerChoosesId, createReturnsResource];
