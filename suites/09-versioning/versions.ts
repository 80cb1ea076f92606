/** §9 versioning and the §3 deprecation flow of an API version, judged from what the API answers. */
import { CheckFailure, CheckSkipped, ShouldFailure, defineCheck } from '../../src/model/check.js';
import type { CheckContext, HttpResponse, RequestSpec } from '../../src/model/context.js';
import type { CollectionProfile, VersionProfile } from '../../src/model/profile.js';
import { creatable, type WritableCollection } from '../../src/model/needs.js';
import { brief, describe, ensure, expectJsonObject, expectStatus } from '../../src/check-kit/expect.js';
import { deepEqual } from '../../src/check-kit/compare.js';
import { httpDateProblem, varyFields } from '../../src/check-kit/http-grammar.js';
import { deprecationProblem, linkTargets, versionedRequest } from '../../src/check-kit/versions.js';
import { itemPath, sharedGet, sharedItem } from '../../src/check-kit/probes.js';
import { targetOrigins } from '../../src/check-kit/created-url.js';
import { leadsToResource, resourceStatuses } from '../../src/check-kit/links.js';
import { firstListedId } from '../../src/check-kit/shape-probes.js';

/**
 * GET of `path` under `version`; fails when, under the URL scheme, neither the path nor the
 * base URL (`https://api.example.com/v2` with paths `/projects`) names the current version.
 */
export async function getVersioned(ctx: CheckContext, v: VersionProfile, version: string, path: string): Promise<HttpResponse> {
  return ctx.http.send({ method: 'GET', ...versionedSpec(ctx, v, version, path) });
}

/** The request for `path` under `version`, or the check fails: a path without the current version's segment under the URL scheme. */
function versionedSpec(ctx: CheckContext, v: VersionProfile, version: string, path: string): Pick<RequestSpec, 'path' | 'headers'> {
  const spec = versionedRequest(v, version, path) ?? (v.scheme === 'url' ? versionedRequest(v, version, ctx.http.url(path)) : undefined);
  if (spec === undefined) throw new CheckFailure(`${ctx.http.url(path)} has no /v${v.current} segment, expected every configured path under the current version: one scheme for the whole API (§9.1)`, `/v${v.current}/…`, path);
  return spec;
}

/**
 * GET of `c`'s listing under the current version. Where every request names the current
 * version already, as a pinned client does (the URL scheme, whose path must hold it, and a
 * header of the API's own), that is the run's one plain GET of the listing (sharedGet); under
 * the query scheme and a vendor media type in Accept, the version is added to the request.
 */
export function currentListing(ctx: CheckContext, v: VersionProfile, c: CollectionProfile): Promise<HttpResponse> {
  const named = v.scheme === 'url' || (v.scheme === 'header' && v.header.toLowerCase() !== 'accept');
  if (!named) return getVersioned(ctx, v, v.current, c.path);
  // A path outside the version's segment fails here as the versioned request would.
  versionedSpec(ctx, v, v.current, c.path);
  return sharedGet(ctx, { path: c.path });
}

/** The first configured collection, whose listing the version probes read. */
export function firstCollection(ctx: CheckContext): CollectionProfile {
  const c = ctx.profile.collections[0];
  if (c === undefined) throw new CheckSkipped('no collection to read under each version', 'collections');
  return c;
}

/**
 * How an API refuses a version it does not serve (removed, or an endpoint added later): 404 or
 * 410, 400 (Asp.Versioning's UnsupportedApiVersion, Spring's), and 406 where the version is
 * named in a vendor media type in Accept (no acceptable representation, RFC 9110 §15.5.7).
 */
function removedRefusals(v: VersionProfile): number[] {
  return [400, 404, 410, ...(v.scheme === 'header' && v.header.toLowerCase() === 'accept' ? [406] : [])];
}

