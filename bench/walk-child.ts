/**
 * A cursor walk in a process of its own, so its peak RSS is the walk's (the harness
 * holding one page plus a set of ids), not the benchmark's other phases.
 * Args: base URL, API key, expected item count. Reports { ms, peakRssMb, seen } over IPC.
 */
import { join } from 'node:path';
import { loadProfile } from '../src/config/load.js';
import { RunContext } from '../src/engine/context.js';
import { runShared } from '../src/engine/context.js';
import { HttpClient } from '../src/http/client.js';
import { walk } from '../src/check-kit/pagination.js';
import { packageRoot } from '../src/package-root.js';

const [url, apiKey, count] = process.argv.slice(2) as [string, string, string];
const profile = await loadProfile({ configPath: join(packageRoot(), 'fixtures', 'reference.config.json'), baseUrl: url, env: { RESTPROBE_API_KEY: apiKey } });
const client = new HttpClient({ timeoutMs: 10_000, maxBodyBytes: 5 << 20, connections: 1, maxRequests: Number.MAX_SAFE_INTEGER });
const ctx = new RunContext(profile, client, 1, new AbortController().signal, 'bench-walk', runShared(profile));
const collection = profile.collections.find((c) => c.name === 'projects')!;
const seen = new Set<string>();
let peak = process.memoryUsage().rss;
const started = performance.now();
for await (const page of walk(ctx, collection, { limit: collection.pagination.maxLimit ?? 100, filters: { label: 'seed' } }, Number(count))) {
  for (const item of page.items) seen.add(String(item['id']));
  // A long walk is one check: its passing evidence is a line per page, not the pages.
  ctx.http.clearRecording();
  peak = Math.max(peak, process.memoryUsage().rss);
}
const ms = performance.now() - started;
await client.close();
process.send?.({ ms, peakRssMb: peak / 2 ** 20, seen: seen.size });
