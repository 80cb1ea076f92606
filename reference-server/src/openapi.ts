/**
 * The reference server's own OpenAPI 3.1 document, served at `GET /openapi.json` and
 * `GET /v2/openapi.json` without credentials: every path of `routes.ts` with its methods,
 * parameters, bodies, answers, headers and security, built from the same field rules,
 * listings, page limits and scopes the routes use, so the document cannot drift from them.
 *
 * Paths are written relative to the server URL `/v2`; the version layer (versions.ts) turns
 * that URL into `/v1` or `/` wherever the document is served under another version or
 * scheme, as it does every path in a body.
 */
import { apiKeysPath } from './api-keys.js';
import { eventListing, eventRules, eventsPath } from './events.js';
import { link } from './links.js';
import type { FilterParam, ListingSpec } from './listing.js';
import { memberListing, memberMaxLimit, memberRules, membersPath } from './members.js';
import { defaultLimit, maxLimit } from './pagination.js';
import { projectListing, projectRules, projectsPath } from './projects.js';
import { csvMediaType } from './csv.js';
import { mediaTypes } from './respond.js';
import { requiredScope } from './scopes.js';
import { currentSessionPath, sessionsPath } from './sessions.js';
import type { Fields } from './store.js';
import { taskListing, taskRules } from './tasks.js';
import type { FieldRules } from './validation.js';
import { currentVersion, deprecatedVersion, deprecationNoticePath } from './versions.js';
import { webhookSubscriptionsPath } from './webhooks.js';
import { authorizePath, tokenPath } from './oauth/metadata.js';

type Json = Record<string, unknown>;

/** Where the document is served: at the root, and under the version like every route. */
export const openApiPaths = ['/openapi.json', `/v${currentVersion}/openapi.json`] as const;

const versionBase = `/v${currentVersion}`;
/** A route path as the document writes it, relative to the server URL. */
const rel = (path: string): string => (path === versionBase ? '/' : path.slice(versionBase.length));
const ref = (kind: string, name: string): Json => ({ $ref: `#/components/${kind}/${name}` });
const json = (schema: Json, example?: unknown): Json => ({ [mediaTypes.json]: { schema, ...(example !== undefined && { example }) } });

/** A writable field as JSON Schema: text (optional text may be null), an enum, a boolean. */
function fieldSchema(rule: FieldRules[string], patch: boolean): Json {
  switch (rule.kind) {
    case 'text':
      return rule.required && !patch ? { type: 'string', minLength: 1, maxLength: rule.max } : { type: ['string', 'null'], maxLength: rule.max };
    case 'enum':
      return { type: patch ? ['string', 'null'] : 'string', enum: patch ? [...rule.values, null] : [...rule.values], default: rule.default };
    case 'boolean':
      return { type: patch ? ['boolean', 'null'] : 'boolean', default: rule.default };
  }
}

/** The body of a create or a full replacement (`patch`: a JSON merge patch, nothing required, null resets). */
function writeSchema(rules: FieldRules, patch = false, extra: Json = {}, required: readonly string[] = []): Json {
  const properties = { ...Object.fromEntries(Object.entries(rules).map(([name, rule]) => [name, fieldSchema(rule, patch)])), ...extra };
  const needed = patch ? [] : [...Object.entries(rules).filter(([, r]) => r.kind === 'text' && r.required).map(([n]) => n), ...required];
  return { type: 'object', properties, ...(needed.length > 0 && { required: needed }) };
}

const timestamps: Json = {
  created_at: { type: 'string', format: 'date-time', readOnly: true },
  updated_at: { type: 'string', format: 'date-time', readOnly: true, description: 'Changes on every write.' },
};

/** An item as answered: its id, its fields, the timestamps and, where it has them, its `_links`. */
function itemSchema(rules: FieldRules, links?: readonly string[], extra: Json = {}): Json {
  const fields = writeSchema(rules).properties as Json;
  const linkSchema = links === undefined ? {} : {
    _links: {
      type: 'object',
      readOnly: true,
      description: 'Links to the item and to the actions open in its state (an action is linked only while it can be taken).',
      properties: Object.fromEntries(links.map((l) => [l, { type: 'string', format: 'uri-reference' }])),
      required: ['self'],
    },
  };
  return {
    type: 'object',
    properties: { id: { type: 'string', readOnly: true }, ...extra, ...fields, ...timestamps, ...linkSchema },
    required: ['id', ...Object.keys(extra), ...Object.keys(fields), 'created_at', 'updated_at'],
  };
}

