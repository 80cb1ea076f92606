/**
 * The reference webhook receiver (conventions §6.3–4): it verifies a Standard Webhooks
 * signature over the raw body in constant time, refuses a timestamp more than five minutes
 * from now, answers 2xx at once, and processes each event id once (a repeat is answered
 * 2xx and skipped), at once or by a queue worker that takes `processAfterMs` for each event,
 * one after another. `GET /processed/{id}` tells how often
 * an id was processed.
 * `restprobe webhooks check-receiver` is proven on it, and on its faults.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifiesStandardSignature } from './webhook-signature.js';

export interface ReceiverFault {
  readonly name: string;
  readonly description: string;
  /** The receiver-mode checks that must fail while it is active. */
  readonly detects: readonly string[];
}

const definitions = [
  { name: 'receiver-slow', description: 'The receiver processes each event before it answers, taking longer than the sender waits.', detects: ['EVT-receiver-valid-2xx'] },
  { name: 'receiver-accepts-bad-signature', description: 'The receiver checks that a signature is present but never compares it.', detects: ['EVT-receiver-bad-signature-4xx', 'EVT-receiver-reserialised-4xx'] },
  { name: 'receiver-verifies-reserialised-json', description: 'The receiver computes the HMAC over the body parsed and re-serialised, not over its raw bytes.', detects: ['EVT-receiver-reserialised-4xx'] },
  { name: 'receiver-skips-timestamp-check', description: 'The receiver accepts any webhook-timestamp, however old or far ahead.', detects: ['EVT-receiver-timestamp-4xx'] },
  { name: 'receiver-first-signature-only', description: 'The receiver verifies only the first signature listed in webhook-signature, so a delivery during a secret rotation is refused.', detects: ['EVT-receiver-rotation-2xx'] },
  { name: 'receiver-accepts-unsigned', description: 'The receiver accepts a delivery without webhook headers as if it were verified.', detects: ['EVT-receiver-unsigned-4xx'] },
  { name: 'receiver-fails-duplicate', description: 'The receiver answers 409 to an event id it has already processed.', detects: ['EVT-receiver-duplicate-2xx'] },
  { name: 'receiver-processes-twice', description: 'The receiver acknowledges a repeated event and processes it again (seen with --processed-url).', detects: ['EVT-receiver-duplicate-2xx'] },
  { name: 'receiver-dedupes-by-signature', description: 'The receiver skips a delivery whose signature it has seen, not its event id: a retry signed anew is processed again.', detects: ['EVT-receiver-duplicate-2xx'] },
] as const satisfies readonly ReceiverFault[];

export type ReceiverFaultName = (typeof definitions)[number]['name'];
export const receiverFaultCatalogue: readonly ReceiverFault[] = definitions;

export interface ReceiverOptions {
  /** The signing secret, `whsec_…` (Standard Webhooks). */
  readonly secret: string;
  readonly faults?: readonly string[];
  /** How long fault `receiver-slow` takes to answer (default 6 s). */
  readonly slowMs?: number;
  /** Timestamp tolerance in seconds (default 300). */
  readonly toleranceSeconds?: number;
  /**
   * How long the receiver's one queue worker takes for each event, one after another, after
   * the answer (default 0: at once); a function tells it for a first delivery and a repeat apart.
   */
  readonly processAfterMs?: number | ((repeat: boolean) => number);
}

export interface ReferenceReceiver {
  /** `http://127.0.0.1:PORT/webhooks` */
  readonly url: string;
  /** How often each event id was processed. */
  readonly processed: ReadonlyMap<string, number>;
  close(): Promise<void>;
}

