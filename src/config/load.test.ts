import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { serverKeptFields } from '../model/server-kept-fields.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RestprobeError, type RestprobeErrorCode } from '../errors.js';
import { profileDefaults } from '../model/profile.js';
import { packageRoot } from './schema.js';
import { loadProfile, type LoadProfileOptions } from './load.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'restprobe-config-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes `content` (an object as JSON, or text as is) to a temp file and returns its path. */
async function configFile(name: string, content: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

/** The RestprobeError `loadProfile` throws; fails the test when it resolves or throws something else. */
async function loadError(opts: LoadProfileOptions, code: RestprobeErrorCode): Promise<RestprobeError> {
  const err = await loadProfile(opts).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RestprobeError);
  expect((err as RestprobeError).code).toBe(code);
  return err as RestprobeError;
}

const env = { RESTPROBE_API_KEY: 'k3y-s3cr3t-value' };

describe('loadProfile: valid configs', () => {
  it('leaves out of the default volatile fields a field a body sends (an app\'s own version), and keeps [] as given', async () => {
    const sent = await configFile('sent.json', { baseUrl: 'https://api.example.com/', collections: [{ name: 'apps', path: '/apps', create: { body: { name: 'a', version: '1.0' } } }, { name: 'plain', path: '/plain', volatileFields: [] }] });
    const [apps, plain] = (await loadProfile({ configPath: sent, env: {} })).collections;
    expect(apps!.volatileFields).toEqual(serverKeptFields.filter((f) => f !== 'version'));
    expect(apps!.volatileFields).toContain('updated_at');
    expect(plain!.volatileFields).toEqual([]);
  });

  it('fills every default from a minimal file', async () => {
    const path = await configFile('minimal.json', { baseUrl: 'https://api.example.com/', collections: [{ name: 'projects', path: '/v2/projects' }] });
    const profile = await loadProfile({ configPath: path, env: {} });
    expect(profile).toEqual({
      baseUrl: 'https://api.example.com',
      auth: { queryParams: [] },
      collections: [
        {
          name: 'projects',
          path: '/v2/projects',
          itemPath: '/v2/projects/{id}',
          idField: 'id',
          volatileFields: serverKeptFields,
          volatileByDefault: true,
          newId: 'uuid',
          idType: 'string',
          methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
          pagination: { style: 'cursor', param: 'cursor', limitParam: 'limit', offsetParam: 'offset', pageParam: 'page', firstPage: 1, sortParam: 'sort' },
          filters: [],
          sorts: [],
          actions: [],
          children: [],
        },
      ],
      nodes: [],
      secretEndpoints: [],
      http: { timeoutMs: profileDefaults.timeoutMs, maxBodyBytes: profileDefaults.maxBodyBytes, concurrency: profileDefaults.concurrency, maxRetryWaitMs: profileDefaults.maxRetryWaitMs, maxConsecutiveFailures: profileDefaults.maxConsecutiveFailures },
      safety: { readOnly: false, maxRequests: profileDefaults.maxRequests, destructive: true },
      properties: {},
      secrets: [],
    });
  });

  it('loads the bundled reference config and resolves its API key', async () => {
    const profile = await loadProfile({ configPath: join(packageRoot(), 'fixtures', 'reference.config.json'), baseUrl: 'http://127.0.0.1:8080', env });
    expect(profile.auth.apiKey).toEqual({ header: 'X-API-Key', value: { envName: 'RESTPROBE_API_KEY', value: env.RESTPROBE_API_KEY } });
    expect(profile.secrets).toEqual([{ envName: 'RESTPROBE_API_KEY', value: env.RESTPROBE_API_KEY }]);
    expect(profile.collections.map((c) => c.name)).toEqual(['projects', 'members', 'events']);
    expect(profile.collections[2]!.methods).toEqual(['GET', 'POST']);
    expect(profile.collections[0]).toMatchObject({ itemPath: '/v2/projects/{id}', volatileFields: ['updated_at'], createBody: { status: 'archived' } });
  });

  it('reads YAML', async () => {
    const path = await configFile(
      'target.yaml',
      ['baseUrl: http://localhost:3000', 'http:', '  timeoutMs: 500', 'safety:', '  readOnly: true', 'collections:', '  - name: tasks', '    path: /tasks', '    newId: none', ''].join('\n'),
    );
    const profile = await loadProfile({ configPath: path, env: {} });
    expect(profile.http.timeoutMs).toBe(500);
    expect(profile.safety.readOnly).toBe(true);
    expect(profile.collections[0]).toMatchObject({ name: 'tasks', newId: 'none' });
  });

  it('reads a file with another extension as JSON, then as YAML', async () => {
    const json = await configFile('restprobe.conf', '{ "baseUrl": "http://a.test" }');
    const yaml = await configFile('restprobe.rc', 'baseUrl: http://b.test\n');
    expect((await loadProfile({ configPath: json, env: {} })).baseUrl).toBe('http://a.test');
    expect((await loadProfile({ configPath: yaml, env: {} })).baseUrl).toBe('http://b.test');
  });

  it('gives a profile with no collections when there is no config file', async () => {
    const profile = await loadProfile({ baseUrl: 'http://127.0.0.1:9', env: {} });
    expect(profile.collections).toEqual([]);
    expect(profile.auth).toEqual({ queryParams: [] });
    expect(profile.baseUrl).toBe('http://127.0.0.1:9');
  });

  it('lets the command-line base URL win and ORs --read-only with the file', async () => {
    const path = await configFile('cli.json', { baseUrl: 'https://from-file.example', safety: { readOnly: false } });
    const profile = await loadProfile({ configPath: path, baseUrl: 'https://from-cli.example/api//', readOnly: true, env: {} });
    expect(profile.baseUrl).toBe('https://from-cli.example/api');
    expect(profile.safety.readOnly).toBe(true);
  });
});