const pageSchemas = (item: string): Record<string, Json> => ({
  [`${item}Page`]: {
    type: 'object',
    description: 'A cursor page: the items, and the cursor to the next page (null on the last).',
    properties: { data: { type: 'array', items: ref('schemas', item) }, next_cursor: { type: ['string', 'null'] } },
    required: ['data', 'next_cursor'],
  },
  [`${item}OffsetPage`]: {
    type: 'object',
    description: 'A numbered page: the items, and how many match in all.',
    properties: { data: { type: 'array', items: ref('schemas', item) }, total: { type: 'integer', minimum: 0 } },
    required: ['data', 'total'],
  },
});

/** The query parameters of a listing: page selection, its filters, and its sorts. */
function listParameters<D extends Fields>(spec: ListingSpec<D>, style: 'cursor' | 'offset' | 'page', cap = maxLimit): Json[] {
  const sorts = spec.sorts.map((s) => s.name);
  const limit = (name: string): Json => ({ name, in: 'query', description: `Items per page (default ${defaultLimit}); more than ${cap} is refused with 400.`, schema: { type: 'integer', minimum: 1, maximum: cap, default: defaultLimit } });
  const filter = (f: FilterParam<D>): Json => ({ name: f.name, in: 'query', description: `Only items whose ${f.name} equals this.`, schema: f.values === undefined ? { type: 'string' } : { type: 'string', enum: [...f.values] } });
  const paging: Json[] =
    style === 'cursor'
      ? [limit('limit'), { name: 'cursor', in: 'query', description: 'The next_cursor of the previous page, as given; valid only with the same filters and sort.', schema: { type: 'string' } }]
      : style === 'offset'
        ? [limit('limit'), { name: 'offset', in: 'query', description: 'How many matching items to pass over.', schema: { type: 'integer', minimum: 0, default: 0 } }]
        : [limit('per_page'), { name: 'page', in: 'query', description: 'The page number, from 1.', schema: { type: 'integer', minimum: 1, default: 1 } }];
  const sorting: Json[] =
    style === 'page'
      ? [
          { name: 'sort', in: 'query', description: 'The field to sort on.', schema: { type: 'string', enum: sorts, default: sorts[0] } },
          { name: 'order', in: 'query', description: 'The direction of the sort.', schema: { type: 'string', enum: ['asc', 'desc'], default: 'asc' } },
        ]
      : [{ name: 'sort', in: 'query', description: 'The field to sort on; a leading "-" sorts descending. Ties keep creation order.', schema: { type: 'string', enum: sorts.flatMap((s) => [s, `-${s}`]), default: sorts[0] } }];
  return [...paging, ...spec.filters.map(filter), ...sorting];
}

/** The credentials an operation takes, with the scope it needs (scopes.ts). */
function security(method: string, path: string, open = false): Json[] {
  if (open) return [];
  const scope = requiredScope(method, path);
  return [{ apiKey: [] }, { bearer: [] }, { oauth: scope === undefined ? [] : [scope] }, { session: [] }];
}

/** The problem answers every credentialed operation may give, by the stage of the pipeline (app.ts) that sends them. */
function problems(method: string, hasBody: boolean, item: boolean): Json {
  // 503: a client that keeps sending while rate limited is shed (rate-limit.ts).
  const answers: Json = { '401': ref('responses', 'Unauthorized'), '403': ref('responses', 'Forbidden'), '406': ref('responses', 'NotAcceptable'), '429': ref('responses', 'TooManyRequests'), '503': ref('responses', 'Overloaded') };
  if (item) answers['404'] = ref('responses', 'NotFound');
  if (hasBody) Object.assign(answers, { '400': ref('responses', 'BadRequest'), '413': ref('responses', 'ContentTooLarge'), '415': ref('responses', 'UnsupportedMediaType'), '422': ref('responses', 'ValidationFailed') });
  if (item && method !== 'GET') answers['412'] = ref('responses', 'PreconditionFailed');
  return answers;
}

interface OperationSpec {
  readonly summary: string;
  readonly parameters?: readonly Json[];
  readonly body?: Json;
  readonly responses: Json;
  readonly open?: boolean;
  readonly extra?: Json;
}

