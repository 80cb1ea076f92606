/**
 * The per-fault half of the fault matrix, as a function of which faults to run, so the
 * matrix can be spread over several test files (vitest runs files side by side).
 */
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../src/engine/run.js';
import { resultName, worstFinding } from '../../src/model/result.js';
import { catalogue } from '../../suites/catalogue.js';
import { faultCatalogue } from '../../reference-server/src/index.js';
import { cleanServerExceptions, startTarget, tlsFaults } from './target.js';
import { cleanShapes } from './clean-shapes.js';
import { cleanDocument } from './clean-document.js';

/** What a check may honestly answer on a fault that does not name it. */
function bystander(r: { id: string; status: string; errorCode?: string }): string {
  if (cleanServerExceptions[r.id]?.status === r.status) return 'as on the clean server';
  if (r.status === 'pass' || r.status === 'skip') return 'pass or skip';
  if (r.status === 'error' && (r.errorCode === 'ERR_SETUP' || r.errorCode === 'ERR_BLOCKED')) return 'could not run';
  return `${r.status}${r.errorCode ? ` ${r.errorCode}` : ''}`;
}

const honest = new Set(['as on the clean server', 'pass or skip', 'could not run']);

/** Runs the matrix for every `of`-th fault, starting at `share` (0-based). */
export function faultMatrix(share: number, of: number): void {
  const faults = faultCatalogue.filter((_f, i) => i % of === share);
  describe.each(faults.map((f) => [f.name, f] as const))('fault %s', (name, fault) => {
    it(`fails ${fault.detects.join(', ')} and nothing else`, async () => {
      const target = await startTarget([name], { tls: tlsFaults.has(name) });
      try {
        // Each property check's own few random cases, as a run without properties.numRuns
        // tries them: every fault is caught as a user's default run would catch it.
        // Compared with the clean server's response shapes, as a release is compared with the last
        // good one (--baseline): a fault that changes a probed status or field is a breaking change.
        const shapeBaseline = await cleanShapes();
        const { results } = await runChecks({ profile: target.profile, inputs: { baseline: shapeBaseline, openapi: await cleanDocument() }, checks: catalogue, seed: 1, client: target.client });
        const detected: Record<string, string> = {};
        for (const id of fault.detects) {
          // A check runs once per collection: a fault may break the rule on one collection only.
          const result = worstFinding(results.filter((r) => r.id === id))!;
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
        const others = results.filter((r) => !fault.detects.includes(r.id)).map((r) => ({ id: resultName(r.id, r.collection), verdict: bystander(r), message: r.message }));
        expect(others.filter((o) => !honest.has(o.verdict))).toEqual([]);
      } finally {
        await target.close();
      }
    });
  });
}
