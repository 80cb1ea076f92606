/**
 * ERR-validation-422 on an update: a store that validates its creates but applies a PATCH as
 * it comes (Mongoose's `findByIdAndUpdate` without `runValidators`, an `Object.assign` of
 * the body) passed when only a POST was judged; the same store validating its PATCH passes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogue } from '../suites/catalogue.js';
import { runChecks } from '../src/engine/run.js';
import { isObject } from '../src/model/json.js';
import { testProfile, thingsCollection } from './support/profile.js';

const problem = (res: import('node:http').ServerResponse, status: number, detail: string): void =>
  void res.writeHead(status, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ type: 'about:blank', title: status === 422 ? 'Unprocessable Content' : 'Not Found', status, detail }));

/** Things with a text `name`; POST validates it; PATCH validates it only when `validatesPatch`. */
function thingsStore(validatesPatch: boolean): Server {
  const things = new Map<string, Record<string, unknown>>();
  let next = 1;
  const invalid = (body: Record<string, unknown>, partial: boolean): boolean => (partial && !('name' in body) ? false : typeof body['name'] !== 'string');
  return createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const id = /^\/things\/(\d+)$/.exec(req.url ?? '')?.[1];
      let body: unknown;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        return problem(res, 400, 'malformed JSON');
      }
      if (req.method === 'POST' && req.url === '/things') {
        if (!isObject(body) || invalid(body, false)) return problem(res, 422, 'name must be a string');
        const thing = { ...body, id: String(next++) };
        things.set(thing.id, thing);
        return void res.writeHead(201, { location: `/things/${thing.id}`, 'content-type': 'application/json' }).end(JSON.stringify(thing));
      }
      const thing = id === undefined ? undefined : things.get(id);
      if (thing === undefined) return problem(res, 404, 'no such thing');
      if (req.method === 'GET') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(thing));
      if (req.method === 'DELETE') return void (things.delete(id!), res.writeHead(204).end());
      if (req.method === 'PATCH') {
        if (!isObject(body) || (validatesPatch && invalid(body, true))) return problem(res, 422, 'name must be a string');
        Object.assign(thing, body);
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(thing));
      }
      res.writeHead(405, { allow: 'GET, PATCH, DELETE', 'content-type': 'application/problem+json' }).end('{"status":405,"title":"Method Not Allowed"}');
    });
  });
}

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function judge(validatesPatch: boolean) {
  server = thingsStore(validatesPatch);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const collection = { ...thingsCollection, createBody: { name: 'restprobe thing' }, patchBody: { name: 'restprobe thing (patched)' }, methods: ['GET', 'POST', 'PATCH', 'DELETE'] as const };
  const profile = { ...testProfile(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), collections: [collection] };
  const outcome = await runChecks({ profile, checks: catalogue.filter((c) => c.id === 'ERR-validation-422'), seed: 1 });
  expect(outcome.leftovers).toEqual([]);
  return outcome.results[0]!;
}

describe('ERR-validation-422 on an update', () => {
  it('fails a PATCH applied without validation, though the create is refused with 422', async () => {
    const result = await judge(false);
    expect(result.status).toBe('fail');
    expect(result.message).toMatch(/^an update with a body that fails validation: found PATCH \/things\/1 → 200 .*; expected 422$/);
  });

  it('passes when the PATCH is validated as the create is', async () => {
    const result = await judge(true);
    expect(result.status).toBe('pass');
    // Both were judged: the create and the update.
    expect(result.evidence.exchanges.map((e) => `${e.request.method} ${e.response?.status}`)).toEqual(expect.arrayContaining(['POST 422', 'PATCH 422']));
  });
});