function operation(method: string, path: string, spec: OperationSpec): Json {
  const item = path.includes('{');
  return {
    summary: spec.summary,
    operationId: `${method.toLowerCase()}${path.replace(/\{[^}]+\}/g, 'Item').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    ...(spec.parameters !== undefined && spec.parameters.length > 0 && { parameters: spec.parameters }),
    ...(spec.body !== undefined && { requestBody: { required: true, content: spec.body } }),
    responses: { ...spec.responses, ...(spec.open === true ? {} : problems(method, spec.body !== undefined, item)) },
    security: security(method, path, spec.open),
    ...spec.extra,
  };
}

const idParameter: Json = { name: 'id', in: 'path', required: true, description: 'The item\'s id: a UUID (an integer under serve --reuse-ids).', schema: { type: 'string' } };
const ifMatch: Json = ref('parameters', 'IfMatch');
const ifNoneMatch: Json = ref('parameters', 'IfNoneMatch');
const idempotencyKey: Json = ref('parameters', 'IdempotencyKey');

const itemAnswer = (schema: string, description: string): Json => ({ description, headers: { ETag: ref('headers', 'ETag'), 'Cache-Control': ref('headers', 'CacheControlRead'), Vary: ref('headers', 'Vary') }, content: json(ref('schemas', schema)) });
const created = (schema: string, description: string, example?: unknown): Json => ({ description, headers: { Location: ref('headers', 'Location'), ETag: ref('headers', 'ETag') }, content: json(ref('schemas', schema), example) });
const updated = (schema: string): Json => ({ description: 'The item as it now is.', headers: { ETag: ref('headers', 'ETag') }, content: json(ref('schemas', schema)) });
const noContent = (description: string): Json => ({ description });

/** A collection whose items live at `<path>/{id}`: listing, create, read, replace, merge patch, delete. */
function collectionPaths(path: string, noun: string, schema: string, options: { list: Json[]; page: string; create: unknown; replace: unknown; patch: unknown; itemMethods?: readonly string[] }): Json {
  const itemPath = `${path}/{id}`;
  const methods = options.itemMethods ?? ['GET', 'PUT', 'PATCH', 'DELETE'];
  const item: Json = { parameters: [idParameter] };
  if (methods.includes('GET')) item['get'] = operation('GET', itemPath, { summary: `Read a ${noun}`, parameters: [ifNoneMatch], responses: { '200': itemAnswer(schema, `The ${noun}.`), '304': noContent('Not modified: the ETag in If-None-Match is current.') } });
  if (methods.includes('PUT')) item['put'] = operation('PUT', itemPath, { summary: `Replace a ${noun} (fields left out reset to their defaults), or create it under this id`, parameters: [ifMatch, ifNoneMatch], body: json(ref('schemas', `${schema}Write`), options.replace), responses: { '200': updated(schema), '201': created(schema, `Created under the id in the path.`) } });
  if (methods.includes('PATCH')) {
    item['patch'] = operation('PATCH', itemPath, {
      summary: `Change some fields of a ${noun} (JSON merge patch: null resets a field)`,
      parameters: [ifMatch],
      body: { [mediaTypes.mergePatch]: { schema: ref('schemas', `${schema}Patch`), example: options.patch }, ...json(ref('schemas', `${schema}Patch`), options.patch) },
      responses: { '200': updated(schema) },
    });
  }
  if (methods.includes('DELETE')) item['delete'] = operation('DELETE', itemPath, { summary: `Delete a ${noun}`, parameters: [ifMatch], responses: { '204': noContent('Deleted; a repeat answers 404.') } });
  return {
    [rel(path)]: {
      get: operation('GET', path, { summary: `List ${noun}s`, parameters: options.list, responses: { '400': ref('responses', 'BadRequest'), '200': { description: 'One page.', headers: { 'Cache-Control': ref('headers', 'CacheControlRead'), Vary: ref('headers', 'Vary') }, content: { ...json(ref('schemas', options.page)), [csvMediaType]: { schema: { type: 'string', description: `The page's ${noun}s as CSV (RFC 4180): a header row of their scalar fields, then a row each. Chosen by an Accept that prefers text/csv.` } } } } } }),
      post: operation('POST', path, { summary: `Create a ${noun} (the server chooses its id)`, parameters: [idempotencyKey], body: json(ref('schemas', `${schema}Write`), options.create), responses: { '201': created(schema, `The new ${noun}; Location names it.`) } }),
    },
    [rel(itemPath)]: item,
  };
}

