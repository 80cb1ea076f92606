/**
 * `restprobe init --openapi`: what it infers from a document, and how it behaves as a
 * command. Two documents of our own hold every shape it reads: a multi-file OpenAPI 3.1 YAML
 * document (`$ref`s across files, a self-referring schema, a sub-collection, a noun action, a
 * non-standard page envelope, integer ids, a stale example) and a one-file OpenAPI 3.0 JSON
 * document (`nullable`, boolean `exclusiveMinimum`, `additionalProperties: false` beside
 * `allOf`, a read-only required id, a bare-array list, a bearer scheme, a version header).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { initCommand, type InitOptions } from '../src/cli/init-command.js';
import { loadProfile } from '../src/config/load.js';
import { loadConfigValidator } from '../src/config/schema.js';
import { exitCodeFor, isRestprobeError } from '../src/errors.js';
import { SchemaValidator } from '../src/document/json-schema.js';
import { loadOpenApi } from '../src/document/load.js';
import { repoRoot } from './support/target.js';

const fixtures = join(repoRoot, 'test', 'fixtures', 'openapi');
const things = join(fixtures, 'things', 'openapi.yaml');
const shop = join(fixtures, 'shop.json');
const bin = join(repoRoot, 'bin', 'restprobe.js');

interface Written {
  readonly text: string;
  readonly config: Record<string, any>;
  readonly out: string;
  readonly file: string;
}

/** Runs init in-process into a fresh directory; returns the file written and what it printed. */
async function init(opts: Omit<InitOptions, 'output'> & { output?: string }): Promise<Written> {
  const dir = await mkdtemp(join(tmpdir(), 'restprobe-init-'));
  const file = opts.output ?? join(dir, 'restprobe.config.yaml');
  const stream = new PassThrough();
  let out = '';
  stream.on('data', (c) => (out += c));
  expect(await initCommand({ ...opts, output: file }, stream)).toBe(0);
  const text = await readFile(file, 'utf8');
  return { text, config: parse(text) as Record<string, any>, out, file };
}

