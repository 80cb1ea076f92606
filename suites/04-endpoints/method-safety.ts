/** §4 method contract: unsupported methods, and safe methods that change nothing. */
import { volatileAcrossNoChange } from '../../src/model/server-kept-fields.js';
import type { Arbitrary } from 'fast-check';
import { fastCheck } from '../../src/check-kit/lazy-libraries.js';
import { CheckFailure, CheckSkipped, ShouldFailure, defineCheck } from '../../src/model/check.js';
import type { CheckContext, HttpResponse, RequestSpec } from '../../src/model/context.js';
import type { CollectionProfile } from '../../src/model/profile.js';
import { brief, describe, ensure, expectHeader, expectJsonObject, expectStatus } from '../../src/check-kit/expect.js';
import { createMarked, fetchMarkedPage, fetchPage, pagePath } from '../../src/check-kit/pagination.js';
import { diffRepresentations } from '../../src/check-kit/compare.js';
import { checkProperty } from '../../src/check-kit/property.js';
import { errorProbes, itemPath, parseAllow, sharedGet, sharedItem, unknownItemPath, unsupportedMethod, unsupportedMethodProbe } from '../../src/check-kit/probes.js';

/** A path the 405 probe goes to, and the methods restprobe saw succeed there, which its Allow must list. */
interface Served {
  readonly url: string;
  readonly methods: readonly string[];
}

export const methodNotAllowed405 = defineCheck({
  id: 'END-method-not-allowed-405',
  title: 'An unsupported method answers 405 with an Allow that lists what the path serves',
  rule: 'A method a known path does not support MUST be refused, and SHOULD be with 405 (RFC 9110 §9.1; the conventions list no status for it: another 4xx is a warning), and a 405 MUST carry an `Allow` header that lists the methods the path serves (at least those seen to succeed there) and leaves out the refused one (RFC 9110 §15.5.6, §10.2.1). Probed with TRACE, which the conventions leave unused and RFC 9110 defines as safe, so no probe can be a bulk write; an HTML 405 without Allow is a proxy refusing TRACE itself (nginx), not judged.',
  severity: 'must',
  needs: ['collection'],
  uses: ['writable'],
  async run(ctx, { collection, writable }) {
    const succeeded = async (url: string): Promise<string[]> => ((await sharedGet(ctx, { url })).status === 200 ? ['GET'] : []);
    const listing = ctx.http.url(collection.path);
    const paths: Served[] = [];
    if (writable) {
      const item = await sharedItem(ctx, writable);
      paths.push({ url: listing, methods: [...(await succeeded(listing)), 'POST'] }, { url: item.url, methods: await succeeded(item.url) });
    } else paths.push({ url: listing, methods: await succeeded(listing) });
    // Another status is a SHOULD's breach, judged once every path has met the MUSTs of a 405.
    let notAllowed: ShouldFailure | undefined;
    let judged = 0;
    for (const { url, methods } of paths) {
      const res = url === listing ? await errorProbes.unsupportedMethod(ctx, collection) : await unsupportedMethodProbe(ctx, url);
      if (res.status === 501) throw new CheckSkipped(`${describe(res)}: the server implements ${unsupportedMethod} for no resource (RFC 9110 §9.1), so there is no method restprobe may safely send to see a 405`);
      if (res.status < 300 && res.mediaType === 'message/http') throw new CheckSkipped(`${describe(res)}: the path serves ${unsupportedMethod}, so there is no method restprobe may safely send to see a 405`);
      // Express, Fastify, NestJS and LoopBack answer a method no route serves 404: RFC 9110 asks 405 as a SHOULD.
      // A success (TRACE served as if it were GET) or a server error is no refusal at all, and fails.
      if (res.status !== 405 && res.status >= 400 && res.status < 500) {
        notAllowed ??= new ShouldFailure(`${describe(res)} to ${unsupportedMethod}, which the path does not serve: expected 405 with Allow, which RFC 9110 §9.1 recommends (SHOULD)`, '405', String(res.status), res.exchangeIndex);
        continue;
      }
      expectStatus(res, 405, `${unsupportedMethod}, which the path does not serve`);
      if (res.headers['allow'] === undefined && res.mediaType === 'text/html') {
        ctx.note(`${describe(res)} to ${unsupportedMethod}, an HTML page without Allow: a proxy in front refused the method itself (nginx does TRACE), not the API; not judged`);
        continue;
      }
      judged++;
      const allow = parseAllow(expectHeader(res, 'Allow', '405')) ?? [];
      ensure(!allow.includes(res.method), `${describe(res)}: Allow is "${res.headers['allow']}", which lists ${res.method}, the method refused; expected only the methods the path serves`, `Allow without ${res.method}`, res.headers['allow']);
      const missing = methods.filter((m) => !allow.includes(m));
      ensure(missing.length === 0, `${describe(res)}: Allow is "${res.headers['allow']}", which leaves out ${missing.join(' and ')}, seen to succeed on this path; expected every method the path serves`, `Allow with ${methods.join(', ')}`, res.headers['allow']);
    }
    if (notAllowed !== undefined) throw notAllowed;
    if (judged === 0) throw new CheckSkipped(`a proxy in front answered ${unsupportedMethod} on every path: no 405 of the API's to judge`);
  },
});

