/** §8.6–8.7 Cache-Control: present, well-formed, and never public on a personalised response. */
import type { Check } from '../../src/model/check.js';
import type { CheckContext, HttpResponse } from '../../src/model/context.js';
import { CheckSkipped } from '../../src/model/check.js';
import { describe, ensure, expectStatus } from '../../src/checks/expect.js';
import { secretMemberValues } from '../../src/http/redact.js';
import { createdItemUrl } from '../../src/checks/created-url.js';
import { parseCacheControl } from '../../src/checks/http-grammar.js';
import { itemPath, unknownId } from '../../src/checks/probes.js';

/** GET responses worth judging: the collection and, when writes are allowed, one item. */
async function getResponses(ctx: CheckContext): Promise<HttpResponse[]> {
  const collection = ctx.collection();
  const out = [await ctx.http.send({ method: 'GET', path: collection.path })];
  if (!ctx.profile.safety.readOnly && collection.createBody) {
    const item = await ctx.create(collection);
    out.push(await ctx.http.send({ method: 'GET', url: item.url }));
  }
  const ok = out.filter((r) => r.status === 200);
  if (ok.length === 0) throw new CheckSkipped(`no successful GET to judge (${out.map(describe).join('; ')}; see END-get-collection-200)`);
  return ok;
}

export const cacheControlPresent: Check = {
  id: 'LIM-cache-control-present',
  section: 'LIM',
  title: 'GET responses declare their cacheability',
  rule: 'Responses MUST declare their cacheability: every successful GET MUST carry `Cache-Control`.',
  severity: 'must',
  requires: ['collection'],
  async run(ctx) {
    const bare = (await getResponses(ctx)).filter((r) => r.headers['cache-control'] === undefined);
    ensure(bare.length === 0, `${bare.map(describe).join('; ')} carry no Cache-Control, expected every GET to declare its cacheability`, 'Cache-Control', 'none');
  },
};

export const cacheControlWellFormed: Check = {
  id: 'LIM-cache-control-well-formed',
  section: 'LIM',
  title: 'Cache-Control is well-formed',
  rule: 'Every `Cache-Control` MUST follow RFC 9111 §5.2: `#( token [ "=" ( token / quoted-string ) ] )`, with `max-age` and `s-maxage` as unquoted digits.',
  severity: 'must',
  requires: ['collection'],
  async run(ctx) {
    const responses = [...(await getResponses(ctx)), await ctx.http.send({ method: 'GET', path: itemPath(ctx.collection(), unknownId()) })];
    const problems = responses.flatMap((r) => {
      const value = r.headers['cache-control'];
      return value === undefined ? [] : parseCacheControl(value).problems.map((p) => `${describe(r)}: ${p}`);
    });
    ensure(problems.length === 0, `${problems.join('; ')}; expected well-formed directives`, 'RFC 9111 §5.2 syntax', problems.join('; '));
  },
};

export const credentialedNotPublic: Check = {
  id: 'LIM-credentialed-not-public',
  section: 'LIM',
  title: 'Personalised responses are not cached as public',
  rule: 'A response to a request with credentials MUST NOT be cacheable by shared caches: no `public` or `s-maxage`, and `private` or `no-store`.',
  severity: 'must',
  requires: ['collection', 'credentials'],
  async run(ctx) {
    for (const res of await getResponses(ctx)) {
      const value = res.headers['cache-control'];
      if (value === undefined) continue; // LIM-cache-control-present owns a missing header
      const names = parseCacheControl(value).directives.map((d) => d.name);
      const shared = names.filter((n) => n === 'public' || n === 's-maxage');
      ensure(shared.length === 0, `${describe(res)} to a credentialed request has Cache-Control "${value}", expected no ${shared.join(' or ')}`, 'private or no-store', value);
      ensure(names.includes('private') || names.includes('no-store'), `${describe(res)} to a credentialed request has Cache-Control "${value}", expected private or no-store so shared caches keep it to one user`, 'private or no-store', value);
    }
  },
};

export const noStoreSecrets: Check = {
  id: 'LIM-no-store-secrets',
  section: 'LIM',
  title: 'Responses that hold a secret are never stored',
  rule: 'A response that holds a secret (a minted key, a token) MUST carry `Cache-Control: no-store` (RFC 9111 §5.2.2.5; RFC 6749 §5.1 for token responses).',
  severity: 'must',
  requires: ['credentials'],
  async run(ctx) {
    const endpoints = ctx.profile.secretEndpoints;
    if (endpoints.length === 0) throw new CheckSkipped('no request that returns a secret configured', 'secretEndpoints');
    if (ctx.profile.safety.readOnly && endpoints.some((e) => e.method !== 'GET')) throw new CheckSkipped('read-only run: minting a secret writes', 'safety.readOnly');
    for (const endpoint of endpoints) {
      const res = await ctx.http.send({ method: endpoint.method, path: endpoint.path, ...(endpoint.body !== undefined && { json: endpoint.body }) });
      if (res.status >= 200 && res.status < 300) {
        const { url, reason } = createdItemUrl(ctx.profile, res);
        if (url) ctx.track(url);
        else if (endpoint.method === 'POST') ctx.note(`${describe(res)}: a secret may have been minted that restprobe cannot revoke (${reason}); revoke it by hand`);
      }
      expectStatus(res, [200, 201], `${endpoint.method} ${endpoint.path}`);
      const found = secretMemberValues(res.json);
      for (const value of found) ctx.treatAsSecret(value);
      if (found.length === 0) ctx.note(`${describe(res)}: no member named like a secret (token, key, secret…); judged as configured`);
      const directives = parseCacheControl(res.headers['cache-control'] ?? '').directives.map((d) => d.name);
      ensure(directives.includes('no-store'), `${describe(res)} holds a secret but has Cache-Control ${JSON.stringify(res.headers['cache-control'] ?? null)}, expected no-store`, 'no-store', res.headers['cache-control'] ?? 'none');
    }
  },
};

export const cachingChecks: readonly Check[] = [cacheControlPresent, cacheControlWellFormed, credentialedNotPublic, noStoreSecrets];
