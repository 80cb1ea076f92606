/** §5.1–5.3 and §7's 401 row: missing, invalid and revoked credentials are refused with a challenge; keys never travel in URLs. */
import { CheckSkipped, defineCheck } from '../../src/model/check.js';
import type { CheckContext, HttpResponse, RequestSpec } from '../../src/model/context.js';
import type { CollectionProfile, MintAuth } from '../../src/model/profile.js';
import { challengeCause, challengeProblem, commonKeyParams, currentKey, garbageKey, withKey } from '../../src/check-kit/auth.js';
import { describe, ensure, expectEvery, expectJsonObject } from '../../src/check-kit/expect.js';
import { errorProbes, sharedGet, sharedItemWithCreate, unknownItemPath } from '../../src/check-kit/probes.js';
import { setupError } from '../../src/check-kit/setup.js';
import { requireProtected } from '../../src/check-kit/protected-route.js';
import { createdItemUrl } from '../../src/check-kit/created-url.js';
import { supports } from '../../src/model/needs.js';
import { withQueryParam } from '../../src/check-kit/versions.js';

/** Fails listing every response that is no proper 401. */
function expectChallenges(responses: readonly HttpResponse[], what: string): void {
  expectEvery(responses, challengeProblem, (bad, all, found) => `${bad} of ${all} requests ${what} were not refused properly — ${found}; expected 401 with a WWW-Authenticate challenge`, '401 + WWW-Authenticate', challengeCause);
}

/**
 * The requests of every method the collection takes, sent `how` (without credentials, or
 * with another): reads of the collection and of an item, and (on a run that may write)
 * writes that create nothing a refusing target would keep: a POST of the configured create
 * body with the run's mark (sendCreating adds it), and writes to an item that does not exist.
 * The bodies are the configured valid ones: a framework that validates the body before it
 * authenticates (Fastify with auth in preHandler) answers an invalid one 400, which says
 * nothing of the credentials. Anything a lenient target did create is cleaned up.
 */
async function everyMethod(ctx: CheckContext, c: CollectionProfile, mayWrite: boolean, how: Pick<RequestSpec, 'auth' | 'headers'>): Promise<HttpResponse[]> {
  const item = unknownItemPath(c);
  // Without credentials, the listing's GET is the run's shared probe (ERR- problem checks judge its body).
  const listing = how.auth === false && how.headers === undefined ? await errorProbes.withoutCredentials(ctx, c) : await ctx.http.send({ method: 'GET', path: c.path, ...how });
  const out = [listing, await ctx.http.send({ method: 'GET', path: item, ...how })];
  if (!mayWrite) return out;
  // A POST only where restprobe could delete what a lenient target made of it.
  if (supports(c, 'POST') && supports(c, 'DELETE')) out.push(await ctx.sendCreating(c, { method: 'POST', path: c.path, json: c.createBody ?? {}, ...how }));
  const bodies = { PUT: c.replaceBody ?? c.createBody ?? {}, PATCH: c.patchBody ?? {} };
  for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
    if (!supports(c, method)) continue;
    const write: RequestSpec = { method, path: item, ...(method !== 'DELETE' && { json: bodies[method] }), ...how };
    let res = await ctx.http.send(write);
    if (res.status === 428) {
      // A target that requires a precondition before it authenticates says nothing of the
      // credentials with its 428. `If-Match: *` satisfies the requirement; a server ignores it
      // where its answer would be neither 2xx nor 412 (RFC 9110 §13.2.1), and on an item that
      // does not exist it lets nothing through.
      ctx.note(`${method} ${item} answered 428 Precondition Required: sent again with If-Match: *`);
      res = await ctx.http.send({ ...write, headers: { ...how.headers, 'If-Match': '*' } });
    }
    if (method === 'PUT' && res.status >= 200 && res.status < 300) ctx.track(ctx.http.url(item));
    out.push(res);
  }
  return out;
}