type SafeTarget = 'item' | 'collection' | 'marked' | 'unknown';
type SafeCall = { method: 'GET' | 'HEAD' | 'OPTIONS'; target: SafeTarget; index: number };

function safeCalls(): Arbitrary<SafeCall[]> {
  const fc = fastCheck();
  const call = fc.record({
    method: fc.constantFrom('GET' as const, 'HEAD' as const, 'OPTIONS' as const),
    target: fc.constantFrom('item' as const, 'collection' as const, 'marked' as const, 'unknown' as const),
    index: fc.nat({ max: 1 }),
  });
  return fc.array(call, { minLength: 1, maxLength: 4 });
}

/**
 * Tried first, so each method meets every target (both items between them) whatever the
 * seed: one sequence, so one snapshot after it (a change is then traced to its call).
 */
const everyMethodOnce: SafeCall[] = (['GET', 'HEAD', 'OPTIONS'] as const).flatMap((method, i) =>
  (['marked', 'item', 'collection', 'unknown'] as const).map((target) => ({ method, target, index: i % 2 })),
);

/**
 * Random sequences tried after those, unless `properties.numRuns` says how many: the targeted
 * ones already send each method to each target, and a sequence costs a snapshot (an item GET
 * each, a listing) on top of its calls.
 */
const randomSequences = 1;

const showCall = (c: SafeCall): string => `${c.method} ${c.target}${c.target === 'item' ? `#${c.index}` : ''}`;

/** What the safe calls must leave alone: the check's items, and which items its mark lists. */
interface Snapshot {
  readonly items: readonly Record<string, unknown>[];
  /** Ids the marked listing holds; undefined without a marked collection. */
  readonly marked?: readonly string[];
}

/** Times each safe call is repeated when the unfiltered listing is watched: a call that adds items adds this many at least. */
const repeats = 5;
/** Rounds a call must win against its control before it is blamed. */
const rounds = 3;

/**
 * Watches what a collection lists outside the check's mark, where a shared target's other
 * writers add items too: the unfiltered first page, newest first where a creation-time sort
 * is configured (the check runs alone, so no other check of the run writes meanwhile). Each
 * collection call is sent {@link repeats} times between two readings; when the page gained
 * items, the same readings around a pause as long are the control. A call is blamed only
 * when it gains about one item a call more than its control (one item short at most) in each
 * of {@link rounds} rounds: another writer's items come with time, not with the calls.
 * `sendingEach`, which sends every call at least once (the property's targeted cases do),
 * runs first between two readings: when the page gained nothing, no call adds items and
 * none is watched alone.
 */
