/**
 * The fault matrix: every reference-server fault trips each check it names, and every
 * check is tripped by at least one fault. Together with the self-conformance test this
 * proves each check both ways.
 */
import { describe, expect, it } from 'vitest';
import { executeCheck } from '../src/engine/execute.js';
import { catalogue } from '../suites/catalogue.js';
import { faultCatalogue } from '../reference-server/src/index.js';
import { startTarget } from './support/target.js';

/** Checks no fault can trip, with the reason. Keep this list short. */
const untrippable: Record<string, string> = {
  'END-offset-shift-under-inserts': 'it warns on the clean server already (see cleanServerExceptions): no fault can make offset pages less stable than the conventions say they are',
};

describe('fault catalogue', () => {
  it('names only checks that exist', () => {
    const ids = new Set(catalogue.map((c) => c.id));
    const unknown = faultCatalogue.flatMap((f) => f.detects.filter((id) => !ids.has(id)).map((id) => `${f.name} → ${id}`));
    expect(unknown).toEqual([]);
  });

  it('trips every check at least once (or the check is listed as untrippable with a reason)', () => {
    const tripped = new Set(faultCatalogue.flatMap((f) => f.detects));
    const never = catalogue.map((c) => c.id).filter((id) => !tripped.has(id) && !(id in untrippable));
    expect(never).toEqual([]);
  });
});

describe.each(faultCatalogue.map((f) => [f.name, f] as const))('fault %s', (name, fault) => {
  it(`fails ${fault.detects.join(', ')}`, async () => {
    const target = await startTarget([name]);
    try {
      const verdicts: Record<string, string> = {};
      for (const id of fault.detects) {
        const check = catalogue.find((c) => c.id === id)!;
        const result = await executeCheck(check, { profile: target.profile, client: target.client, seed: 1 });
        verdicts[id] = result.status;
        // A failure must carry what a user needs to reproduce it.
        if (result.status === 'fail' || result.status === 'warn') {
          expect(result.evidence.exchanges.length, `${id} evidence`).toBeGreaterThan(0);
          expect(result.evidence.exchanges.at(-1)!.curl).toMatch(/^curl /);
        }
      }
      // A SHOULD-level check reports a broken rule as warn (a failure under --strict).
      const expected = (id: string) => (catalogue.find((c) => c.id === id)!.severity === 'must' ? 'fail' : 'warn');
      expect(verdicts).toEqual(Object.fromEntries(fault.detects.map((id) => [id, expected(id)])));
    } finally {
      await target.close();
    }
  });
});