export const missingCredentials401 = defineCheck({
  id: 'AUT-missing-credentials-401',
  title: 'A request without credentials gets 401 with a challenge',
  rule: 'A request without credentials MUST get 401 with a `WWW-Authenticate` challenge, on every method of every collection (RFC 9110 §11.6.1, §15.5.2; conventions §5, §7), never 403 and never data (its problem+json body is judged by the ERR- problem checks).',
  severity: 'must',
  needs: [],
  uses: ['collection', 'credentials', 'mayWrite'],
  async run(ctx, { collection, credentials, mayWrite }) {
    if (collection === undefined || credentials === undefined) {
      // Too little config to know what must be protected: judged only where the answer shows it is.
      const res = await ctx.http.send({ method: 'GET', path: collection?.path ?? '/', auth: false });
      const key = credentials === undefined ? 'auth.apiKey' : 'collections';
      if (res.status !== 401 && res.status !== 403) throw new CheckSkipped(`${describe(res)} without credentials: it looks unprotected, so restprobe cannot tell a missing 401 from an open API`, key);
      expectChallenges([res], 'without credentials');
      return;
    }
    expectChallenges(await everyMethod(ctx, collection, mayWrite === true, { auth: false }), 'without credentials');
    const control = await sharedGet(ctx, { path: collection.path });
    if (control.status === 401) throw setupError(control, `${describe(control)} with the configured credentials too, so a 401 says nothing about missing ones`);
  },
});

export const invalidCredentials401 = defineCheck({
  id: 'AUT-invalid-credentials-401',
  title: 'Unknown and malformed credentials get 401 with a challenge',
  rule: 'A request with an unknown, malformed or wrongly presented credential MUST get 401 with a `WWW-Authenticate` challenge, on every method of every collection (RFC 6750 §3.1: `invalid_token`); `Authorization: Bearer` with no token may get 400 instead (RFC 6750 §3.1: `invalid_request`).',
  severity: 'must',
  needs: ['collection', 'credentials'],
  uses: ['mayWrite'],
  // A target that gets the plain missing-credentials 401 wrong gets these wrong for the same reason.
  dependsOn: ['AUT-missing-credentials-401'],
  async run(ctx, { collection, credentials, mayWrite }) {
    const unknown = garbageKey();
    expectChallenges(await everyMethod(ctx, collection, mayWrite === true, withKey(credentials, unknown)), 'with an unknown key');
    const key = await currentKey(ctx, credentials);
    const malformed = [
      // The real key, one character short: a near miss must not pass a prefix comparison.
      await ctx.http.send({ method: 'GET', path: collection.path, ...withKey(credentials, key.slice(0, -1)) }),
      await ctx.http.send({ method: 'GET', path: collection.path, auth: false, headers: { authorization: `Restprobe ${unknown}` } }),
    ];
    const noToken = await ctx.http.send({ method: 'GET', path: collection.path, auth: false, headers: { authorization: 'Bearer' } });
    // A Bearer scheme without its token is a malformed request, which RFC 6750 §3.1 says SHOULD get 400 (invalid_request), as passport-http-bearer answers.
    if (noToken.status === 400) ctx.note(`${describe(noToken)} to Authorization: Bearer without a token: the malformed request RFC 6750 §3.1 answers with 400 (invalid_request)`);
    else malformed.push(noToken);
    expectChallenges(malformed, 'with a malformed credential');
  },
});

