/**
 * Test support: a stand-in API on 127.0.0.1:0 whose only credential is a session cookie, as
 * web frameworks set them: the session's own cookie beside a CSRF token cookie that scripts
 * must read, so it is not HttpOnly (Django's `sessionid` and `csrftoken`, Laravel's
 * `laravel_session` and `XSRF-TOKEN`). Routes: `POST /login` (201, the cookies), `GET
 * /things` (200 with the session, else 401 with a challenge), `DELETE /logout` (204, the
 * session ended on the server).
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TargetProfile } from '../../src/model/profile.js';
import { thingsCollection } from './items-server.js';
import { testProfile } from './profile.js';

export interface SessionServerOptions {
  /** The session cookie's name (default `sessionid`). */
  readonly session?: string;
  /** Its attributes (default `Path=/; Secure; HttpOnly; SameSite=Lax`). */
  readonly sessionAttributes?: string;
  /** The CSRF token cookie set beside it, readable by scripts (default `csrftoken`); null: none. */
  readonly csrf?: string | null;
  /** `GET /things` is served to anyone, with a session or without (an open API). */
  readonly open?: boolean;
  /** The status a request without a live session gets (default 401; Django REST framework's SessionAuthentication answers 403). */
  readonly refusedStatus?: number;
}

export interface SessionServer {
  readonly url: string;
  /** A profile with `auth.session` (login and logout) and the `things` collection, no API key. */
  profile(cookie?: string): TargetProfile;
  close(): Promise<void>;
}

export async function startSessionServer(opts: SessionServerOptions = {}): Promise<SessionServer> {
  const name = opts.session ?? 'sessionid';
  const csrf = opts.csrf === undefined ? 'csrftoken' : opts.csrf;
  const sessions = new Set<string>();
  const sessionOf = (cookie: string | undefined): string | undefined =>
    (cookie ?? '')
      .split(';')
      .map((p) => p.trim().split('='))
      .find(([k, v]) => k === name && v !== undefined && sessions.has(v))?.[1];
  const server = createServer((req, res) => {
    const route = `${req.method} ${req.url}`;
    const json = (status: number, body: unknown, headers: Record<string, string | string[]> = {}): void => void res.writeHead(status, { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers }).end(JSON.stringify(body));
    req.resume();
    req.on('end', () => {
      if (route === 'POST /login') {
        const id = randomBytes(24).toString('base64url');
        sessions.add(id);
        const cookies = [`${name}=${id}; ${opts.sessionAttributes ?? 'Path=/; Secure; HttpOnly; SameSite=Lax'}`, ...(csrf === null ? [] : [`${csrf}=${randomBytes(16).toString('hex')}; Path=/; Secure; SameSite=Lax`])];
        return json(201, { ok: true }, { 'set-cookie': cookies });
      }
      const session = sessionOf(req.headers.cookie);
      if (route === 'DELETE /logout') {
        if (session !== undefined) sessions.delete(session);
        return void res.writeHead(204).end();
      }
      if (route === 'GET /things') {
        if (session === undefined && !opts.open) {
          const status = opts.refusedStatus ?? 401;
          return json(status, { title: status === 401 ? 'Unauthorized' : 'Forbidden', status }, status === 401 ? { 'www-authenticate': 'Cookie realm="stand-in"' } : {});
        }
        return json(200, { data: [], next_cursor: null });
      }
      json(404, { title: 'Not Found', status: 404 });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    profile: (cookie) => ({
      ...testProfile(url, { keyHeader: null }),
      collections: [{ ...thingsCollection(), methods: ['GET'] }],
      auth: { queryParams: [], session: { loginPath: '/login', loginBody: { username: 'probe' }, logoutPath: '/logout', ...(cookie !== undefined && { cookie }) } },
    }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
