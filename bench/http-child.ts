/**
 * The harness's HTTP layer (recording and redaction on) vs autocannon, against the
 * minimal server at the given URL, 10 connections; bare undici `dispatch()` too, keeping
 * status, headers and body as any client must: the ceiling the harness builds on.
 *
 * In a process of its own, so the benchmark's other phases leave no heap behind to slow
 * it. The three take turns in one-second windows over eleven rounds; a ratio is the median
 * of the rounds' ratios, each from adjacent windows, so a noisy neighbour slows both sides
 * of a ratio alike rather than one of them. Reports {@link HttpFigures} over IPC.
 */
import { join } from 'node:path';
import { Agent } from 'undici';
import { loadProfile } from '../src/config/load.js';
import { HttpClient } from '../src/http/client.js';
import { RecordingSession } from '../src/http/session.js';
import { packageRoot } from '../src/package-root.js';
import { autocannonRate, median, medianRatio } from './measure.js';

/** Requests per second of each (medians), and the ratios (medians of each round's ratio). */
export interface HttpFigures {
  readonly harness: number;
  readonly autocannon: number;
  readonly undici: number;
  readonly harnessVsAutocannon: number;
  readonly undiciVsAutocannon: number;
}

const connections = 10;
/** Whole seconds: autocannon rounds its duration up to one. */
const windowSeconds = 1;
const rounds = 11;
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
/** The least any client must do with a response: keep its status, headers and body. */
const sendBare = () =>
  new Promise<{ status: number; headers: object; body: Buffer }>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let status = 0;
    let responseHeaders: object = {};
    bare.dispatch(bareRequest, {
      onRequestStart() {},
      onResponseStart(_controller, statusCode, h) {
        status = statusCode;
        responseHeaders = h;
      },
      onResponseData: (_controller, chunk) => void chunks.push(chunk),
      onResponseEnd: () => resolve({ status, headers: responseHeaders, body: Buffer.concat(chunks) }),
      onResponseError: (_controller, err) => reject(err),
    });
  });

await loop(send, 1); // warm-up: connections open, JIT warm
await loop(sendBare, 0.5);
const measured = { harness: [] as number[], autocannon: [] as number[], undici: [] as number[] };
for (let round = 0; round < rounds; round++) {
  measured.autocannon.push(await autocannonRate(`${baseUrl}${spec.path}`, connections, windowSeconds, headers));
  measured.harness.push(await loop(send, windowSeconds));
  measured.undici.push(await loop(sendBare, windowSeconds));
}
await client.close();
await bare.close();
const figures: HttpFigures = {
  harness: median(measured.harness),
  autocannon: median(measured.autocannon),
  undici: median(measured.undici),
  harnessVsAutocannon: medianRatio(measured.harness, measured.autocannon),
  undiciVsAutocannon: medianRatio(measured.undici, measured.autocannon),
};
process.send?.(figures);
