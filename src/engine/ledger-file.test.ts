import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testProfile } from '../../test/support/profile.js';
import { countOutstanding, ledgerFileName, LedgerFile, readLedgerFile } from './ledger-file.js';
import { Ledger } from './ledger.js';

const secret = { envName: 'RESTPROBE_API_KEY', value: 'sk-live-0123456789abcdef' };

async function journalled(fresh = false) {
  const dir = await mkdtemp(join(tmpdir(), 'restprobe-ledger-'));
  const profile = testProfile('http://user:pa55word@127.0.0.1:8080/api');
  const file = LedgerFile.open(dir, { baseUrl: profile.baseUrl, version: '0.1.0', secrets: [secret], fresh });
  return { dir, file, ledger: new Ledger(profile, file), path: join(dir, ledgerFileName) };
}

describe('the ledger file', () => {
  it('holds every change the moment it happens, and reads back as what the run still owns', async () => {
    const { file, ledger, path } = await journalled();
    const owner = 'END-get-item-200 [things]';
    const mark = { field: 'label', value: `${file.mark}-0001` };
    const kept = ledger.record('http://127.0.0.1:8080/api/things/1', owner, { of: ledger.creating('http://127.0.0.1:8080/api/things', owner, mark), proof: mark });
    const deleted = ledger.record('http://127.0.0.1:8080/api/things/2', owner);
    ledger.gone(deleted);
    ledger.notCreated(ledger.creating('http://127.0.0.1:8080/api/things', owner));
    const own = ledger.record('http://127.0.0.1:8080/api/things/3', owner);
    ledger.deletedByOwner(own.url, owner, 204);
    ledger.leave(own, 'GET answered 503', 'possible');
    // A create the process never heard back from: only its write-ahead line is there.
    ledger.creating('http://127.0.0.1:8080/api/things', owner, { field: 'label', value: `${file.mark}-0002` });
    // Read before the file is closed: a killed run never closes it.
    const [run] = await readLedgerFile(path);
    expect(run).toMatchObject({ run: file.run, mark: file.mark, ended: false, baseUrl: 'http://127.0.0.1:8080/api' });
    expect(run!.outstanding.map((e) => [e.url, e.state, e.exists, e.proof?.value ?? e.lookFor?.value])).toEqual([
      [kept.url, 'owned', 'certain', mark.value],
      [own.url, 'deleted-unverified', 'possible', undefined],
      ['http://127.0.0.1:8080/api/things', 'left', 'possible', `${file.mark}-0002`],
    ]);
    expect(countOutstanding([run!])).toEqual({ certain: 1, possible: 2, total: 3 });
    file.end();
    expect((await readLedgerFile(path))[0]!.ended).toBe(true);
  });

  it('moves an item\'s proof to another mark of the run its owner rewrote it to, and drops it for any other value', async () => {
    const { file, ledger, path } = await journalled();
    const owner = 'END-pagination-stable-under-writes [things]';
    const mark = { field: 'label', value: `${file.mark}-0001` };
    const moved = ledger.record('http://127.0.0.1:8080/api/things/1', owner, { proof: mark });
    const lost = ledger.record('http://127.0.0.1:8080/api/things/2', owner, { proof: mark });
    ledger.rewritten(moved.url, owner, { id: '1', label: `${file.mark}-0002` });
    ledger.rewritten(lost.url, owner, { id: '2', label: 'someone-else' });
    expect([moved.proof?.value, lost.proof]).toEqual([`${file.mark}-0002`, undefined]);
    // What `restprobe cleanup` reads back from the journal.
    const [run] = await readLedgerFile(path);
    expect(run!.outstanding.map((e) => [e.url, e.proof?.value])).toEqual([[moved.url, `${file.mark}-0002`], [lost.url, undefined]]);
    // The proof is lost first, then moved: a reader that knows no proof-moved treats the item as one without proof, not as a reused id.
    const lines = (await readFile(path, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { e: string; n?: number });
    expect(lines.filter((l) => l.n === moved.n && l.e.startsWith('proof')).map((l) => l.e)).toEqual(['proof-lost', 'proof-moved']);
  });

  it('holds no credential: no URL user or password, and secrets scrubbed', async () => {
    const { file, ledger, path } = await journalled();
    ledger.record(`http://127.0.0.1:8080/api/things/${secret.value}`, 'END-x');
    file.end();
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain('pa55word');
    expect(text).not.toContain(secret.value);
  });

  it('appends to what earlier runs wrote, unless fresh; a line cut short is skipped', async () => {
    const first = await journalled();
    first.ledger.record('http://127.0.0.1:8080/api/things/1', 'END-x');
    first.file.close();
    await writeFile(first.path, `${await readFile(first.path, 'utf8')}{"e":"gone","run":"${first.file.run}","n`);
    const second = LedgerFile.open(first.dir, { baseUrl: 'http://127.0.0.1:8080/api', version: '0.1.0', secrets: [] });
    second.end();
    const runs = await readLedgerFile(first.path);
    expect(runs.map((r) => [r.run, r.outstanding.length])).toEqual([[first.file.run, 1], [second.run, 0]]);
    LedgerFile.open(first.dir, { baseUrl: 'http://127.0.0.1:8080/api', version: '0.1.0', secrets: [], fresh: true }).end();
    expect(await readLedgerFile(first.path)).toHaveLength(1);
  });
});
