/**
 * Session credentials (conventions §5 "Credential kinds": server-side state, a cookie
 * holding an opaque id, revoked by deleting the server record; §5.11 for the cookie's
 * attributes).
 *
 * `POST /v2/sessions` with `{"api_key": "<key>"}` logs in: 201, and the id in
 * `Set-Cookie: session=<id>; Path=/; Secure; HttpOnly; SameSite=Lax`, never in the body.
 * The cookie then authenticates with the scopes of the key that logged in, for as long
 * as that key is valid. `DELETE /v2/sessions/current` logs out: the record is gone, so
 * the same cookie gets 401.
 */
import { faultActive } from './request-faults.js';
import { ExpiringStore } from './secret-store.js';
import { newSecret } from './secrets.js';
import { sessionCookie, unauthorized, type KeyRing } from './auth.js';
import { requiredBody, type Operation, type RequestContext } from './context.js';
import { notFound, validationFailed } from './problem.js';
import { emptyReply, jsonReply } from './respond.js';
import type { Route } from './router.js';

export const sessionsPath = '/v2/sessions';

/** The session of the request itself (there is no other a client may address). */
export const currentSessionPath = `${sessionsPath}/current`;

/** Enough for any test run; beyond it the oldest session ends, so logins cannot exhaust memory. */
const maxSessions = 10_000;

interface SessionRecord {
  /** The key that logged in: the session has its scopes, and ends when it is revoked. */
  readonly keyId: string;
  readonly createdAt: string;
}

/**
 * The server-side session records, shared by every node: kept by the id's digest (a
 * lookup's timing says nothing about stored ids) until logout, the oldest ending first
 * past the cap.
 */
export class SessionStore {
  private readonly records = new ExpiringStore<SessionRecord>(Infinity, maxSessions);

  /** Starts a session for a key; returns its opaque id (32 random bytes, base64url). */
  create(keyId: string): { id: string; createdAt: string } {
    const id = newSecret();
    const createdAt = new Date().toISOString();
    this.records.set(id, { keyId, createdAt });
    return { id, createdAt };
  }

  /** The key behind a live session; `undefined` when the id names none. */
  keyOf(id: string): string | undefined {
    return this.records.get(id)?.keyId;
  }

  createdAt(id: string): string | undefined {
    return this.records.get(id)?.createdAt;
  }

  /** Logout: deletes the record, so the id never authenticates again. */
  delete(id: string): void {
    this.records.delete(id);
  }
}

/**
 * The Set-Cookie value: `Secure` (never over plain HTTP), `HttpOnly` (out of scripts'
 * reach), `SameSite=Lax` (not sent on cross-site subrequests). `Max-Age=0` clears it.
 */
function setCookie(value: string, clear = false): string {
  const httpOnly = faultActive('session-cookie-not-httponly') ? '' : '; HttpOnly';
  return `${sessionCookie}=${value}; Path=/${clear ? '; Max-Age=0' : ''}; Secure${httpOnly}; SameSite=Lax`;
}

/** The session id that authenticated the request: `/current` names nothing without one. */
function currentSession(ctx: RequestContext): string {
  const id = ctx.credentials?.session;
  if (id === undefined) throw notFound('This request carries no session cookie, so it has no current session.');
  return id;
}

export function sessionRoutes(keys: KeyRing, sessions: SessionStore): Route<Operation>[] {
  return [
    {
      pattern: sessionsPath,
      operations: {
        POST: {
          // The login's credential is the key in its body, not a header.
          access: 'open',
          body: 'required',
          handler: (ctx) => {
            const apiKey = requiredBody(ctx)['api_key'];
            if (typeof apiKey !== 'string' || apiKey.length === 0) {
              throw validationFailed([{ field: 'api_key', message: 'must be a non-empty string: the API key to log in with' }]);
            }
            const entry = keys.find(apiKey);
            if (entry === undefined) throw unauthorized('The API key in the body is not valid.', 'invalid_token');
            const session = sessions.create(entry.id);
            const headers = { Location: currentSessionPath, 'Set-Cookie': setCookie(session.id) };
            return { ...jsonReply(201, { scopes: entry.scopes, created_at: session.createdAt }, headers), holdsSecret: true };
          },
        },
      },
    },
    {
      pattern: currentSessionPath,
      operations: {
        GET: {
          access: 'authenticated',
          handler: (ctx) => {
            const id = currentSession(ctx);
            return jsonReply(200, { scopes: ctx.credentials?.scopes ?? [], created_at: sessions.createdAt(id) ?? null });
          },
        },
        DELETE: {
          // Any session may end itself, whatever its scopes.
          access: 'authenticated',
          handler: (ctx) => {
            const id = currentSession(ctx);
            // Fault `logout-keeps-session`: the browser is told to forget, the server does not.
            if (!faultActive('logout-keeps-session')) sessions.delete(id);
            return emptyReply(204, { 'Set-Cookie': setCookie('', true) });
          },
        },
      },
    },
  ];
}