async function watchOutsideTheMark(ctx: CheckContext, collection: CollectionProfile, own: ReadonlySet<string>, calls: readonly { readonly name: string; readonly spec: RequestSpec }[], sendingEach: () => Promise<void>): Promise<void> {
  const createdSort = collection.sorts.find((f) => /^created_?at$/i.test(f));
  const limit = Math.min(collection.pagination.maxLimit ?? 50, 50);
  const query = { limit, ...(createdSort !== undefined && { sort: `-${createdSort}` }) };
  const newest = pagePath(collection, query);
  if (createdSort === undefined) ctx.note(`no creation-time sort (collections[].sorts): items added outside the mark are watched on the first page of ${newest} only`);
  const read = async (): Promise<string[]> => (await fetchPage(ctx, collection, query)).items.map((i) => String(i[collection.idField])).filter((id) => !own.has(id));
  /**
   * Items that appeared on the page while `between` ran, and how long it took. Newest first,
   * only those above every item read before count: an older item that moves up into the
   * page when others are deleted is not new.
   */
  const gained = async (between: () => Promise<unknown>): Promise<{ ids: string[]; ms: number }> => {
    const before = new Set(await read());
    const started = Date.now();
    await between();
    const ms = Date.now() - started;
    const after = await read();
    const firstKnown = after.findIndex((id) => before.has(id));
    return { ids: createdSort !== undefined && firstKnown >= 0 ? after.slice(0, firstKnown) : after.filter((id) => !before.has(id)), ms };
  };
  // Every call between two readings first: a call that adds items adds one here too, and
  // only then is each call watched alone, against its control.
  const atAll = await gained(sendingEach);
  if (atAll.ids.length === 0) return;
  let busy = false;
  for (const { name, spec } of calls) {
    const send = async () => {
      for (let i = 0; i < repeats; i++) await ctx.http.send(spec);
    };
    const won: string[] = [];
    while (won.length < rounds) {
      const trial = await gained(send);
      if (trial.ids.length === 0) break;
      const control = await gained(() => new Promise((resolve) => setTimeout(resolve, trial.ms)));
      // One item short is allowed: another writer's item may land in a control.
      if (trial.ids.length < control.ids.length + repeats - 1 || trial.ids.length >= limit) {
        busy = true;
        break;
      }
      won.push(`${name} ×${repeats} added ${trial.ids.length} items (${brief(trial.ids, 80)}), a wait as long ${control.ids.length}`);
    }
    if (won.length === rounds) throw new CheckFailure(`${newest}, outside the mark: ${won.join('; then ')}, expected no item added by a safe call`, 'no change', won.join('; '));
  }
  if (busy) ctx.note(`${newest} gained items with no safe call sent as well (another writer?): only a call that adds ${repeats - 1} or more items beyond a wait as long, ${rounds} times, would be blamed`);
}