export const keyNotInQuery = defineCheck({
  id: 'AUT-key-not-in-query',
  title: 'A key in the query string is not accepted',
  rule: 'An API key MUST NOT be accepted from the query string (conventions §5.1: keys travel in a header, never in a URL, where logs and Referer headers keep them).',
  severity: 'must',
  needs: ['collection', 'credentials'],
  // A redirect to a login page, as a request without credentials gets, is a refusal it judges.
  judges: ['2xx', '3xx', '4xx'],
  async run(ctx, { collection, credentials }) {
    const refusal = (await requireProtected(ctx, collection, 'whether a key in the URL is accepted')).status;
    if (refusal >= 300 && refusal < 400) {
      // A redirect is a refusal only where the configured key is served: a target that redirects every request refuses nothing.
      const control = await sharedGet(ctx, { path: collection.path });
      if (control.status < 200 || control.status > 299) throw setupError(control, `${describe(control)} with the configured credentials too, so a ${refusal} to a key in the URL says nothing of it`);
    }
    const key = await currentKey(ctx, credentials);
    // The key's own header name too (x-api-key): a gateway may take it in the query under the same name.
    const header = ctx.profile.auth.apiKey?.header.toLowerCase();
    const names = [...new Set([...commonKeyParams, ...ctx.profile.auth.queryParams, ...(header !== undefined && header !== 'authorization' ? [header] : [])])];
    // Each name on its own on the first collection: a server that refuses a request naming one
    // (a gateway's rule against ?api_key=) could hide another it takes. On the others, where a
    // route may lack the API's key handling or read a key of its own, the names go together, and
    // a request with them all counts only when the route refuses it as it refuses a request
    // without credentials: any other answer (a 2xx, a URL too long, a 422 for a name it reads as
    // a filter) sends its names again one at a time, and names the one taken.
    const first = ctx.collections[0];
    const together = first !== undefined && first.path !== collection.path && (await errorProbes.withoutCredentials(ctx, first)).status >= 400;
    const send = (batch: readonly string[]) => ctx.http.send({ method: 'GET', path: batch.reduce((path, name) => withQueryParam(path, name, key), collection.path), auth: false });
    // Refused as a request without credentials is (a 302 to a login page, ASP.NET Identity's and
    // Django's login_required), the key was not taken: only a 2xx, or another answer below 400, takes it.
    const judge = (res: HttpResponse, name: string) =>
      ensure(res.status >= 400 || (res.status === refusal && res.status >= 300), `${describe(res)} with the key in ?${name}= and no credential header: the key was accepted from the URL, expected 401 (or the ${refusal} a request without credentials gets)`, '401', String(res.status));
    if (together) ctx.note(`the query names sent together, a request for each where the route answered otherwise than without credentials (${refusal}): ${first.path} is sent each on its own`);
    for (const batch of together ? queryBatches(names, encodeURIComponent(key).length) : names.map((name) => [name])) {
      const res = await send(batch);
      if (batch.length === 1) judge(res, batch[0]!);
      else if (res.status !== refusal) for (const name of batch) judge(await send([name]), name);
    }
  },
});

/** The most a request's query holds of names and keys sent together: well under the 8 KB a proxy or server takes in a request line (nginx, Tomcat). */
const queryBatchChars = 4_000;

/**
 * `names` in groups to send in one request each: within the query length {@link queryBatchChars},
 * and no two that differ only in case (ASP.NET reads `apikey` and `apiKey` as one name with two values).
 */
function queryBatches(names: readonly string[], keyChars: number): string[][] {
  const batches: string[][] = [];
  const length = (batch: readonly string[]) => batch.reduce((n, name) => n + encodeURIComponent(name).length + keyChars + 2, 0);
  for (const name of names) {
    const fits = batches.find((b) => !b.some((x) => x.toLowerCase() === name.toLowerCase()) && length([...b, name]) <= queryBatchChars);
    if (fits) fits.push(name);
    else batches.push([name]);
  }
  return batches;
}

export const revokedKey401 = defineCheck({
  id: 'AUT-revoked-key-401',
  title: 'A deleted key stops working at once',
  rule: 'Once an API key is deleted, a request with it MUST get 401 with a `WWW-Authenticate` challenge, at once (conventions §5: a leaked key is rotated).',
  severity: 'must',
  needs: ['mint', 'credentials'],
  dependsOn: ['AUT-missing-credentials-401'],
  async run(ctx, { mint, credentials }) {
    const first = ctx.collections[0];
    if (first !== undefined) await requireProtected(ctx, first, 'whether a deleted key still works');
    const { key, url } = await mintKey(ctx, mint);
    const probe = first?.path ?? url;
    const before = await ctx.http.send({ method: 'GET', path: probe, ...withKey(credentials, key) });
    if (before.status === 401 || before.status === 403) throw setupError(before, `${describe(before)} with the key just minted, so its revocation cannot be shown`);
    const deleted = await ctx.http.send({ method: 'DELETE', url });
    if (deleted.status < 200 || deleted.status > 299) throw setupError(deleted, `deleting the minted key failed: DELETE answered ${deleted.status}`);
    expectChallenges([await ctx.http.send({ method: 'GET', path: probe, ...withKey(credentials, key) })], 'with the deleted key');
  },
});

export const mintedSecretOnce = defineCheck({
  id: 'AUT-minted-secret-once',
  title: 'A minted key is shown once, never again',
  rule: 'A minted API key MUST appear only in the response that created it: no later read of the key shows the secret (conventions §5; LIM-no-store-secrets judges that response\'s no-store).',
  severity: 'must',
  needs: ['mint'],
  async run(ctx, { mint }) {
    const { key, url } = await mintKey(ctx, mint);
    const again = await ctx.http.send({ method: 'GET', url });
    if (again.status !== 200) throw setupError(again, `reading the minted key back: GET answered ${again.status}`);
    ensure(!again.text.includes(key), `${describe(again)} shows the minted key's secret again, expected it only in the response that created the key`, 'no secret', 'the secret');
  },
});

