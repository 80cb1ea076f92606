/**
 * The fault catalogue: its entries are well-formed, and every fault changes the
 * server's behaviour as its description says (one server per fault). Which checks each
 * fault trips is pinned by docs/checks.md and the fault matrix (test/fault-matrix.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { faultCatalogue, faultNames, type FaultName, type ReferenceServerOptions } from '../src/index.js';
import { rawExchange, startHarness, type Harness } from './client.js';
import { burstUntil, pause, probe, probeUntil, shortProbeQuota, slowProbeQuota } from './rate-limit-client.js';
import { startCapture, subscribe, type Capture } from './webhook-capture.js';
import { standardSignature } from '../src/webhook-signature.js';
import { oauthDemonstrations } from './oauth-fault-demos.js';

/** Runs `demo` with a capture endpoint subscribed to every event. */
async function withCapture(h: Harness, demo: (capture: Capture, sub: { id: string; secret: string; location: string }) => Promise<void>): Promise<void> {
  const capture = await startCapture();
  try {
    await demo(capture, await subscribe(h, capture));
  } finally {
    await capture.close();
  }
}

/** The first delivery and its retry, after the capture answered the first with `first`. */
async function retried(h: Harness, first: { status: number; delayMs?: number }) {
  let pair: [any, any] | undefined;
  await withCapture(h, async (capture) => {
    capture.answer = (n) => (n === 0 ? first : { status: 204 });
    await h.createProject();
    const [a, b] = await capture.waitFor(2);
    pair = [a, b];
  });
  return pair!;
}

const ids = (page: { data: { id: string }[] }): string[] => page.data.map((item) => item.id);

async function createMany(h: Harness, path: string, names: readonly string[], fields: Record<string, unknown> = {}): Promise<string[]> {
  const created: string[] = [];
  for (const name of names) {
    const res = await h.call('POST', path, { json: { name, ...fields } });
    expect(res.status).toBe(201);
    created.push(res.json().id);
  }
  return created;
}

const numbered = (n: number): string[] => Array.from({ length: n }, (_, i) => `n${String(i).padStart(3, '0')}`);

/**
 * For each fault: what the server does while it is active. The clean behaviour is in
 * server.test.ts. Keyed by {@link FaultName}: a fault without a demonstration does not compile.
 */
