/**
 * What the §5 checks share: the 401 a refused credential gets, requests sent with a
 * credential other than the configured one, and the session cookie a login sets.
 */
import { randomBytes } from 'node:crypto';
import { CheckSkipped } from '../model/check.js';
import type { CheckContext, HttpResponse, RequestSpec } from '../model/context.js';
import type { ApiKeyAuth, SessionAuth } from '../model/profile.js';
import { keyHeaders } from '../http/session.js';
import { describe } from './expect.js';
import { setupError } from './setup.js';

export { commonKeyParams } from '../model/key-headers.js';

/** A key no target issued: long and random, so no lenient length rule takes it for one. */
export function garbageKey(): string {
  return `rk_${randomBytes(36).toString('base64url')}`;
}

/**
 * Why a response to a refused credential is not a proper 401, or undefined when it is:
 * 401 with a `WWW-Authenticate` challenge (RFC 9110 §11.6.1). Its problem+json body is
 * judged with every other error body by the ERR- problem checks.
 */
export function challengeProblem(res: HttpResponse): string | undefined {
  if (res.status !== 401) return `${describe(res)}, expected 401`;
  return (res.headers['www-authenticate'] ?? '').trim() === '' ? `${describe(res)}: no WWW-Authenticate challenge` : undefined;
}

/**
 * What the improper refusals `bad` share, when they share it: the same fix mends every
 * check of refusals that meets it (see CheckFailure's `rootCause`).
 *
 * @example
 * ```ts
 * challengeCause([res401WithoutChallenge]); // '401 answers carry no WWW-Authenticate challenge'
 * ```
 */
export function challengeCause(bad: readonly HttpResponse[]): string | undefined {
  if (bad.every((r) => r.status === 401)) return '401 answers carry no WWW-Authenticate challenge';
  if (bad.every((r) => r.status === 403)) return 'requests without valid credentials get 403, not 401';
  return undefined;
}

/** The cause every check of scopes shares that meets a missing scope answered 401, as if the credential were not valid. */
export const scopeAs401 = 'a valid credential that lacks a scope gets 401, not 403';

/** The configured credential's value now: an issued one (auth.apiKey.fromOAuth) renewed first when it is about to expire, and scrubbed from the check's evidence. */
export async function currentKey(ctx: CheckContext, credentials: ApiKeyAuth): Promise<string> {
  if (credentials.issued === undefined) return credentials.value.value;
  const value = await credentials.issued.fresh();
  ctx.treatAsSecret(value, credentials.value.envName);
  return value;
}

/** What a request adds to send `key` as `credential` is sent (its header and scheme) in place of the configured credentials. */
export function withKey(credential: Pick<ApiKeyAuth, 'header' | 'scheme'>, key: string): Pick<RequestSpec, 'auth' | 'headers'> {
  return { auth: false, headers: keyHeaders(credential.header, key, credential.scheme) };
}

/** A session cookie as the login set it: `name=value`, and its attributes by lower-case name. */
export interface SetCookie {
  readonly name: string;
  /** `name=value`, to send back in a Cookie header. */
  readonly pair: string;
  readonly value: string;
  readonly attributes: ReadonlyMap<string, string>;
}

/** The cookies a response sets (RFC 6265 §5.2), their values treated as secrets. */
export function setCookies(ctx: CheckContext, res: HttpResponse): SetCookie[] {
  const lines = (res.headers['set-cookie'] ?? '').split('\n').filter((l) => l.trim() !== '');
  return lines.map((line) => {
    const [pair = '', ...attrs] = line.split(';').map((p) => p.trim());
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    const value = eq === -1 ? '' : pair.slice(eq + 1);
    ctx.treatAsSecret(value, 'SESSION_COOKIE');
    const attributes = new Map(attrs.map((a) => {
      const i = a.indexOf('=');
      return [(i === -1 ? a : a.slice(0, i)).toLowerCase(), i === -1 ? '' : a.slice(i + 1)] as const;
    }));
    return { name, pair, value, attributes };
  });
}

/** A logged-in session: its cookies, and the logout that ends it (sent once, by the check or after it). */
export interface LoggedIn {
  readonly login: HttpResponse;
  readonly cookies: readonly SetCookie[];
  /** The Cookie header that presents the session. */
  readonly cookieHeader: string;
  logout(): Promise<HttpResponse>;
}

/**
 * Logs in as the config says. A login that fails or sets no cookie cannot show what the
 * check is about: a setup error.
 */
export async function logIn(ctx: CheckContext, session: SessionAuth): Promise<LoggedIn> {
  const login = await ctx.http.send({ method: 'POST', path: session.loginPath, json: session.loginBody, auth: false });
  if (login.status < 200 || login.status > 299) throw setupError(login, `logging in failed: POST ${session.loginPath} answered ${login.status}`);
  const cookies = setCookies(ctx, login);
  if (cookies.length === 0) throw setupError(login, `POST ${session.loginPath} answered ${login.status} but set no cookie, so there is no session to judge`, `POST ${session.loginPath} sets no cookie`);
  const cookieHeader = cookieHeaderOf(cookies);
  let out: Promise<HttpResponse> | undefined;
  return { login, cookies, cookieHeader, logout: () => (out ??= ctx.http.send({ method: 'DELETE', path: session.logoutPath, auth: false, headers: { cookie: cookieHeader } })) };
}

/** The Cookie header that sends `cookies` back. */
const cookieHeaderOf = (cookies: readonly SetCookie[]): string => cookies.map((c) => c.pair).join('; ');

/** What a session check GETs to see whether a session works: the first collection, else the logout path. */
export function sessionProbe(ctx: CheckContext, session: SessionAuth): string {
  return ctx.collections[0]?.path ?? session.logoutPath;
}

/**
 * The cookies of a login that hold the session: the one `auth.session.cookie` names, the
 * only one, or each whose loss ends the session (a GET without it is refused while one with
 * every cookie is served). A CSRF token cookie (Django's `csrftoken`, Laravel's and Angular's
 * `XSRF-TOKEN`), which scripts must read, is so told apart from the session's.
 */
export async function sessionCookies(ctx: CheckContext, session: SessionAuth, s: LoggedIn): Promise<readonly SetCookie[]> {
  const names = s.cookies.map((c) => c.name).join(', ');
  if (session.cookie !== undefined) {
    const named = s.cookies.filter((c) => c.name === session.cookie);
    if (named.length === 0) throw setupError(s.login, `the login set no cookie named ${session.cookie} (auth.session.cookie), only ${names}`, `the login sets no ${session.cookie} cookie`);
    return named;
  }
  if (s.cookies.length === 1) return s.cookies;
  const path = sessionProbe(ctx, session);
  const get = (cookies: readonly SetCookie[]): Promise<HttpResponse> => ctx.http.send({ method: 'GET', path, auth: false, headers: { cookie: cookieHeaderOf(cookies) } });
  const all = await get(s.cookies);
  if (all.status < 200 || all.status > 299) throw setupError(all, `${describe(all)} with every cookie of the login (${names}), so which of them holds the session cannot be told (auth.session.cookie names it)`);
  const needed: SetCookie[] = [];
  for (const cookie of s.cookies) {
    const without = await get(s.cookies.filter((c) => c !== cookie));
    if (without.status === 401 || without.status === 403) needed.push(cookie);
  }
  if (needed.length === 0) throw new CheckSkipped(`GET ${path} is served without each of the login's cookies (${names}) in turn, so restprobe cannot tell which holds the session: name it in auth.session.cookie`, 'auth.session.cookie');
  return needed;
}