function restprobe(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: repoRoot, env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

/** The request schema of `METHOD path` (a path template of the document), for ajv. */
async function requestSchema(source: string, method: string, path: string) {
  const doc = await loadOpenApi(source);
  const media = doc.at(`/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/requestBody/content`);
  const first = Object.keys(media?.value as object)[0]!;
  return { doc, schema: doc.child(media, first, 'schema')! };
}

describe('init on a multi-file OpenAPI 3.1 document', () => {
  let written: Written;
  beforeAll(async () => {
    written = await init({ openapi: things });
  });

  it('bundles the $refs of every file into one document whose references are all local', async () => {
    const doc = await loadOpenApi(things);
    const refs = [...JSON.stringify(doc.root).matchAll(/"\$ref":"([^"]*)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(5);
    expect(refs.filter((r) => !r.startsWith('#/'))).toEqual([]);
    // The self-referring schema stays a reference to itself, not an endless copy.
    const post = doc.at('/paths/~1things/post/requestBody/content/application~1json/schema')!;
    const parent = doc.child(post, 'properties', 'parent')!;
    expect(doc.child(parent, 'properties', 'parent')!.pointer).toBe(parent.pointer);
  });

  it('writes a config the config schema accepts, which loads with the variables it names', async () => {
    const validate = await loadConfigValidator();
    expect(validate(written.config), JSON.stringify(validate.errors)).toBe(true);
    const profile = await loadProfile({ configPath: written.file, baseUrl: 'https://staging.example.com', env: { API_KEY_AUTH: 'k', THINGS_OAUTH_CLIENT_ID: 'c', THINGS_OAUTH_CLIENT_SECRET: 's' } });
    expect(profile.collections.map((c) => c.name)).toEqual(['things']);
  });

  it('finds the collection, its sub-collection with its top-level item path, its noun action, and integer ids', () => {
    const [c] = written.config['collections'];
    expect(c).toMatchObject({
      name: 'things',
      path: '/v3/things',
      idType: 'integer',
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      actions: ['approval'],
      volatileFields: ['updated_at'],
      children: [{ name: 'parts', path: '/v3/things/{id}/parts', itemPath: '/v3/parts/{id}', create: { body: { name: 'restprobe name', count: 1 } } }],
    });
    expect(written.config['collections']).toHaveLength(1); // /me lists nothing; notes live only under their thing
    expect(written.text).toMatch(/# \/v3\/things\/\{thingId\}\/notes lists items that live only under their owner .*not configured/);
    // The media types the writes take are said on the notConsumed line, left to the team.
    expect(written.text).toMatch(/# notConsumed: … {2}# fill in: the media types the API refuses with 415, such as application\/x-www-form-urlencoded, multipart\/form-data, application\/xml, text\/plain, which its document does not list \(it says the writes take: POST application\/json; PUT application\/json; PATCH application\/merge-patch\+json\)/);
  });

  it('reads the page parameters, filters on item fields, sorts from the enum, and a free-text field to mark with', () => {
    const [c] = written.config['collections'];
    expect(c.pagination).toEqual({ style: 'cursor', param: 'after', limitParam: 'limit', sortParam: 'sort', maxLimit: 50, envelope: { items: '/items', next: '/next' } });
    expect(c.filters).toEqual(['status', 'tag']);
    expect(c.sorts).toEqual(['created_at', 'title']);
    expect(c.mark).toEqual({ field: 'tag' });
    expect(written.text).toContain('# query parameters that name no field of the items, not judged as filters: created_after');
    // Another envelope goes in pagination.envelope; whether "next" is a cursor or a URL the document does not say.
    expect(written.text).toContain('# pages come as { "items", "next" }, not the conventions\' { "data", "next_cursor" } (§4): END-get-collection-200 will say so, and the other page checks read them through pagination.envelope');
    expect(written.text).toMatch(/# pagination\.envelope\.nextIs: … {2}# fill in: cursor or url, what "next" holds \(the document does not say\)/);
  });

  it('passes over an example that breaks its own schema, says so, and generates bodies its schemas accept', async () => {
    expect(written.text).toContain("# the document's example breaks its own schema (/title must be string), so it was not used");
    const [c] = written.config['collections'];
    const post = await requestSchema(things, 'post', '/things');
    const requests = new SchemaValidator(post.doc, 'request');
    expect(requests.validate(post.schema, c.create.body)).toEqual({ ok: true });
    expect(requests.validate(post.schema, c.replace.body)).toEqual({ ok: true });
    // The create body gives every field a value that is not its default, so a PUT without it must reset it.
    expect(c.create.body.status).toBe('closed');
    expect(c.replace.body).toEqual({ title: 'restprobe title (replaced)' });
    const patch = await requestSchema(things, 'patch', '/things/{thingId}');
    expect(requests.validate(patch.schema, c.patch.body)).toEqual({ ok: true });
    expect(Object.keys(c.patch.body)).toHaveLength(1);
    // The invalid body breaks one constraint: it differs from the create body in one field.
    expect(requests.validate(post.schema, c.invalid.body).ok).toBe(false);
    expect(Object.keys(c.invalid.body).filter((k) => JSON.stringify(c.invalid.body[k]) !== JSON.stringify(c.create.body[k]))).toHaveLength(1);
  });

  it('turns the security schemes into environment variable names, never values, and says what it cannot send', () => {
    expect(written.config['auth']).toEqual({
      apiKey: { header: 'X-Things-Key', value: { env: 'API_KEY_AUTH' } },
      oauth: { tokenEndpoint: 'https://auth.example.com/oauth2/token', clientId: { env: 'THINGS_OAUTH_CLIENT_ID' }, clientSecret: { env: 'THINGS_OAUTH_CLIENT_SECRET' }, scopes: ['things:read', 'things:write'] },
      // The document's own name for a key in the URL, which AUT-key-not-in-query sends a key in to see it refused.
      queryParams: ['legacy_key'],
    });
    expect(written.text).toContain('#   export API_KEY_AUTH=…');
    expect(written.text).toMatch(/# security scheme "LegacyKey" takes a key in the query \(legacy_key\): the conventions \(§5\) refuse keys in the URL/);
  });

  it('takes the version from the server URL, and a server described as deprecated as a deprecated version', () => {
    expect(written.config['version']).toEqual({ scheme: 'url', current: 'v3', deprecated: ['v2'] });
    // The document's server is production: the base URL is a comment, for the team to point at staging.
    expect(written.config['baseUrl']).toBeUndefined();
    expect(written.text).toMatch(/^# baseUrl: https:\/\/api\.example\.com {2}# the document's servers: /m);
  });

  it('says in its header that documents are often wrong, and marks every value left to fill in', () => {
    expect(written.text).toMatch(/generated documents are often wrong:\n# Django REST framework types integer ids as strings/);
    const fillIns = written.text.split('\n').filter((l) => /^ *# [a-zA-Z.]+: /.test(l) && l.includes('# fill in:'));
    expect(fillIns.length).toBeGreaterThanOrEqual(3);
    for (const line of fillIns) expect(line).toMatch(/^ *# [a-zA-Z.]+: … {2}# fill in: \S/);
    expect(fillIns.join('\n')).toContain('personalised: …  # fill in:');
    expect(written.out).toMatch(/^wrote .*restprobe\.config\.yaml: 1 collection \(things\); \d+ lines to fill in/);
  });
});

describe('init on a one-file OpenAPI 3.0 JSON document', () => {
  let written: Written;
  beforeAll(async () => {
    written = await init({ openapi: shop });
  });

  it("reads 3.0's schemas as their authors mean them: bodies valid with nullable, exclusive bounds and allOf, without the read-only id", async () => {
    const [c] = written.config['collections'];
    expect(c.create.body).toEqual({ customer: 'restprobe customer', note: 'restprobe note', quantity: 1, state: 'paid' });
    const post = await requestSchema(shop, 'post', '/orders');
    const requests = new SchemaValidator(post.doc, 'request');
    expect(requests.validate(post.schema, c.create.body)).toEqual({ ok: true });
    expect(requests.validate(post.schema, { ...c.create.body, note: null })).toEqual({ ok: true });
    expect(requests.validate(post.schema, { ...c.create.body, quantity: 0 }).ok).toBe(false);
    expect(requests.validate(post.schema, { ...c.create.body, unknown: 1 }).ok).toBe(false);
    // The example's quantity 0 breaks exclusiveMinimum: true.
    expect(written.text).toContain("# the document's example breaks its own schema (/quantity must be > 0), so it was not used");
    // The id is required of responses only (readOnly): a response without it is refused.
    const responses = new SchemaValidator(post.doc, 'response');
    expect(responses.validate(post.doc.at('/components/schemas/Order')!, { customer: 'x' }).ok).toBe(false);
  });

  it('uses the item path parameter as the id field, offset pages, a bearer token and the version header', () => {
    const [c] = written.config['collections'];
    expect(c).toMatchObject({ name: 'orders', path: '/api/orders', idField: 'order_id', idType: 'string', methods: ['GET', 'POST', 'PUT', 'DELETE'], pagination: { style: 'offset', limitParam: 'limit', offsetParam: 'offset' }, filters: ['state'], volatileFields: ['modified_at'] });
    expect(written.config['auth']).toEqual({ apiKey: { header: 'Authorization', value: { env: 'BEARER_AUTH' } } });
    expect(written.config['version']).toEqual({ scheme: 'header', header: 'X-Api-Version', current: '2' });
    expect(written.text).toContain('# pagination.maxLimit: …  # fill in: the largest page size the API allows (limit has no maximum in the document)');
    expect(written.text).toContain('# pages are a bare JSON array: the conventions (§4) wrap them');
    expect(written.text).toContain('# security scheme "basicAuth" is HTTP basic');
  });

  it('names variables with --env-prefix', async () => {
    const prefixed = await init({ openapi: shop, envPrefix: 'SHOP_' });
    expect(prefixed.config['auth'].apiKey.value).toEqual({ env: 'SHOP_BEARER_AUTH' });
  });
});

describe('restprobe init as a command', () => {
  it('never overwrites a file without --force, and does with it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-init-'));
    const file = join(dir, 'restprobe.config.yaml');
    await writeFile(file, 'collections: []\n');
    const refused = await initCommand({ openapi: shop, output: file }, new PassThrough()).catch((e: unknown) => e);
    expect(isRestprobeError(refused, 'ERR_USAGE') && exitCodeFor(refused.code)).toBe(2);
    expect((refused as Error).message).toMatch(/restprobe\.config\.yaml exists: init does not overwrite it \(pass --force/);
    expect(await readFile(file, 'utf8')).toBe('collections: []\n');
    await init({ openapi: shop, output: file, force: true });
    expect(await readFile(file, 'utf8')).toContain('name: orders');
  });

  it('writes YAML only, since the comments are the point', async () => {
    const refused = await initCommand({ openapi: shop, output: join(tmpdir(), 'x.json') }, new PassThrough()).catch((e: unknown) => e);
    expect((refused as Error).message).toMatch(/init writes YAML, which carries its comments; name the file \.yaml or \.yml/);
  });

  it.each([
    ['a Swagger 2.0 document', '{"swagger": "2.0", "info": {}, "paths": {}}', /is Swagger 2\.0, expected OpenAPI 3\.0 or 3\.1/],
    ['a document of another kind', '{"name": "restprobe"}', /has no "openapi" field, expected an OpenAPI 3\.0 or 3\.1 document/],
    ['an OpenAPI 4 document', 'openapi: 4.0.0\n', /says openapi: 4\.0\.0, expected 3\.0\.x or 3\.1\.x/],
    ['YAML that does not parse', 'openapi: 3.1.0\ninfo: [unclosed\n', /cannot be parsed: unexpected end of the stream/],
  ])('refuses %s in one line, exit 2, no stack trace', async (_, content, message) => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-init-'));
    const doc = join(dir, content.startsWith('{') ? 'doc.json' : 'doc.yaml');
    await writeFile(doc, content);
    const ran = await restprobe(['init', '--openapi', doc, '-o', join(dir, 'out.yaml')]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(message);
    expect(ran.stderr.trim().split('\n')).toHaveLength(1);
    expect(ran.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    ['a missing file', join(fixtures, 'nope.yaml'), /OpenAPI document .*nope\.yaml: cannot be read \(ENOENT\)/],
    ['a $ref to a part of another file that is not there', join(fixtures, 'broken-ref.yaml'), /a \$ref points nowhere: .*things\/schemas\/thing\.yaml has no #\/NoSuchSchema/],
  ])('refuses %s in one line, exit 2', async (_, doc, message) => {
    const ran = await restprobe(['init', '--openapi', doc, '-o', join(tmpdir(), 'never-written.yaml')]);
    expect([ran.code, ran.stderr.trim().split('\n').length]).toEqual([2, 1]);
    expect(ran.stderr).toMatch(message);
  });

  it('says in --help what it infers, that documents are often wrong, and how it exits', async () => {
    const help = await restprobe(['init', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--openapi <file-or-url>/);
    expect(help.stdout).toMatch(/--probe <url>/);
    expect(help.stdout).toMatch(/Generated documents are often wrong/);
    expect(help.stdout).toMatch(/Exit codes: 0 written · 2 usage error/);
  });
});