/** Starts the reference receiver on 127.0.0.1 (port 0: a free one). */
export async function startReferenceReceiver(options: ReceiverOptions, port = 0): Promise<ReferenceReceiver> {
  const known = new Set<string>(definitions.map((d) => d.name));
  const unknown = (options.faults ?? []).filter((f) => !known.has(f));
  if (unknown.length > 0) throw new Error(`Unknown receiver fault: ${unknown.join(', ')}. Valid: ${[...known].join(', ')}.`);
  const faults = new Set(options.faults as readonly ReceiverFaultName[] | undefined);
  const tolerance = options.toleranceSeconds ?? 300;
  const processed = new Map<string, number>();
  /** Event ids taken, processed or queued. */
  const taken = new Set<string>();
  /** When the queue worker is free again (performance.now()). */
  let workerFreeAt = 0;
  const reply = (res: ServerResponse, status: number, detail?: string): void => {
    if (detail === undefined) {
      res.writeHead(status).end();
      return;
    }
    const body = JSON.stringify({ type: 'about:blank', title: status === 401 ? 'Unauthorized' : 'Bad Request', status, detail });
    res.writeHead(status, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body) }).end(body);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://receiver');
    const seen = /^\/processed\/(.+)$/.exec(url.pathname);
    if (req.method === 'GET' && seen) {
      const body = JSON.stringify({ id: decodeURIComponent(seen[1]!), count: processed.get(decodeURIComponent(seen[1]!)) ?? 0 });
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      return;
    }
    if (req.method !== 'POST' || url.pathname !== '/webhooks') return reply(res, 404, 'Deliveries go to POST /webhooks.');
    const id = req.headers['webhook-id'];
    const timestamp = req.headers['webhook-timestamp'];
    const signature = req.headers['webhook-signature'];
    if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string') {
      if (!faults.has('receiver-accepts-unsigned')) return reply(res, 400, 'webhook-id, webhook-timestamp and webhook-signature are required.');
    } else {
      if (!/^\d+$/.test(timestamp)) return reply(res, 400, 'webhook-timestamp must be Unix seconds.');
      if (!faults.has('receiver-skips-timestamp-check') && Math.abs(Date.now() / 1000 - Number(timestamp)) > tolerance) return reply(res, 400, 'webhook-timestamp is outside the tolerance.');
      let signed = raw;
      if (faults.has('receiver-verifies-reserialised-json')) {
        try {
          signed = Buffer.from(JSON.stringify(JSON.parse(raw.toString('utf8'))));
        } catch {
          return reply(res, 400, 'The body is not JSON.');
        }
      }
      // Fault `receiver-first-signature-only`: the list read as one signature.
      const listed = faults.has('receiver-first-signature-only') ? signature.split(' ')[0]! : signature;
      if (!faults.has('receiver-accepts-bad-signature') && !verifiesStandardSignature(options.secret, id, timestamp, signed, listed)) return reply(res, 401, 'The signature does not verify.');
    }
    const key = typeof id === 'string' ? id : '';
    // Fault `receiver-dedupes-by-signature`: a repeat is known by its signature, which a sender signs anew for each retry.
    const seenAs = faults.has('receiver-dedupes-by-signature') && typeof signature === 'string' ? signature : key;
    const repeat = taken.has(seenAs);
    if (repeat && faults.has('receiver-fails-duplicate')) return reply(res, 409, 'This event was already processed.');
    if (faults.has('receiver-slow')) await new Promise((r) => setTimeout(r, options.slowMs ?? 6_000));
    // Answered first, processed after (here: counted); a repeat is acknowledged and skipped.
    reply(res, 204);
    if (repeat && !faults.has('receiver-processes-twice')) return;
    // Taken now, so a repeat that arrives before the work is done is skipped all the same.
    taken.add(seenAs);
    const work = (): void => void processed.set(key, (processed.get(key) ?? 0) + 1);
    const takes = typeof options.processAfterMs === 'function' ? options.processAfterMs(repeat) : (options.processAfterMs ?? 0);
    if (takes === 0) return work();
    // One worker: an event queued behind another waits for it.
    const starts = Math.max(performance.now(), workerFreeAt);
    workerFreeAt = starts + takes;
    setTimeout(work, workerFreeAt - performance.now()).unref();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1' }, () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    processed,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
