import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ledgerFileName, LedgerFile } from '../engine/ledger-file.js';
import { cleanupCommand } from './cleanup-command.js';
import { earlierLeftovers } from './earlier-runs.js';

/** A report directory whose ledger holds one run that ended owning nothing, then `after`. */
async function ledgerWith(after: string): Promise<{ dir: string; path: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'restprobe-cleanup-'));
  LedgerFile.open(dir, { baseUrl: 'http://127.0.0.1:1/api', version: '0.1.0', secrets: [] }).end();
  const path = join(dir, ledgerFileName);
  await writeFile(path, `${await readFile(path, 'utf8')}${after}`);
  return { dir, path };
}

/** Runs the command, with what it printed. */
async function cleanup(dir: string): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await cleanupCommand(dir, undefined, {}, { write: (s: string) => ((out += s), true) } as unknown as NodeJS.WritableStream);
  return { code, out };
}

describe('restprobe cleanup on a ledger it cannot wholly read', () => {
  it('refuses a file none of whose lines is a ledger entry, naming them, rather than finding "nothing to delete"', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-cleanup-'));
    await writeFile(join(dir, ledgerFileName), 'garbage\n{"x":1}\n[1,2]');
    await expect(cleanup(dir)).rejects.toMatchObject({ code: 'ERR_USAGE', message: expect.stringMatching(/is not a restprobe ledger: lines 1, 2 and 3 are no ledger entry/) });
  });

  it('says which lines it could not read and exits 1: what they recorded is not known', async () => {
    const { dir } = await ledgerWith('{"e":"created","run":"abc","n":1,"url":"http://127.0.0.1:1/api/things/1","owner":"x","certainty":"certain"}\nnot json\n{"created":"http://127.0.0.1:1/api/things/2"}\n');
    const { code, out } = await cleanup(dir);
    expect(out).toMatch(/nothing to delete: .* own nothing on the target; lines 4 and 5 of .* are no ledger entry: what they recorded, if anything, is not known and not cleaned up/);
    expect(code).toBe(1);
    // The next run keeps the file as it is (no fresh start that would erase those lines), and says so.
    const earlier = await earlierLeftovers(dir);
    expect(earlier).toMatchObject({ fresh: false, unreadable: expect.stringMatching(/lines 4 and 5 of .* are no ledger entry: kept as they are/) });
  });

  it('skips without a word a line a killed run cut short, which the next run ended with a newline', async () => {
    const { dir } = await ledgerWith('{"e":"gone","run":"abc","n');
    LedgerFile.open(dir, { baseUrl: 'http://127.0.0.1:1/api', version: '0.1.0', secrets: [] }).end();
    expect(await cleanup(dir)).toEqual({ code: 0, out: expect.stringMatching(/nothing to delete: the runs in \S+ own nothing on the target\n$/) });
    expect(await earlierLeftovers(dir)).toEqual({ fresh: true });
  });
});