export const safeMethodsNoChange = defineCheck({
  id: 'END-safe-methods-no-change',
  title: 'GET, HEAD and OPTIONS change nothing',
  rule: 'GET, HEAD and OPTIONS MUST be safe: no sequence of them changes any representation or what a collection lists, under the check\'s mark or outside it.',
  severity: 'must',
  // A property over writes: hundreds of requests.
  slow: true,
  // What the collection lists outside the mark is watched: no other check of the run may write meanwhile.
  schedule: 'exclusive',
  needs: ['writable'],
  uses: ['anyWalk'],
  dependsOn: ['END-get-item-200', 'END-get-collection-200'],
  async run(ctx, { writable, anyWalk }) {
    // With a marked collection, the listing of the check's own items is watched too.
    const collection = anyWalk ?? writable;
    const mark = anyWalk ? await createMarked(ctx, anyWalk, 2) : undefined;
    const items = mark ? mark.items : [await ctx.create(collection), await ctx.create(collection)];
    if (!anyWalk) ctx.note('no marked collection (collections[].mark): what the collection lists is not watched');
    const markedPath = mark ? pagePath(collection, { filters: mark.filters }) : collection.path;
    const snapshot = async (): Promise<Snapshot> => {
      const out = [];
      for (const item of items) {
        const res = await ctx.http.send({ method: 'GET', url: item.url });
        expectStatus(res, 200, 'GET of an item for the snapshot');
        out.push(expectJsonObject(res));
      }
      if (!mark) return { items: out };
      // One page at the default size: walking is the pagination checks' to judge.
      const listed = (await fetchMarkedPage(ctx, collection, { filters: mark.filters })).items.map((i) => String(i[collection.idField]));
      // Anything a safe call made under the mark is cleaned up with the check's own items.
      for (const id of listed) if (!items.some((x) => x.id === id)) ctx.track(ctx.http.url(itemPath(collection, id)));
      return { items: out, marked: listed };
    };
    const changes = (before: Snapshot, after: Snapshot): string[] => [
      ...items.flatMap((item, i) => {
        const diff = diffRepresentations(before.items[i]!, after.items[i]!, volatileAcrossNoChange(collection));
        return diff.length > 0 ? [`item ${item.id} (${diff.join('; ')})`] : [];
      }),
      ...(before.marked && after.marked && before.marked.join() !== after.marked.join() ? [`the marked listing ${markedPath} (${brief(before.marked)} → ${brief(after.marked)})`] : []),
    ];
    const toSpec = (c: SafeCall): RequestSpec =>
      c.target === 'item' ? { method: c.method, url: items[c.index]!.url }
        : c.target === 'collection' ? { method: c.method, path: collection.path }
          : c.target === 'marked' ? { method: c.method, path: markedPath }
            : { method: c.method, path: unknownItemPath(collection) };
    /** Sends the calls in turn; a 5xx fails at once. Returns the last answer. */
    const sendSafely = async (calls: readonly SafeCall[]): Promise<HttpResponse> => {
      let last: HttpResponse | undefined;
      for (const c of calls) {
        last = await ctx.http.send(toSpec(c));
        if (last.status >= 500) throw new CheckFailure(`${describe(last)}: a safe call failed with a server error`, 'no 5xx', String(last.status), last.exchangeIndex);
      }
      return last!;
    };
    const changedBy = (res: HttpResponse, calls: readonly SafeCall[], changed: readonly string[]): CheckFailure =>
      new CheckFailure(`${describe(res)} (${calls.map(showCall).join(', ')}) changed ${changed.join(', ')}, expected no change`, 'no change', changed.join(', '), res.exchangeIndex);
    // The snapshot's own GETs are safe calls too: two in a row must agree before any call is blamed.
    const first = await snapshot();
    let latest = await snapshot();
    const again = changes(first, latest);
    ensure(again.length === 0, `the GETs of a snapshot changed ${again.join(', ')}, expected two snapshots in a row to agree`, 'no change', again.join(', '));
    const ownIds = new Set(items.map((x) => x.id));
    const collectionCalls = (['GET', 'HEAD', 'OPTIONS'] as const).flatMap((method) => [
      { name: `${method} ${collection.path}`, spec: { method, path: collection.path } },
      ...(mark ? [{ name: `${method} ${markedPath}`, spec: { method, path: markedPath } }] : []),
    ]);
    const property = () =>
      checkProperty(ctx, {
        arbitrary: safeCalls(),
        examples: [everyMethodOnce],
        randomCases: randomSequences,
        show: (calls) => calls.map(showCall).join(', '),
        predicate: async (calls) => {
          // The check runs alone: the state is as the last snapshot left it, so a sequence needs
          // only the snapshot after it, unless it changed something.
          const before = latest;
          let last = await sendSafely(calls);
          latest = await snapshot();
          const changed = changes(before, latest);
          if (changed.length === 0) return;
          // Which call: the sequence again, a snapshot after each call, and the first that changes something is named.
          if (calls.length > 1) {
            for (const c of calls) {
              const from = latest;
              last = await sendSafely([c]);
              latest = await snapshot();
              const one = changes(from, latest);
              if (one.length > 0) throw changedBy(last, [c], one);
            }
          }
          throw changedBy(last, calls, changed);
        },
      });
    // The property's targeted cases send every collection call: they are the first watch's calls too.
    await watchOutsideTheMark(ctx, collection, ownIds, collectionCalls, property);
  },
});

export const methodSafetyChecks = [methodNotAllowed405, safeMethodsNoChange];
