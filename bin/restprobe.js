#!/usr/bin/env node
// The CLI is compiled to dist/ by `npm run build`: `npm ci` in a clone runs it (prepare), an
// installed package (a tarball, a git URL) ships it. A clone that was never installed says so
// at once instead of failing on a missing module.
import { existsSync } from 'node:fs';

// The bundle tools/bundle-cli.js writes: one file loads faster than the modules it holds.
const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('restprobe: not built yet: in a clone of restprobe, run `npm ci` (it installs and builds, about a minute) or `npm run build`, then try again\n');
  process.exit(2);
}
await import(main.href);
