/**
 * Stand-in: an Express 5 CRUD API as the "Express + TypeScript + Zod" tutorials build it
 * (a `todos` router, `express.json()`, a `safeParse` per route answering
 * `400 { errors: result.error.issues }`, an X-API-Key middleware, express-rate-limit).
 * Zod itself is not used: the validation is written by hand with zod's issue shape
 * (`{ code, path, message, expected?, received? }`, zod 3's default English messages).
 *
 * Behaviours that are Express's own defaults (real Express 5 serves them, nothing here fakes them):
 * - unknown path or method: finalhandler's HTML 404 `Cannot GET /x` (text/html, CSP
 *   `default-src 'none'`, nosniff), no 405 ever (expressjs.com "How do I handle 404 responses?");
 * - OPTIONS: the router answers 200 `text/plain` listing the route's methods in `Allow`;
 * - HEAD served by GET routes; `X-Powered-By: Express`;
 * - `res.json` sets a weak ETag and answers 304 to a matching If-None-Match (`etag` setting,
 *   req.fresh); If-Match is not looked at;
 * - `express.json()` parses only `application/json`: any other Content-Type leaves
 *   `req.body` undefined (Express 5), so a text/plain POST fails validation with 400, never 415;
 *   malformed JSON reaches the default error handler: HTML 400 with the stack (NODE_ENV≠production);
 * - Accept is never looked at (no 406).
 * express-rate-limit (`standardHeaders: 'draft-7'`, `legacyHeaders: false`): `RateLimit` and
 * `RateLimit-Policy` fields on every answer; its default 429 handler sends the text
 * "Too many requests, please try again later." (text/html) with Retry-After
 * (express-rate-limit docs, "Configuration"). Keyed by the API key (keyGenerator), as
 * tutorials for key-authenticated APIs do, with a larger quota for the app's own key (the
 * run's) than for the probe keys the config's `rateLimit` names (`limit` as a function).
 * The tutorial's choices: POST 201 with the item and no Location; uuid ids
 * (crypto.randomUUID); PUT of a missing id 404 (no upsert); DELETE 204; the list pages
 * as `{ data, next_cursor }` with `limit` (1–100, default 20) and `cursor`, filtered by
 * `label` and `done`; the key middleware answers `401 { error: 'Invalid API key' }` with no
 * WWW-Authenticate.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express, { type Request, type Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import { isObject, type FrameworkStandIn } from './kit.js';

interface Todo {
  id: string;
  title: string;
  done: boolean;
  label: string | null;
  createdAt: string;
}

interface Issue {
  code: string;
  path: (string | number)[];
  message: string;
  expected?: string;
  received?: string;
}

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** zod's `z.object({ title: z.string().min(1).max(200), done: z.boolean().default(false), label: z.string().optional() })`, `.partial()` for PATCH. */
function parseTodo(body: unknown, partial: boolean): { ok: true; value: Partial<Todo> } | { ok: false; issues: Issue[] } {
  if (!isObject(body)) return { ok: false, issues: [{ code: 'invalid_type', path: [], message: body === undefined ? 'Required' : `Expected object, received ${typeOf(body)}`, expected: 'object', received: typeOf(body) }] };
  const issues: Issue[] = [];
  const value: Partial<Todo> = {};
  const t = body['title'];
  if (t === undefined) {
    if (!partial) issues.push({ code: 'invalid_type', path: ['title'], message: 'Required', expected: 'string', received: 'undefined' });
  } else if (typeof t !== 'string') issues.push({ code: 'invalid_type', path: ['title'], message: `Expected string, received ${typeOf(t)}`, expected: 'string', received: typeOf(t) });
  else if (t.length < 1) issues.push({ code: 'too_small', path: ['title'], message: 'String must contain at least 1 character(s)' });
  else if (t.length > 200) issues.push({ code: 'too_big', path: ['title'], message: 'String must contain at most 200 character(s)' });
  else value.title = t;
  const d = body['done'];
  if (d === undefined) {
    if (!partial) value.done = false;
  } else if (typeof d !== 'boolean') issues.push({ code: 'invalid_type', path: ['done'], message: `Expected boolean, received ${typeOf(d)}`, expected: 'boolean', received: typeOf(d) });
  else value.done = d;
  const l = body['label'];
  if (l === undefined) {
    if (!partial) value.label = null;
  } else if (typeof l !== 'string') issues.push({ code: 'invalid_type', path: ['label'], message: `Expected string, received ${typeOf(l)}`, expected: 'string', received: typeOf(l) });
  else value.label = l;
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value };
}

export interface ExpressZodOptions {
  readonly limit?: number;
  readonly windowMs?: number;
}

