/**
 * vitest global setup: the suite's temporary files go under one directory of its own,
 * removed when the suite ends. The tests (and the CLIs they spawn) make `restprobe-*`
 * directories through `os.tmpdir()`, which reads TMPDIR; set here, before the forks start,
 * every fork and child inherits it, so a run of the suite leaves nothing in /tmp.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'restprobe-suite-'));
  const before = process.env['TMPDIR'];
  process.env['TMPDIR'] = root;
  return () => {
    if (before === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = before;
    rmSync(root, { recursive: true, force: true });
  };
}