describe('loadProfile: problems', () => {
  it('webhooks.scheme custom needs webhooks.signature, and takes its defaults from the loader', async () => {
    const subscribe = { path: '/v2/webhook-subscriptions' };
    const without = await configFile('custom.json', { baseUrl: 'http://x.test', webhooks: { subscribe, scheme: 'custom' } });
    const err = await loadError({ configPath: without }, 'ERR_CONFIG_INVALID');
    expect(err.problems).toEqual(['webhooks.signature: required when webhooks.scheme is custom']);
    const withIt = await configFile('custom-ok.json', { baseUrl: 'http://x.test', webhooks: { subscribe, scheme: 'custom', signature: { header: 'X-Signature', signed: 'timestamp.body', timestampHeader: 'X-Timestamp' } } });
    const profile = await loadProfile({ configPath: withIt, env: {} });
    expect(profile.webhooks?.scheme).toEqual({ header: 'X-Signature', prefix: '', encoding: 'hex', signed: 'timestamp.body', timestampHeader: 'X-Timestamp' });
  });

  it('rejects a wrong type, naming the path, the expectation and what was found', async () => {
    const err = await loadError({ configPath: await configFile('type.json', { baseUrl: 42 }) }, 'ERR_CONFIG_INVALID');
    expect(err.problems).toEqual(['baseUrl: must be a string (found number 42)']);
  });

  it('reports every problem at once, in dotted paths', async () => {
    const path = await configFile('many.json', {
      baseUrl: 'ftp://x.example',
      collections: [{ name: 'projects', path: 'v2/projects', pth: '/x', newId: 'serial' }],
      http: { timeoutMs: 0 },
    });
    const err = await loadError({ configPath: path }, 'ERR_CONFIG_INVALID');
    expect(err.message).toMatch(/has 5 problems$/);
    expect(err.problems).toEqual(
      expect.arrayContaining([
        'baseUrl: must start with http:// or https:// (found string "ftp://x.example")',
        'collections[0].path: must start with "/" (found string "v2/projects")',
        'collections[0]: unknown property "pth" (did you mean "path"?)',
        'collections[0].newId: must be one of "uuid", "none" (found string "serial")',
        'http.timeoutMs: must be >= 1 (found number 0)',
      ]),
    );
  });

  it('rejects an unknown top-level property, suggesting the right one', async () => {
    const err = await loadError({ configPath: await configFile('typo.json', { baseURL: 'http://x.test' }) }, 'ERR_CONFIG_INVALID');
    expect(err.problems).toEqual(['(top level): unknown property "baseURL" (did you mean "baseUrl"?)']);
  });

  it('rejects a literal secret without repeating it', async () => {
    const path = await configFile('literal.json', { baseUrl: 'http://x.test', auth: { apiKey: { value: 'hunter2-literal' } } });
    const err = await loadError({ configPath: path, env }, 'ERR_CONFIG_INVALID');
    expect(err.problems).toHaveLength(1);
    expect(err.problems[0]).toMatch(/^auth\.apiKey\.value: must be \{ "env": "NAME" \}/);
    expect(err.problems[0]).toContain('(found a string)');
    expect(`${err.message}${err.problems.join('')}`).not.toContain('hunter2');
  });

  it('rejects a bad environment variable name', async () => {
    const path = await configFile('envname.json', { auth: { apiKey: { value: { env: 'MY-KEY' } } } });
    const err = await loadError({ configPath: path, baseUrl: 'http://x.test', env }, 'ERR_CONFIG_INVALID');
    expect(err.problems).toEqual([
      'auth.apiKey.value.env: must be an environment variable name (letters, digits and _, not starting with a digit) (found a string)',
    ]);
  });

  it('never echoes a secret pasted where the variable name goes', async () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwcm9iZSJ9.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';
    const bad = await loadError({ configPath: await configFile('pasted.json', { auth: { apiKey: { value: { env: jwt } } } }), baseUrl: 'http://x.test', env }, 'ERR_CONFIG_INVALID');
    expect([bad.message, ...bad.problems].join('\n')).not.toContain(jwt.slice(0, 12));
    // One that fits a name's grammar is told apart from names (UPPER_SNAKE) by its look: cut to four characters.
    const key = 'sk_live_51HxYzAbC0123456789';
    const fits = await loadError({ configPath: await configFile('fits.json', { auth: { apiKey: { value: { env: key } } } }), baseUrl: 'http://x.test', env }, 'ERR_ENV_MISSING');
    expect(fits.problems).toEqual([expect.stringMatching(/^auth\.apiKey\.value: environment variable sk_l… is not set \(a name like a secret/)]);
    expect([fits.message, ...fits.problems].join('\n')).not.toContain(key.slice(0, 10));
  });

  it('names each missing environment variable', async () => {
    const path = await configFile('env.json', { auth: { apiKey: { value: { env: 'RESTPROBE_API_KEY' } } } });
    const err = await loadError({ configPath: path, baseUrl: 'http://x.test', env: {} }, 'ERR_ENV_MISSING');
    expect(err.problems).toEqual(['auth.apiKey.value: environment variable RESTPROBE_API_KEY is not set']);
    const empty = await loadError({ configPath: path, baseUrl: 'http://x.test', env: { RESTPROBE_API_KEY: '' } }, 'ERR_ENV_MISSING');
    expect(empty.problems).toEqual(['auth.apiKey.value: environment variable RESTPROBE_API_KEY is set but empty']);
  });

  it('reports an unreadable file by name', async () => {
    const missing = join(dir, 'nope.json');
    const err = await loadError({ configPath: missing }, 'ERR_CONFIG_UNREADABLE');
    expect(err.message).toBe(`cannot read config file ${missing}: no such file`);
  });

  it('reports a JSON syntax error with line and column', async () => {
    const path = await configFile('broken.json', '{\n  "baseUrl": "http://x.test"\n  "collections": []\n}');
    const err = await loadError({ configPath: path }, 'ERR_CONFIG_UNREADABLE');
    expect(err.message).toContain(path);
    expect(err.message).toContain('(line 3, column 3)');
  });

  it('refuses a JSON config that names a key twice in one object, where and which (JSON.parse would keep the last silently)', async () => {
    const top = await configFile('twice.json', '{\n  "baseUrl": "http://x.test",\n  "collections": [],\n  "baseUrl": "http://y.test"\n}');
    const err = await loadError({ configPath: top }, 'ERR_CONFIG_UNREADABLE');
    expect(err.message).toBe(`cannot parse config file ${top} (line 4, column 3): "baseUrl" is named twice (JSON keeps only the last): keep one`);
    // Nested, and spelled with an escape: the same key once decoded.
    const nested = await configFile('nested.json', '{"baseUrl": "http://x.test", "collections": [{"name": "a", "path": "/a"}, {"name": "b", "path": "/b", "p\\u0061th": "/c"}]}');
    expect((await loadError({ configPath: nested }, 'ERR_CONFIG_UNREADABLE')).message).toMatch(/\(line 1, column \d+\): "path" is named twice in collections\[1\] \(JSON keeps only the last\)/);
  });

  it('takes a key named once per object, whatever other objects and string values name', async () => {
    const path = await configFile('once.json', '{"baseUrl": "http://x.test", "collections": [{"name": "baseUrl", "path": "/a"}, {"name": "b", "path": "/b"}]}');
    const profile = await loadProfile({ configPath: path, env: {} });
    expect(profile.collections.map((c) => c.name)).toEqual(['baseUrl', 'b']);
  });

  it('reports a YAML syntax error with line and column', async () => {
    const path = await configFile('broken.yaml', 'baseUrl: http://x.test\ncollections:\n  - name: a\n   path: /a\n');
    const err = await loadError({ configPath: path }, 'ERR_CONFIG_UNREADABLE');
    expect(err.message).toMatch(/broken\.yaml \(line 4, column \d+\): /);
  });

  it('asks for a base URL when neither source gives one', async () => {
    const err = await loadError({ env: {} }, 'ERR_USAGE');
    expect(err.message).toBe('no base URL: pass one on the command line or set baseUrl in the config');
  });

  it('rejects a base URL with credentials without echoing them', async () => {
    const err = await loadError({ baseUrl: 'https://me:pa55word@x.test' }, 'ERR_USAGE');
    expect(err.message).not.toContain('pa55word');
  });

  it('names the repeated item in a list', async () => {
    const path = await configFile('repeat.json', { collections: [{ name: 'a', path: '/a', volatileFields: ['etag', 'updated_at', 'etag'] }] });
    const err = await loadError({ configPath: path, baseUrl: 'http://x.test' }, 'ERR_CONFIG_INVALID');
    expect(err.problems).toEqual(['collections[0].volatileFields: must not repeat items (found string "etag" at [0] and [2])']);
  });

  it('rejects duplicate collection names', async () => {
    const path = await configFile('dup.json', { collections: [{ name: 'a', path: '/a' }, { name: 'a', path: '/b' }] });
    const err = await loadError({ configPath: path, baseUrl: 'http://x.test' }, 'ERR_CONFIG_INVALID');
    expect(err.problems).toEqual(['collections[1].name: must be unique (found "a", also the name of collections[0])']);
  });
});
