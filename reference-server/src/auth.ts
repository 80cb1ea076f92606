/**
 * Authentication and scope enforcement (conventions §5.1, §5.3, §5.4; RFC 6750 §3 for the
 * challenge).
 *
 * Three kinds of credential: an API key in `X-API-Key: <key>` or `Authorization: Bearer
 * <key>`, never in the URL; a JWT access token of the authorization server in
 * `Authorization: Bearer <JWT>` (see `oauth/access-tokens.ts`); and a session cookie (see
 * `sessions.ts`). Every credential a request presents must be valid, and the request may do
 * only what all of them allow.
 * Key comparison is constant-time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { faultActive } from './request-faults.js';
import { genericProblem, ProblemError } from './problem.js';
import { fullScopes, grants, intersectScopes, readOnlyScopes, requiredScope, type Scope } from './scopes.js';
import type { SessionStore } from './sessions.js';

const realm = 'restprobe-reference';

const digest = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

/** A key the ring knows: its id (`primary`, `read-only`, or a minted key's) and scopes. */
export interface KeyEntry {
  readonly id: string;
  readonly scopes: readonly Scope[];
}

/** Ids of the two keys the server starts with; minted keys have UUIDs. */
export const builtInKeyIds = { primary: 'primary', readOnly: 'read-only' } as const;

/**
 * The keys that authenticate: the server's two, and those minted through `/v2/api-keys`
 * until they are deleted. Kept as SHA-256 digests: equal lengths, so timingSafeEqual
 * never leaks a length, and no key is hashed again per request.
 */
export class KeyRing {
  private readonly entries = new Map<string, { digest: Buffer; scopes: readonly Scope[] }>();

  /** `primary` gets every scope, `readOnly` every read scope. */
  constructor(primary: string, readOnly: string) {
    this.entries.set(builtInKeyIds.primary, { digest: digest(primary), scopes: fullScopes });
    this.entries.set(builtInKeyIds.readOnly, { digest: digest(readOnly), scopes: readOnlyScopes });
  }

  add(id: string, key: string, scopes: readonly Scope[]): void {
    this.entries.set(id, { digest: digest(key), scopes });
  }

  /** Revokes a minted key at once; the built-in keys cannot be removed. */
  remove(id: string): void {
    if (id !== builtInKeyIds.primary && id !== builtInKeyIds.readOnly) this.entries.delete(id);
  }

  /** Constant-time against every key, so timing tells nothing of which one matched. */
  find(presented: string): KeyEntry | undefined {
    const p = digest(presented);
    let found: KeyEntry | undefined;
    for (const [id, entry] of this.entries) {
      if (timingSafeEqual(p, entry.digest)) found = { id, scopes: entry.scopes };
    }
    return found;
  }

  /** The scopes of a key that still authenticates; `undefined` once it is revoked. */
  scopesOf(id: string): readonly Scope[] | undefined {
    return this.entries.get(id)?.scopes;
  }
}

/** Who is asking, once {@link authenticate} has let a request through. */
export interface Credentials {
  /** What every presented credential allows. */
  readonly scopes: readonly Scope[];
  /** The API keys presented, as sent (only fault `credential-in-location` looks at them). */
  readonly keys: readonly string[];
  /** The session id of the cookie that authenticated the request, if one did. */
  readonly session?: string;
}

/** Query parameters that fault `api-key-in-query` reads a key from. */
const queryKeyNames = ['api_key', 'apikey', 'key', 'access_token', 'token'] as const;
/** The query parameter that fault `api-key-in-camel-query` reads a key from, as many JavaScript APIs name it. */
const camelQueryKeyName = 'apiKey';

/** A 401 with its challenge (none under fault `unauthorized-without-challenge`). */
export function unauthorized(detail: string, error: 'invalid_token' | undefined): ProblemError {
  const challenge = `Bearer realm="${realm}"${error === undefined ? '' : `, error="${error}"`}`;
  return new ProblemError(genericProblem(401, detail), faultActive('unauthorized-without-challenge') ? {} : { 'WWW-Authenticate': challenge });
}

/** A bearer value of three dot-separated parts is a JWT access token, not an API key. */
export const jwtShape = /^[^.]*\.[^.]*\.[^.]*$/;

/** The API keys and JWT access tokens a request presents, in whichever of the two accepted headers. */
function presentedCredentials(headers: IncomingHttpHeaders, tokens: AccessTokenVerifier | undefined): { keys: string[]; jwts: string[] } {
  const keys: string[] = [];
  const jwts: string[] = [];
  const apiKey = headers['x-api-key'];
  if (typeof apiKey === 'string') keys.push(apiKey.trim());
  const authorization = headers.authorization;
  if (authorization !== undefined) {
    // Only the Bearer scheme carries the key; the scheme name is case-insensitive.
    const bearer = /^Bearer +([^\s]+) *$/i.exec(authorization);
    const value = bearer?.[1];
    if (value !== undefined) (tokens !== undefined && jwtShape.test(value) ? jwts : keys).push(value);
  }
  return { keys, jwts };
}

