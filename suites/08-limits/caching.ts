/** §8.6–8.7 Cache-Control: present, well-formed, and never public on a personalised response. */
import { CheckFailure, CheckSkipped, defineCheck } from '../../src/model/check.js';
import type { CheckContext, HttpResponse } from '../../src/model/context.js';
import type { CollectionProfile } from '../../src/model/profile.js';
import type { WritableCollection } from '../../src/model/needs.js';
import { describe, ensure, expectStatus } from '../../src/check-kit/expect.js';
import { configuredSecretMembers, secretMemberValues } from '../../src/check-kit/secret-members.js';
import { createdItemUrl } from '../../src/check-kit/created-url.js';
import { hasCacheDirective, parseCacheControl } from '../../src/check-kit/http-grammar.js';
import { errorProbes, sharedGet, sharedItem } from '../../src/check-kit/probes.js';

/** GET responses worth judging: the collection and, when one can be created, an item (the run's shared one: only read). */
async function getResponses(ctx: CheckContext, needs: { collection: CollectionProfile; writable?: WritableCollection | undefined }): Promise<HttpResponse[]> {
  const out = [await sharedGet(ctx, { path: needs.collection.path })];
  if (needs.writable) {
    const item = await sharedItem(ctx, needs.writable);
    out.push(await sharedGet(ctx, { url: item.url }));
  }
  const ok = out.filter((r) => r.status === 200);
  if (ok.length === 0) throw new CheckSkipped(`no successful GET to judge (${out.map(describe).join('; ')}; see END-get-collection-200)`);
  return ok;
}

/** The responses that carry Cache-Control; none is nothing to judge (a skip), not a pass. */
function withCacheControl(responses: readonly HttpResponse[]): HttpResponse[] {
  const carrying = responses.filter((r) => r.headers['cache-control'] !== undefined);
  if (carrying.length === 0) throw new CheckSkipped(`no response carried Cache-Control (${responses.map(describe).join('; ')}), so there is nothing to judge; LIM-cache-control-present judges the missing header`);
  return carrying;
}

export const cacheControlPresent = defineCheck({
  id: 'LIM-cache-control-present',
  title: 'GET responses declare their cacheability',
  rule: 'Responses MUST declare their cacheability: every successful GET MUST carry `Cache-Control`.',
  severity: 'must',
  needs: ['collection'],
  uses: ['writable'],
  async run(ctx, needs) {
    const bare = (await getResponses(ctx, needs)).filter((r) => r.headers['cache-control'] === undefined);
    ensure(bare.length === 0, `${bare.map(describe).join('; ')} carry no Cache-Control, expected every GET to declare its cacheability`, 'Cache-Control', 'none');
  },
});

export const cacheControlWellFormed = defineCheck({
  id: 'LIM-cache-control-well-formed',
  title: 'Cache-Control is well-formed',
  rule: 'Every `Cache-Control` MUST follow RFC 9111 §5.2: `#( token [ "=" ( token / quoted-string ) ] )`, with `max-age` and `s-maxage` as unquoted digits.',
  severity: 'must',
  needs: ['collection'],
  uses: ['writable'],
  async run(ctx, needs) {
    const responses = withCacheControl([...(await getResponses(ctx, needs)), await errorProbes.unknownItem(ctx, needs.collection)]);
    const problems = responses.flatMap((r) => parseCacheControl(r.headers['cache-control']!).problems.map((p) => `${describe(r)}: ${p}`));
    ensure(problems.length === 0, `${problems.join('; ')}; expected well-formed directives`, 'RFC 9111 §5.2 syntax', problems.join('; '));
  },
});

