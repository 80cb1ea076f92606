import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDefaults } from './defaults.js';
import type { RawConfig } from './raw-config.js';
import { configSchemaPath, configValidator, packageRoot } from './schema.js';

type SchemaNode = { description?: string; default?: unknown; properties?: Record<string, SchemaNode>; items?: SchemaNode; definitions?: Record<string, SchemaNode>; additionalProperties?: unknown; type?: string };
const schema = JSON.parse(readFileSync(configSchemaPath(), 'utf8')) as SchemaNode;

/** Every object schema with `properties`, and every property, with its JSON path. */
function* walk(node: SchemaNode, path: string): Generator<[string, SchemaNode]> {
  yield [path, node];
  for (const [name, child] of Object.entries(node.properties ?? {})) yield* walk(child, `${path}.${name}`);
  for (const [name, child] of Object.entries(node.definitions ?? {})) yield* walk(child, `#${name}`);
  if (node.items) yield* walk(node.items, `${path}[]`);
}

describe('config schema', () => {
  it('is found from the package root, from sources and from compiled output alike', () => {
    const root = packageRoot();
    expect(configSchemaPath()).toBe(join(root, 'fixtures', 'schema', 'restprobe.config.schema.json'));
    expect(packageRoot(join(root, 'src', 'config'))).toBe(root);
    expect(packageRoot(join(root, 'dist', 'src', 'config'))).toBe(root);
  });

  it('describes every property and closes every object', () => {
    for (const [path, node] of walk(schema, '$')) {
      if (path !== '$' && !path.endsWith('[]')) expect(node.description, path).toBeTruthy();
      if (node.properties) expect(node.additionalProperties, path).toBe(false);
    }
  });

  it('shows editors the defaults the loader applies', () => {
    const shown = Object.fromEntries([...walk(schema, '$')].filter(([, n]) => 'default' in n).map(([p, n]) => [p, n.default]));
    expect(shown).toEqual({
      '$.auth.apiKey.header': configDefaults.apiKeyHeader,
      '$.http.timeoutMs': configDefaults.timeoutMs,
      '$.http.maxBodyBytes': configDefaults.maxBodyBytes,
      '$.http.concurrency': configDefaults.concurrency,
      '$.http.maxRetryWaitMs': configDefaults.maxRetryWaitMs,
      '$.http.maxConsecutiveFailures': configDefaults.maxConsecutiveFailures,
      '$.safety.readOnly': configDefaults.readOnly,
      '$.safety.maxRequests': configDefaults.maxRequests,
      '$.safety.destructive': configDefaults.destructive,
      '#collection.idField': configDefaults.idField,
      '#collection.idType': configDefaults.idType,
      '#collection.volatileFields': configDefaults.volatileFields,
      '#collection.newId': configDefaults.newId,
      '#collection.methods': configDefaults.methods,
      '#collection.pagination.style': configDefaults.pagination.style,
      '#collection.pagination.param': configDefaults.pagination.param,
      '#collection.pagination.limitParam': configDefaults.pagination.limitParam,
      '#collection.pagination.offsetParam': configDefaults.pagination.offsetParam,
      '#collection.pagination.pageParam': configDefaults.pagination.pageParam,
      '#collection.pagination.firstPage': configDefaults.pagination.firstPage,
      '#collection.pagination.sortParam': configDefaults.pagination.sortParam,
      '#collection.pagination.envelope.items': configDefaults.pageEnvelope.items,
      '#collection.pagination.envelope.next': configDefaults.pageEnvelope.next,
      '#collection.pagination.envelope.nextIs': configDefaults.pageEnvelope.nextIs,
      '#collection.filters': configDefaults.filters,
      '#collection.sorts': configDefaults.sorts,
      '#collection.actions': configDefaults.actions,
      '#collection.children': configDefaults.children,
      '#child.idField': configDefaults.idField,
      '$.auth.limited.header': configDefaults.apiKeyHeader,
      '$.auth.mint.secretField': configDefaults.mintSecretField,
      '$.auth.queryParams': configDefaults.queryParams,
      '$.auth.jwt.algorithms': configDefaults.jwtAlgorithms,
      '$.nodes': configDefaults.nodes,
      '$.secretEndpoints': configDefaults.secretEndpoints,
      '$.rateLimit.keyedBy': configDefaults.rateLimitKeyedBy,
      '$.rateLimit.budget': configDefaults.rateLimitBudget,
      '$.webhooks.subscribe.body': { url: '{url}' },
      '$.webhooks.subscribe.secretField': configDefaults.webhookSecretField,
      '$.webhooks.actions': configDefaults.webhookActions,
      '$.webhooks.scheme': configDefaults.webhookScheme,
      '$.webhooks.signature.prefix': configDefaults.webhookSignaturePrefix,
      '$.webhooks.signature.encoding': configDefaults.webhookSignatureEncoding,
      '$.webhooks.signature.signed': configDefaults.webhookSignatureSigned,
      '$.webhooks.toleranceSeconds': configDefaults.webhookToleranceSeconds,
      '$.webhooks.deliveryWithinMs': configDefaults.webhookDeliveryWithinMs,
      '$.webhooks.slowAnswerMs': configDefaults.webhookSlowAnswerMs,
      '$.webhooks.quietMs': configDefaults.webhookQuietMs,
      '$.version.deprecated': configDefaults.versionList,
      '$.version.removed': configDefaults.versionList,
      '$.version.header': configDefaults.versionHeader,
      '$.version.queryParam': configDefaults.versionQueryParam,
      '$.version.renames': [],
      '#child.actions': configDefaults.actions,
    });
  });

  it('accepts a config that uses every property (keeps RawConfig and the schema together)', () => {
    const everything: Required<RawConfig> = {
      $schema: './schema/restprobe.config.schema.json',
      baseUrl: 'https://api.example.com',
      auth: {
        apiKey: { header: 'Authorization', value: { env: 'API_KEY' } },
        limited: { header: 'X-API-Key', value: { env: 'READONLY_KEY' }, scopes: ['read:*'] },
        session: { login: { path: '/v2/sessions', body: { api_key: { env: 'API_KEY' }, remember: false } }, logout: { path: '/v2/sessions/current' }, cookie: 'session' },
        mint: { path: '/v2/api-keys', body: { name: 'restprobe' }, secretField: 'key' },
        queryParams: ['apiKey'],
        oauth: {
          issuer: 'https://auth.example.com',
          authorizationEndpoint: 'https://auth.example.com/authorize',
          tokenEndpoint: 'https://auth.example.com/token',
          jwksUrl: 'https://auth.example.com/jwks',
          clientId: { env: 'CLIENT_ID' },
          clientSecret: { env: 'CLIENT_SECRET' },
          clientAuth: 'client_secret_post',
          scopes: ['read:*', 'write:*'],
          redirectUri: 'http://127.0.0.1/callback',
          login: { form: { fields: { username: 'probe', password: { env: 'PASSWORD' } } } },
        },
        jwt: { issuer: 'https://auth.example.com', audience: 'https://api.example.com', jwksUrl: 'https://auth.example.com/jwks', algorithms: ['RS256', 'ES256'], testSigningKey: { env: 'JWT_KEY' }, personalDataPatterns: { claims: ['email'], values: ['@'] } },
      },
      plainHttpUrl: 'http://api.example.com',
      openapi: 'openapi.yaml',
      collections: [
        {
          name: 'projects',
          path: '/v2/projects',
          itemPath: '/v2/projects/{id}',
          idField: 'id',
          create: { body: { name: 'p' } },
          replace: { body: { name: 'q' } },
          patch: { body: { name: 'r' } },
          invalid: { body: { name: 1 } },
          volatileFields: ['updated_at'],
          newId: 'none',
          pagination: { style: 'cursor', param: 'after', limitParam: 'limit', offsetParam: 'offset', sortParam: 'sort', maxLimit: 100 },
          filters: ['status'],
          sorts: ['name'],
          mark: { field: 'label' },
          personalised: true,
          actions: ['restoration'],
          children: [{ name: 'tasks', path: '/v2/projects/{id}/tasks', itemPath: '/v2/tasks/{id}', idField: 'id', create: { body: { title: 't' } }, actions: ['completion'] }],
        },
      ],
      nodes: ['https://node-b.example.com'],
      secretEndpoints: [{ method: 'POST', path: '/v2/api-keys', body: { name: 'restprobe' } }],
      http: { timeoutMs: 1000, maxBodyBytes: 1024, concurrency: 64 },
      safety: { readOnly: true, maxRequests: 1 },
      properties: { numRuns: 10000 },
      rateLimit: { keyedBy: 'apiKey', credential: { env: 'LIMIT_KEY' }, otherCredential: { env: 'LIMIT_KEY_2' }, keyHeader: 'X-API-Key', limit: 10, window: '1s', budget: 50, path: '/v2/projects' },
      webhooks: {
        subscribe: { path: '/v2/webhook-subscriptions', body: { url: '{url}' }, secretField: 'secret' },
        secret: { env: 'WEBHOOK_SECRET' },
        collection: 'projects',
        actions: ['create', 'update', 'delete'],
        scheme: 'github',
        publicUrl: 'https://hooks.example.com/forward',
        toleranceSeconds: 300,
        deliveryWithinMs: 1000,
        slowAnswerMs: 1000,
        quietMs: 1000,
      },
      version: { scheme: 'header', current: 'v2', deprecated: ['1'], removed: ['0'], header: 'Accept', vendor: 'example', queryParam: 'v', renames: [{ collection: 'projects', from: 'title', to: 'name' }] },
    };
    const validate = configValidator();
    expect(validate(everything), JSON.stringify(validate.errors)).toBe(true);
  });

  it('accepts the bundled reference config', () => {
    const config: unknown = JSON.parse(readFileSync(`${packageRoot()}/fixtures/reference.config.json`, 'utf8'));
    expect(configValidator()(config)).toBe(true);
  });
});

describe('the validator npm run build compiles ahead of time', () => {
  it('judges configs exactly as the one compiled at run time', async () => {
    const built = (await import(`${packageRoot()}/dist/src/config/config-validator.js`)) as { default: typeof configValidator extends () => infer V ? V : never };
    const precompiled = built.default;
    const runtime = configValidator();
    const cases: unknown[] = [
      JSON.parse(readFileSync(`${packageRoot()}/fixtures/reference.config.json`, 'utf8')),
      { baseUrl: 42 },
      { baseUrl: 'not a url', collections: [{ name: 'x', path: 'no-slash', pagination: { style: 'pages' } }], http: { timeoutMs: -1 } },
      { auth: { apiKey: { header: 'X-API-Key', value: 'literal-secret' } }, unknown: true },
    ];
    const shape = (v: typeof runtime) => (v.errors ?? []).map((e) => `${e.instancePath} ${e.keyword} ${e.message}`);
    for (const config of cases) {
      expect(precompiled(config), JSON.stringify(config)).toBe(runtime(config));
      expect(shape(precompiled)).toEqual(shape(runtime));
    }
  });
});
