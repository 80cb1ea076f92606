/** §5.4 and §7's 403 row: a valid credential without the scope is refused with 403, on every call. */
import { defineCheck } from '../../src/model/check.js';
import type { HttpResponse } from '../../src/model/context.js';
import { withKey } from '../../src/check-kit/auth.js';
import { describe, expectEvery } from '../../src/check-kit/expect.js';
import { sendTracked } from '../../src/check-kit/probes.js';
import { setupError } from '../../src/check-kit/setup.js';

/** Why a refusal for a missing scope is not a 403, or undefined when it is (its problem+json body is the ERR- problem checks'). */
function forbiddenProblem(res: HttpResponse): string | undefined {
  if (res.status >= 200 && res.status < 300) return `${describe(res)}: the write went through`;
  if (res.status === 401) return `${describe(res)}: 401 says the credential is not valid, but it is; it lacks the scope`;
  return res.status === 403 ? undefined : describe(res);
}

export const scope403 = defineCheck({
  id: 'AUT-scope-403',
  title: 'A credential without the write scope gets 403 on every write',
  rule: 'A valid credential that lacks the scope for a call MUST get 403 on every call: never 2xx, and never 401, which would say the credential itself is not valid (conventions §5.4, §7; the 403\'s problem+json body is judged by the ERR- problem checks).',
  severity: 'must',
  needs: ['writable', 'limitedCredential'],
  async run(ctx, { writable: c, limitedCredential: limited }) {
    const item = await ctx.create(c);
    const as = withKey(limited.header, limited.value.value);
    const read = await ctx.http.send({ method: 'GET', url: item.url, ...as });
    if (read.status === 401) throw setupError(read, `${describe(read)} with auth.limited: the credential is not accepted at all, so a missing scope cannot be shown`);
    const scopes = limited.scopes.length > 0 ? ` (scopes ${limited.scopes.join(' ')})` : '';
    // Bodies the target would accept from a credential with the scope; a POST that goes through is cleaned up.
    const writes = [await sendTracked(ctx, c, { method: 'POST', path: c.path, json: c.createBody, ...as })];
    if (c.replaceBody !== undefined) writes.push(await ctx.http.send({ method: 'PUT', url: item.url, json: c.replaceBody, ...as }));
    if (c.patchBody !== undefined) writes.push(await ctx.http.send({ method: 'PATCH', url: item.url, json: c.patchBody, ...as }));
    writes.push(await ctx.http.send({ method: 'DELETE', url: item.url, ...as }));
    expectEvery(writes, forbiddenProblem, (bad, all, found) => `${bad} of ${all} writes with a credential without write scope${scopes} were not refused with 403 — ${found}; expected 403`, '403');
  },
});

export const scopeChecks = [scope403];
