/**
 * `restprobe cleanup`'s engine on the reference server: what a killed run's ledger still
 * owns is deleted by the run's own cleanup rules, a create that never heard its answer is
 * found by its mark, and one that made nothing is counted as never created.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../reference-server/src/index.js';
import { loadProfile } from '../src/config/load.js';
import { ledgerFileName, LedgerFile, readLedgerFile } from '../src/engine/ledger-file.js';
import { cleanUpLedger } from '../src/engine/ledger-cleanup.js';
import { Ledger } from '../src/engine/ledger.js';
import { clientForProfile } from '../src/http/client.js';
import type { TargetProfile } from '../src/model/profile.js';
import { referenceConfig } from './support/target.js';

let server: ReferenceServer;
let profile: TargetProfile;
beforeAll(async () => {
  server = await startReferenceServer({ port: 0 });
  profile = await loadProfile({ configPath: referenceConfig, baseUrl: server.url, env: { ...server.secrets } });
});
afterAll(async () => server.close());

const headers = (): Record<string, string> => ({ 'x-api-key': server.secrets.RESTPROBE_API_KEY, 'content-type': 'application/json' });

/** A project made behind restprobe's back (as the target did for a create whose answer never came), with `label`. */
async function project(label: string): Promise<string> {
  const res = await fetch(`${server.url}/v2/projects`, { method: 'POST', headers: headers(), body: JSON.stringify({ name: 'restprobe probe', label }) });
  return `${server.url}/v2/projects/${((await res.json()) as { id: string }).id}`;
}

const projectsLeft = async (): Promise<number> => ((await (await fetch(`${server.url}/v2/projects?limit=20`, { headers: headers() })).json()) as { data: unknown[] }).data.length;

describe('cleaning up after a killed run', () => {
  it('deletes what the ledger owns, finds an unanswered create by its mark, counts a create that made nothing as gone, and leaves what is out of bounds or made but not found', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-cleanup-'));
    const file = LedgerFile.open(dir, { baseUrl: profile.baseUrl, version: '0.1.0', secrets: profile.secrets });
    const ledger = new Ledger(profile, file);
    const owner = 'END-get-item-200 [projects]';
    const collection = `${server.url}/v2/projects`;
    const recorded = { field: 'label', value: `${file.mark}-recorded` };
    const recordedUrl = await project(recorded.value);
    ledger.record(recordedUrl, owner, { of: ledger.creating(collection, owner, recorded), proof: recorded });
    const unanswered = { field: 'label', value: `${file.mark}-unanswered` };
    ledger.creating(collection, owner, unanswered);
    const unansweredUrl = await project(unanswered.value);
    ledger.creating(collection, owner, { field: 'label', value: `${file.mark}-never-made` });
    // A 2xx that named no item made one all the same: a listing by its mark that shows none does not make it gone.
    const unfound = { field: 'label', value: `${file.mark}-made-unfound` };
    const why = 'POST answered 201 but named no item to delete';
    ledger.unlocated(ledger.creating(collection, owner, unfound), collection, owner, why, 'certain', unfound);
    ledger.record('http://127.0.0.1:1/v2/projects/elsewhere', owner);
    // Killed here: no end line.
    file.close();
    expect(await projectsLeft()).toBe(2);

    const client = clientForProfile(profile);
    const journal = LedgerFile.resume(dir, profile.secrets);
    try {
      const outcome = await cleanUpLedger(profile, await readLedgerFile(join(dir, ledgerFileName)), client, journal, () => {});
      expect([...outcome.deleted].sort()).toEqual([recordedUrl, unansweredUrl].sort());
      expect(outcome.gone).toBe(1);
      expect(outcome.left).toEqual([{ url: collection, owner, certainty: 'certain', lastAnswer: why }, { url: 'http://127.0.0.1:1/v2/projects/elsewhere', owner, certainty: 'certain', lastAnswer: "not deleted: not on the target's origins" }]);
    } finally {
      journal.close();
      await client.close();
    }
    expect(await projectsLeft()).toBe(0);
    // The outcome went to the ledger: only what is left is owned now.
    expect((await readLedgerFile(join(dir, ledgerFileName))).flatMap((r) => r.outstanding.map((e) => e.url))).toEqual([collection, 'http://127.0.0.1:1/v2/projects/elsewhere']);
  });
});
