/**
 * Stand-in: a Django REST framework API as its tutorial and docs build one: a `Todo` model
 * (title CharField(max_length=200), done BooleanField(default=False), label
 * CharField(max_length=100, blank=True), created DateTimeField(auto_now_add=True)), a
 * `ModelSerializer` with `fields = '__all__'`, a `ModelViewSet` on a `DefaultRouter`, and
 * these settings: DEFAULT_AUTHENTICATION_CLASSES [TokenAuthentication],
 * DEFAULT_PERMISSION_CLASSES [IsAuthenticated], DEFAULT_THROTTLE_CLASSES [UserRateThrottle]
 * ('user': '40/second'), a CursorPagination (page_size 10, page_size_query_param
 * 'page_size', max_page_size 100, ordering '-created'), django-filter's DjangoFilterBackend
 * with `filterset_fields = ['label', 'done']`; DEBUG = False. What DRF and Django answer then:
 * - `/todos/` and `/todos/{pk}/` (the router's trailing slashes); Django's CommonMiddleware
 *   (APPEND_SLASH) answers `/todos` with 301 to `/todos/`; any other path gets Django's HTML
 *   404 page ("The requested resource was not found on this server.");
 * - 401 `{"detail":"Authentication credentials were not provided."}` / `{"detail":"Invalid
 *   token."}` / the "Invalid token header." variants, with `WWW-Authenticate: Token` (the
 *   permission check comes before the method's: an unauthenticated OPTIONS or TRACE is 401 too);
 * - 429 `{"detail":"Request was throttled. Expected available in N seconds."}` with
 *   `Retry-After: N` (SimpleRateThrottle: a sliding log per user; wait = the time left for
 *   the oldest request over the requests still available, rounded up); no RateLimit fields;
 * - list: `{"next": url|null, "previous": url|null, "results": [...]}`, the `cursor` an opaque
 *   base64 of `p=<created>` (`r=1` backwards), absolute URLs keeping the other query
 *   parameters; a cursor that does not decode: 404 `{"detail":"Invalid cursor"}`;
 *   `page_size` above the maximum is clamped to it, one that is not a positive integer falls
 *   back to the default;
 * - POST 201 with the item and no Location (the serializer has no `url` field); PUT 200 and
 *   PATCH 200 with the item; PUT of a missing pk 404 (no upsert since DRF 3); a PUT that
 *   omits an optional field leaves it unchanged (only sent fields are saved); DELETE 204;
 * - 404 `{"detail":"No Todo matches the given query."}` (DRF ≥ 3.15 keeps Http404's message),
 *   also for a pk that is not an integer;
 * - 400 `{"title":["This field is required."]}`, "This field may not be blank.", "Must be a
 *   valid boolean.", "Not a valid string."; CharField trims whitespace and takes numbers as
 *   strings (42 → "42"); malformed JSON 400 `{"detail":"JSON parse error - …"}`;
 * - parsers JSON, form and multipart; any other Content-Type 415 `{"detail":"Unsupported
 *   media type \"text/plain\" in request."}`; renderers JSON and the browsable API: an Accept
 *   neither satisfies is 406 `{"detail":"Could not satisfy the request Accept header."}`;
 * - 405 `{"detail":"Method \"TRACE\" not allowed."}`; every APIView answer carries `Allow`
 *   and `Vary: Accept`; OPTIONS is SimpleMetadata's 200 description of the view;
 * - HEAD served by GET; Django's SecurityMiddleware and clickjacking headers; no ETag, no
 *   Cache-Control (ConditionalGetMiddleware is not in the default MIDDLEWARE).
 */
import { createServer } from 'node:http';
import { listenOnLoopback } from '../loopback.js';
import { isObject, mediaType, readBody, type FrameworkStandIn } from './kit.js';

interface Todo {
  id: number;
  title: string;
  done: boolean;
  label: string;
  created: string;
}

const trues = new Set(['true', 'True', 'TRUE', 't', 'T', 'yes', 'Yes', 'YES', 'y', 'Y', 'on', 'On', 'ON', '1', 1, true]);
const falses = new Set(['false', 'False', 'FALSE', 'f', 'F', 'no', 'No', 'NO', 'n', 'N', 'off', 'Off', 'OFF', '0', 0, false]);