export const credentialedNotPublic = defineCheck({
  id: 'LIM-credentialed-not-public',
  title: 'Personalised responses are not cached as public',
  rule: 'A response of a collection the config declares personalised (`collections[].personalised`) MUST NOT be storable by shared caches: no `public` or `s-maxage`, and `private` or `no-store`, and no `CDN-Cache-Control` or `Surrogate-Control` that lets a CDN store it (RFC 9213), unless the request carried `Authorization` and the response no `must-revalidate`, which RFC 9111 §3.5 keeps shared caches from reusing (an API key in another header names an application, and a shared cache may store what it gets).',
  severity: 'must',
  needs: ['personalised', 'credentials'],
  uses: ['mayWrite'],
  async run(ctx, { personalised, mayWrite, credentials }) {
    // RFC 9111 §3.5: a shared cache reuses a response to a request with Authorization only when public, s-maxage or must-revalidate allows it.
    const authorization = credentials.header.toLowerCase() === 'authorization';
    const judged: HttpResponse[] = [];
    for (const collection of personalised) {
      const writable = mayWrite && collection.createBody !== undefined ? (collection as WritableCollection) : undefined;
      const responses = await getResponses(ctx, { collection, writable });
      judged.push(...responses);
      // A header for CDNs alone (RFC 9213 CDN-Cache-Control, Cloudflare's own, Fastly's and Akamai's
      // Surrogate-Control) overrides Cache-Control there: one that lets the CDN store the response shares it.
      for (const res of responses) {
        for (const name of cdnCacheHeaders) {
          const value = res.headers[name];
          if (value === undefined) continue;
          const directives = parseCacheControl(value).directives;
          const refused = directives.some((d) => d.name === 'no-store' || (d.name === 'private' && d.value === undefined));
          const stores = directives.some((d) => d.name === 'public' || ((d.name === 'max-age' || d.name === 's-maxage') && Number(d.value) > 0));
          // A CDN is a shared cache: RFC 9111 §3.5 keeps it from reusing an answer to a request with Authorization unless the header allows that.
          const reusedDespiteAuthorization = directives.some((d) => d.name === 'public' || d.name === 's-maxage' || d.name === 'must-revalidate');
          if (stores && !refused && authorization && !reusedDespiteAuthorization) {
            ctx.note(`${describe(res)} of personalised ${collection.name} has ${name}: ${value}: sent with Authorization, so no CDN reuses it (RFC 9111 §3.5)`);
            continue;
          }
          if (stores && !refused) throw new CheckFailure(`${describe(res)} of personalised ${collection.name} has ${name}: ${value}, which lets a CDN store it whatever Cache-Control says (RFC 9213), expected private or no-store there too, or no such header`, `no storing ${name}`, `${name}: ${value}`, res.exchangeIndex);
        }
      }
      // LIM-cache-control-present owns a missing header.
      for (const res of responses.filter((r) => r.headers['cache-control'] !== undefined)) {
        const value = res.headers['cache-control']!;
        const directives = parseCacheControl(value).directives;
        const names = directives.map((d) => d.name);
        const shared = names.filter((n) => n === 'public' || n === 's-maxage');
        ensure(shared.length === 0, `${describe(res)} of personalised ${collection.name} has Cache-Control "${value}", expected no ${shared.join(' or ')}`, 'private or no-store', value);
        // private="Set-Cookie" keeps only the fields it names from shared caches, the content not (RFC 9111 §5.2.2.7).
        if (directives.some((d) => (d.name === 'private' && d.value === undefined) || d.name === 'no-store')) continue;
        if (names.includes('private')) ctx.note(`${describe(res)} of personalised ${collection.name} has Cache-Control "${value}": a private naming fields keeps only those from shared caches, not the content`);
        if (authorization && !names.includes('must-revalidate')) {
          ctx.note(`${describe(res)} of personalised ${collection.name} has Cache-Control "${value}": sent with Authorization, so no shared cache reuses it (RFC 9111 §3.5)`);
          continue;
        }
        const why = authorization ? 'must-revalidate lets shared caches reuse it even for a request with Authorization (RFC 9111 §3.5)' : `shared caches may store it, as the key travels in ${credentials.header}, not Authorization (RFC 9111 §3.5)`;
        throw new CheckFailure(`${describe(res)} of personalised ${collection.name} has Cache-Control "${value}": ${why}; expected private or no-store so shared caches keep it to one user`, 'private or no-store', value, res.exchangeIndex);
      }
    }
    withCacheControl(judged);
  },
});

/** Cache headers a CDN reads before Cache-Control (RFC 9213; Cloudflare's; Fastly's and Akamai's Surrogate-Control). */
const cdnCacheHeaders = ['cdn-cache-control', 'cloudflare-cdn-cache-control', 'surrogate-control'] as const;

export const noStoreSecrets = defineCheck({
  id: 'LIM-no-store-secrets',
  title: 'Responses that hold a secret are never stored',
  rule: 'A response that holds a secret (a minted key, a token) MUST carry `Cache-Control: no-store` (RFC 9111 §5.2.2.5; RFC 6749 §5.1 for token responses).',
  severity: 'must',
  needs: ['credentials', 'secretEndpoints'],
  async run(ctx, { secretEndpoints: endpoints }) {
    for (const endpoint of endpoints) {
      const res = await ctx.http.send({ method: endpoint.method, path: endpoint.path, ...(endpoint.body !== undefined && { json: endpoint.body }) });
      if (res.status >= 200 && res.status < 300) {
        const { url, reason } = createdItemUrl(ctx.profile, res);
        if (url) ctx.track(url);
        else if (endpoint.method === 'POST') ctx.note(`${describe(res)}: a secret may have been minted that restprobe cannot revoke (${reason}); revoke it by hand`);
      }
      expectStatus(res, [200, 201], `${endpoint.method} ${endpoint.path}`);
      const found = secretMemberValues(res.json, configuredSecretMembers(ctx.profile));
      for (const value of found) ctx.treatAsSecret(value);
      if (found.length === 0) ctx.note(`${describe(res)}: no member named like a secret (token, key, secret…); judged as configured`);
      ensure(hasCacheDirective(res.headers['cache-control'], 'no-store'), `${describe(res)} holds a secret but has Cache-Control ${JSON.stringify(res.headers['cache-control'] ?? null)}, expected no-store`, 'no-store', res.headers['cache-control'] ?? 'none');
    }
  },
});

export const cachingChecks = [cacheControlPresent, cacheControlWellFormed, credentialedNotPublic, noStoreSecrets];
