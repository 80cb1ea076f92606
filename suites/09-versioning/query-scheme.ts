/** §9.2: the query scheme (`?v=<n>`) is allowed but discouraged. */
import { CheckFailure, CheckSkipped, defineCheck } from '../../src/model/check.js';
import { describe, expectStatus } from '../../src/check-kit/expect.js';
import { withQueryParam } from '../../src/check-kit/versions.js';
import { currentListing, firstCollection } from './versions.js';

export const noQueryScheme = defineCheck({
  id: 'VER-no-query-scheme',
  title: 'The version is not chosen by a query parameter',
  rule: 'The API SHOULD NOT carry its version in the query string (`?v=<n>`): the query scheme is discouraged, it pollutes cache keys (§9.2). Judged on the scheme the config declares and, under the others, on whether `?v=` chooses a version all the same.',
  severity: 'should',
  needs: ['version'],
  // That the declared scheme serves at all is VER-current-version's to judge.
  dependsOn: ['VER-current-version'],
  async run(ctx, { version: v }) {
    const c = firstCollection(ctx);
    const current = await currentListing(ctx, v, c);
    expectStatus(current, 200, `${c.name} under the current version ${v.current}`);
    if (v.scheme === 'query') {
      throw new CheckFailure(`${describe(current)}: the API names its version in the query (?${v.queryParam}=${v.current}), a scheme §9.2 discourages because the version then splits cache keys; expected it in the path (/v${v.current}/…) or a header`, 'the version in the path or a header', `?${v.queryParam}=`, current.exchangeIndex);
    }
    // Under another scheme the query must choose nothing: ask for an old version by it and see whether it answers as that version.
    const other = v.deprecated[0] ?? v.removed[0];
    if (other === undefined) throw new CheckSkipped(`no deprecated or removed version to ask for with ?${v.queryParam}=, to see whether the query chooses a version besides the ${v.scheme} scheme`, 'version.deprecated');
    const deprecated = v.deprecated.includes(other);
    // The same URL, without the scheme's header (which a header of the API's own is otherwise
    // on every request, and read first, would hide the query): the query alone names the version.
    const probe = await ctx.http.send({ method: 'GET', url: withQueryParam(current.url, v.queryParam, other), version: false });
    // Compared with the same request without the query: an API may answer a request that names
    // no version in its header as its oldest one, and that is not the query choosing.
    const plain = v.scheme === 'url' ? current : await ctx.http.send({ method: 'GET', url: current.url, version: false });
    // Refused as VER-removed-version-gone takes a removed version's refusal: 404, 410 or 400.
    const gone = (res: typeof probe): boolean => res.status === 404 || res.status === 410 || res.status === 400;
    let chosen = deprecated ? probe.headers['deprecation'] !== undefined && plain.headers['deprecation'] === undefined : gone(probe) && !gone(plain);
    if (chosen && !deprecated) {
      // An API that refuses a query parameter it does not know (JSON:API, a request validator) refuses
      // ?v= whatever it names: only a refusal that naming the current version escapes is a choice.
      const control = await ctx.http.send({ method: 'GET', url: withQueryParam(current.url, v.queryParam, v.current), version: false });
      if (gone(control)) {
        chosen = false;
        ctx.note(`${describe(control)} for ?${v.queryParam}=${v.current} as well: the API refuses the parameter whatever it names (an unknown query parameter), which chooses no version`);
      }
    }
    if (chosen) {
      const shows = deprecated ? `Deprecation: ${probe.headers['deprecation']}` : String(probe.status);
      throw new CheckFailure(`${describe(probe)} answers as the ${deprecated ? 'deprecated' : 'removed'} version ${other} (${shows}): ?${v.queryParam}= chooses the version besides the ${v.scheme} scheme, expected one scheme for the whole API and not the discouraged query (§9.1, §9.2)`, `the ${v.scheme} scheme alone`, `?${v.queryParam}=${other} honoured`, probe.exchangeIndex);
    }
    ctx.note(`?${v.queryParam}=${other} on ${c.path} chose nothing (${probe.status}${probe.headers['deprecation'] === undefined ? ', no Deprecation' : ''}): the ${v.scheme} scheme alone names the version`);
  },
});
