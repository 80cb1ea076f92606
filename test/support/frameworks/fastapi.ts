/**
 * Stand-in: the FastAPI + SQLModel tutorial's heroes API ("SQL (Relational) Databases",
 * fastapi.tiangolo.com/tutorial/sql-databases/, its HeroCreate / HeroPublic / HeroUpdate
 * version), served by uvicorn, with FastAPI's and Starlette's defaults:
 * - routes in the tutorial's order: `POST /heroes/` (200: no `status_code=201` in the
 *   tutorial, no Location), `GET /heroes/?offset=&limit=` (a bare array; `limit:
 *   Annotated[int, Query(le=100)] = 100`; SQLite takes a negative LIMIT as none, a negative
 *   OFFSET as 0), `GET /heroes/{hero_id}`, `PATCH /heroes/{hero_id}` (200,
 *   `model_dump(exclude_unset=True)`), `DELETE /heroes/{hero_id}` (200 `{"ok": true}`); no PUT;
 *   integer ids (SQLite autoincrement);
 * - HeroPublic is the response model: `secret_name` is written but never returned;
 * - pydantic v2 validation, lax mode: "1" → 1 for an int, but 42 is not a str; 422
 *   `{"detail":[{"type","loc","msg","input"(,"ctx")}]}` for bodies, query and path
 *   parameters (`int_parsing` for `/heroes/abc`); malformed JSON is a 422 `json_invalid`; a
 *   Content-Type that is not JSON leaves the body as bytes, so it fails validation with 422
 *   (`model_attributes_type`), never 415; an empty body is a 422 `missing` at `["body"]`;
 * - `HTTPException(404, "Hero not found")` → `{"detail":"Hero not found"}`; an unknown path
 *   → 404 `{"detail":"Not Found"}`; a method the path does not serve → 405
 *   `{"detail":"Method Not Allowed"}` with an Allow listing the methods of the *first* route
 *   whose path matched only (Starlette's Router keeps the first partial match), so
 *   `TRACE /heroes/` says `Allow: POST`; OPTIONS likewise (no CORSMiddleware);
 * - `redirect_slashes=True`: `/heroes` answers 307 to the absolute `http://host/heroes/`;
 * - HEAD served by every GET route (Starlette adds HEAD), without the body;
 * - `content-type: application/json` everywhere (errors too), `server: uvicorn`; no ETag,
 *   no Cache-Control, Accept ignored, no authentication (the tutorial has none).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from '../loopback.js';
import { isObject, mediaType, readBody, sendJson, type FrameworkStandIn } from './kit.js';

interface Hero {
  id: number;
  name: string | null;
  age: number | null;
  secret_name: string | null;
}

interface PydanticError {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/** pydantic v2's lax int: an int, an integral float, or a string of one. */
function laxInt(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^\s*[-+]?\d+\s*$/.test(v)) return Number(v);
  return undefined;
}

const intError = (loc: (string | number)[], input: unknown): PydanticError =>
  typeof input === 'string'
    ? { type: 'int_parsing', loc, msg: 'Input should be a valid integer, unable to parse string as an integer', input }
    : { type: 'int_type', loc, msg: 'Input should be a valid integer', input };

/** HeroCreate (name: str, age: int | None = None, secret_name: str) or HeroUpdate (all optional). */
function validateHero(body: unknown, update: boolean): { ok: true; value: Partial<Hero> } | { ok: false; errors: PydanticError[] } {
  if (!isObject(body)) return { ok: false, errors: [{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: body }] };
  const errors: PydanticError[] = [];
  const value: Partial<Hero> = {};
  for (const field of ['name', 'secret_name'] as const) {
    const v = body[field];
    if (v === undefined) {
      if (!update) errors.push({ type: 'missing', loc: ['body', field], msg: 'Field required', input: body });
    } else if (v === null && update) value[field] = null;
    else if (typeof v !== 'string') errors.push({ type: 'string_type', loc: ['body', field], msg: 'Input should be a valid string', input: v });
    else value[field] = v;
  }
  const age = body['age'];
  if (age === null) value.age = null;
  else if (age !== undefined) {
    const n = laxInt(age);
    if (n === undefined) errors.push(intError(['body', 'age'], age));
    else value.age = n;
  } else if (!update) value.age = null;
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value };
}

/** Starlette's routes, in the tutorial's order: what matches a path, and their methods. */
const routes: { pattern: RegExp; methods: string[] }[] = [
  { pattern: /^\/heroes\/$/, methods: ['POST'] },
  { pattern: /^\/heroes\/$/, methods: ['GET', 'HEAD'] },
  { pattern: /^\/heroes\/([^/]+)$/, methods: ['GET', 'HEAD'] },
  { pattern: /^\/heroes\/([^/]+)$/, methods: ['PATCH'] },
  { pattern: /^\/heroes\/([^/]+)$/, methods: ['DELETE'] },
];

