/**
 * The fault matrix: on each reference-server fault, the whole catalogue runs through the
 * engine's entry point (as `restprobe run` does). Every check the fault names fails (warns,
 * for a SHOULD rule) on the rule itself, no other check fails or warns, and every other
 * check either passes, skips, or honestly could not run (a fixture the fault broke, or a
 * prerequisite that failed). Every check is tripped by at least one fault. Together with
 * the self-conformance test this proves each check both ways. The faults are spread over
 * this file and fault-matrix-2.test.ts to fault-matrix-6.test.ts, which vitest runs side by side
 * (six shares of about a minute, so the suite's last minutes are not spent on one of them).
 */
import { describe, expect, it } from 'vitest';
import { catalogue } from '../suites/catalogue.js';
import { faultCatalogue } from '../reference-server/src/index.js';
import { faultMatrix } from './support/fault-matrix.js';

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

faultMatrix(0, 6);