const djangoNotFound = '<!doctype html>\n<html lang="en">\n<head>\n  <title>Not Found</title>\n</head>\n<body>\n  <h1>Not Found</h1><p>The requested resource was not found on this server.</p>\n</body>\n</html>\n';

export interface DrfOptions {
  /** UserRateThrottle's rate per second. */
  readonly ratePerSecond?: number;
}

/** The run's own token's rate a second: a whole run of the catalogue is not throttled. */
const runTokenRate = 1000;

export async function startDrf(o: DrfOptions = {}): Promise<FrameworkStandIn> {
  // Small, so a burst outruns the one-second log on a loaded machine: 41 requests spread over
  // a second once never left the probe key limited for three requests in a row
  // (LIM-rate-limit-per-client skipped).
  const rate = o.ratePerSecond ?? 5;
  const env = { DRF_TOKEN: '9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b', DRF_LIMIT_TOKEN: '2c1f6e3b8a7d4e05b9a6c3d2e1f0a9b8c7d6e5f4', DRF_LIMIT_TOKEN_2: '7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b' };
  const users = new Map(Object.values(env).map((key, i) => [key, i + 1]));
  const history = new Map<number, number[]>();
  const todos = new Map<number, Todo>();
  let nextId = 1;
  let lastCreated = 0;

  const common = { 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff', 'referrer-policy': 'same-origin', 'cross-origin-opener-policy': 'same-origin' };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const method = req.method ?? 'GET';
      const path = url.pathname;
      const text = await readBody(req);
      const isList = path === '/todos/';
      const detail = /^\/todos\/([^/]+)\/$/.exec(path);
      if (!isList && !detail) {
        if (path === '/todos' || /^\/todos\/[^/]+$/.test(path)) {
          res.writeHead(301, { ...common, location: `${path}/${url.search}`, 'content-type': 'text/html; charset=utf-8', 'content-length': '0' });
          return res.end();
        }
        res.writeHead(404, { ...common, 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(djangoNotFound)) });
        return res.end(method === 'HEAD' ? undefined : djangoNotFound);
      }
      const allow = isList ? 'GET, POST, HEAD, OPTIONS' : 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS';
      const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
        const json = body === undefined ? '' : JSON.stringify(body);
        res.writeHead(status, { ...common, allow, vary: 'Accept', ...(json && { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(json)) }), ...headers });
        res.end(method === 'HEAD' ? undefined : json);
      };

      // APIView.initial: content negotiation, authentication, permissions, throttles.
      const accept = req.headers['accept'] ?? '*/*';
      const acceptable = accept.split(',').some((part) => {
        const type = part.split(';')[0]!.trim().toLowerCase();
        return type === '*/*' || type === 'application/*' || type === 'application/json' || type === 'text/*' || type === 'text/html';
      });
      if (!acceptable) return send(406, { detail: 'Could not satisfy the request Accept header.' });
      const header = (req.headers['authorization'] ?? '').split(/\s+/).filter(Boolean);
      const unauthorized = (message: string) => send(401, { detail: message }, { 'www-authenticate': 'Token' });
      let user: number | undefined;
      if (header.length > 0 && header[0]!.toLowerCase() === 'token') {
        if (header.length === 1) return unauthorized('Invalid token header. No credentials provided.');
        if (header.length > 2) return unauthorized('Invalid token header. Token string should not contain spaces.');
        user = users.get(header[1]!);
        if (user === undefined) return unauthorized('Invalid token.');
      }
      if (user === undefined) return unauthorized('Authentication credentials were not provided.');
      const now = Date.now() / 1000;
      const log = (history.get(user) ?? []).filter((t) => t > now - 1);
      history.set(user, log);
      // The run's own token (user 1) is the team's CI user, throttled at a rate of its own, as a
      // throttle class per user group gives it; the probe keys have UserRateThrottle's rate.
      const limit = user === 1 ? runTokenRate : rate;
      if (log.length >= limit) {
        const remaining = 1 - (now - log[0]!);
        const wait = Math.ceil(remaining / (limit - log.length + 1));
        return send(429, { detail: `Request was throttled. Expected available in ${wait} second${wait === 1 ? '' : 's'}.` }, { 'retry-after': String(wait) });
      }
      log.push(now);

      const allowed = isList ? ['GET', 'POST', 'HEAD', 'OPTIONS'] : ['GET', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
      if (!allowed.includes(method)) return send(405, { detail: `Method "${method}" not allowed.` });
      if (method === 'OPTIONS') {
        const fields = {
          id: { type: 'integer', required: false, read_only: true, label: 'ID' },
          title: { type: 'string', required: true, read_only: false, label: 'Title', max_length: 200 },
          done: { type: 'boolean', required: false, read_only: false, label: 'Done' },
          label: { type: 'string', required: false, read_only: false, label: 'Label', max_length: 100 },
          created: { type: 'datetime', required: false, read_only: true, label: 'Created' },
        };
        return send(200, { name: isList ? 'Todo List' : 'Todo Instance', description: '', renders: ['application/json', 'text/html'], parses: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'], actions: { [isList ? 'POST' : 'PUT']: fields } });
      }

      /** request.data: parsed by the parser the Content-Type selects; undefined once an error is answered. */
      const data = (): Record<string, unknown> | unknown[] | undefined => {
        if (text === '') return {};
        const type = mediaType(req);
        if (type === 'application/json') {
          try {
            return JSON.parse(text) as Record<string, unknown>;
          } catch (err) {
            send(400, { detail: `JSON parse error - ${(err as Error).message}` });
            return undefined;
          }
        }
        if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(text));
        send(415, { detail: `Unsupported media type "${req.headers['content-type'] ?? ''}" in request.` });
        return undefined;
      };
      /** The serializer: validated fields, or the 400 body. */
      const validate = (input: unknown, partial: boolean): { ok: true; value: Partial<Todo> } | { ok: false; errors: Record<string, string[]> } => {
        if (!isObject(input)) return { ok: false, errors: { non_field_errors: [`Invalid data. Expected a dictionary, but got ${Array.isArray(input) ? 'list' : typeof input}.`] } };
        const errors: Record<string, string[]> = {};
        const value: Partial<Todo> = {};
        for (const [field, max, required] of [['title', 200, true], ['label', 100, false]] as const) {
          const v = input[field];
          if (v === undefined) {
            if (required && !partial) errors[field] = ['This field is required.'];
            continue;
          }
          if (v === null) errors[field] = ['This field may not be null.'];
          else if (typeof v !== 'string' && typeof v !== 'number') errors[field] = ['Not a valid string.'];
          else {
            const s = String(v).trim();
            if (s === '' && required) errors[field] = ['This field may not be blank.'];
            else if (s.length > max) errors[field] = [`Ensure this field has no more than ${max} characters.`];
            else value[field] = s;
          }
        }
        const d = input['done'];
        if (d !== undefined) {
          if (trues.has(d as string)) value.done = true;
          else if (falses.has(d as string)) value.done = false;
          else errors['done'] = ['Must be a valid boolean.'];
        }
        return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value };
      };

      if (isList && (method === 'GET' || method === 'HEAD')) {
        const q = url.searchParams;
        const size = ((): number => {
          const raw = q.get('page_size');
          const n = raw !== null && /^\d+$/.test(raw) ? Number(raw) : 0;
          return n > 0 ? Math.min(n, 100) : 10;
        })();
        let position: string | undefined;
        let reverse = false;
        const cursor = q.get('cursor');
        if (cursor !== null) {
          const decoded = new URLSearchParams(Buffer.from(cursor, 'base64').toString('latin1'));
          if (!/^[A-Za-z0-9+/=_-]+$/.test(cursor) || (decoded.get('p') === null && decoded.get('o') === null)) return send(404, { detail: 'Invalid cursor' });
          position = decoded.get('p') ?? undefined;
          reverse = decoded.get('r') === '1';
        }
        const label = q.get('label');
        const done = q.get('done');
        const doneValue = done === null ? undefined : trues.has(done) ? true : falses.has(done) ? false : undefined;
        const matching = [...todos.values()].filter((t) => (label === null || t.label === label) && (doneValue === undefined || t.done === doneValue)).sort((a, b) => b.created.localeCompare(a.created));
        let page: Todo[];
        let hasNext: boolean;
        let hasPrevious: boolean;
        if (!reverse) {
          const rest = position === undefined ? matching : matching.filter((t) => t.created < position!);
          page = rest.slice(0, size);
          hasNext = rest.length > size;
          hasPrevious = position !== undefined;
        } else {
          const before = matching.filter((t) => t.created > position!);
          page = before.slice(-size);
          hasPrevious = before.length > size;
          hasNext = true;
        }
        const link = (p: string, r: boolean) => {
          const next = new URL(`http://${req.headers.host}${url.pathname}${url.search}`);
          next.searchParams.set('cursor', Buffer.from(r ? `r=1&p=${p}` : `p=${p}`).toString('base64'));
          return next.toString();
        };
        return send(200, {
          next: hasNext && page.length > 0 ? link(page.at(-1)!.created, false) : null,
          previous: hasPrevious && page.length > 0 ? link(page[0]!.created, true) : null,
          results: page,
        });
      }
      if (isList && method === 'POST') {
        const input = data();
        if (input === undefined) return;
        const v = validate(input, false);
        if (!v.ok) return send(400, v.errors);
        lastCreated = Math.max(Date.now() * 1000, lastCreated + 1);
        const created = new Date(Math.floor(lastCreated / 1000)).toISOString().replace('Z', `${String(lastCreated % 1000).padStart(3, '0')}Z`);
        const todo: Todo = { id: nextId++, title: v.value.title!, done: v.value.done ?? false, label: v.value.label ?? '', created };
        todos.set(todo.id, todo);
        return send(201, todo);
      }
      const pk = detail![1]!;
      const todo = /^\d+$/.test(pk) ? todos.get(Number(pk)) : undefined;
      if (!todo) return send(404, { detail: 'No Todo matches the given query.' });
      if (method === 'GET' || method === 'HEAD') return send(200, todo);
      if (method === 'DELETE') {
        todos.delete(todo.id);
        return send(204);
      }
      const input = data();
      if (input === undefined) return;
      const v = validate(input, method === 'PATCH');
      if (!v.ok) return send(400, v.errors);
      Object.assign(todo, v.value);
      return send(200, todo);
    })().catch((err: unknown) => {
      console.error(err);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>Server Error (500)</h1>');
    });
  });
  const { url, close } = await listenOnLoopback(server);
  return {
    url,
    env,
    close,
    // As a new user configures it: the Token scheme, the router's trailing slashes, integer
    // pks, the CursorPagination's `cursor` and `page_size` (max 100) and its envelope, the filterset fields,
    // the media types DRF refuses (it parses forms), and the throttle rate.
    config: {
      auth: { apiKey: { header: 'Authorization', scheme: 'Token', value: { env: 'DRF_TOKEN' } } },
      collections: [
        {
          name: 'todos',
          path: '/todos/',
          itemPath: '/todos/{id}/',
          idType: 'integer',
          create: { body: { title: 'restprobe todo', done: true, label: 'restprobe' } },
          replace: { body: { title: 'restprobe todo (replaced)' } },
          patch: { body: { title: 'restprobe todo (patched)' } },
          invalid: { body: { title: '', done: 'nope' } },
          volatileFields: ['created'],
          // CursorPagination's page: `results`, and `next` the next page's URL (issue 24's envelope).
          pagination: { style: 'cursor', param: 'cursor', limitParam: 'page_size', maxLimit: 100, envelope: { items: '/results', next: '/next', nextIs: 'url' } },
          filters: ['label', 'done'],
          mark: { field: 'label' },
          notConsumed: ['text/plain', 'application/xml'],
        },
      ],
      rateLimit: { credential: { env: 'DRF_LIMIT_TOKEN' }, otherCredential: { env: 'DRF_LIMIT_TOKEN_2' }, limit: rate, window: '1s' },
    },
  };
}