export const currentVersion = defineCheck({
  id: 'VER-current-version',
  title: 'Every collection answers under the current version, which is not deprecated',
  rule: 'The API MUST carry a version in one scheme for the whole API: every configured collection answers 200 under the current version, which is not deprecated (`Deprecation` or `Sunset` on every collection; on some, a resource\'s own deprecation, is noted); under the header scheme the response MUST send `Vary` naming the header (§9.1, §9.2, §9.6).',
  severity: 'must',
  needs: ['version'],
  async run(ctx, { version: v }) {
    if (ctx.profile.collections.length === 0) throw new CheckSkipped('no collection to read under the current version', 'collections');
    // Deprecation or Sunset on one collection deprecates that resource (RFC 9745, RFC 8594), which a
    // current version may do; on every one, it is the version that is deprecated.
    const announced: HttpResponse[] = [];
    for (const c of ctx.profile.collections) {
      const res = await currentListing(ctx, v, c);
      expectStatus(res, 200, `${c.name} under the current version ${v.current}`);
      if (res.headers['deprecation'] !== undefined || res.headers['sunset'] !== undefined) announced.push(res);
      if (v.scheme === 'header') {
        const vary = varyFields(res.headers['vary']);
        if (!vary.includes(v.header.toLowerCase()) && !vary.includes('*')) {
          throw new CheckFailure(`${describe(res)} sends Vary: ${res.headers['vary'] ?? '(none)'}, expected it to name ${v.header}, which chooses the version (§9.2)`, `Vary: ${v.header}`, res.headers['vary'] ?? 'none', res.exchangeIndex);
        }
      }
    }
    const shown = (res: HttpResponse): string => ['deprecation', 'sunset'].filter((f) => res.headers[f] !== undefined).map((f) => `${f === 'deprecation' ? 'Deprecation' : 'Sunset'}: ${res.headers[f]}`).join(', ');
    if (announced.length > 0 && announced.length === ctx.profile.collections.length) {
      const res = announced[0]!;
      throw new CheckFailure(`${describe(res)} sends ${shown(res)} on the current version ${v.current}, as every collection does, expected none: only a deprecated version announces its end`, 'none', shown(res), res.exchangeIndex);
    }
    for (const res of announced) ctx.note(`${describe(res)} sends ${shown(res)}: that resource is deprecated (RFC 9745, RFC 8594), not the current version ${v.current}, which its other collections serve without`);
  },
});

