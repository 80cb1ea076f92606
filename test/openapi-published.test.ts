/**
 * `restprobe init` on real, published OpenAPI documents that ship in npm packages (dev
 * dependencies, pinned):
 *
 * - `@figma/rest-api-spec` 0.43.0, MIT: Figma's REST API, OpenAPI 3.1.0, YAML.
 * - `shipengine-openapi` 1.4.0, MIT: ShipEngine's API, OpenAPI 3.0.0, YAML.
 * - `@scalar/galaxy` 0.2.20, MIT: Scalar's example API, OpenAPI 3.1.1, YAML.
 *
 * For each, the written config is valid against the config schema and loads, and every body
 * in it is valid against the request schema of the operation it is sent to (ajv, reading
 * the schemas as OpenAPI does: `nullable`, `readOnly` required of responses only,
 * `additionalProperties: false` beside `allOf` as `unevaluatedProperties`, without which
 * ShipEngine's schemas refuse every object), while each invalid body is refused by it.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { initCommand } from '../src/cli/init-command.js';
import { loadProfile } from '../src/config/load.js';
import { loadConfigValidator } from '../src/config/schema.js';
import type { OpenApiDocument } from '../src/model/openapi-document.js';
import { SchemaValidator } from '../src/document/json-schema.js';
import { loadOpenApi } from '../src/document/load.js';
import { jsonMedia, pathItems, type Operation } from '../src/document/operations.js';
import { targetOf } from '../src/document/servers.js';
import { repoRoot } from './support/target.js';

type Json = Record<string, any>;

const published = [
  { name: '@figma/rest-api-spec', file: 'openapi/openapi.yaml' },
  { name: 'shipengine-openapi', file: 'openapi.yaml' },
  { name: '@scalar/galaxy', file: 'dist/latest.yaml' },
] as const;

const documentOf = (name: string, file: string): string => join(repoRoot, 'node_modules', ...name.split('/'), file);

/** A body of the config and the operation it is sent to. */
interface SentBody {
  readonly where: string;
  readonly body: Json;
  readonly op: Operation;
  readonly valid: boolean;
}