export const noCredentialInUrl = defineCheck({
  id: 'AUT-no-credential-in-url',
  title: 'No response puts a credential in a URL',
  rule: 'No response MUST carry the caller\'s credential in a URL or anywhere else it returns: not in Location, Content-Location or Link, not in `_links` or `next_cursor`, not in the body (conventions §5.1: credentials never travel in URLs); one under 16 characters, which ordinary data may hold, is sought only as a query parameter\'s value.',
  severity: 'must',
  needs: ['writable', 'credentials'],
  async run(ctx, { writable: c, credentials }) {
    const key = await currentKey(ctx, credentials);
    const forms = [...new Set([key, encodeURIComponent(key)])];
    // The shared item's create carried the configured key; an issued token may have been renewed since, so the check then makes its own item.
    const item = credentials.issued === undefined ? await sharedItemWithCreate(ctx, c) : await ctx.create(c);
    const read = credentials.issued === undefined ? await sharedGet(ctx, { url: item.url }) : await ctx.http.send({ method: 'GET', url: item.url });
    const responses = [item.response, read, await ctx.http.send({ method: 'GET', path: withQueryParam(c.path, c.pagination.limitParam, '1') })];
    // A short credential (a CI key "test", the FastAPI tutorial's token that is the username)
    // may be ordinary data too: it is sought only as a query parameter's value, as in a URL.
    const short = key.length < shortCredential;
    // Where a URL's query value ends: another parameter, the fragment, or what closes the URL in text (a quote, `>` in a Link, JSON's `\u0026`).
    const inQuery = forms.map((f) => new RegExp(`(?:[?&]|\\\\u0026)[^=&#\\s"]*=${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=[&#"'\\s>;,)\\\\]|$)`));
    const holds = (text: string): boolean => (short ? inQuery.some((r) => r.test(text)) : forms.some((f) => text.includes(f)));
    for (const res of responses) {
      // Set-Cookie is the one place a target hands out a credential: a session, not the caller's key.
      const places = Object.entries(res.headers).filter(([name]) => name !== 'set-cookie').map(([name, v]) => [name, v] as const);
      const where = [...places.filter(([, v]) => holds(v)).map(([name]) => `the ${name} header`), ...(holds(res.text) ? ['the body'] : [])];
      ensure(where.length === 0, `${describe(res)} carries the caller's credential (${credentials.value.envName}) in ${where.join(' and ')}${short ? ' as a query parameter' : ''}, expected it nowhere in a response`, 'no credential', where.join(', '));
      if (short && forms.some((f) => res.text.includes(f) || places.some(([, v]) => v.includes(f)))) ctx.note(`${describe(res)} shows the value of ${credentials.value.envName} outside a URL's query, as ordinary data may: a credential under ${shortCredential} characters is judged only in a query`);
    }
  },
});

/** Credentials shorter than this may be ordinary words (no generated key or token is): they are sought only in URLs' queries. */
const shortCredential = 16;

/** Mints a key, treats it as a secret, and registers it for cleanup. */
async function mintKey(ctx: CheckContext, mint: MintAuth): Promise<{ key: string; url: string }> {
  const res = await ctx.http.send({ method: 'POST', path: mint.path, json: mint.body });
  // Resolved as every created item's Location is (behind a gateway's path prefix too).
  const url = res.status >= 200 && res.status < 300 && res.headers['location'] !== undefined ? createdItemUrl(ctx.profile, res).url : undefined;
  if (url !== undefined) ctx.track(url);
  if (res.status < 200 || res.status > 299) throw setupError(res, `minting a key failed: POST ${mint.path} answered ${res.status}`);
  const key = expectJsonObject(res, 'the minted key')[mint.secretField];
  if (typeof key === 'string' && key !== '') ctx.treatAsSecret(key, 'MINTED_KEY');
  if (typeof key !== 'string' || key === '') throw setupError(res, `${describe(res)} holds no "${mint.secretField}": no key to judge (auth.mint.secretField)`);
  if (url === undefined) throw setupError(res, `${describe(res)} has no Location: the minted key cannot be read back or deleted`);
  return { key, url };
}

export const credentialChecks = [missingCredentials401, invalidCredentials401, keyNotInQuery, noCredentialInUrl, revokedKey401, mintedSecretOnce];