export const deprecationHeaders = defineCheck({
  id: 'VER-deprecation-headers',
  title: 'A deprecated version still serves, with Deprecation and a later Sunset, and any deprecation link resolves',
  rule: 'A deprecated version MUST still serve until its sunset, and its responses MUST carry `Deprecation` as an sf-date (`@<seconds>`, RFC 9745) and `Sunset` as an HTTP-date not before it (RFC 8594, RFC 9745 §4); they SHOULD link the deprecation notice (`Link` with `rel="deprecation"`, optional in RFC 9745 §3, or RFC 8594\'s `rel="sunset"`), and a link they send MUST resolve (a refusal to restprobe, such as a 403 from a documentation site, counts: the notice is there) (§3 deprecation flow, §9.6); a deprecated version past its Sunset and refused is removed, as the flow says, and skipped naming version.removed; a collection it does not serve (404, 410, 400, or 406 for a version in Accept) is an endpoint added later.',
  severity: 'must',
  needs: ['deprecatedVersions'],
  async run(ctx, { deprecatedVersions: v }) {
    if (ctx.profile.collections.length === 0) throw new CheckSkipped('no collection to read under each deprecated version', 'collections');
    // A version without a notice breaks only the SHOULD: judged once every version met the MUSTs.
    let unlinked: ShouldFailure | undefined;
    const removed: string[] = [];
    for (const version of v.deprecated) {
      // Every collection: each that serves the version must announce its end. One that does not
      // may be younger than the version (a new endpoint is a compatible change, §9.4).
      const answers: HttpResponse[] = [];
      for (const c of ctx.profile.collections) answers.push(await getVersioned(ctx, v, version, c.path));
      const [served, younger] = [answers.filter((res) => res.status === 200), answers.filter((res) => res.status !== 200)];
      if (served.length === 0) {
        const res = answers[0]!;
        const sunset = res.headers['sunset'];
        const past = sunset !== undefined && httpDateProblem(sunset) === undefined && Date.parse(sunset) <= Date.now();
        // Past its Sunset and refused: removed, as the flow says; the config is what is late.
        if (past && removedRefusals(v).includes(res.status)) {
          ctx.note(`version ${version}: ${describe(res)}, past its Sunset ${sunset}: removed, as the deprecation flow says (list it in version.removed)`);
          removed.push(version);
          continue;
        }
        throw new CheckFailure(`${describe(res)}: deprecated version ${version} ${past ? 'is past its Sunset' : `no longer serves before its Sunset (${sunset ?? 'none given'})`}, no configured collection served it, expected 200 until the sunset date, then removal`, '200', String(res.status), res.exchangeIndex);
      }
      // Only "no such endpoint in this version" is a younger one's answer (404, 410; Asp.Versioning's
      // and Spring's 400, a 406 for a version in Accept): a 500, 503 or 403 is the version broken, or
      // refused, before its sunset, on an endpoint it may well have.
      // A 400 counts only where it speaks of the version (Asp.Versioning's UnsupportedApiVersion): any other 400 is the collection broken.
      const broken = younger.find((res) => !removedRefusals(v).includes(res.status) || (res.status === 400 && !/version/i.test(res.text)));
      if (broken !== undefined) throw new CheckFailure(`${describe(broken)}: deprecated version ${version} does not serve ${new URL(broken.url).pathname}, where it serves ${new URL(served[0]!.url).pathname}, expected 200 until the sunset date (${removedRefusals(v).join(', ')} for an endpoint it never had)`, '200', String(broken.status), broken.exchangeIndex);
      if (younger.length > 0) ctx.note(`version ${version}: ${younger.map((res) => `${new URL(res.url).pathname} ${res.status}`).join(', ')}: not served under it, as an endpoint added in a later version is not; judged where it is served`);
      // Each served answer judged; the dates of each, for the note.
      const datesOf = served.map((res) => {
        const at = (name: string): string => {
          const value = res.headers[name.toLowerCase()];
          if (value === undefined) throw new CheckFailure(`${describe(res)}: deprecated version ${version} sends no ${name}, expected one`, name, 'none', res.exchangeIndex);
          return value;
        };
        const deprecation = at('Deprecation');
        const badDeprecation = deprecationProblem(deprecation);
        if (badDeprecation) throw new CheckFailure(`${describe(res)}: Deprecation: ${deprecation} ${badDeprecation}`, '@<seconds>', deprecation, res.exchangeIndex);
        const sunsetValue = at('Sunset');
        const badSunset = httpDateProblem(sunsetValue);
        if (badSunset) throw new CheckFailure(`${describe(res)}: Sunset: ${sunsetValue} ${badSunset}, expected an HTTP-date (RFC 8594)`, 'an HTTP-date', sunsetValue, res.exchangeIndex);
        const deprecatedMs = Number(deprecation.slice(1)) * 1000;
        ensure(Date.parse(sunsetValue) >= deprecatedMs, `${describe(res)}: Sunset ${sunsetValue} is before Deprecation ${new Date(deprecatedMs).toUTCString()}, expected the sunset not earlier than the deprecation (RFC 9745 §4)`, `not before ${new Date(deprecatedMs).toUTCString()}`, sunsetValue);
        return `Deprecation ${deprecation} (${new Date(deprecatedMs).toISOString()}), Sunset ${sunsetValue}`;
      });
      // The notice is the version's: read from the first answer that served it.
      const res = served[0]!;
      const dates = datesOf[0]!;
      // The notice under RFC 9745's relation, or RFC 8594's sunset one (Asp.Versioning's and Spring's sunset policy links).
      const [notice] = [...linkTargets(res.headers['link'], 'deprecation'), ...linkTargets(res.headers['link'], 'sunset')];
      if (notice === undefined) {
        unlinked ??= new ShouldFailure(`${describe(res)}: Link: ${res.headers['link'] ?? '(none)'} has no rel="deprecation" or rel="sunset", expected a link to the deprecation notice (the flow's announcement; RFC 9745 §3 defines the relation for it but does not require it)`, 'rel="deprecation"', res.headers['link'] ?? 'none', res.exchangeIndex);
        ctx.note(`version ${version}: ${dates}, no deprecation link`);
        continue;
      }
      const url = new URL(notice, res.url);
      // The notice may live elsewhere (a documentation site): the credentials go only to the target.
      const doc = await ctx.http.send({ method: 'GET', url: url.toString(), auth: targetOrigins(ctx.profile).has(url.origin) });
      // A documentation site may refuse restprobe (bot protection: 403) or rate-limit it: the notice is there all the same.
      if (!leadsToResource(doc.status)) throw new CheckFailure(`the deprecation link ${notice} of version ${version}: ${describe(doc)}, expected it to resolve`, resourceStatuses, String(doc.status), doc.exchangeIndex);
      ctx.note(`version ${version}: ${dates}, notice ${notice}`);
    }
    if (unlinked !== undefined) throw unlinked;
    if (removed.length === v.deprecated.length) throw new CheckSkipped(`every deprecated version (${removed.join(', ')}) is past its Sunset and removed: no deprecated version left to judge; list them in version.removed`, 'version.removed');
  },
});

