import { mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDir } from './make-dir.js';
import { prepareReportDir } from './write.js';

describe('makeDir and prepareReportDir', () => {
  it('make the missing parts of a path', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'restprobe-dir-')), 'a', 'b');
    await makeDir(dir);
    await makeDir(dir);
    expect((await stat(dir)).isDirectory()).toBe(true);
  });

  it('refuse at once where no directory can be made: under /proc (where mkdir -p never returns), under a file', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'restprobe-dir-')), 'file');
    await writeFile(file, '');
    const started = performance.now();
    await expect(makeDir('/proc/restprobe-nope/deeper')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(makeDir(join(file, 'reports'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(prepareReportDir('/proc/restprobe-nope')).rejects.toThrow(/^cannot write reports to \/proc\/restprobe-nope \(ENOENT\): choose another --report-dir$/);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
