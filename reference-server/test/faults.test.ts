/**
 * The fault catalogue: its entries are well-formed, and every fault changes the
 * server's behaviour as its description says (one server per fault).
 */
import { describe, expect, it } from 'vitest';
import { faultCatalogue } from '../src/index.js';
import { startHarness, type Harness } from './client.js';

/** The catalogue as agreed: fault name → the check ids that must catch it. */
const agreed: Record<string, string[]> = {
  'collection-unwrapped': ['END-get-collection-200'],
  'item-get-204': ['END-get-item-200'],
  'head-drops-headers': ['END-head-matches-get'],
  'options-without-allow': ['END-options-allow'],
  'post-200-no-location': ['END-post-201-location'],
  'location-points-to-collection': ['END-post-location-resolves'],
  'client-chosen-id': ['END-post-server-chooses-id'],
  'create-returns-id-only': ['END-create-returns-resource'],
  'update-returns-previous': ['END-update-returns-resource'],
  'put-merges': ['END-put-replaces'],
  'put-bumps-revision': ['END-put-idempotent'],
  'put-missing-404': ['END-put-creates-missing'],
  'patch-resets-unsent': ['END-patch-keeps-unsent'],
  'delete-200-empty': ['END-delete-204'],
  'delete-soft': ['END-delete-then-404'],
  'delete-repeat-500': ['END-delete-idempotent'],
  'unsupported-method-404': ['END-method-not-allowed-405'],
  'get-counts-views': ['END-safe-methods-no-change'],
  'errors-as-plain-json': ['ERR-problem-json-content-type'],
  'problem-without-detail': ['ERR-problem-members'],
  'problem-status-always-400': ['ERR-problem-status-matches'],
  'validation-errors-without-field': ['ERR-validation-errors-field'],
  'validation-error-as-200': ['ERR-no-error-body-on-2xx', 'ERR-validation-422'],
  'unknown-id-200-null': ['ERR-unknown-id-404'],
  'unknown-path-html': ['ERR-unknown-path-404'],
  'wrong-type-500': ['ERR-bad-input-no-5xx'],
  'malformed-json-500': ['ERR-malformed-json-400', 'ERR-bad-input-no-5xx'],
  'bad-limit-500': ['ERR-bad-input-no-5xx'],
  'accept-ignored': ['ERR-unsupported-accept-406'],
  'content-type-ignored': ['ERR-unsupported-content-type-415'],
};