/** A noun action on an item: POST takes it (201, then 200 with the same record), GET reads the record (404 before). */
function actionPaths(itemPath: string, noun: string, record: Json, closed?: string): Json {
  const path = `${itemPath}/${noun}`;
  const answer = (description: string): Json => ({ description, content: json(record) });
  return {
    [rel(path)]: {
      parameters: [idParameter],
      get: operation('GET', path, { summary: `Read the ${noun} record (404 until it is taken)`, responses: { '200': answer(`The ${noun}.`) } }),
      post: operation('POST', path, {
        summary: `Take the ${noun} (no body needed; an empty JSON object is accepted)`,
        // Required: the one header of the document a client is promised beyond the conventions' own.
        responses: { '201': { ...answer(`Taken; Location names the record.`), headers: { Location: { description: 'The path of the record.', required: true, schema: { type: 'string', format: 'uri-reference' } } } }, '200': answer('Taken before: the same record.'), ...(closed === undefined ? {} : { '409': { ...ref('responses', 'Conflict'), description: closed } }) },
        extra: { requestBody: { required: false, content: json({ type: 'object' }) } },
      }),
    },
  };
}

const problemSchema: Json = {
  type: 'object',
  description: 'RFC 9457 problem details.',
  properties: {
    type: { type: 'string', format: 'uri-reference' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    errors: { type: 'array', items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } }, required: ['field', 'message'] } },
  },
  required: ['type', 'title', 'status', 'detail'],
};

const problem = (description: string, headers: Json = {}): Json => ({ description, headers, content: { [mediaTypes.problem]: { schema: ref('schemas', 'Problem') } } });

const secretHeaders: Json = { 'Cache-Control': ref('headers', 'CacheControlSecret'), Pragma: { description: 'no-cache, for HTTP/1.0 caches.', schema: { type: 'string', const: 'no-cache' } } };