const demonstrations: Record<FaultName, (h: Harness) => Promise<void>> = {
  async 'success-as-text-plain'(h) {
    const created = await h.call('POST', '/v2/projects', { json: { name: 'n' } });
    expect(created.status).toBe(201);
    expect(created.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(created.json()).toMatchObject({ name: 'n' });
    expect((await h.call('GET', '/v2/projects')).headers['content-type']).toBe('text/plain; charset=utf-8');
    expect((await h.call('GET', '/v2/projects/unknown')).headers['content-type']).toBe('application/problem+json');
  },
  async 'nested-listing-unscoped'(h) {
    const [a, b] = [await h.createProject(), await h.createProject()];
    const task = await h.call('POST', `/v2/projects/${a.id}/tasks`, { json: { title: 't' } });
    expect(task.status).toBe(201);
    expect(ids((await h.call('GET', `/v2/projects/${b.id}/tasks`)).json())).toEqual([task.json().id]);
  },
  async 'task-only-nested'(h) {
    const project = await h.createProject();
    const task = await h.call('POST', `/v2/projects/${project.id}/tasks`, { json: { title: 't' } });
    expect(task.status).toBe(201);
    expect(ids((await h.call('GET', `/v2/projects/${project.id}/tasks`)).json())).toEqual([task.json().id]);
    expect((await h.call('GET', `/v2/tasks/${task.json().id}`)).status).toBe(404);
  },
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
  async 'head-with-body'(h) {
    const project = await h.createProject();
    const path = `/v2/projects/${project.id}`;
    const raw = await rawExchange(h.server.port, `HEAD ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${h.server.secrets.RESTPROBE_API_KEY}\r\nConnection: close\r\n\r\n`);
    const end = raw.indexOf('\r\n\r\n');
    expect(raw.slice(0, end)).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(raw.slice(end + 4)).toBe(JSON.stringify(project));
  },
  async 'options-without-allow'(h) {
    const collection = await h.call('OPTIONS', '/v2/projects', { auth: false });
    expect(collection.status).toBe(204);
    expect(collection.headers['allow']).toBeUndefined();
    expect(collection.headers['accept-post']).toBeUndefined();
    expect((await h.call('OPTIONS', '/v2/projects/x', { auth: false })).headers['accept-patch']).toBeUndefined();
  },
  async 'options-without-accept-patch'(h) {
    const res = await h.call('OPTIONS', '/v2/projects/x', { auth: false });
    expect(res.headers['allow']).toContain('PATCH');
    expect(res.headers['accept-patch']).toBeUndefined();
    expect((await h.call('OPTIONS', '/v2/projects', { auth: false })).headers['accept-post']).toBe('application/json');
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
  async 'client-uuid-id-adopted'(h) {
    const chosen = randomUUID();
    const res = await h.call('POST', '/v2/projects', { json: { name: 'n', id: chosen } });
    expect(res.status).toBe(201);
    expect(res.json().id).toBe(chosen);
    expect((await h.call('POST', '/v2/projects', { json: { name: 'n', id: 'not-a-uuid' } })).status).toBe(422);
    expect((await h.call('POST', '/v2/projects', { json: { name: 'n', id: chosen } })).status).toBe(409);
  },
  async 'client-id-conflict-500'(h) {
    const project = await h.createProject();
    expect((await h.call('POST', '/v2/projects', { json: { name: 'n', id: project.id } })).status).toBe(500);
    const fresh = await h.call('POST', '/v2/projects', { json: { name: 'n', id: 'not-taken' } });
    expect(fresh.status).toBe(201);
    expect(fresh.json().id).not.toBe('not-taken');
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
  async 'update-echoes-input'(h) {
    const project = await h.createProject({ name: 'A', description: 'kept' });
    const path = `/v2/projects/${project.id}`;
    expect((await h.call('PUT', path, { json: { name: 'B' } })).json()).toEqual({ name: 'B' });
    expect((await h.call('PATCH', path, { json: { name: 'C' } })).json()).toEqual({ name: 'C' });
    expect((await h.call('GET', path)).json()).toMatchObject({ id: project.id, name: 'C' });
  },
  async 'idempotency-key-ignored'(h) {
    const headers = { 'idempotency-key': '"demo-ignored"' };
    const first = await h.call('POST', '/v2/projects', { json: { name: 'n' }, headers });
    const again = await h.call('POST', '/v2/projects', { json: { name: 'n' }, headers });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.json().id).not.toBe(first.json().id);
  },
  async 'idempotency-replay-creates'(h) {
    const headers = { 'idempotency-key': '"demo-replay-creates"' };
    const first = await h.call('POST', '/v2/projects', { json: { name: 'replayed' }, headers });
    const again = await h.call('POST', '/v2/projects', { json: { name: 'replayed' }, headers });
    // The answer replays the first resource, yet a second one now exists.
    expect([first.status, again.status, again.json().id]).toEqual([201, 201, first.json().id]);
    const listed = (await h.call('GET', '/v2/projects')).json().data.filter((p: { name: string }) => p.name === 'replayed');
    expect(listed).toHaveLength(2);
  },
  async 'idempotency-key-reuse-accepted'(h) {
    const headers = { 'idempotency-key': '"demo-reuse"' };
    const first = await h.call('POST', '/v2/projects', { json: { name: 'n' }, headers });
    const other = await h.call('POST', '/v2/projects', { json: { name: 'other' }, headers });
    expect([first.status, other.status]).toEqual([201, 201]);
    expect(other.json()).toMatchObject({ name: 'other' });
    // The same body still replays.
    expect((await h.call('POST', '/v2/projects', { json: { name: 'n' }, headers })).json().id).toBe(first.json().id);
  },
  async 'deprecation-on-current'(h) {
    const res = await h.call('GET', '/v2/projects');
    expect(res.headers['deprecation']).toBe('@1735689600');
    expect(res.headers['sunset']).toBe('Tue, 01 Jan 2030 00:00:00 GMT');
  },
  async 'deprecation-date-malformed'(h) {
    expect((await h.call('GET', '/v1/projects')).headers['deprecation']).toBe('Wed, 01 Jan 2025 00:00:00 GMT');
  },
  async 'sunset-before-deprecation'(h) {
    const res = await h.call('GET', '/v1/projects');
    expect([res.headers['deprecation'], res.headers['sunset']]).toEqual(['@1735689600', 'Tue, 02 Jan 2024 00:00:00 GMT']);
  },
  async 'deprecation-link-dead'(h) {
    const link = (await h.call('GET', '/v1/projects')).headers['link'] ?? '';
    const target = /^<([^>]+)>; rel="deprecation"/.exec(link)?.[1] ?? '';
    expect(target).toBe('/v2/deprecations/v1-gone');
    expect((await h.call('GET', target)).status).toBe(404);
  },
  async 'deprecated-version-gone'(h) {
    expect((await h.call('GET', '/v1/projects')).status).toBe(410);
    expect((await h.call('GET', '/v2/projects')).status).toBe(200);
  },
  async 'version-query-accepted'(h) {
    const project = await h.createProject({ name: 'queried' });
    const old = await h.call('GET', `/v2/projects/${project.id}?v=1`);
    expect(old.headers['deprecation']).toBe('@1735689600');
    expect(old.json()).toMatchObject({ title: 'queried', name: 'queried' });
    expect((await h.call('GET', '/v2/projects?v=0')).status).toBe(410);
    expect((await h.call('GET', '/v2/projects?v=2')).headers['deprecation']).toBeUndefined();
  },
  async 'removed-version-500'(h) {
    expect((await h.call('GET', '/v0/projects')).status).toBe(500);
  },
  async 'rename-dropped-early'(h) {
    const project = await h.createProject({ name: 'renamed' });
    const v1 = (await h.call('GET', `/v1/projects/${project.id}`)).json();
    expect(v1).toMatchObject({ name: 'renamed' });
    expect(v1).not.toHaveProperty('title');
  },
  async 'unknown-field-refused'(h) {
    const res = await h.call('POST', '/v2/projects', { json: { name: 'n', nickname: 'extra' } });
    expect(res.status).toBe(422);
    expect(res.json().errors).toEqual([{ field: 'nickname', message: 'is not a field of this resource' }]);
    expect((await h.call('POST', '/v2/projects', { json: { name: 'n', id: 'x', created_at: 'y' } })).status).toBe(201);
  },
  async 'link-dead'(h) {
    const project = await h.createProject();
    const task = (await h.call('POST', `/v2/projects/${project.id}/tasks`, { json: { title: 't' } })).json();
    expect(task._links.project).toBe(`/v2/project/${project.id}`);
    expect((await h.call('GET', task._links.project)).status).toBe(404);
  },
  async 'link-id-unset'(h) {
    const project = await h.createProject();
    const task = (await h.call('POST', `/v2/projects/${project.id}/tasks`, { json: { title: 't' } })).json();
    expect(task._links.project).toBe('/v2/projects/undefined');
    expect((await h.call('GET', task._links.project)).status).toBe(400);
    expect((await h.call('GET', `/v2/projects/${project.id}`)).status).toBe(200);
  },
  async 'link-open-action-missing'(h) {
    const project = await h.createProject();
    const task = (await h.call('POST', `/v2/projects/${project.id}/tasks`, { json: { title: 't' } })).json();
    expect(task.done).toBe(false);
    expect(Object.keys(task._links).sort()).toEqual(['project', 'self']);
  },
  async 'link-closed-action-shown'(h) {
    const project = await h.createProject();
    const task = (await h.call('POST', `/v2/projects/${project.id}/tasks`, { json: { title: 't' } })).json();
    expect((await h.call('POST', task._links.completion)).status).toBe(201);
    const done = (await h.call('GET', `/v2/tasks/${task.id}`)).json();
    expect(done.done).toBe(true);
    expect(done._links.completion).toBe(`/v2/tasks/${task.id}/completion`);
  },
  async 'action-on-get'(h) {
    const project = await h.createProject();
    const task = (await h.call('POST', `/v2/projects/${project.id}/tasks`, { json: { title: 't' } })).json();
    expect((await h.call('GET', `/v2/tasks/${task.id}/completion`)).status).toBe(201);
    expect((await h.call('GET', `/v2/tasks/${task.id}`)).json().done).toBe(true);
  },
  async 'verb-in-path'(h) {
    const project = await h.createProject();
    const task = (await h.call('POST', `/v2/projects/${project.id}/tasks`, { json: { title: 't' } })).json();
    expect(task._links.completion).toBe(`/v2/tasks/${task.id}/complete`);
    expect((await h.call('POST', task._links.completion)).status).toBe(201);
  },
  async 'field-retyped'(h) {
    const project = await h.createProject();
    expect(project.updated_at).toEqual(expect.any(Number));
    expect(project.created_at).toEqual(expect.any(String));
    expect((await h.call('GET', '/v2/members')).json().data.every((m: { updated_at: unknown }) => typeof m.updated_at === 'number')).toBe(true);
  },
  async 'field-removed'(h) {
    const project = await h.createProject();
    expect(Object.keys(project)).not.toContain('created_at');
    expect(Object.keys((await h.call('GET', `/v2/projects/${project.id}`)).json())).toEqual(expect.arrayContaining(['id', 'name', 'updated_at']));
    expect(Object.keys((await h.call('GET', `/v2/projects/${project.id}`)).json())).not.toContain('created_at');
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
  async 'put-create-no-location'(h) {
    const res = await h.call('PUT', '/v2/projects/new-id', { json: { name: 'n' } });
    expect(res.status).toBe(201);
    expect(res.headers['location']).toBeUndefined();
    expect((await h.call('GET', '/v2/projects/new-id')).status).toBe(200);
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
  async 'delete-204-with-body'(h) {
    const project = await h.createProject();
    const raw = await rawExchange(
      h.server.port,
      `DELETE /v2/projects/${project.id} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${h.server.secrets.RESTPROBE_API_KEY}\r\nConnection: close\r\n\r\n`,
    );
    const end = raw.indexOf('\r\n\r\n');
    expect(raw.slice(0, end)).toMatch(/^HTTP\/1\.1 204 No Content\r\n/);
    expect(raw.slice(end + 4)).toBe('{"deleted":true}');
    expect((await h.call('GET', `/v2/projects/${project.id}`)).status).toBe(404);
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
  async 'method-not-allowed-without-allow'(h) {
    const res = await h.call('DELETE', '/v2/projects');
    expect(res.status).toBe(405);
    expect(res.headers['allow']).toBeUndefined();
  },
  async 'allow-lists-refused-method'(h) {
    const res = await h.call('DELETE', '/v2/projects');
    expect(res.status).toBe(405);
    expect(res.headers['allow']).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
    expect((await h.call('OPTIONS', '/v2/projects')).headers['allow']).toBe('GET, HEAD, POST, OPTIONS');
  },
  async 'get-counts-views'(h) {
    const project = await h.createProject();
    expect(project.views).toBe(0);
    const path = `/v2/projects/${project.id}`;
    expect((await h.call('GET', path)).json().views).toBe(1);
    await h.call('HEAD', path);
    expect((await h.call('GET', path)).json().views).toBe(3);
  },
  async 'listing-read-creates'(h) {
    expect((await h.call('GET', '/v2/projects?label=x')).json().data).toEqual([]);
    await h.call('GET', '/v2/projects');
    const listed = (await h.call('GET', '/v2/projects')).json().data;
    expect(listed.length).toBeGreaterThanOrEqual(1);
  },
  async 'head-collection-creates'(h) {
    expect((await h.call('HEAD', '/v2/projects?label=x')).status).toBe(200);
    expect((await h.call('HEAD', '/v2/projects')).status).toBe(200);
    const listed = (await h.call('GET', '/v2/projects')).json().data;
    expect(listed).toEqual([expect.objectContaining({ name: 'placeholder', label: 'x' })]);
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
  async 'not-found-as-200-envelope'(h) {
    const res = await h.call('GET', '/v2/projects/unknown');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ statusCode: 404, message: 'Not Found' });
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
  async 'error-leaks-stack'(h) {
    const res = await h.call('POST', '/v2/projects', { body: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.json().detail).toMatch(/\n\s+at \S+ \(.*body\.[jt]s:\d+:\d+\)/);
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
  async 'offset-cursor'(h) {
    const created = await createMany(h, '/v2/projects', numbered(6));
    const page1 = (await h.call('GET', '/v2/projects?limit=2')).json();
    expect(ids(page1)).toEqual(created.slice(0, 2));
    expect(Buffer.from(page1.next_cursor, 'base64url').toString()).toBe('2');
    // A delete before the position shifts every later item one place left: one is skipped.
    expect((await h.call('DELETE', `/v2/projects/${created[0]}`)).status).toBe(204);
    const page2 = (await h.call('GET', `/v2/projects?limit=2&cursor=${page1.next_cursor}`)).json();
    expect(ids(page2)).toEqual(created.slice(3, 5));
  },
  async 'limit-uncapped'(h) {
    await Promise.all(numbered(105).map((name) => h.createProject({ name })));
    const page = await h.call('GET', '/v2/projects?limit=1000');
    expect(page.status).toBe(200);
    expect(page.json().data).toHaveLength(105);
    expect((await h.call('GET', '/v2/members?limit=101')).status).toBe(200);
    expect((await h.call('GET', '/v2/projects?limit=0')).status).toBe(400);
  },
  async 'default-page-unbounded'(h) {
    await createMany(h, '/v2/projects', numbered(25));
    const page = (await h.call('GET', '/v2/projects')).json();
    expect(page.data).toHaveLength(25);
    expect(page.next_cursor).toBeNull();
    await createMany(h, '/v2/members', numbered(25));
    expect((await h.call('GET', '/v2/members')).json().data).toHaveLength(25);
    expect((await h.call('GET', '/v2/projects?limit=101')).status).toBe(400);
  },
  async 'default-page-truncated'(h) {
    await createMany(h, '/v2/projects', numbered(25));
    const page = (await h.call('GET', '/v2/projects')).json();
    expect(page.data).toHaveLength(10);
    expect(page.next_cursor).toBeNull();
    expect((await h.call('GET', '/v2/projects?limit=20')).json().next_cursor).toEqual(expect.any(String));
  },
  async 'limit-zero-accepted'(h) {
    await createMany(h, '/v2/projects', numbered(25));
    for (const limit of ['0', '-1', '-100']) {
      const res = await h.call('GET', `/v2/projects?limit=${limit}`);
      expect(res.status).toBe(200);
      expect(res.json().data).toHaveLength(10);
    }
    expect((await h.call('GET', '/v2/members?limit=0')).status).toBe(200);
    expect((await h.call('GET', '/v2/projects?limit=1.5')).status).toBe(400);
  },
  async 'next-cursor-never-null'(h) {
    await createMany(h, '/v2/projects', numbered(2));
    const last = (await h.call('GET', '/v2/projects?limit=5')).json();
    expect(last.data).toHaveLength(2);
    expect(typeof last.next_cursor).toBe('string');
    const empty = (await h.call('GET', `/v2/projects?limit=5&cursor=${encodeURIComponent(last.next_cursor)}`)).json();
    expect(empty.data).toEqual([]);
    expect(typeof empty.next_cursor).toBe('string');
  },
  async 'sort-ignored'(h) {
    const created = await createMany(h, '/v2/projects', ['c', 'a', 'b']);
    expect(ids((await h.call('GET', '/v2/projects?sort=name')).json())).toEqual(created);
    expect(ids((await h.call('GET', '/v2/projects?sort=-created_at')).json())).toEqual(created);
    expect(ids((await h.call('GET', '/v2/members?sort=-name')).json())).toEqual([]);
    expect((await h.call('GET', '/v2/projects?sort=colour')).status).toBe(400);
  },
  async 'filter-ignored'(h) {
    await h.createProject({ status: 'archived', label: 'x' });
    await h.createProject({ status: 'active' });
    expect((await h.call('GET', '/v2/projects?status=archived')).json().data).toHaveLength(2);
    expect((await h.call('GET', '/v2/projects?label=nothing')).json().data).toHaveLength(2);
    await createMany(h, '/v2/members', ['m'], { role: 'owner' });
    expect((await h.call('GET', '/v2/members?role=viewer')).json().total).toBe(1);
    expect((await h.call('GET', '/v2/projects?status=closed')).status).toBe(400);
  },
  async 'status-filter-ignored'(h) {
    await h.createProject({ status: 'archived', label: 'x' });
    await h.createProject({ status: 'active', label: 'x' });
    expect((await h.call('GET', '/v2/projects?status=archived&label=x')).json().data).toHaveLength(2);
    expect((await h.call('GET', '/v2/projects?label=nothing')).json().data).toHaveLength(0);
    expect((await h.call('GET', '/v2/projects?status=closed')).status).toBe(400);
  },
  async 'sort-without-tiebreaker'(h) {
    await createMany(h, '/v2/projects', ['same', 'same', 'same', 'same', 'same']);
    // Tied items come in a different order from one request to the next.
    const orders = new Set<string>();
    for (let i = 0; i < 20; i++) orders.add(ids((await h.call('GET', '/v2/projects?sort=name')).json()).join());
    expect(orders.size).toBeGreaterThan(1);
    // The cursor resumes after the value "same": the three other ties are skipped.
    const page1 = (await h.call('GET', '/v2/projects?sort=name&limit=2')).json();
    expect(page1.data).toHaveLength(2);
    const page2 = (await h.call('GET', `/v2/projects?sort=name&limit=2&cursor=${encodeURIComponent(page1.next_cursor)}`)).json();
    expect(page2).toEqual({ data: [], next_cursor: null });
  },
  async 'tampered-cursor-500'(h) {
    await createMany(h, '/v2/projects', numbered(2));
    const res = await h.call('GET', '/v2/projects?cursor=garbage');
    expect(res.status).toBe(500);
    expect(res.text).not.toMatch(/TypeError|cursor did not|at /);
    const page = (await h.call('GET', '/v2/projects?limit=1')).json();
    const [payload = '', mac = ''] = (page.next_cursor as string).split('.');
    expect((await h.call('GET', `/v2/projects?cursor=${payload}x.${mac}`)).status).toBe(500);
    expect((await h.call('GET', `/v2/projects?cursor=${encodeURIComponent(page.next_cursor)}`)).status).toBe(200);
  },
  async 'cursor-not-bound'(h) {
    const created = [
      (await h.createProject({ name: 'c' })).id,
      (await h.createProject({ name: 'b', status: 'archived' })).id,
      (await h.createProject({ name: 'a', status: 'archived' })).id,
    ];
    const page = (await h.call('GET', '/v2/projects?limit=1')).json();
    const cursor = encodeURIComponent(page.next_cursor);
    const filtered = await h.call('GET', `/v2/projects?status=archived&cursor=${cursor}`);
    expect(filtered.status).toBe(200);
    expect(ids(filtered.json())).toEqual(created.slice(1));
    expect((await h.call('GET', `/v2/projects?sort=-name&cursor=${cursor}`)).status).toBe(200);
    // The listing is still bound.
    expect((await h.call('GET', `/v2/projects/${created[0]}/tasks?cursor=${cursor}`)).status).toBe(400);
  },
  async 'cursor-overrides-filter'(h) {
    const mine = [(await h.createProject({ label: 'a' })).id, (await h.createProject({ label: 'a' })).id];
    const theirs = (await h.createProject({ label: 'b' })).id;
    const page = (await h.call('GET', '/v2/projects?label=a&limit=1')).json();
    expect(ids(page)).toEqual(mine.slice(0, 1));
    // With label=b the cursor still lists label=a: another query's data.
    const other = await h.call('GET', `/v2/projects?label=b&limit=5&cursor=${encodeURIComponent(page.next_cursor)}`);
    expect(other.status).toBe(200);
    expect(ids(other.json())).toEqual(mine.slice(1));
    expect(ids((await h.call('GET', '/v2/projects?label=b')).json())).toEqual([theirs]);
  },
  async 'offset-overlap'(h) {
    const created = await createMany(h, '/v2/members', numbered(4));
    expect(ids((await h.call('GET', '/v2/members?limit=2')).json())).toEqual(created.slice(0, 2));
    const page2 = (await h.call('GET', '/v2/members?limit=2&offset=2')).json();
    expect(ids(page2)).toEqual(created.slice(1, 3));
    expect(page2.total).toBe(4);
  },
  async 'page-boundary-skip'(h) {
    const created = await createMany(h, '/v2/projects', numbered(5));
    const page1 = (await h.call('GET', '/v2/projects?limit=2')).json();
    expect(ids(page1)).toEqual(created.slice(0, 2));
    const page2 = (await h.call('GET', `/v2/projects?limit=2&cursor=${encodeURIComponent(page1.next_cursor)}`)).json();
    expect(ids(page2)).toEqual(created.slice(3, 5));
    expect(page2.next_cursor).toBeNull();
  },
  async 'odd-page-boundary-skip'(h) {
    const created = await createMany(h, '/v2/projects', numbered(6));
    const page1 = (await h.call('GET', '/v2/projects?limit=3')).json();
    expect(ids(page1)).toEqual(created.slice(0, 3));
    const page2 = (await h.call('GET', `/v2/projects?limit=3&cursor=${encodeURIComponent(page1.next_cursor)}`)).json();
    expect(ids(page2)).toEqual(created.slice(4, 6));
    const even = (await h.call('GET', '/v2/projects?limit=2')).json();
    expect(ids((await h.call('GET', `/v2/projects?limit=2&cursor=${encodeURIComponent(even.next_cursor)}`)).json())).toEqual(created.slice(2, 4));
  },
  async 'etag-missing'(h) {
    const project = await h.createProject();
    const item = await h.call('GET', `/v2/projects/${project.id}`);
    expect(item.status).toBe(200);
    expect(item.headers['etag']).toBeUndefined();
    expect((await h.call('HEAD', `/v2/projects/${project.id}`)).headers['etag']).toBeUndefined();
    expect((await h.call('GET', '/v2/projects')).headers['etag']).toBeUndefined();
  },
  async 'etag-unstable'(h) {
    const project = await h.createProject();
    const first = await h.call('GET', `/v2/projects/${project.id}`);
    const second = await h.call('GET', `/v2/projects/${project.id}`);
    expect(second.text).toBe(first.text);
    expect(first.headers['etag']).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(second.headers['etag']).not.toBe(first.headers['etag']);
  },
  async 'etag-per-node'(h) {
    const project = await h.createProject();
    const path = `/v2/projects/${project.id}`;
    const [a, b] = [await h.call('GET', path, { node: 0 }), await h.call('GET', path, { node: 1 })];
    expect(b.text).toBe(a.text);
    expect(b.headers['etag']).not.toBe(a.headers['etag']);
    // Each node on its own is stable.
    expect((await h.call('GET', path, { node: 1 })).headers['etag']).toBe(b.headers['etag']);
  },
  async 'etag-stale-after-write'(h) {
    const created = await h.call('POST', '/v2/projects', { json: { name: 'before' } });
    const path = `/v2/projects/${created.json().id}`;
    const first = created.headers['etag'];
    expect(first).toMatch(/^"/);
    expect((await h.call('PATCH', path, { json: { name: 'after' } })).status).toBe(200);
    const after = await h.call('GET', path);
    expect(after.json().name).toBe('after');
    expect(after.headers['etag']).toBe(first);
    // So a client holding the old representation is told it is still current.
    expect((await h.call('GET', path, { headers: { 'if-none-match': first ?? '' } })).status).toBe(304);
  },
  async 'if-none-match-ignored'(h) {
    const project = await h.createProject();
    const path = `/v2/projects/${project.id}`;
    const tag = (await h.call('GET', path)).headers['etag'] ?? '';
    expect(tag).toMatch(/^"/);
    const res = await h.call('GET', path, { headers: { 'if-none-match': tag } });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual(project);
  },
  async 'not-modified-with-body'(h) {
    const project = await h.createProject();
    const path = `/v2/projects/${project.id}`;
    const get = await h.call('GET', path);
    const raw = await rawExchange(
      h.server.port,
      `GET ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${h.server.secrets.RESTPROBE_API_KEY}\r\n` +
        `If-None-Match: ${get.headers['etag']}\r\nConnection: close\r\n\r\n`,
    );
    const end = raw.indexOf('\r\n\r\n');
    expect(raw.slice(0, end)).toMatch(/^HTTP\/1\.1 304 Not Modified\r\n/);
    // No Content-Length: a client reads no body after a 304, so these bytes corrupt the connection.
    expect(raw.slice(end + 4)).toBe(get.text);
  },
  async 'if-match-ignored'(h) {
    const project = await h.createProject();
    const path = `/v2/projects/${project.id}`;
    const stale = (await h.call('GET', path)).headers['etag'] ?? '';
    expect((await h.call('PATCH', path, { json: { name: 'first writer' } })).status).toBe(200);
    const lost = await h.call('PATCH', path, { json: { name: 'second writer' }, headers: { 'if-match': stale } });
    expect(lost.status).toBe(200);
    expect((await h.call('GET', path)).json().name).toBe('second writer');
  },
  async 'if-match-accepts-any-issued'(h) {
    const project = await h.createProject();
    const path = `/v2/projects/${project.id}`;
    const stale = (await h.call('GET', path)).headers['etag'] ?? '';
    expect((await h.call('PATCH', path, { json: { name: 'first writer' } })).status).toBe(200);
    expect((await h.call('PATCH', path, { json: { name: 'second writer' }, headers: { 'if-match': stale } })).status).toBe(200);
    expect((await h.call('GET', path)).json().name).toBe('second writer');
    // A tag never issued still fails.
    expect((await h.call('PATCH', path, { json: { name: 'n' }, headers: { 'if-match': '"never"' } })).status).toBe(412);
  },
  async 'if-match-ignored-on-delete'(h) {
    const project = await h.createProject();
    const path = `/v2/projects/${project.id}`;
    expect((await h.call('PATCH', path, { json: { name: 'n' }, headers: { 'if-match': '"never"' } })).status).toBe(412);
    expect((await h.call('DELETE', path, { headers: { 'if-match': '"never"' } })).status).toBe(204);
    expect((await h.call('GET', path)).status).toBe(404);
  },
  async 'precondition-failed-but-applied'(h) {
    const project = await h.createProject();
    const path = `/v2/projects/${project.id}`;
    const stale = (await h.call('GET', path)).headers['etag'] ?? '';
    expect((await h.call('PATCH', path, { json: { name: 'first writer' } })).status).toBe(200);
    const res = await h.call('PATCH', path, { json: { name: 'second writer' }, headers: { 'if-match': stale } });
    expect(res.status).toBe(412);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect((await h.call('GET', path)).json().name).toBe('second writer');
    expect((await h.call('DELETE', path, { headers: { 'if-match': stale } })).status).toBe(412);
    expect((await h.call('GET', path)).status).toBe(404);
  },
  async 'put-precondition-failed-but-applied'(h) {
    const project = await h.createProject({ name: 'as created' });
    const path = `/v2/projects/${project.id}`;
    const put = await h.call('PUT', path, { json: { name: 'replaced anyway' }, headers: { 'if-match': '"never"' } });
    expect(put.status).toBe(412);
    expect((await h.call('GET', path)).json().name).toBe('replaced anyway');
    // PATCH and DELETE honour a stale If-Match.
    expect((await h.call('PATCH', path, { json: { name: 'patched' }, headers: { 'if-match': '"never"' } })).status).toBe(412);
    expect((await h.call('DELETE', path, { headers: { 'if-match': '"never"' } })).status).toBe(412);
    expect((await h.call('GET', path)).json().name).toBe('replaced anyway');
  },
  async 'precondition-failed-bare'(h) {
    const project = await h.createProject();
    const res = await h.call('PATCH', `/v2/projects/${project.id}`, { json: { name: 'n' }, headers: { 'if-match': '"never"' } });
    expect(res.status).toBe(412);
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.text).toBe('');
  },
  async 'if-match-always-412'(h) {
    const project = await h.createProject({ name: 'unchanged' });
    const path = `/v2/projects/${project.id}`;
    const current = (await h.call('GET', path)).headers['etag'] ?? '';
    for (const ifMatch of [current, '*']) {
      expect((await h.call('PATCH', path, { json: { name: 'n' }, headers: { 'if-match': ifMatch } })).status).toBe(412);
    }
    expect((await h.call('GET', path)).json().name).toBe('unchanged');
    // Without If-Match, writes work.
    expect((await h.call('PATCH', path, { json: { name: 'n' } })).status).toBe(200);
  },
  async 'cache-control-missing'(h) {
    const project = await h.createProject();
    const res = await h.call('GET', `/v2/projects/${project.id}`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBeUndefined();
    expect((await h.call('GET', '/v2/projects')).headers['cache-control']).toBeUndefined();
    // Errors and writes still say no-store.
    expect((await h.call('GET', '/v2/projects/unknown')).headers['cache-control']).toBe('no-store');
  },
  async 'cache-control-malformed'(h) {
    const project = await h.createProject();
    expect((await h.call('GET', `/v2/projects/${project.id}`)).headers['cache-control']).toBe('private, max-age="60"');
  },
  async 'cache-control-public'(h) {
    const project = await h.createProject();
    const res = await h.call('GET', `/v2/projects/${project.id}`);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    const revalidated = await h.call('GET', `/v2/projects/${project.id}`, { headers: { 'if-none-match': res.headers['etag'] ?? '' } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers['cache-control']).toBe('public, max-age=60');
  },
  async 'vary-missing'(h) {
    const project = await h.createProject();
    const res = await h.call('GET', `/v2/projects/${project.id}`);
    expect(res.status).toBe(200);
    expect(res.headers['vary']).toBeUndefined();
    // The content is still negotiated.
    expect((await h.call('GET', `/v2/projects/${project.id}`, { headers: { accept: 'text/html' } })).status).toBe(406);
  },
  async 'secret-cacheable'(h) {
    const res = await h.call('POST', '/v2/api-keys', { json: { name: 'ci' } });
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toBe('private, max-age=300');
    expect(res.json()).toHaveProperty('key');
  },
  async 'api-key-in-query'(h) {
    const key = encodeURIComponent(h.server.secrets.RESTPROBE_API_KEY);
    for (const name of ['api_key', 'apikey', 'key', 'access_token', 'token']) {
      expect((await h.call('GET', `/v2/projects?${name}=${key}`, { auth: false })).status).toBe(200);
    }
    expect((await h.call('GET', '/v2/projects?api_key=wrong', { auth: false })).status).toBe(401);
  },
  async 'api-key-in-camel-query'(h) {
    const key = encodeURIComponent(h.server.secrets.RESTPROBE_API_KEY);
    expect((await h.call('GET', `/v2/projects?apiKey=${key}`, { auth: false })).status).toBe(200);
    expect((await h.call('GET', `/v2/projects?apikey=${key}`, { auth: false })).status).toBe(401);
  },
  async 'unauthorized-without-challenge'(h) {
    for (const headers of [{}, { 'x-api-key': 'wrong' }] as Record<string, string>[]) {
      const res = await h.call('GET', '/v2/projects', { auth: false, headers });
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toBe('application/problem+json');
      expect(res.headers['www-authenticate']).toBeUndefined();
    }
  },
  async 'forbidden-for-missing-credentials'(h) {
    const res = await h.call('GET', '/v2/projects', { auth: false });
    expect(res.status).toBe(403);
    expect(res.json()).toMatchObject({ status: 403 });
    expect(res.headers['www-authenticate']).toBeUndefined();
    // A wrong key is still 401.
    expect((await h.call('GET', '/v2/projects', { auth: false, headers: { 'x-api-key': 'wrong' } })).status).toBe(401);
  },
  async 'unauthorized-for-missing-scope'(h) {
    const readOnly = { 'x-api-key': h.server.secrets.RESTPROBE_READONLY_KEY };
    const res = await h.call('POST', '/v2/projects', { auth: false, headers: readOnly, json: { name: 'n' } });
    expect(res.status).toBe(401);
    expect(res.json()).toMatchObject({ status: 401 });
    expect((await h.call('GET', '/v2/projects', { auth: false, headers: readOnly })).status).toBe(200);
  },
  async 'scope-not-enforced-on-delete'(h) {
    const readOnly = { 'x-api-key': h.server.secrets.RESTPROBE_READONLY_KEY };
    const project = await h.createProject();
    expect((await h.call('DELETE', `/v2/projects/${project.id}`, { auth: false, headers: readOnly })).status).toBe(204);
    expect((await h.call('GET', `/v2/projects/${project.id}`)).status).toBe(404);
    // Other writes are still refused.
    expect((await h.call('POST', '/v2/projects', { auth: false, headers: readOnly, json: { name: 'n' } })).status).toBe(403);
  },
  async 'forbidden-write-applied'(h) {
    const readOnly = { 'x-api-key': h.server.secrets.RESTPROBE_READONLY_KEY };
    const project = await h.createProject({ name: 'before' });
    const path = `/v2/projects/${project.id}`;
    // Each write is refused with 403, and applied all the same.
    const patched = await h.call('PATCH', path, { auth: false, headers: readOnly, json: { name: 'after' } });
    expect(patched.status).toBe(403);
    expect(patched.json()).toMatchObject({ status: 403 });
    expect((await h.call('GET', path)).json().name).toBe('after');
    const created = await h.call('POST', '/v2/projects', { auth: false, headers: readOnly, json: { name: 'n', label: 'behind-403' } });
    expect(created.status).toBe(403);
    expect(ids((await h.call('GET', '/v2/projects?label=behind-403')).json())).toHaveLength(1);
    expect((await h.call('DELETE', path, { auth: false, headers: readOnly })).status).toBe(403);
    expect((await h.call('GET', path)).status).toBe(404);
    // Reads with the read scope are still served.
    expect((await h.call('GET', '/v2/projects', { auth: false, headers: readOnly })).status).toBe(200);
  },
  async 'revoked-key-accepted'(h) {
    const minted = (await h.call('POST', '/v2/api-keys', { json: { name: 'ci' } })).json();
    expect((await h.call('DELETE', `/v2/api-keys/${minted.id}`)).status).toBe(204);
    expect((await h.call('GET', `/v2/api-keys/${minted.id}`)).status).toBe(404);
    expect((await h.call('GET', '/v2/projects', { auth: false, headers: { 'x-api-key': minted.key } })).status).toBe(200);
  },
  async 'minted-secret-readable'(h) {
    const minted = (await h.call('POST', '/v2/api-keys', { json: { name: 'ci' } })).json();
    const shown = await h.call('GET', `/v2/api-keys/${minted.id}`);
    expect(shown.status).toBe(200);
    expect(shown.json().key).toBe(minted.key);
  },
  async 'session-cookie-not-httponly'(h) {
    const login = await h.call('POST', '/v2/sessions', { auth: false, json: { api_key: h.server.secrets.RESTPROBE_API_KEY } });
    expect(login.status).toBe(201);
    expect(login.headers['set-cookie']).toMatch(/^session=[A-Za-z0-9_-]{43}; Path=\/; Secure; SameSite=Lax$/);
  },
  async 'logout-keeps-session'(h) {
    const login = await h.call('POST', '/v2/sessions', { auth: false, json: { api_key: h.server.secrets.RESTPROBE_API_KEY } });
    const cookie = { cookie: (login.headers['set-cookie'] ?? '').split(';')[0] ?? '' };
    expect((await h.call('DELETE', '/v2/sessions/current', { auth: false, headers: cookie })).status).toBe(204);
    expect((await h.call('GET', '/v2/projects', { auth: false, headers: cookie })).status).toBe(200);
  },
  async 'missing-hsts'(h) {
    expect(h.server.url).toMatch(/^https:/);
    const res = await h.call('GET', '/v2/restprobe-no-such-path');
    expect(res.status).toBe(404);
    expect(res.headers['strict-transport-security']).toBeUndefined();
    // A success still carries it, as nginx's add_header does.
    expect((await h.call('GET', '/v2/projects')).headers['strict-transport-security']).toBe('max-age=31536000');
  },
  async 'plain-http-serves-data'(h) {
    const project = await h.createProject();
    const res = await h.call('GET', '/v2/projects', { origin: h.server.plainUrl ?? '' });
    expect(res.status).toBe(200);
    expect(ids(res.json())).toEqual([project.id]);
    expect(res.headers['strict-transport-security']).toBeUndefined();
  },
  async 'credential-in-location'(h) {
    const res = await h.call('POST', '/v2/projects', { json: { name: 'n' } });
    expect(res.status).toBe(201);
    expect(res.headers['location']).toBe(`/v2/projects/${res.json().id}?api_key=${encodeURIComponent(h.server.secrets.RESTPROBE_API_KEY)}`);
  },
  async 'garbage-key-accepted'(h) {
    expect((await h.call('GET', '/v2/projects', { auth: false, headers: { 'x-api-key': 'g'.repeat(40) } })).status).toBe(200);
    expect((await h.call('GET', '/v2/projects', { auth: false, headers: { 'x-api-key': 'g'.repeat(39) } })).status).toBe(401);
  },
  async 'rate-limit-absent'(h) {
    for (let i = 0; i < 3 * slowProbeQuota.limit; i++) {
      const res = await probe(h);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit']).toBeUndefined();
    }
  },
  async 'retry-after-missing'(h) {
    const limited = await probeUntil(h, 429);
    expect(limited?.headers['retry-after']).toBeUndefined();
    expect(limited?.headers['retry-after-ms']).toBeUndefined();
    expect(limited?.headers['ratelimit']).toMatch(/^"probe";r=0;t=2$/);
  },
  async 'retry-after-too-short'(h) {
    const limited = await burstUntil(h, 429);
    expect(limited?.headers['retry-after']).toBe('0');
    expect(limited?.headers['retry-after-ms']).toBe('0');
    await pause(400);
    expect((await probe(h)).status).toBe(429);
  },
  async 'retry-after-too-long'(h) {
    const limited = await burstUntil(h, 429);
    expect(limited?.headers['retry-after']).toBe('4');
    expect(Number(limited?.headers['retry-after-ms'])).toBeLessThanOrEqual(shortProbeQuota.windowMs);
    // Served again after a window, not 4 s: a whole window, since the wave's requests after the
    // 429 may have taken the token its wait promised (a loaded machine sends them late).
    await pause(shortProbeQuota.windowMs);
    expect((await probe(h)).status).toBe(200);
  },
  async 'rate-limit-per-node'(h) {
    expect((await probeUntil(h, 429, { node: 0 }))?.status).toBe(429);
    // A whole fresh quota on the other node, not just what refilled meanwhile.
    const there = [];
    for (let i = 0; i < slowProbeQuota.limit; i++) there.push((await probe(h, { node: 1 })).status);
    expect(there).toEqual(Array(slowProbeQuota.limit).fill(200));
  },
  async 'rate-limit-per-worker'(h) {
    // One client, one node: each of four workers serves the whole quota before the first 429.
    const statuses = [];
    for (let i = 0; i < 4 * slowProbeQuota.limit + 1; i++) statuses.push((await probe(h)).status);
    expect(statuses.slice(0, 4 * slowProbeQuota.limit)).toEqual(Array(4 * slowProbeQuota.limit).fill(200));
    expect(statuses.at(-1)).toBe(429);
  },
  async 'rate-limit-global-counter'(h) {
    expect((await probeUntil(h, 429, { key: 1 }))?.status).toBe(429);
    expect((await probe(h, { key: 2 })).status).toBe(429);
  },
  async 'rate-limited-plain-text'(h) {
    const limited = await probeUntil(h, 429);
    expect(limited?.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(limited?.text).toBe('Too Many Requests');
    expect(limited?.headers['retry-after']).toBe('2');
  },
  async 'rate-limit-never-recovers'(h) {
    const limited = await burstUntil(h, 429);
    await pause(Number(limited?.headers['retry-after-ms']) + 3 * shortProbeQuota.windowMs);
    const later = await probe(h);
    expect(later.status).toBe(429);
    expect(later.headers['ratelimit']).toBe('"probe";r=0;t=1');
  },
  async 'ratelimit-fields-wrong'(h) {
    const limited = await probeUntil(h, 429);
    expect(limited?.headers['ratelimit']).toMatch(new RegExp(`^"probe";r=${slowProbeQuota.limit};t=2$`));
  },
  async 'webhook-text-plain'(h) {
    await withCapture(h, async (capture) => {
      await h.createProject();
      const [d] = await capture.waitFor(1);
      expect(d!.headers['content-type']).toBe('text/plain');
      expect(d!.json).toMatchObject({ type: 'project.created' });
    });
  },
  async 'webhook-no-event-on-delete'(h) {
    await withCapture(h, async (capture) => {
      const p = await h.createProject();
      expect((await h.call('DELETE', `/v2/projects/${p.id}`)).status).toBe(204);
      await h.createProject();
      const types = (await capture.waitFor(2)).map((d) => d.json.type);
      expect(types).toEqual(['project.created', 'project.created']);
    });
  },
  async 'webhook-secret-readable'(h) {
    await withCapture(h, async (_capture, sub) => {
      expect((await h.call('GET', sub.location)).json().secret).toBe(sub.secret);
    });
  },
  async 'webhook-unsigned'(h) {
    await withCapture(h, async (capture) => {
      await h.createProject();
      const [d] = await capture.waitFor(1);
      expect(d!.headers['webhook-id']).toMatch(/^msg_/);
      expect(d!.headers['webhook-signature']).toBeUndefined();
    });
  },
  async 'webhook-signs-reserialised-json'(h) {
    await withCapture(h, async (capture, sub) => {
      await h.createProject();
      const [d] = await capture.waitFor(1);
      const [id, ts] = [String(d!.headers['webhook-id']), Number(d!.headers['webhook-timestamp'])];
      expect(d!.headers['webhook-signature']).not.toBe(standardSignature(sub.secret, id, ts, d!.raw));
      expect(d!.headers['webhook-signature']).toBe(standardSignature(sub.secret, id, ts, Buffer.from(JSON.stringify(d!.json))));
    });
  },
  async 'webhook-no-timestamp'(h) {
    await withCapture(h, async (capture) => {
      await h.createProject();
      const [d] = await capture.waitFor(1);
      expect(d!.headers['webhook-signature']).toMatch(/^v1,/);
      expect(d!.headers['webhook-timestamp']).toBeUndefined();
    });
  },
  async 'webhook-no-id'(h) {
    await withCapture(h, async (capture) => {
      await h.createProject();
      const [d] = await capture.waitFor(1);
      expect(d!.headers['webhook-signature']).toMatch(/^v1,/);
      expect(d!.headers['webhook-id']).toBeUndefined();
    });
  },
  async 'webhook-same-id'(h) {
    await withCapture(h, async (capture) => {
      await h.createProject();
      await h.createProject();
      const [a, b] = await capture.waitFor(2);
      expect(b!.json.data.id).not.toBe(a!.json.data.id);
      expect(b!.headers['webhook-id']).toBe(a!.headers['webhook-id']);
    });
  },
  async 'webhook-id-per-item'(h) {
    await withCapture(h, async (capture) => {
      const project = await h.createProject();
      await h.call('DELETE', `/v2/projects/${project.id}`);
      await h.createProject();
      const events = await capture.waitFor(3);
      // Each delivery is its own request: they may arrive in any order.
      const of = (type: string, mine: boolean) => events.find((d) => d.json.type === type && (d.json.data.id === project.id) === mine);
      const [created, deleted, other] = [of('project.created', true), of('project.deleted', true), of('project.created', false)];
      // One item's events share an id; another item's carry another.
      expect(deleted!.headers['webhook-id']).toBe(created!.headers['webhook-id']);
      expect(other!.headers['webhook-id']).not.toBe(created!.headers['webhook-id']);
    });
  },
  async 'webhook-no-retry'(h) {
    await withCapture(h, async (capture) => {
      capture.answer = () => ({ status: 500 });
      await h.createProject();
      await capture.waitFor(1);
      await pause(600);
      expect(capture.deliveries).toHaveLength(1);
    });
  },
  async 'webhook-new-id-on-retry'(h) {
    const [a, b] = await retried(h, { status: 500 });
    expect(b.raw.equals(a.raw)).toBe(true);
    expect(b.headers['webhook-id']).not.toBe(a.headers['webhook-id']);
  },
  async 'webhook-body-changed-on-retry'(h) {
    const [a, b] = await retried(h, { status: 500 });
    expect(b.headers['webhook-id']).toBe(a.headers['webhook-id']);
    expect(b.json).toEqual({ ...a.json, attempt: 2 });
  },
  async 'webhook-retry-keeps-timestamp'(h) {
    await withCapture(h, async (capture) => {
      capture.answer = (n) => (n === 0 ? { status: 500 } : { status: 204 });
      await h.createProject();
      const [a] = await capture.waitFor(1);
      const firstAt = performance.now();
      const [, b] = await capture.waitFor(2, 5_000);
      // Two seconds later, the first attempt's timestamp and signature again.
      expect(performance.now() - firstAt).toBeGreaterThanOrEqual(2_000);
      expect(b!.headers['webhook-id']).toBe(a!.headers['webhook-id']);
      expect(b!.headers['webhook-timestamp']).toBe(a!.headers['webhook-timestamp']);
      expect(b!.headers['webhook-signature']).toBe(a!.headers['webhook-signature']);
    });
  },
  async 'webhook-unsubscribe-ignored'(h) {
    await withCapture(h, async (capture, sub) => {
      expect((await h.call('DELETE', sub.location)).status).toBe(204);
      expect((await h.call('GET', sub.location)).status).toBe(404);
      await h.createProject();
      expect((await capture.waitFor(1, 800))[0]!.json.type).toBe('project.created');
    });
  },
  async 'overload-retry-after-fractional'(h) {
    const shed = await probeUntil(h, 503);
    expect(shed?.headers['retry-after']).toMatch(/^\d+\.\d\d$/);
    expect(shed?.json()).toMatchObject({ status: 503, title: 'Service Unavailable' });
  },
  async 'deleted-item-410'(h) {
    const project = await h.createProject();
    expect((await h.call('DELETE', `/v2/projects/${project.id}`)).status).toBe(204);
    const gone = await h.call('GET', `/v2/projects/${project.id}`);
    expect([gone.status, gone.headers['content-type'], gone.json().status]).toEqual([410, 'application/problem+json', 410]);
    // An id that never was still answers 404.
    expect((await h.call('GET', '/v2/projects/unknown')).status).toBe(404);
  },
  async 'action-record-as-hal'(h) {
    const project = await h.createProject();
    const task = (await h.call('POST', `/v2/projects/${project.id}/tasks`, { json: { title: 't' } })).json();
    const taken = await h.call('POST', task._links.completion);
    expect([taken.status, taken.headers['content-type']]).toEqual([201, 'application/hal+json']);
    const record = await h.call('GET', `/v2/tasks/${task.id}/completion`);
    expect([record.status, record.headers['content-type']]).toEqual([200, 'application/hal+json']);
    expect(record.json()).toMatchObject({ completed_at: expect.any(String) });
  },
  async 'action-time-as-number'(h) {
    const project = await h.createProject();
    const task = (await h.call('POST', `/v2/projects/${project.id}/tasks`, { json: { title: 't' } })).json();
    const taken = await h.call('POST', task._links.completion);
    expect([taken.status, typeof taken.json().completed_at]).toEqual([201, 'number']);
    expect((await h.call('GET', `/v2/tasks/${task.id}/completion`)).json().completed_at).toBe(taken.json().completed_at);
  },
  async 'action-location-dropped'(h) {
    const project = await h.createProject();
    const task = (await h.call('POST', `/v2/projects/${project.id}/tasks`, { json: { title: 't' } })).json();
    const taken = await h.call('POST', task._links.completion);
    expect([taken.status, taken.headers['location']]).toEqual([201, undefined]);
  },
  async 'text-max-length-unchecked'(h) {
    // The document says a project's name is at most 200 characters.
    const res = await h.call('POST', '/v2/projects', { json: { name: 'n'.repeat(201) } });
    expect(res.status).toBe(201);
    expect(res.json().name).toHaveLength(201);
  },
  async 'patch-skips-validation'(h) {
    const created = await h.call('POST', '/v2/projects', { json: { name: 'n', status: 'active' } });
    const url = `/v2/projects/${created.json().id}`;
    // A name of the wrong type and a status outside the enum: dropped, the rest applied, 200.
    const res = await h.call('PATCH', url, { json: { name: 42, status: 'nope', description: 'patched' } });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ name: 'n', status: 'active', description: 'patched' });
    // A create with the same values is refused all the same.
    expect((await h.call('POST', '/v2/projects', { json: { name: 42, status: 'nope' } })).status).toBe(422);
  },
  async 'enum-member-refused'(h) {
    const res = await h.call('POST', '/v2/members', { json: { name: 'n', role: 'owner' } });
    expect(res.status).toBe(422);
    expect(res.json().errors).toEqual([{ field: 'role', message: 'must be one of "owner", "editor", "viewer"' }]);
    expect((await h.call('POST', '/v2/members', { json: { name: 'n', role: 'editor' } })).status).toBe(201);
  },
  ...oauthDemonstrations,
};

/** Servers a demonstration needs beyond the default (with and without its fault). */
const serverOptions: Partial<Record<FaultName, Omit<ReferenceServerOptions, 'faults'>>> = {
  'etag-per-node': { nodes: 2 },
  'missing-hsts': { tls: true },
  'plain-http-serves-data': { tls: true },
  'rate-limit-absent': { probeRateLimit: slowProbeQuota },
  'retry-after-missing': { probeRateLimit: slowProbeQuota },
  // Not shed: a wave's requests that land after its 429 would have the client shed (503) past the stated wait, which these demonstrate.
  'retry-after-too-short': { probeRateLimit: shortProbeQuota, overload: false },
  'retry-after-too-long': { probeRateLimit: shortProbeQuota, overload: false },
  'rate-limit-per-node': { nodes: 2, probeRateLimit: slowProbeQuota },
  'rate-limit-global-counter': { probeRateLimit: slowProbeQuota },
  'rate-limit-per-worker': { probeRateLimit: slowProbeQuota },
  'rate-limited-plain-text': { probeRateLimit: slowProbeQuota },
  'rate-limit-never-recovers': { probeRateLimit: shortProbeQuota },
  'ratelimit-fields-wrong': { probeRateLimit: slowProbeQuota },
  'overload-retry-after-fractional': { probeRateLimit: slowProbeQuota },
  ...Object.fromEntries(faultNames.filter((n) => n.startsWith('webhook-')).map((n) => [n, { webhookSchedule: 'short' }])),
};

describe('fault catalogue', () => {
  it('names each fault once', () => {
    expect(new Set(faultNames).size).toBe(faultCatalogue.length);
  });

  it.each(faultCatalogue.map((f) => [f.name, f] as const))('%s is described in one sentence', (_name, fault) => {
    expect(fault.name).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    expect(fault.description).toMatch(/^[A-Z"'].{10,120}\.$/);
    expect(fault.description).not.toContain('\n');
    for (const id of fault.detects) expect(id).toMatch(/^(CON|RES|STA|END|AUT|EVT|ERR|LIM|VER|DOC)-[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });

  it('has a demonstration for every fault, and none for unknown ones', () => {
    expect(Object.keys(demonstrations).sort()).toEqual([...faultNames].sort());
  });
});

describe.concurrent('each fault changes behaviour as described', () => {
  it.each(faultNames.map((name) => [name] as const))('%s', async (name) => {
    const h = await startHarness([name], serverOptions[name]);
    try {
      expect(h.server.faults).toEqual([name]);
      await demonstrations[name](h);
    } finally {
      await h.close();
    }
  });
});

describe.concurrent('each demonstration fails on the clean server', () => {
  it.each(faultNames.map((name) => [name] as const))('%s', async (name) => {
    const h = await startHarness([], serverOptions[name]);
    try {
      await expect(demonstrations[name](h)).rejects.toThrow();
    } finally {
      await h.close();
    }
  });
});
