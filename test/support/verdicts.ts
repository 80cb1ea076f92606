/**
 * Test support: runs some checks of the catalogue on a target and gives each check's worst
 * finding over its collections, with every result's message (`ID: status message`) to
 * explain a mismatch, and its notes (`ID: note`). The target is closed afterwards.
 */
import { runChecks } from '../../src/engine/run.js';
import type { TargetProfile } from '../../src/model/profile.js';
import { worstFinding } from '../../src/model/result.js';
import { catalogue } from '../../suites/catalogue.js';
import type { Target } from './target.js';

export async function verdictsOf<Id extends string>(start: Promise<Target>, ids: readonly Id[], adjust: (p: TargetProfile) => TargetProfile = (p) => p): Promise<{ verdicts: Record<Id, string>; explain: string; notes: string[] }> {
  const target = await start;
  try {
    const checks = catalogue.filter((c) => (ids as readonly string[]).includes(c.id));
    const { results } = await runChecks({ profile: adjust(target.profile), checks, seed: 1, client: target.client });
    return {
      verdicts: Object.fromEntries(ids.map((id) => [id, worstFinding(results.filter((r) => r.id === id))!.status])) as Record<Id, string>,
      explain: results.map((r) => `${r.id}: ${r.status} ${r.message}`).join('\n'),
      notes: results.flatMap((r) => r.evidence.notes.map((n) => `${r.id}: ${n}`)),
    };
  } finally {
    await target.close();
  }
}