function components(): Json {
  const header = (description: string, schema: Json = { type: 'string' }): Json => ({ description, schema });
  return {
    securitySchemes: {
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key (restprobe serve prints RESTPROBE_API_KEY); minted ones come from POST /api-keys.' },
      bearer: { type: 'http', scheme: 'bearer', description: 'An API key, or an access token of the authorization server, as `Authorization: Bearer <value>`.' },
      oauth: {
        type: 'oauth2',
        description: 'The authorization server beside the API (RFC 8414 metadata at /.well-known/oauth-authorization-server); tokens are JWTs carrying the scopes.',
        flows: {
          clientCredentials: { tokenUrl: tokenPath, scopes: scopeDescriptions() },
          authorizationCode: { authorizationUrl: authorizePath, tokenUrl: tokenPath, refreshUrl: tokenPath, scopes: scopeDescriptions() },
        },
      },
      session: { type: 'apiKey', in: 'cookie', name: 'session', description: 'The session cookie POST /sessions sets (Secure, HttpOnly, SameSite=Lax).' },
    },
    parameters: {
      IfMatch: { name: 'If-Match', in: 'header', description: 'Apply only if the item\'s ETag is one of these (412 otherwise).', schema: { type: 'string' } },
      IfNoneMatch: { name: 'If-None-Match', in: 'header', description: 'On GET: 304 if the ETag matches. On PUT: `*` creates only.', schema: { type: 'string' } },
      IdempotencyKey: { name: 'Idempotency-Key', in: 'header', description: 'A retry with the same key and body gets the stored answer and creates nothing; the same key with another body is refused with 422.', schema: { type: 'string', maxLength: 255 } },
    },
    headers: {
      ETag: header('The representation\'s strong validator.'),
      Location: header('The path of the created resource.', { type: 'string', format: 'uri-reference' }),
      CacheControlRead: header('A credentialed read: private, no-cache (revalidate with the ETag).', { type: 'string', const: 'private, no-cache' }),
      CacheControlSecret: header('The answer holds a secret: no cache may store it.', { type: 'string', const: 'no-store' }),
      Vary: header('Accept: the content was negotiated.'),
      WWWAuthenticate: header('The Bearer challenge (RFC 6750 §3).'),
      RetryAfter: header('Seconds (or an HTTP-date under serve --retry-after http-date) to wait.'),
      RateLimit: header('The quota left (draft-ietf-httpapi-ratelimit-headers-10).'),
      RateLimitPolicy: header('The quota policy (draft-ietf-httpapi-ratelimit-headers-10).'),
      Deprecation: header('On /v1: when it was deprecated (RFC 9745 sf-date).'),
      Sunset: header('On /v1: when it goes (RFC 8594 HTTP-date).'),
    },
    responses: {
      BadRequest: problem('Malformed JSON, or invalid query parameters (errors names each).'),
      Unauthorized: problem('No valid credential.', { 'WWW-Authenticate': ref('headers', 'WWWAuthenticate') }),
      Forbidden: problem('The credential lacks the scope.', { 'WWW-Authenticate': ref('headers', 'WWWAuthenticate') }),
      NotFound: problem('No such item.'),
      NotAcceptable: problem('Accept admits no application/json.'),
      Conflict: problem('The action is closed in the item\'s state.'),
      PreconditionFailed: problem('If-Match or If-None-Match failed.'),
      ContentTooLarge: problem('The body is too large.'),
      UnsupportedMediaType: problem('The body is not in a media type the method takes (Accept-Post, Accept-Patch say which).'),
      ValidationFailed: problem('The body is JSON but not a valid item: errors names each field.'),
      TooManyRequests: problem('Rate limited.', { 'Retry-After': ref('headers', 'RetryAfter'), RateLimit: ref('headers', 'RateLimit'), 'RateLimit-Policy': ref('headers', 'RateLimitPolicy') }),
      Overloaded: problem('Shed: this client kept sending while rate limited, until the window ends.', { 'Retry-After': ref('headers', 'RetryAfter') }),
    },
    schemas: {
      Problem: problemSchema,
      Project: itemSchema(projectRules, ['self', 'restoration']),
      ProjectWrite: writeSchema(projectRules),
      ProjectPatch: writeSchema(projectRules, true),
      ...pageSchemas('Project'),
      Task: itemSchema(taskRules, ['self', 'project', 'completion'], { project_id: { type: 'string' } }),
      TaskWrite: writeSchema(taskRules, false, { project_id: { type: 'string', description: 'Required by PUT-create; a POST under a project takes the path\'s.' } }),
      TaskPatch: writeSchema(taskRules, true, { project_id: { type: 'string', description: 'Moves the task to another project.' } }),
      ...pageSchemas('Task'),
      Member: itemSchema(memberRules),
      MemberWrite: writeSchema(memberRules),
      MemberPatch: writeSchema(memberRules, true),
      ...pageSchemas('Member'),
      Event: itemSchema(eventRules),
      EventWrite: writeSchema(eventRules),
      ...pageSchemas('Event'),
      ApiKey: {
        type: 'object',
        properties: { id: { type: 'string' }, name: { type: 'string' }, prefix: { type: 'string', description: 'The first characters, to tell keys apart.' }, scopes: { type: 'array', items: { type: 'string' } }, created_at: { type: 'string', format: 'date-time' } },
        required: ['id', 'name', 'prefix', 'scopes', 'created_at'],
      },
      WebhookSubscription: {
        type: 'object',
        properties: { id: { type: 'string', readOnly: true }, url: { type: 'string', format: 'uri' }, events: { type: 'array', items: { type: 'string', pattern: '^(\\*|[a-z]+\\.[a-z]+)$' }, minItems: 1 }, created_at: { type: 'string', format: 'date-time', readOnly: true } },
        required: ['id', 'url', 'events', 'created_at'],
      },
    },
  };
}

/** The scopes a token may carry: each action on each resource of the API, and the wildcards. */
function scopeDescriptions(): Record<string, string> {
  const resources = [projectsPath, '/v2/tasks', membersPath, eventsPath, apiKeysPath, webhookSubscriptionsPath, sessionsPath].map((p) => p.slice(versionBase.length + 1));
  return {
    'read:*': 'Read everything.',
    'write:*': 'Write everything (write does not imply read).',
    ...Object.fromEntries(resources.flatMap((r) => [[`read:${r}`, `Read ${r}.`], [`write:${r}`, `Write ${r}.`]])),
  };
}

