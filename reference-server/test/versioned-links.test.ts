/**
 * A reply's links follow the request's version and scheme; a client's data never does.
 * (Replies used to be re-parsed and every string equal to `/v2` or under `/v2/` rewritten,
 * so a project named `/v2/projects` came back named `/projects`.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Versioning } from '../src/versions.js';
import { startHarness, type Harness } from './client.js';

/** How each scheme reaches a path in a version, and what a link to it looks like there. */
interface Scheme {
  readonly versioning: Versioning;
  /** The request path and headers for `path` (unversioned, `/projects/…`) in `version`. */
  request(path: string, version: number): { path: string; headers: Record<string, string> };
  /** The link to `path` in a reply of `version`. */
  linkTo(path: string, version: number): string;
}

const schemes: readonly Scheme[] = [
  { versioning: 'url', request: (path, v) => ({ path: `/v${v}${path}`, headers: {} }), linkTo: (path, v) => `/v${v}${path}` },
  { versioning: 'header', request: (path, v) => ({ path, headers: { accept: `application/vnd.restprobe+json; version=${v}` } }), linkTo: (path) => path },
  { versioning: 'x-api-version', request: (path, v) => ({ path, headers: { 'x-api-version': String(v) } }), linkTo: (path) => path },
  { versioning: 'query', request: (path, v) => ({ path: `${path}${path.includes('?') ? '&' : '?'}v=${v}`, headers: {} }), linkTo: (path, v) => (v === 2 ? path : `${path}?v=${v}`) },
];

/** Strings that look like the API's own paths, as a client may well choose them. */
const pathlike = { name: '/v2/projects', description: '/v2', label: '/v2/' };

describe.each(schemes)('under the $versioning scheme', (scheme) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness([], { versioning: scheme.versioning });
  });
  afterAll(async () => {
    await h?.close();
  });

  const call = (method: string, path: string, version: number, json?: unknown) => {
    const { path: target, headers } = scheme.request(path, version);
    return h.call(method, target, { headers, ...(json !== undefined && { json }) });
  };

  it.each([2, 1])('sends a project named like a path as stored, with its links for the version (v%i)', async (version) => {
    const created = await call('POST', '/projects', version, pathlike);
    expect(created.status).toBe(201);
    const id: string = created.json().id;
    const self = `/projects/${id}`;
    expect(created.json()).toMatchObject(pathlike);
    expect(created.headers['location']).toBe(scheme.linkTo(self, version));
    const read = (await call('GET', self, version)).json();
    expect(read).toMatchObject({ ...pathlike, _links: { self: scheme.linkTo(self, version) } });
    // v1 also sends the old name, with the same value.
    if (version === 1) expect(read.title).toBe(pathlike.name);
    const listed = (await call('GET', `/projects?label=${encodeURIComponent(pathlike.label)}`, version)).json().data;
    expect(listed.find((p: { id: string }) => p.id === id)).toMatchObject({ ...pathlike, _links: { self: scheme.linkTo(self, version) } });
    const task = (await call('POST', `${self}/tasks`, version, { title: '/v2' })).json();
    expect(task).toMatchObject({ title: '/v2', _links: { self: scheme.linkTo(`/tasks/${task.id}`, version), project: scheme.linkTo(self, version) } });
  });

  it('links the index to the collections', async () => {
    const index = (await h.call('GET', scheme.versioning === 'url' ? '/v2' : '/')).json();
    expect(index._links.projects).toBe(scheme.linkTo('/projects', 2));
  });
});