export const removedVersionGone = defineCheck({
  id: 'VER-removed-version-gone',
  title: 'A removed version is refused: 404, 410, or 400 (406 for a version in Accept)',
  rule: 'A version past its sunset is removed: a request for it MUST answer 404 or 410, or 400 that refuses the version (Asp.Versioning, Spring), or 406 where the version is named in a vendor media type in Accept (RFC 9110 §15.5.7) (§9.6 deprecation flow: deprecated → removed); a redirect to another version (301, 308) is no removal, since a client that follows it gets breaking changes it did not ask for (§9.3).',
  severity: 'must',
  needs: ['removedVersions'],
  async run(ctx, { removedVersions: v }) {
    const c = firstCollection(ctx);
    for (const version of v.removed) expectStatus(await getVersioned(ctx, v, version, c.path), removedRefusals(v), `${c.name} under the removed version ${version}`);
  },
});

/** An item of `c` to read under each version: the run's shared one, else (a read-only run) the first one listed. */
async function someItem(ctx: CheckContext, v: VersionProfile, c: CollectionProfile): Promise<string> {
  if (!ctx.profile.safety.readOnly && creatable(c)) {
    return (await sharedItem(ctx, c as WritableCollection)).id;
  }
  const list = await getVersioned(ctx, v, v.current, c.path);
  expectStatus(list, 200, `the ${c.name} listing`);
  // Read through the collection's page envelope (`data`, DRF's `results`, HAL's `_embedded`…).
  const id = firstListedId(list, c);
  if (id === undefined) throw new CheckSkipped(`${c.name} lists no item to compare across versions, and restprobe may not create one`, ctx.profile.safety.readOnly ? 'safety.readOnly' : 'collections[].create.body');
  return id;
}

export const renameTransition = defineCheck({
  id: 'VER-rename-transition',
  title: 'A renamed field is sent under both names until the next version',
  rule: 'During a field rename the deprecated version MUST return the old and the new name with equal values, and the current version the new name only (§2 field rename rule, §9.4).',
  severity: 'must',
  needs: ['renames'],
  // Not on VER-deprecation-headers: a missing notice or a malformed date leaves the rename to judge.
  dependsOn: ['END-get-item-200'],
  async run(ctx, { renames: v }) {
    for (const rename of v.renames) {
      const c = ctx.profile.collections.find((x) => x.name === rename.collection);
      if (c === undefined) throw new CheckSkipped(`version.renames names ${rename.collection}, which is not a configured collection`, 'version.renames');
      const path = itemPath(c, await someItem(ctx, v, c));
      const current = await getVersioned(ctx, v, v.current, path);
      expectStatus(current, 200, `${c.name} item under the current version`);
      const now = expectJsonObject(current);
      ensure(Object.hasOwn(now, rename.to), `${describe(current)} has no "${rename.to}", expected the new name on the current version`, rename.to, brief(Object.keys(now)));
      ensure(!Object.hasOwn(now, rename.from), `${describe(current)} still has "${rename.from}", expected it dropped in the current version (renamed "${rename.to}")`, `no ${rename.from}`, brief(now[rename.from]));
      for (const version of v.deprecated) {
        const old = await getVersioned(ctx, v, version, path);
        // A version already gone has no transition to judge: VER-deprecation-headers judges that.
        if (old.status === 404 || old.status === 410) throw new CheckSkipped(`${describe(old)}: deprecated version ${version} no longer serves, so there is no transition to judge (see VER-deprecation-headers)`);
        expectStatus(old, 200, `${c.name} item under deprecated version ${version}`);
        const then = expectJsonObject(old);
        ensure(Object.hasOwn(then, rename.from) && Object.hasOwn(then, rename.to), `${describe(old)} has ${[rename.from, rename.to].filter((f) => !Object.hasOwn(then, f)).map((f) => `no "${f}"`).join(' and ')}, expected both the old and the new name during the transition`, `${rename.from} and ${rename.to}`, brief(Object.keys(then)));
        ensure(deepEqual(then[rename.from], then[rename.to]), `${describe(old)}: "${rename.from}" is ${brief(then[rename.from])} but "${rename.to}" is ${brief(then[rename.to])}, expected equal values`, brief(then[rename.to]), brief(then[rename.from]));
      }
    }
  },
});

export const versionChecks = [currentVersion, deprecationHeaders, removedVersionGone, renameTransition];