export async function startFastApi(): Promise<FrameworkStandIn> {
  const heroes = new Map<number, Hero>();
  let nextId = 1;
  const send = (req: IncomingMessage, res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => sendJson(req, res, status, body, { server: 'uvicorn', ...headers });
  const publicOf = (h: Hero) => ({ name: h.name, age: h.age, id: h.id });

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const method = req.method ?? 'GET';
      const path = url.pathname;
      const full = routes.find((r) => r.pattern.test(path) && r.methods.includes(method));
      if (!full) {
        const partial = routes.find((r) => r.pattern.test(path));
        if (partial) return send(req, res, 405, { detail: 'Method Not Allowed' }, { allow: partial.methods.join(', ') });
        const other = path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
        if (path !== '/' && routes.some((r) => r.pattern.test(other))) {
          res.writeHead(307, { server: 'uvicorn', location: `http://${req.headers.host}${other}${url.search}`, 'content-length': '0' });
          return res.end();
        }
        return send(req, res, 404, { detail: 'Not Found' });
      }
      const text = method === 'POST' || method === 'PATCH' ? await readBody(req) : '';
      /** FastAPI's body reading: JSON when the Content-Type is JSON (or absent), the raw text otherwise. */
      const body = (): { ok: true; value: unknown } | { ok: false; errors: PydanticError[] } => {
        const type = mediaType(req);
        if (type !== '' && !(type === 'application/json' || /^application\/.*\+json$/.test(type))) return { ok: true, value: text };
        if (text === '') return { ok: false, errors: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] };
        try {
          return { ok: true, value: JSON.parse(text) as unknown };
        } catch {
          return { ok: false, errors: [{ type: 'json_invalid', loc: ['body', 1], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting value' } }] };
        }
      };
      if (path === '/heroes/') {
        if (method === 'POST') {
          const b = body();
          const v = b.ok ? validateHero(b.value, false) : b;
          if (!v.ok) return send(req, res, 422, { detail: v.errors });
          const hero: Hero = { id: nextId++, name: v.value.name!, age: v.value.age ?? null, secret_name: v.value.secret_name! };
          heroes.set(hero.id, hero);
          return send(req, res, 200, publicOf(hero));
        }
        const errors: PydanticError[] = [];
        const rawOffset = url.searchParams.get('offset');
        const rawLimit = url.searchParams.get('limit');
        const offset = rawOffset === null ? 0 : laxInt(rawOffset);
        const limit = rawLimit === null ? 100 : laxInt(rawLimit);
        if (offset === undefined) errors.push(intError(['query', 'offset'], rawOffset));
        if (limit === undefined) errors.push(intError(['query', 'limit'], rawLimit));
        else if (limit > 100) errors.push({ type: 'less_than_equal', loc: ['query', 'limit'], msg: 'Input should be less than or equal to 100', input: rawLimit, ctx: { le: 100 } });
        if (errors.length > 0) return send(req, res, 422, { detail: errors });
        const from = Math.max(0, offset!);
        const all = [...heroes.values()].slice(from);
        return send(req, res, 200, (limit! < 0 ? all : all.slice(0, limit)).map(publicOf));
      }
      const raw = /^\/heroes\/([^/]+)$/.exec(path)![1]!;
      let segment = raw;
      try {
        segment = decodeURIComponent(raw);
      } catch {
        // Python's unquote leaves what it cannot decode as it is.
      }
      const id = laxInt(segment);
      if (id === undefined) return send(req, res, 422, { detail: [intError(['path', 'hero_id'], segment)] });
      const hero = heroes.get(id);
      if (method === 'PATCH') {
        const b = body();
        const v = b.ok ? validateHero(b.value, true) : b;
        if (!v.ok) return send(req, res, 422, { detail: v.errors });
        if (!hero) return send(req, res, 404, { detail: 'Hero not found' });
        Object.assign(hero, v.value);
        return send(req, res, 200, publicOf(hero));
      }
      if (!hero) return send(req, res, 404, { detail: 'Hero not found' });
      if (method === 'DELETE') {
        heroes.delete(id);
        return send(req, res, 200, { ok: true });
      }
      return send(req, res, 200, publicOf(hero));
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Internal Server Error');
      console.error(err);
    });
  });
  const { url, close } = await listenOnLoopback(server);
  return {
    url,
    env: {},
    close,
    // As a new user configures the tutorial's API: the trailing-slash collection path the
    // tutorial declares, its item path, no PUT, integer ids, `offset`/`limit` capped at 100.
    config: {
      collections: [
        {
          name: 'heroes',
          path: '/heroes/',
          itemPath: '/heroes/{id}',
          idType: 'integer',
          methods: ['GET', 'POST', 'PATCH', 'DELETE'],
          create: { body: { name: 'restprobe hero', secret_name: 'restprobe secret', age: 30 } },
          // HeroPublic leaves it out: taken, never shown (what init --openapi infers from the two models).
          writeOnlyFields: ['secret_name'],
          patch: { body: { name: 'restprobe hero (patched)' } },
          invalid: { body: { name: 42, age: 'nope' } },
          pagination: { style: 'offset', limitParam: 'limit', offsetParam: 'offset', maxLimit: 100 },
        },
      ],
    },
  };
}