/** The operation of `method` at a config path (`{id}` stands for any parameter). */
function operationAt(doc: OpenApiDocument, method: string, configPath: string): Operation {
  const path = configPath.slice(targetOf(doc).prefix.length);
  const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{id\\?\}/g, '\\{[^}]+\\}').replace(/\{id\}/g, '\\{[^}]+\\}')}$`);
  const op = pathItems(doc).filter((p) => pattern.test(p.path)).flatMap((p) => p.operations).find((o) => o.method === method);
  if (op === undefined) throw new Error(`no ${method} ${configPath} in the document`);
  return op;
}

/** Every body the config sends, with its operation: creates, replaces, patches, invalid bodies, children's creates, the webhook subscription. */
function sentBodies(doc: OpenApiDocument, config: Json): SentBody[] {
  const out: SentBody[] = [];
  for (const c of (config['collections'] ?? []) as Json[]) {
    const item = `${c['path']}/{id}`;
    if (c['create']) out.push({ where: `${c['name']}.create`, body: c['create']['body'], op: operationAt(doc, 'POST', c['path']), valid: true });
    if (c['invalid']) out.push({ where: `${c['name']}.invalid`, body: c['invalid']['body'], op: operationAt(doc, 'POST', c['path']), valid: false });
    if (c['replace']) out.push({ where: `${c['name']}.replace`, body: c['replace']['body'], op: operationAt(doc, 'PUT', item), valid: true });
    if (c['patch']) out.push({ where: `${c['name']}.patch`, body: c['patch']['body'], op: operationAt(doc, 'PATCH', item), valid: true });
    for (const child of (c['children'] ?? []) as Json[]) out.push({ where: `${c['name']}.${child['name']}.create`, body: child['create']['body'], op: operationAt(doc, 'POST', child['path']), valid: true });
  }
  const subscribe = config['webhooks']?.['subscribe'];
  if (subscribe !== undefined) {
    // restprobe puts its listener's URL where the body says "{url}".
    const body = JSON.parse(JSON.stringify(subscribe['body']).replaceAll('"{url}"', '"https://hooks.example.com/restprobe"')) as Json;
    out.push({ where: 'webhooks.subscribe', body, op: operationAt(doc, 'POST', subscribe['path']), valid: true });
  }
  return out;
}

async function init(source: string): Promise<{ text: string; config: Json; file: string }> {
  const file = join(await mkdtemp(join(tmpdir(), 'restprobe-published-')), 'restprobe.config.yaml');
  expect(await initCommand({ openapi: source, output: file }, new PassThrough(), {})).toBe(0);
  const text = await readFile(file, 'utf8');
  return { text, config: parse(text) as Json, file };
}

describe.each(published)('init on $name', ({ name, file }) => {
  const source = documentOf(name, file);

  it('writes a config the config schema accepts, which loads with the variables it names', async () => {
    const { text, config, file: written } = await init(source);
    const validate = await loadConfigValidator();
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true);
    const names = [...text.matchAll(/^# +export ([A-Z0-9_]+)=/gm)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(0);
    const profile = await loadProfile({ configPath: written, baseUrl: 'https://staging.example.com', env: Object.fromEntries(names.map((n) => [n, 'x'])) });
    expect(profile.collections.length + (profile.webhooks === undefined ? 0 : 1)).toBeGreaterThan(0);
    expect(text).toContain('generated documents are often wrong');
  });

  it('sends bodies its request schemas accept, and invalid bodies they refuse', async () => {
    const { config } = await init(source);
    const doc = await loadOpenApi(source);
    const requests = new SchemaValidator(doc, 'request');
    const bodies = sentBodies(doc, config);
    expect(bodies.filter((b) => b.valid).length).toBeGreaterThan(0);
    for (const b of bodies) {
      const schema = jsonMedia(b.op.requestBody?.content)?.schema;
      expect(schema, `${b.where}: ${b.op.method} ${b.op.path} has a JSON schema`).toBeDefined();
      const verdict = requests.validate(schema!, b.body);
      expect({ where: b.where, valid: verdict.ok, problem: verdict.ok ? undefined : verdict.problem }).toEqual({ where: b.where, valid: b.valid, problem: b.valid ? undefined : expect.any(String) });
    }
  });
});

describe('what init reads in the published documents', () => {
  it('ShipEngine: the API-Key header, URL versioning at v1, the id fields named for their paths, page-numbered envelopes in pagination.envelope', async () => {
    const { text, config } = await init(documentOf('shipengine-openapi', 'openapi.yaml'));
    expect(config['auth']).toEqual({ apiKey: { header: 'API-Key', value: { env: 'API_KEY' } } });
    expect(config['version']).toEqual({ scheme: 'url', current: 'v1' });
    const warehouses = (config['collections'] as Json[]).find((c) => c['name'] === 'warehouses');
    expect(warehouses).toMatchObject({ path: '/v1/warehouses', idField: 'warehouse_id', methods: ['GET', 'POST', 'PUT', 'DELETE'] });
    expect(warehouses!['create']['body']).toHaveProperty('origin_address');
    expect(text).toContain('# pages come as { "batches", "total", "page", "pages", "links" }, not the conventions\' { "data" } (§4): END-get-collection-200 will say so, and the other page checks read them through pagination.envelope');
    expect((config['collections'] as Json[]).find((c) => c['name'] === 'batches')?.['pagination']).toMatchObject({ style: 'page', envelope: { items: '/batches' } });
  });

  it('Figma: the X-Figma-Token header, the OAuth server, and webhooks as a subscription (the callback URL its body names)', async () => {
    const { text, config } = await init(documentOf('@figma/rest-api-spec', 'openapi/openapi.yaml'));
    expect(config['auth']['apiKey']['header']).toBe('X-Figma-Token');
    expect(config['auth']['oauth']).toMatchObject({ authorizationEndpoint: 'https://www.figma.com/oauth', tokenEndpoint: 'https://api.figma.com/v1/oauth/token' });
    expect(config['webhooks']['subscribe']).toMatchObject({ path: '/v2/webhooks', body: { endpoint: '{url}' } });
    expect((config['collections'] as Json[]).map((c) => c['name'])).not.toContain('webhooks');
    // Listings under a file or a team are said, not configured: nothing restprobe can create them in.
    expect(text).toContain('# /v1/files/{file_key}/comments: not configured, listed under an owner that is no collection restprobe can create in');
  });

  it('Scalar Galaxy: integer ids, offset pages, a bearer token chosen among seven schemes', async () => {
    const { text, config } = await init(documentOf('@scalar/galaxy', 'dist/latest.yaml'));
    expect(config['collections'][0]).toMatchObject({ name: 'planets', path: '/planets', idType: 'integer', pagination: { style: 'offset' } });
    expect(config['auth']['apiKey']).toEqual({ header: 'Authorization', value: { env: 'BEARER_AUTH' } });
    expect(text).toMatch(/# security scheme "apiKeyQuery" takes a key in the query \(api_key\)/);
  });

});
