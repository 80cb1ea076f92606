/** §4 method contract: unsupported methods, and safe methods that change nothing. */
import fc from 'fast-check';
import { defineCheck } from '../../src/model/check.js';
import { CheckFailure } from '../../src/model/check.js';
import type { RequestSpec } from '../../src/model/context.js';
import { brief, describe, ensure, expectHeader, expectJsonObject, expectStatus } from '../../src/check-kit/expect.js';
import { diffRepresentations } from '../../src/check-kit/compare.js';
import { checkProperty } from '../../src/check-kit/property.js';
import { itemPath, unknownId, unsupportedMethodProbe } from '../../src/check-kit/probes.js';

export const methodNotAllowed405 = defineCheck({
  id: 'END-method-not-allowed-405',
  title: 'An unsupported method answers 405 with Allow',
  rule: 'A method a known path does not support MUST get 405 with an `Allow` header listing the supported methods (RFC 9110 §15.5.6).',
  severity: 'must',
  needs: ['collection', 'mayWrite'],
  async run(ctx, { collection }) {
    const res = await unsupportedMethodProbe(ctx, collection);
    expectStatus(res, 405, `${res.method} on a path that does not support it`);
    expectHeader(res, 'Allow', '405');
  },
});

type SafeCall = { method: 'GET' | 'HEAD' | 'OPTIONS'; target: 'item' | 'collection' | 'unknown'; index: number };

const safeCall: fc.Arbitrary<SafeCall> = fc.record({
  method: fc.constantFrom('GET' as const, 'HEAD' as const, 'OPTIONS' as const),
  target: fc.constantFrom('item' as const, 'collection' as const, 'unknown' as const),
  index: fc.nat({ max: 1 }),
});

export const safeMethodsNoChange = defineCheck({
  id: 'END-safe-methods-no-change',
  title: 'GET, HEAD and OPTIONS change nothing',
  rule: 'GET, HEAD and OPTIONS MUST be safe: no sequence of them changes any representation.',
  severity: 'must',
  needs: ['writable'],
  dependsOn: ['END-get-item-200'],
  async run(ctx, { writable: collection }) {
    const items = [await ctx.create(collection), await ctx.create(collection)];
    const snapshot = async () => {
      const out = [];
      for (const item of items) {
        const res = await ctx.http.send({ method: 'GET', url: item.url });
        expectStatus(res, 200, 'GET of an item for the snapshot');
        out.push(expectJsonObject(res));
      }
      return out;
    };
    const toSpec = (c: SafeCall): RequestSpec =>
      c.target === 'item' ? { method: c.method, url: items[c.index]!.url }
        : c.target === 'collection' ? { method: c.method, path: collection.path }
          : { method: c.method, path: itemPath(collection, unknownId()) };
    await checkProperty(ctx, {
      arbitrary: fc.array(safeCall, { minLength: 1, maxLength: 6 }),
      numRuns: Math.min(ctx.profile.properties.numRuns, 20),
      show: (calls) => calls.map((c) => `${c.method} ${c.target}${c.target === 'item' ? `#${c.index}` : ''}`).join(', '),
      predicate: async (calls) => {
        const before = await snapshot();
        for (const c of calls) {
          const res = await ctx.http.send(toSpec(c));
          if (res.status >= 500) throw new CheckFailure(`${describe(res)}: a safe call failed with a server error`, 'no 5xx', String(res.status));
        }
        const after = await snapshot();
        items.forEach((item, i) => {
          const diff = diffRepresentations(before[i]!, after[i]!, collection.volatileFields);
          ensure(diff.length === 0, `safe calls changed item ${item.id} (${diff.join('; ')}), expected no change`, brief(before[i]), brief(after[i]));
        });
      },
    });
  },
});

export const methodSafetyChecks = [methodNotAllowed405, safeMethodsNoChange];
