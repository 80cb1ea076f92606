/**
 * Stand-in: LoopBack 4's Todo example (`lb4 example todo`, @loopback/example-todo,
 * TodoController over a DefaultCrudRepository on the memory connector), its routes and the
 * @loopback/rest defaults they answer with:
 * - `POST /todos` → 200 with the created Todo (the controller's response spec says 200; no
 *   Location); body schema `NewTodo` (id excluded), strict model, so an unknown property is a 422;
 * - `GET /todos?filter=` → a bare array, every item unless the filter says `limit` (no default
 *   page size, no cap); `filter` as JSON or as `filter[limit]`, `filter[skip]`,
 *   `filter[where][field]`, `filter[order]` (qs-style); `GET /todos/count` → `{ "count": n }`;
 *   `PATCH /todos?where=` bulk update → `{ "count": n }`;
 * - `GET/PUT/PATCH/DELETE /todos/{id}`: 200 / 204 / 204 / 204; integer ids (memory connector);
 *   an id that is not an integer: 400 INVALID_PARAMETER_VALUE; a missing one: 404 ENTITY_NOT_FOUND
 *   (PUT too: replaceById creates nothing);
 * - errors from strong-error-handler (production mode) as `application/json; charset=utf-8`:
 *   `{ "error": { statusCode, name, message, code?, details? } }`; AJV validation failures
 *   422 `UnprocessableEntityError` / `VALIDATION_FAILED` with `details` of `{ path, code,
 *   message, info }`; an unknown route (path or verb: LoopBack has no 405): 404 NotFoundError
 *   `Endpoint "/x" not found.`; a Content-Type the operation does not declare: 415
 *   UNSUPPORTED_MEDIA_TYPE; malformed JSON: 400;
 * - the RestServer's default CORS (`origin: '*'`, `credentials: true`,
 *   `optionsSuccessStatus: 204`, `preflightContinue: false`): every answer carries
 *   Access-Control-Allow-Origin, and every OPTIONS is answered 204 by the cors middleware,
 *   with Access-Control-Allow-Methods but no Allow;
 * - HEAD: LoopBack's routing table matches the verb exactly and the example declares no HEAD
 *   route, so HEAD is answered like any unknown route (404). (Reproduced from the routing
 *   table's exact-verb match; not checked against a running LoopBack.)
 * - no authentication (the example has none), no ETag, no Cache-Control, Accept ignored.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from '../loopback.js';
import { isObject, mediaType, readBody, sendJson, type FrameworkStandIn } from './kit.js';

interface Todo {
  id: number;
  title: string;
  desc?: string;
  isComplete?: boolean;
  tag?: unknown;
}

interface Detail {
  path: string;
  code: string;
  message: string;
  info: Record<string, unknown>;
}

const props: Record<string, 'string' | 'boolean' | 'number' | 'any'> = { id: 'number', title: 'string', desc: 'string', isComplete: 'boolean', remindAtAddress: 'string', remindAtGeo: 'string', tag: 'any' };

/** AJV over the model's JSON schema: `NewTodo` (no id) for POST, `Todo` for PUT, `TodoPartial` for PATCH. */
function validate(body: Record<string, unknown>, kind: 'new' | 'full' | 'partial'): Detail[] {
  const details: Detail[] = [];
  if (kind !== 'partial' && body['title'] === undefined) details.push({ path: '', code: 'required', message: "must have required property 'title'", info: { missingProperty: 'title' } });
  for (const [k, v] of Object.entries(body)) {
    const type = props[k];
    if (type === undefined || (k === 'id' && kind === 'new')) details.push({ path: '', code: 'additionalProperties', message: 'must NOT have additional properties', info: { additionalProperty: k } });
    else if (type !== 'any' && typeof v !== type) details.push({ path: `/${k}`, code: 'type', message: `must be ${type}`, info: { type } });
  }
  return details;
}

const error = (statusCode: number, name: string, message: string, extra: Record<string, unknown> = {}) => ({ error: { statusCode, name, message, ...extra } });

