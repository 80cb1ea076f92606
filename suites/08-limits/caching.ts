/** §8.6–8.7 Cache-Control: present, well-formed, and never public on a personalised response. */
import type { Check } from '../../src/model/check.js';
import type { CheckContext, HttpResponse } from '../../src/model/context.js';
import { describe, ensure } from '../../src/checks/expect.js';
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
  return out.filter((r) => r.status === 200);
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

export const cachingChecks: readonly Check[] = [cacheControlPresent, cacheControlWellFormed, credentialedNotPublic];
