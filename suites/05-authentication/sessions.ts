/** §5 credential kinds: the session's cookie is Secure, HttpOnly and SameSite, and logout ends it on the server. */
import { CheckFailure, CheckSkipped, defineCheck } from '../../src/model/check.js';
import { logIn, sessionCookies, sessionProbe, type SetCookie } from '../../src/check-kit/auth.js';
import { describe, ensure } from '../../src/check-kit/expect.js';
import { setupError } from '../../src/check-kit/setup.js';

/** Why a session cookie is not Secure, HttpOnly and SameSite=Lax or Strict, or undefined when it is. */
function cookieProblem(c: SetCookie): string | undefined {
  const sameSite = c.attributes.get('samesite')?.toLowerCase();
  const missing = [
    ...(c.attributes.has('secure') ? [] : ['Secure']),
    ...(c.attributes.has('httponly') ? [] : ['HttpOnly']),
    ...(sameSite === 'lax' || sameSite === 'strict' ? [] : [sameSite === undefined ? 'SameSite' : `SameSite=Lax or Strict (it is ${sameSite})`]),
  ];
  // The name and attributes only: the value is the session.
  return missing.length === 0 ? undefined : `cookie "${c.name}" (${[...c.attributes.keys()].join('; ') || 'no attributes'}) lacks ${missing.join(', ')}`;
}

export const cookieAttributes = defineCheck({
  id: 'AUT-cookie-attributes',
  title: 'Session cookies are Secure, HttpOnly and SameSite',
  rule: 'The cookie that holds the session MUST carry `Secure`, `HttpOnly` and `SameSite=Lax` or `SameSite=Strict` (conventions §5.11; RFC 6265 §4.1.2); other cookies of the login, such as a CSRF token scripts must read, are not judged.',
  severity: 'must',
  needs: ['session'],
  async run(ctx, { session }) {
    const s = await logIn(ctx, session);
    try {
      const judged = await sessionCookies(ctx, session, s);
      const others = s.cookies.filter((c) => !judged.includes(c));
      if (others.length > 0) ctx.note(`not the session's, so not judged: ${others.map((c) => `cookie "${c.name}" (${[...c.attributes.keys()].join('; ') || 'no attributes'})`).join(', ')}`);
      const bad = judged.map(cookieProblem).filter((p) => p !== undefined);
      if (bad.length > 0) throw new CheckFailure(`${describe(s.login)}: the session ${bad.join('; ')}, expected Secure, HttpOnly and SameSite=Lax or Strict`, 'Secure; HttpOnly; SameSite=Lax|Strict', bad.join('; '), s.login.exchangeIndex);
    } finally {
      await s.logout();
    }
  },
});

export const logoutEndsSession = defineCheck({
  id: 'AUT-logout-ends-session',
  title: 'After logout, the session cookie gets 401',
  rule: 'Logout MUST delete the session on the server: the same cookie, sent again, MUST be refused, with 401 (conventions §5: a session is an opaque id the server can revoke; another 4xx is AUT-missing-credentials-401\'s to judge).',
  severity: 'must',
  needs: ['session'],
  async run(ctx, { session }) {
    const s = await logIn(ctx, session);
    const probe = sessionProbe(ctx, session);
    const withCookie = { method: 'GET', path: probe, auth: false, headers: { cookie: s.cookieHeader } } as const;
    const before = await ctx.http.send(withCookie);
    // Only a route the session was seen to open can show its end (a GET of the logout path may answer 405 or 404 before and after).
    if (before.status < 200 || before.status > 299) {
      await s.logout();
      throw setupError(before, `${describe(before)} with the session cookie just set, so its end cannot be shown (a collection the session reads: collections)`);
    }
    const out = await s.logout();
    if (out.status < 200 || out.status > 299) throw setupError(out, `logging out failed: DELETE ${session.logoutPath} answered ${out.status}`);
    const after = await ctx.http.send(withCookie);
    if (after.status >= 200 && after.status < 300) {
      // A route served without any session shows nothing of this one's end.
      const anonymous = await ctx.http.send({ method: 'GET', path: probe, auth: false });
      if (anonymous.status >= 200 && anonymous.status < 300) throw new CheckSkipped(`${describe(anonymous)} without a session too: ${probe} is public, so the session's end cannot be seen there`, 'auth.session');
    }
    // A refusal other than 401 (Django REST framework's 403 to a request it cannot authenticate) shows the session ended; the status is AUT-missing-credentials-401's to judge.
    if (after.status !== 401 && after.status >= 400 && after.status < 500) return ctx.note(`${describe(after)} with the session cookie after logout: the session ended (that a request without a valid credential gets ${after.status}, not 401, is AUT-missing-credentials-401's finding)`);
    ensure(after.status === 401, `${describe(after)} with the session cookie after logout answered ${out.status}, expected 401: the session still works`, '401', String(after.status));
  },
});

export const sessionChecks = [cookieAttributes, logoutEndsSession];