/** For each fault: what the server does while it is active. The clean behaviour is in server.test.ts. */
const demonstrations: Record<string, (h: Harness) => Promise<void>> = {
  async 'collection-unwrapped'(h) {
    const project = await h.createProject();
    const res = await h.call('GET', '/v2/projects');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual([project]);
  },
  async 'item-get-204'(h) {
    const project = await h.createProject();
    const res = await h.call('GET', `/v2/projects/${project.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
  },
  async 'head-drops-headers'(h) {
    const project = await h.createProject();
    const get = await h.call('GET', `/v2/projects/${project.id}`);
    expect(get.headers['content-type']).toBe('application/json');
    const head = await h.call('HEAD', `/v2/projects/${project.id}`);
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBeUndefined();
    expect(head.headers['content-length']).toBeUndefined();
  },
  async 'options-without-allow'(h) {
    const collection = await h.call('OPTIONS', '/v2/projects', { auth: false });
    expect(collection.status).toBe(204);
    expect(collection.headers['allow']).toBeUndefined();
    expect(collection.headers['accept-post']).toBeUndefined();
    expect((await h.call('OPTIONS', '/v2/projects/x', { auth: false })).headers['accept-patch']).toBeUndefined();
  },
  async 'post-200-no-location'(h) {
    const res = await h.call('POST', '/v2/projects', { json: { name: 'n' } });
    expect(res.status).toBe(200);
    expect(res.headers['location']).toBeUndefined();
    expect(res.json()).toMatchObject({ name: 'n', status: 'active' });
  },
  async 'location-points-to-collection'(h) {
    const res = await h.call('POST', '/v2/projects', { json: { name: 'n' } });
    expect(res.status).toBe(201);
    expect(res.headers['location']).toBe('/v2/projects');
  },
  async 'client-chosen-id'(h) {
    const res = await h.call('POST', '/v2/projects', { json: { name: 'n', id: 'client-chose-this' } });
    expect(res.status).toBe(201);
    expect(res.json().id).toBe('client-chose-this');
    expect(res.headers['location']).toBe('/v2/projects/client-chose-this');
  },
  async 'create-returns-id-only'(h) {
    const res = await h.call('POST', '/v2/projects', { json: { name: 'n' } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.json())).toEqual(['id']);
    expect(res.headers['location']).toBe(`/v2/projects/${res.json().id}`);
  },
  async 'update-returns-previous'(h) {
    const project = await h.createProject({ name: 'A' });
    const path = `/v2/projects/${project.id}`;
    expect((await h.call('PUT', path, { json: { name: 'B' } })).json()).toEqual(project);
    expect((await h.call('GET', path)).json().name).toBe('B');
    expect((await h.call('PATCH', path, { json: { name: 'C' } })).json().name).toBe('B');
    expect((await h.call('GET', path)).json().name).toBe('C');
  },
  async 'put-merges'(h) {
    const project = await h.createProject({ description: 'kept', status: 'archived' });
    const res = await h.call('PUT', `/v2/projects/${project.id}`, { json: { name: 'N' } });
    expect(res.json()).toMatchObject({ name: 'N', description: 'kept', status: 'archived' });
  },
  async 'put-bumps-revision'(h) {
    const project = await h.createProject();
    const path = `/v2/projects/${project.id}`;
    const first = (await h.call('PUT', path, { json: { name: 'same' } })).json();
    const second = (await h.call('PUT', path, { json: { name: 'same' } })).json();
    expect(second.revision).toBe(first.revision + 1);
    expect(second.updated_at).toBe(first.updated_at);
  },
  async 'put-missing-404'(h) {
    const res = await h.call('PUT', '/v2/projects/new-id', { json: { name: 'n' } });
    expect(res.status).toBe(404);
  },
  async 'patch-resets-unsent'(h) {
    const project = await h.createProject({ description: 'lost', status: 'archived' });
    const res = await h.call('PATCH', `/v2/projects/${project.id}`, { json: { name: 'N' } });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ name: 'N', description: null, status: 'active' });
  },
  async 'delete-200-empty'(h) {
    const project = await h.createProject();
    const res = await h.call('DELETE', `/v2/projects/${project.id}`);
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers['content-length']).toBe('0');
  },
  async 'delete-soft'(h) {
    const project = await h.createProject();
    expect((await h.call('DELETE', `/v2/projects/${project.id}`)).status).toBe(204);
    expect((await h.call('GET', `/v2/projects/${project.id}`)).status).toBe(200);
  },
  async 'delete-repeat-500'(h) {
    const project = await h.createProject();
    expect((await h.call('DELETE', `/v2/projects/${project.id}`)).status).toBe(204);
    const again = await h.call('DELETE', `/v2/projects/${project.id}`);
    expect(again.status).toBe(500);
    expect(again.json()).toMatchObject({ type: 'about:blank', title: 'Internal Server Error', status: 500 });
    expect((await h.call('DELETE', '/v2/projects/never-existed')).status).toBe(404);
  },
  async 'unsupported-method-404'(h) {
    const res = await h.call('DELETE', '/v2/projects');
    expect(res.status).toBe(404);
    expect(res.headers['allow']).toBeUndefined();
  },
  async 'get-counts-views'(h) {
    const project = await h.createProject();
    expect(project.views).toBe(0);
    const path = `/v2/projects/${project.id}`;
    expect((await h.call('GET', path)).json().views).toBe(1);
    await h.call('HEAD', path);
    expect((await h.call('GET', path)).json().views).toBe(3);
  },
  async 'errors-as-plain-json'(h) {
    const res = await h.call('GET', '/nowhere');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.json()).toMatchObject({ type: 'about:blank', title: 'Not Found', status: 404, detail: expect.any(String) });
  },
  async 'problem-without-detail'(h) {
    const res = await h.call('GET', '/nowhere');
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.json()).toEqual({ type: 'about:blank', status: 404 });
  },
  async 'problem-status-always-400'(h) {
    const res = await h.call('GET', '/nowhere');
    expect(res.status).toBe(404);
    expect(res.json().status).toBe(400);
  },
  async 'validation-errors-without-field'(h) {
    const res = await h.call('POST', '/v2/projects', { json: { name: '' } });
    expect(res.status).toBe(422);
    expect(res.json().errors).toEqual([{ message: expect.any(String) }]);
    // Other problems with errors keep their fields.
    expect((await h.call('GET', '/v2/projects?limit=0')).json().errors[0].field).toBe('limit');
  },
  async 'validation-error-as-200'(h) {
    const res = await h.call('POST', '/v2/projects', { json: { name: '' } });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ type: 'urn:restprobe:problem:validation-failed', status: 422 });
    expect((await h.call('GET', '/v2/projects')).json().data).toEqual([]);
  },
  async 'unknown-id-200-null'(h) {
    const res = await h.call('GET', '/v2/projects/unknown');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.text).toBe('null');
  },
  async 'unknown-path-html'(h) {
    const res = await h.call('GET', '/nowhere');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toMatch(/^<!DOCTYPE html>/);
  },
  async 'wrong-type-500'(h) {
    const project = await h.createProject();
    for (const name of [1, { a: 1 }, ['x'], true]) {
      const post = await h.call('POST', '/v2/projects', { json: { name } });
      expect(post.status).toBe(500);
      expect(post.text).not.toMatch(/TypeError|trim|at /);
      expect((await h.call('PUT', `/v2/projects/${project.id}`, { json: { name } })).status).toBe(500);
      expect((await h.call('PATCH', `/v2/projects/${project.id}`, { json: { name } })).status).toBe(500);
    }
    // Only a present, non-string name on projects crashes.
    expect((await h.call('POST', '/v2/projects', { json: {} })).status).toBe(422);
    expect((await h.call('PATCH', `/v2/projects/${project.id}`, { json: { name: null } })).status).toBe(422);
    expect((await h.call('POST', `/v2/projects/${project.id}/tasks`, { json: { title: 1 } })).status).toBe(422);
  },
  async 'malformed-json-500'(h) {
    const res = await h.call('POST', '/v2/projects', { body: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(500);
    const array = await h.call('POST', '/v2/projects', { body: '[]', headers: { 'content-type': 'application/json' } });
    expect(array.status).toBe(422);
  },
  async 'bad-limit-500'(h) {
    expect((await h.call('GET', '/v2/projects?limit=abc')).status).toBe(500);
    expect((await h.call('GET', '/v2/projects?limit=0')).status).toBe(400);
  },
  async 'accept-ignored'(h) {
    const res = await h.call('GET', '/v2/projects', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
  },
  async 'content-type-ignored'(h) {
    const res = await h.call('POST', '/v2/projects', { body: '{"name":"n"}', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(201);
    const none = await h.call('POST', '/v2/projects', { body: 'name=n', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(none.status).toBe(400);
  },
};

describe('fault catalogue', () => {
  it('holds exactly the agreed faults and the checks that catch them', () => {
    expect(Object.fromEntries(faultCatalogue.map((f) => [f.name, [...f.detects]]))).toEqual(agreed);
    expect(new Set(faultCatalogue.map((f) => f.name)).size).toBe(faultCatalogue.length);
  });

  it.each(faultCatalogue.map((f) => [f.name, f] as const))('%s is described in one sentence', (_name, fault) => {
    expect(fault.name).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    expect(fault.description).toMatch(/^[A-Z"'].{10,120}\.$/);
    expect(fault.description).not.toContain('\n');
    for (const id of fault.detects) expect(id).toMatch(/^(CON|RES|STA|END|AUT|EVT|ERR|LIM|VER)-[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });

  it('has a demonstration for every fault, and none for unknown ones', () => {
    expect(Object.keys(demonstrations).sort()).toEqual(faultCatalogue.map((f) => f.name).sort());
  });
});

describe.concurrent('each fault changes behaviour as described', () => {
  it.each(faultCatalogue.map((f) => [f.name] as const))('%s', async (name) => {
    const demonstrate = demonstrations[name];
    if (demonstrate === undefined) throw new Error(`no demonstration for ${name}`);
    const h = await startHarness([name]);
    try {
      expect(h.server.faults).toEqual([name]);
      await demonstrate(h);
    } finally {
      await h.close();
    }
  });
});

describe.concurrent('each demonstration fails on the clean server', () => {
  it.each(faultCatalogue.map((f) => [f.name] as const))('%s', async (name) => {
    const demonstrate = demonstrations[name];
    if (demonstrate === undefined) throw new Error(`no demonstration for ${name}`);
    const h = await startHarness();
    try {
      await expect(demonstrate(h)).rejects.toThrow();
    } finally {
      await h.close();
    }
  });
});