function paths(): Json {
  const projectItem = `${projectsPath}/{id}`;
  const taskItem = '/v2/tasks/{id}';
  const tasksOf = `${projectItem}/tasks`;
  const subscriptionItem = `${webhookSubscriptionsPath}/{id}`;
  return {
    [rel(versionBase)]: { get: operation('GET', versionBase, { summary: 'The API index: links to the collections', responses: { '200': { description: 'Links.', content: json({ type: 'object', properties: { _links: { type: 'object', additionalProperties: { type: 'string' } } } }) } } }) },
    ...collectionPaths(projectsPath, 'project', 'Project', {
      list: listParameters(projectListing, 'cursor'),
      page: 'ProjectPage',
      create: { name: 'Apollo', description: 'Crewed flights to the Moon', status: 'archived' },
      replace: { name: 'Apollo 11' },
      patch: { name: 'Apollo 12' },
    }),
    ...actionPaths(projectItem, 'restoration', { type: 'object', properties: { project_id: { type: 'string' }, restored_at: { type: 'string', format: 'date-time' } } }, 'The project is not archived: there is nothing to restore.'),
    [rel(tasksOf)]: {
      parameters: [{ ...idParameter, description: 'The project\'s id.' }],
      get: operation('GET', tasksOf, { summary: 'List a project\'s tasks', parameters: listParameters(taskListing(''), 'cursor'), responses: { '200': { description: 'One page.', content: json(ref('schemas', 'TaskPage')) }, '400': ref('responses', 'BadRequest'), '404': ref('responses', 'NotFound') } }),
      post: operation('POST', tasksOf, { summary: 'Create a task in a project; it is then addressed at /tasks/{id}', parameters: [idempotencyKey], body: json(ref('schemas', 'TaskWrite'), { title: 'Write the report' }), responses: { '201': created('Task', 'The new task; Location names it at the top level.') } }),
    },
    [rel(taskItem)]: (collectionPaths('/v2/tasks', 'task', 'Task', { list: [], page: 'TaskPage', create: undefined, replace: { title: 'Write the final report' }, patch: { done: true } }) as Record<string, Json>)[rel(taskItem)],
    ...actionPaths(taskItem, 'completion', { type: 'object', properties: { task_id: { type: 'string' }, completed_at: { type: 'string', format: 'date-time' } } }),
    ...collectionPaths(membersPath, 'member', 'Member', { list: listParameters(memberListing, 'offset', memberMaxLimit), page: 'MemberOffsetPage', create: { name: 'Ada Lovelace', role: 'editor' }, replace: { name: 'Ada King' }, patch: { role: 'owner' } }),
    ...collectionPaths(eventsPath, 'event', 'Event', { list: listParameters(eventListing, 'page'), page: 'EventOffsetPage', create: { kind: 'deploy.finished', note: 'release 2.4.0' }, replace: undefined, patch: undefined, itemMethods: ['GET'] }),
    [rel(apiKeysPath)]: {
      post: operation('POST', apiKeysPath, {
        summary: 'Mint an API key: the key is in this answer only',
        body: json({ type: 'object', properties: { name: { type: 'string', minLength: 1, maxLength: 100 }, scopes: { type: 'array', items: { type: 'string' }, maxItems: 32 } }, required: ['name'] }, { name: 'CI pipeline' }),
        responses: { '201': { description: 'The key, shown once.', headers: { Location: ref('headers', 'Location'), ...secretHeaders }, content: json({ allOf: [ref('schemas', 'ApiKey'), { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] }] }) } },
      }),
    },
    [rel(`${apiKeysPath}/{id}`)]: {
      parameters: [idParameter],
      get: operation('GET', `${apiKeysPath}/{id}`, { summary: 'Read a key\'s record (never the key)', responses: { '200': { description: 'The record.', content: json(ref('schemas', 'ApiKey')) } } }),
      delete: operation('DELETE', `${apiKeysPath}/{id}`, { summary: 'Revoke a key at once', responses: { '204': noContent('Revoked.') } }),
    },
    [rel(sessionsPath)]: {
      post: operation('POST', sessionsPath, {
        summary: 'Log in with an API key: the session id comes in a cookie',
        open: true,
        body: json({ type: 'object', properties: { api_key: { type: 'string', minLength: 1, writeOnly: true } }, required: ['api_key'] }),
        responses: {
          '201': { description: 'Logged in.', headers: { 'Set-Cookie': { description: 'session=<id>; Path=/; Secure; HttpOnly; SameSite=Lax', schema: { type: 'string' } }, Location: ref('headers', 'Location'), ...secretHeaders }, content: json({ type: 'object', properties: { scopes: { type: 'array', items: { type: 'string' } }, created_at: { type: 'string', format: 'date-time' } } }) },
          '401': ref('responses', 'Unauthorized'),
          '422': ref('responses', 'ValidationFailed'),
        },
      }),
    },
    [rel(currentSessionPath)]: {
      get: operation('GET', currentSessionPath, { summary: 'The session of this request', responses: { '200': { description: 'Its scopes.', content: json({ type: 'object', properties: { scopes: { type: 'array', items: { type: 'string' } }, created_at: { type: ['string', 'null'] } } }) }, '404': ref('responses', 'NotFound') } }),
      delete: operation('DELETE', currentSessionPath, { summary: 'Log out: the cookie stops working at once', responses: { '204': noContent('Logged out.'), '404': ref('responses', 'NotFound') } }),
    },
    [rel(webhookSubscriptionsPath)]: {
      get: operation('GET', webhookSubscriptionsPath, { summary: 'List webhook subscriptions', responses: { '200': { description: 'Every subscription.', content: json({ type: 'object', properties: { data: { type: 'array', items: ref('schemas', 'WebhookSubscription') }, next_cursor: { type: 'null' } }, required: ['data', 'next_cursor'] }) } } }),
      post: operation('POST', webhookSubscriptionsPath, {
        summary: 'Subscribe a URL to events, signed per Standard Webhooks; the signing secret is in this answer only',
        body: json({ type: 'object', properties: { url: { type: 'string', format: 'uri' }, events: { type: 'array', items: { type: 'string' }, minItems: 1, default: ['*'] } }, required: ['url'] }, { url: 'http://127.0.0.1:9/webhooks', events: ['project.created'] }),
        responses: { '201': { description: 'Subscribed; the secret is shown once.', headers: { Location: ref('headers', 'Location'), ...secretHeaders }, content: json({ allOf: [ref('schemas', 'WebhookSubscription'), { type: 'object', properties: { secret: { type: 'string', description: 'whsec_ and base64: the HMAC key.' } }, required: ['secret'] }] }) } },
        extra: { callbacks: { event: { '{$request.body#/url}': { post: { summary: 'An event (project.created, project.updated, project.deleted, project.restored, task.created, task.updated, task.deleted, task.completed), retried with backoff until a 2xx', requestBody: { required: true, content: json({ type: 'object', properties: { type: { type: 'string' }, timestamp: { type: 'string', format: 'date-time' }, data: { type: 'object' } } }) }, responses: { '204': { description: 'Received.' } } } } } } },
      }),
    },
    [rel(subscriptionItem)]: {
      parameters: [idParameter],
      get: operation('GET', subscriptionItem, { summary: 'Read a subscription (never its secret)', responses: { '200': { description: 'The subscription.', content: json(ref('schemas', 'WebhookSubscription')) } } }),
      delete: operation('DELETE', subscriptionItem, { summary: 'Unsubscribe: no delivery after this', responses: { '204': noContent('Unsubscribed.') } }),
    },
    [rel(deprecationNoticePath)]: {
      get: operation('GET', deprecationNoticePath, { summary: `The deprecation notice of /v${deprecatedVersion} (its Link rel="deprecation")`, responses: { '200': { description: 'When it was deprecated, when it goes, what was renamed.', content: json({ type: 'object' }) } } }),
    },
    [rel(openApiPaths[1])]: {
      get: operation('GET', openApiPaths[1], { summary: 'This document (also at /openapi.json)', open: true, responses: { '200': { description: 'OpenAPI 3.1.', content: json({ type: 'object' }) } } }),
    },
  };
}

/**
 * The document. Built once per server; it depends on nothing that changes.
 *
 * @example
 * ```ts
 * const doc = openApiDocument();
 * Object.keys(doc.paths); // ['/', '/projects', '/projects/{id}', …]
 * ```
 */
export function openApiDocument(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'restprobe reference API',
      version: `${currentVersion}.0.0`,
      description:
        'Projects and their tasks, members and events, following the REST API contract conventions. Every path also answers HEAD (with GET) and OPTIONS (Allow, Accept-Post, Accept-Patch); a method a path does not take gets 405 with Allow. ' +
        `Errors are application/problem+json. /v${deprecatedVersion} is deprecated (Deprecation, Sunset and a rel="deprecation" Link; projects also carry title, the old name of name); /v0 is gone (410).`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      { url: link(versionBase), description: 'the current version' },
      { url: `/v${deprecatedVersion}`, description: 'deprecated' },
    ],
    security: [{ apiKey: [] }, { bearer: [] }, { oauth: [] }, { session: [] }],
    paths: paths(),
    components: components(),
  };
}