export async function startExpressZod(o: ExpressZodOptions = {}): Promise<FrameworkStandIn> {
  // Small, so a burst outruns the window on a loaded machine: one request after another (as
  // LIM-ratelimit-headers sends them) at 50 ms each once met no 429 from 20 a second, the
  // fixed window emptying as fast as the burst filled it.
  const limit = o.limit ?? 5;
  const windowMs = o.windowMs ?? 1000;
  const env = { TODO_API_KEY: 'ek-express-run-3c9d1f7a20', TODO_LIMIT_KEY: 'ek-express-limit-6b2e0a94c1', TODO_LIMIT_KEY_2: 'ek-express-limit2-a81f5d3e07' };
  const keys = new Set(Object.values(env));
  const todos = new Map<string, Todo>();
  const seqOf = new Map<string, number>();
  let clock = 0;

  const app = express();
  app.use(express.json());
  app.use((req, res, next) => {
    if (keys.has(req.get('x-api-key') ?? '')) return next();
    res.status(401).json({ error: 'Invalid API key' });
  });
  // The app's own key (the run's) has a larger quota than the probe keys, so a run is not
  // slowed by the quota its rate-limit checks probe; express-rate-limit takes `limit` as a
  // function of the request for such tiers.
  app.use(rateLimit({ windowMs, limit: (req) => (req.get('x-api-key') === env.TODO_API_KEY ? 1000 : limit), standardHeaders: 'draft-7', legacyHeaders: false, keyGenerator: (req) => req.get('x-api-key') ?? '' }));

  const router = express.Router();
  router.get('/', (req: Request, res: Response) => {
    const q = req.query as Record<string, unknown>;
    const issues: Issue[] = [];
    const rawLimit = q['limit'] ?? '20';
    const n = typeof rawLimit === 'string' && /^\d+$/.test(rawLimit) ? Number(rawLimit) : NaN;
    if (!Number.isInteger(n)) issues.push({ code: 'invalid_type', path: ['limit'], message: 'Expected number, received nan', expected: 'number', received: 'nan' });
    else if (n < 1) issues.push({ code: 'too_small', path: ['limit'], message: 'Number must be greater than or equal to 1' });
    else if (n > 100) issues.push({ code: 'too_big', path: ['limit'], message: 'Number must be less than or equal to 100' });
    const cursor = q['cursor'];
    let after = -1;
    if (cursor !== undefined) {
      const decoded = typeof cursor === 'string' ? Number(Buffer.from(cursor, 'base64url').toString()) : NaN;
      if (!Number.isInteger(decoded)) issues.push({ code: 'custom', path: ['cursor'], message: 'Invalid cursor' });
      else after = decoded;
    }
    if (issues.length > 0) return res.status(400).json({ errors: issues });
    // The cursor is the creation sequence number of the page's last item (a Map keeps
    // insertion order), base64url-encoded as tutorials do, unsigned.
    const all = [...todos.values()]
      .filter((t) => (typeof q['label'] === 'string' ? t.label === q['label'] : true))
      .filter((t) => (typeof q['done'] === 'string' ? String(t.done) === q['done'] : true))
      .filter((t) => seqOf.get(t.id)! > after);
    const page = all.slice(0, n);
    const more = all.length > n;
    res.json({ data: page, next_cursor: more ? Buffer.from(String(seqOf.get(page.at(-1)!.id))).toString('base64url') : null });
  });
  router.post('/', (req, res) => {
    const parsed = parseTodo(req.body, false);
    if (!parsed.ok) return res.status(400).json({ errors: parsed.issues });
    const todo: Todo = { id: randomUUID(), title: parsed.value.title!, done: parsed.value.done!, label: parsed.value.label ?? null, createdAt: new Date(Date.now() + clock++).toISOString() };
    todos.set(todo.id, todo);
    seqOf.set(todo.id, clock);
    res.status(201).json(todo);
  });
  router.get('/:id', (req, res) => {
    const todo = todos.get(req.params.id);
    if (!todo) return res.status(404).json({ error: 'Todo not found' });
    res.json(todo);
  });
  router.put('/:id', (req, res) => {
    const todo = todos.get(req.params.id);
    if (!todo) return res.status(404).json({ error: 'Todo not found' });
    const parsed = parseTodo(req.body, false);
    if (!parsed.ok) return res.status(400).json({ errors: parsed.issues });
    const next: Todo = { id: todo.id, createdAt: todo.createdAt, title: parsed.value.title!, done: parsed.value.done!, label: parsed.value.label ?? null };
    todos.set(todo.id, next);
    res.json(next);
  });
  router.patch('/:id', (req, res) => {
    const todo = todos.get(req.params.id);
    if (!todo) return res.status(404).json({ error: 'Todo not found' });
    const parsed = parseTodo(req.body, true);
    if (!parsed.ok) return res.status(400).json({ errors: parsed.issues });
    const next = { ...todo, ...parsed.value };
    todos.set(todo.id, next);
    res.json(next);
  });
  router.delete('/:id', (req, res) => {
    if (!todos.delete(req.params.id)) return res.status(404).json({ error: 'Todo not found' });
    res.status(204).end();
  });
  app.use('/todos', router);

  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    env,
    config: {
      auth: { apiKey: { header: 'X-API-Key', value: { env: 'TODO_API_KEY' } } },
      collections: [
        {
          name: 'todos',
          path: '/todos',
          create: { body: { title: 'restprobe todo', done: true, label: 'restprobe' } },
          replace: { body: { title: 'restprobe todo (replaced)' } },
          patch: { body: { title: 'restprobe todo (patched)' } },
          invalid: { body: { title: 42, done: 'nope' } },
          pagination: { style: 'cursor', param: 'cursor', limitParam: 'limit', maxLimit: 100 },
          filters: ['label', 'done'],
          mark: { field: 'label' },
          volatileFields: [],
        },
      ],
      rateLimit: { credential: { env: 'TODO_LIMIT_KEY' }, otherCredential: { env: 'TODO_LIMIT_KEY_2' }, limit, window: `${windowMs}ms` },
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