/** Verifies JWT access tokens (the authorization server's, see oauth/access-tokens.ts). */
export interface AccessTokenVerifier {
  /** The token's scopes, or `undefined` when it is not valid in any way. */
  verify(token: string): Promise<readonly Scope[] | undefined>;
}

/** The name of the session cookie (`sessions.ts` sets it). */
export const sessionCookie = 'session';

/** The values of every `session` cookie in the request's Cookie header. */
function sessionIdsFrom(headers: IncomingHttpHeaders): string[] {
  const cookie = headers.cookie;
  if (cookie === undefined) return [];
  const ids: string[] = [];
  for (const pair of cookie.split(';')) {
    const eq = pair.indexOf('=');
    if (eq !== -1 && pair.slice(0, eq).trim() === sessionCookie) ids.push(pair.slice(eq + 1).trim());
  }
  return ids;
}

/** What the pipeline authenticates against. */
export interface AuthState {
  readonly keys: KeyRing;
  readonly sessions: SessionStore;
  /** Verifies `Authorization: Bearer <JWT>`; without it, every bearer value is taken for an API key. */
  readonly accessTokens?: AccessTokenVerifier;
}

/**
 * Lets the request through with its {@link Credentials}, or throws 401 with a
 * `WWW-Authenticate` challenge: a bare `realm` when no credentials came (RFC 6750 §3.1:
 * no error code then), and `error="invalid_token"` when one came and is wrong, unknown
 * or revoked. The query string is never read for a key (conventions §5.1). A JWT access
 * token grants the scopes of its `scope` claim.
 */
export async function authenticate(headers: IncomingHttpHeaders, query: URLSearchParams, state: AuthState): Promise<Credentials> {
  const { keys, sessions } = state;
  const { keys: presented, jwts } = presentedCredentials(headers, state.accessTokens);
  if (faultActive('api-key-in-query')) {
    for (const name of queryKeyNames) presented.push(...query.getAll(name));
  }
  if (faultActive('api-key-in-camel-query')) presented.push(...query.getAll(camelQueryKeyName));
  const sessionIds = sessionIdsFrom(headers);
  if (presented.length === 0 && jwts.length === 0 && sessionIds.length === 0) {
    if (faultActive('forbidden-for-missing-credentials')) {
      throw new ProblemError(genericProblem(403, 'This request is not allowed without credentials.'));
    }
    throw unauthorized(
      'This request needs an API key, sent as "X-API-Key: <key>" or "Authorization: Bearer <key>", or a session cookie.',
      undefined,
    );
  }
  const granted: (readonly Scope[])[] = [];
  for (const key of presented) {
    const entry = keys.find(key);
    // Fault `garbage-key-accepted`: a long enough X-API-Key "looks like" a key.
    const garbage = entry === undefined && faultActive('garbage-key-accepted') && key.length >= 40 && key === headers['x-api-key']?.toString().trim();
    if (entry === undefined && !garbage) throw unauthorized('The API key sent with this request is not valid.', 'invalid_token');
    granted.push(entry?.scopes ?? fullScopes);
  }
  for (const jwt of jwts) {
    const scopes = await state.accessTokens?.verify(jwt);
    if (scopes === undefined) throw unauthorized('The access token sent with this request is not valid: malformed, badly signed, expired, or not issued for this API.', 'invalid_token');
    granted.push(scopes);
  }
  let session: string | undefined;
  for (const id of sessionIds) {
    const keyId = sessions.keyOf(id);
    const scopes = keyId === undefined ? undefined : keys.scopesOf(keyId);
    if (scopes === undefined) throw unauthorized('The session of this request has ended or never existed; log in again.', 'invalid_token');
    granted.push(scopes);
    session = id;
  }
  const scopes = granted.reduce((a, b) => intersectScopes(a, b));
  return { scopes, keys: presented, ...(session !== undefined && { session }) };
}

/**
 * Throws 403 when the credentials lack the scope the request needs (RFC 6750 §3.1
 * `insufficient_scope`, naming the scope). Paths without a resource need none.
 */
export function authorize(credentials: Credentials, method: string, path: string): void {
  const needed = requiredScope(method, path);
  if (needed === undefined || grants(credentials.scopes, needed)) return;
  if (method === 'DELETE' && faultActive('scope-not-enforced-on-delete')) return;
  const challenge = { 'WWW-Authenticate': `Bearer realm="${realm}", error="insufficient_scope", scope="${needed}"` };
  const detail = `The credentials of this request lack the scope "${needed}".`;
  if (faultActive('unauthorized-for-missing-scope')) throw new ProblemError(genericProblem(401, detail), challenge);
  throw new ProblemError(genericProblem(403, detail), challenge);
}