export async function startLoopback4(): Promise<FrameworkStandIn> {
  const todos = new Map<number, Todo>();
  let nextId = 1;
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-credentials': 'true' };
  const send = (req: IncomingMessage, res: ServerResponse, status: number, body?: unknown) => sendJson(req, res, status, body, cors, status >= 400 ? 'application/json; charset=utf-8' : 'application/json');
  const fail = (req: IncomingMessage, res: ServerResponse, status: number, name: string, message: string, extra?: Record<string, unknown>) => send(req, res, status, error(status, name, message, extra));

  /** `filter` from `?filter={json}` or `?filter[limit]=…` (qs); undefined when it is not valid. */
  const filterOf = (q: URLSearchParams): { where: Record<string, unknown>; limit?: number; skip: number; order?: string } | undefined => {
    let raw: Record<string, unknown> = {};
    const json = q.get('filter');
    if (json !== null) {
      try {
        const parsed: unknown = JSON.parse(json);
        if (!isObject(parsed)) return undefined;
        raw = parsed;
      } catch {
        return undefined;
      }
    }
    const where: Record<string, unknown> = isObject(raw['where']) ? { ...raw['where'] } : {};
    for (const [k, v] of q) {
      const m = /^filter\[(\w+)\](?:\[(\w+)\])?$/.exec(k);
      if (!m) continue;
      if (m[1] === 'where' && m[2]) where[m[2]] = v;
      else if (m[1]) raw[m[1]] = v;
    }
    const num = (v: unknown) => (v === undefined ? undefined : Number(v));
    const limit = num(raw['limit']);
    const skip = num(raw['skip'] ?? raw['offset']) ?? 0;
    if ((limit !== undefined && (!Number.isInteger(limit) || limit < 0)) || !Number.isInteger(skip) || skip < 0) return undefined;
    return { where, ...(limit !== undefined && { limit }), skip, ...(typeof raw['order'] === 'string' && { order: raw['order'] }) };
  };
  /** `?where[field]=x` (the count and bulk-update routes' parameter) read as `filter[where][field]`. */
  const whereAsFilter = (q: URLSearchParams) => new URLSearchParams([...q].map(([k, v]): [string, string] => [k.replace(/^where/, 'filter[where]'), v]));
  const matches = (t: Todo, where: Record<string, unknown>) => Object.entries(where).every(([k, v]) => String((t as unknown as Record<string, unknown>)[k]) === String(v));

  /** The JSON body, or the error already answered. */
  const bodyOf = async (req: IncomingMessage, res: ServerResponse): Promise<Record<string, unknown> | undefined> => {
    const text = await readBody(req);
    const type = mediaType(req) || 'application/json';
    if (type !== 'application/json') {
      fail(req, res, 415, 'UnsupportedMediaTypeError', `Content-type ${type} does not match [application/json].`, { code: 'UNSUPPORTED_MEDIA_TYPE' });
      return undefined;
    }
    if (text.trim() === '') {
      fail(req, res, 400, 'BadRequestError', 'Request body is required', { code: 'MISSING_REQUIRED_PARAMETER' });
      return undefined;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      fail(req, res, 400, 'SyntaxError', (err as Error).message);
      return undefined;
    }
    if (!isObject(parsed)) {
      fail(req, res, 422, 'UnprocessableEntityError', 'The request body is invalid. See error object `details` property for more info.', { code: 'VALIDATION_FAILED', details: [{ path: '', code: 'type', message: 'must be object', info: { type: 'object' } }] });
      return undefined;
    }
    return parsed;
  };
  const invalid = (req: IncomingMessage, res: ServerResponse, details: Detail[]) =>
    fail(req, res, 422, 'UnprocessableEntityError', 'The request body is invalid. See error object `details` property for more info.', { code: 'VALIDATION_FAILED', details });

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const method = req.method ?? 'GET';
      const notFound = () => fail(req, res, 404, 'NotFoundError', `Endpoint "${url.pathname}" not found.`);
      if (method === 'OPTIONS') {
        res.writeHead(204, { ...cors, 'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE', 'access-control-max-age': '86400', vary: 'Access-Control-Request-Headers', 'content-length': '0' });
        return res.end();
      }
      if (url.pathname === '/todos/count' && method === 'GET') {
        const filter = filterOf(new URLSearchParams(whereAsFilter(url.searchParams)));
        return send(req, res, 200, { count: [...todos.values()].filter((t) => matches(t, filter?.where ?? {})).length });
      }
      if (url.pathname === '/todos') {
        if (method === 'POST') {
          const body = await bodyOf(req, res);
          if (!body) return;
          const details = validate(body, 'new');
          if (details.length > 0) return invalid(req, res, details);
          const todo = { ...body, id: nextId++ } as Todo;
          todos.set(todo.id, todo);
          return send(req, res, 200, todo);
        }
        if (method === 'GET') {
          const filter = filterOf(url.searchParams);
          if (!filter) return fail(req, res, 400, 'BadRequestError', `Invalid data ${JSON.stringify(url.searchParams.get('filter'))} for parameter "filter".`, { code: 'INVALID_PARAMETER_VALUE' });
          let list = [...todos.values()].filter((t) => matches(t, filter.where));
          if (filter.order) {
            const [field, dir] = filter.order.split(' ');
            list.sort((a, b) => String((a as unknown as Record<string, unknown>)[field!]).localeCompare(String((b as unknown as Record<string, unknown>)[field!])) * (dir === 'DESC' ? -1 : 1));
          }
          list = list.slice(filter.skip, filter.limit === undefined ? undefined : filter.skip + filter.limit);
          return send(req, res, 200, list);
        }
        if (method === 'PATCH') {
          const body = await bodyOf(req, res);
          if (!body) return;
          const details = validate(body, 'partial');
          if (details.length > 0) return invalid(req, res, details);
          const where = filterOf(new URLSearchParams(whereAsFilter(url.searchParams)))?.where ?? {};
          let count = 0;
          for (const t of todos.values()) if (matches(t, where)) (Object.assign(t, body), count++);
          return send(req, res, 200, { count });
        }
        return notFound();
      }
      const m = /^\/todos\/([^/]+)$/.exec(url.pathname);
      if (m && ['GET', 'PUT', 'PATCH', 'DELETE'].includes(method)) {
        let segment: string;
        try {
          segment = decodeURIComponent(m[1]!);
        } catch {
          // Express (under LoopBack's RestServer) refuses a path it cannot decode.
          return fail(req, res, 400, 'BadRequestError', `Failed to decode param '${m[1]}'`);
        }
        if (!/^-?\d+$/.test(segment)) return fail(req, res, 400, 'BadRequestError', `Invalid data ${JSON.stringify(segment)} for parameter "id".`, { code: 'INVALID_PARAMETER_VALUE' });
        const id = Number(m[1]);
        const todo = todos.get(id);
        const missing = () => fail(req, res, 404, 'Error', `Entity not found: Todo with id ${id}`, { code: 'ENTITY_NOT_FOUND' });
        if (method === 'GET') return todo ? send(req, res, 200, todo) : missing();
        if (method === 'DELETE') return todos.delete(id) ? send(req, res, 204) : missing();
        const body = await bodyOf(req, res);
        if (!body) return;
        const details = validate(body, method === 'PUT' ? 'full' : 'partial');
        if (details.length > 0) return invalid(req, res, details);
        if (!todo) return missing();
        todos.set(id, method === 'PUT' ? ({ ...body, id } as Todo) : { ...todo, ...body, id });
        return send(req, res, 204);
      }
      return notFound();
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    });
  });
  const { url, close } = await listenOnLoopback(server);
  return {
    url,
    env: {},
    close,
    // What a new user writes for the example: no credentials (the example has none), integer
    // ids, the `filter[limit]`/`filter[skip]` paging LoopBack documents; no `filters`, since
    // LoopBack filters with `filter[where][field]`, not `?field=`; no cap (it has none).
    config: {
      collections: [
        {
          name: 'todos',
          path: '/todos',
          idType: 'integer',
          create: { body: { title: 'restprobe todo', desc: 'created by restprobe', isComplete: true } },
          replace: { body: { title: 'restprobe todo (replaced)' } },
          patch: { body: { title: 'restprobe todo (patched)' } },
          invalid: { body: { title: 42, isComplete: 'nope' } },
          pagination: { style: 'offset', limitParam: 'filter[limit]', offsetParam: 'filter[skip]' },
        },
      ],
    },
  };
}
