/**
 * The fault matrix: on each reference-server fault, the whole catalogue runs through the
 * engine's entry point (as `restprobe run` does). Every check the fault names fails (warns,
 * for a SHOULD rule) on the rule itself, no other check fails or warns, and every other
 * check either passes, skips, or honestly could not run (a fixture the fault broke, or a
 * prerequisite that failed). Every check is tripped by at least one fault. Together with
 * the self-conformance test this proves each check both ways.
 */
import { describe, expect, it } from 'vitest';
import { runChecks } from '../src/engine/run.js';
import { catalogue } from '../suites/catalogue.js';
import { faultCatalogue } from '../reference-server/src/index.js';
import { cleanServerExceptions, startTarget } from './support/target.js';

/** Checks no fault can trip, with the reason. Keep this list short. */
const untrippable: Record<string, string> = {
  'END-offset-shift-under-inserts': 'it warns on the clean server already (see cleanServerExceptions): no fault can make offset pages less stable than the conventions say they are',
};

describe('fault catalogue', () => {
  it('names only checks that exist', () => {
    const ids = new Set<string>(catalogue.map((c) => c.id));
    const unknown = faultCatalogue.flatMap((f) => f.detects.filter((id) => !ids.has(id)).map((id) => `${f.name} → ${id}`));
    expect(unknown).toEqual([]);
  });

  it('trips every check at least once (or the check is listed as untrippable with a reason)', () => {
    const tripped = new Set(faultCatalogue.flatMap((f) => f.detects));
    const never = catalogue.map((c) => c.id).filter((id) => !tripped.has(id) && !(id in untrippable));
    expect(never).toEqual([]);
  });
});

/** What a check may honestly answer on a fault that does not name it. */
function bystander(r: { id: string; status: string; errorCode?: string }): string {
  if (cleanServerExceptions[r.id]?.status === r.status) return 'as on the clean server';
  if (r.status === 'pass' || r.status === 'skip') return 'pass or skip';
  if (r.status === 'error' && (r.errorCode === 'ERR_SETUP' || r.errorCode === 'ERR_BLOCKED')) return 'could not run';
  return `${r.status}${r.errorCode ? ` ${r.errorCode}` : ''}`;
}

const honest = new Set(['as on the clean server', 'pass or skip', 'could not run']);

describe.each(faultCatalogue.map((f) => [f.name, f] as const))('fault %s', (name, fault) => {
  it(`fails ${fault.detects.join(', ')} and nothing else`, async () => {
    const target = await startTarget([name]);
    try {
      const { results } = await runChecks({ profile: target.profile, checks: catalogue, seed: 1, client: target.client });
      const detected: Record<string, string> = {};
      for (const id of fault.detects) {
        const result = results.find((r) => r.id === id)!;
        detected[id] = result.status;
        // A failure must carry what a user needs to reproduce it.
        if (result.status === 'fail' || result.status === 'warn') {
          expect(result.evidence.exchanges.length, `${id} evidence`).toBeGreaterThan(0);
          expect(result.evidence.exchanges.at(-1)!.curl).toMatch(/^curl /);
        }
      }
      // A SHOULD-level check reports a broken rule as warn (a failure under --strict).
      const expected = (id: string) => (catalogue.find((c) => c.id === id)!.severity === 'must' ? 'fail' : 'warn');
      expect(detected).toEqual(Object.fromEntries(fault.detects.map((id) => [id, expected(id)])));
      const others = results.filter((r) => !fault.detects.includes(r.id)).map((r) => ({ id: r.id, verdict: bystander(r), message: r.message }));
      expect(others.filter((o) => !honest.has(o.verdict))).toEqual([]);
    } finally {
      await target.close();
    }
  });
});
