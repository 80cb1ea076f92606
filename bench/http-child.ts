/**
 * The harness's HTTP layer (recording and redaction on) vs autocannon, against the
 * minimal server at the given URL, 10 connections; bare undici `dispatch()` too, the
 * ceiling the harness builds on. In a process of its own, so the benchmark's other phases
 * leave no heap behind to slow it. The three take turns in short windows over several
 * rounds and each figure is the median of its rounds, so a noisy neighbour slows all
 * three alike rather than one of them. Reports {@link HttpFigures} over IPC.
 */
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Agent } from 'undici';
import { loadProfile } from '../src/config/load.js';
import { HttpClient } from '../src/http/client.js';
import { RecordingSession } from '../src/http/session.js';
import { packageRoot } from '../src/package-root.js';

/** Requests per second of each. */
export interface HttpFigures {
  readonly harness: number;
  readonly autocannon: number;
  readonly undici: number;
}

const connections = 10;
const windowSeconds = 2;
const rounds = 5;
const apiKey = 'bench-key-not-secret';

/** Requests per second of `send` with `connections` loops running for `seconds`. */
async function loop(send: () => Promise<unknown>, seconds: number): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        await send();
        done++;
      }
    }),
  );
  return done / seconds;
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const [baseUrl] = process.argv.slice(2) as [string];
const profile = await loadProfile({ configPath: join(packageRoot(), 'fixtures', 'reference.config.json'), baseUrl, env: { RESTPROBE_API_KEY: apiKey } });
const client = new HttpClient({ timeoutMs: 5000, maxBodyBytes: 1 << 20, connections, maxRequests: Number.MAX_SAFE_INTEGER });
const session = new RecordingSession(client, profile);
const spec = { method: 'GET', path: '/v2/projects' } as const;
const send = () => {
  // A check's evidence lives as long as the check: drop it as a finished check would.
  if (session.exchanges.length > 1000) session.clearRecording();
  return session.send(spec);
};

// The same request from all three: the harness's headers (undici adds host and connection).
const headers = { accept: 'application/json', 'x-api-key': apiKey };
const bare = new Agent({ connections });
const bareRequest = { origin: baseUrl, path: spec.path, method: spec.method, headers };
const sendBare = () =>
  new Promise<void>((resolve, reject) => {
    bare.dispatch(bareRequest, {
      onRequestStart() {},
      onResponseData() {},
      onResponseEnd: () => resolve(),
      onResponseError: (_controller, err) => reject(err),
    });
  });

await loop(send, 1); // warm-up: connections open, JIT warm
await loop(sendBare, 0.5);
const measured = { harness: [] as number[], autocannon: [] as number[], undici: [] as number[] };
for (let round = 0; round < rounds; round++) {
  measured.autocannon.push((await autocannon({ url: `${baseUrl}${spec.path}`, connections, duration: windowSeconds, headers })).requests.average);
  measured.harness.push(await loop(send, windowSeconds));
  measured.undici.push(await loop(sendBare, windowSeconds));
}
await client.close();
await bare.close();
const figures: HttpFigures = { harness: median(measured.harness), autocannon: median(measured.autocannon), undici: median(measured.undici) };
process.send?.(figures);
