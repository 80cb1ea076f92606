/** §4 method contract: unsupported methods, and safe methods that change nothing. */
import fc from 'fast-check';
import { defineCheck } from '../../src/model/check.js';
import { CheckFailure } from '../../src/model/check.js';
import type { RequestSpec } from '../../src/model/context.js';
import { brief, describe, ensure, expectHeader, expectJsonObject, expectStatus } from '../../src/check-kit/expect.js';
import { createMarked, fetchMarkedPage, pagePath } from '../../src/check-kit/pagination.js';
import { diffRepresentations } from '../../src/check-kit/compare.js';
import { checkProperty } from '../../src/check-kit/property.js';
import { itemPath, parseAllow, unknownItemPath, unsupportedMethodProbe } from '../../src/check-kit/probes.js';

export const methodNotAllowed405 = defineCheck({
  id: 'END-method-not-allowed-405',
  title: 'An unsupported method answers 405 with Allow',
  rule: 'A method a known path does not support MUST get 405 with an `Allow` header listing the supported methods, which leaves out the refused one (RFC 9110 §15.5.6).',
  severity: 'must',
  needs: ['collection', 'mayWrite'],
  async run(ctx, { collection }) {
    const res = await unsupportedMethodProbe(ctx, collection);
    expectStatus(res, 405, `${res.method} on a path that does not support it`);
    const allow = parseAllow(expectHeader(res, 'Allow', '405')) ?? [];
    ensure(!allow.includes(res.method), `${describe(res)}: Allow is "${res.headers['allow']}", which lists ${res.method}, the method refused; expected only the methods the path supports`, `Allow without ${res.method}`, res.headers['allow']);
  },
});

type SafeTarget = 'item' | 'collection' | 'marked' | 'unknown';
type SafeCall = { method: 'GET' | 'HEAD' | 'OPTIONS'; target: SafeTarget; index: number };

const safeCall: fc.Arbitrary<SafeCall> = fc.record({
  method: fc.constantFrom('GET' as const, 'HEAD' as const, 'OPTIONS' as const),
  target: fc.constantFrom('item' as const, 'collection' as const, 'marked' as const, 'unknown' as const),
  index: fc.nat({ max: 1 }),
});

/** Tried first, so each method meets the items and the listings whatever the seed. */
const everyMethodOnce: SafeCall[][] = [
  [{ method: 'GET', target: 'marked', index: 0 }, { method: 'GET', target: 'item', index: 0 }],
  [{ method: 'HEAD', target: 'marked', index: 0 }, { method: 'HEAD', target: 'item', index: 1 }],
  [{ method: 'OPTIONS', target: 'collection', index: 0 }, { method: 'OPTIONS', target: 'item', index: 0 }],
];

const showCall = (c: SafeCall): string => `${c.method} ${c.target}${c.target === 'item' ? `#${c.index}` : ''}`;

/** What the safe calls must leave alone: the check's items, and which items its mark lists. */
interface Snapshot {
  readonly items: readonly Record<string, unknown>[];
  /** Ids the marked listing holds; undefined without a marked collection. */
  readonly marked?: readonly string[];
}

export const safeMethodsNoChange = defineCheck({
  id: 'END-safe-methods-no-change',
  title: 'GET, HEAD and OPTIONS change nothing',
  rule: 'GET, HEAD and OPTIONS MUST be safe: no sequence of them changes any representation or what a collection lists.',
  severity: 'must',
  // A property over writes: hundreds of requests.
  slow: true,
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
        const diff = diffRepresentations(before.items[i]!, after.items[i]!, collection.volatileFields);
        return diff.length > 0 ? [`item ${item.id} (${diff.join('; ')})`] : [];
      }),
      ...(before.marked && after.marked && before.marked.join() !== after.marked.join() ? [`the marked listing ${markedPath} (${brief(before.marked)} → ${brief(after.marked)})`] : []),
    ];
    const toSpec = (c: SafeCall): RequestSpec =>
      c.target === 'item' ? { method: c.method, url: items[c.index]!.url }
        : c.target === 'collection' ? { method: c.method, path: collection.path }
          : c.target === 'marked' ? { method: c.method, path: markedPath }
            : { method: c.method, path: unknownItemPath(collection) };
    // The snapshot's own GETs are safe calls too: two in a row must agree before any call is blamed.
    const first = await snapshot();
    const again = changes(first, await snapshot());
    ensure(again.length === 0, `the GETs of a snapshot changed ${again.join(', ')}, expected two snapshots in a row to agree`, 'no change', again.join(', '));
    await checkProperty(ctx, {
      arbitrary: fc.array(safeCall, { minLength: 1, maxLength: 4 }),
      examples: everyMethodOnce,
      numRuns: Math.min(ctx.profile.properties.numRuns, 10),
      show: (calls) => calls.map(showCall).join(', '),
      predicate: async (calls) => {
        let before = await snapshot();
        for (const c of calls) {
          const res = await ctx.http.send(toSpec(c));
          if (res.status >= 500) throw new CheckFailure(`${describe(res)}: a safe call failed with a server error`, 'no 5xx', String(res.status), res.exchangeIndex);
          const after = await snapshot();
          const changed = changes(before, after);
          if (changed.length > 0) throw new CheckFailure(`${describe(res)} (${showCall(c)}) changed ${changed.join(', ')}, expected no change`, 'no change', changed.join(', '), res.exchangeIndex);
          before = after;
        }
      },
    });
  },
});

export const methodSafetyChecks = [methodNotAllowed405, safeMethodsNoChange];
