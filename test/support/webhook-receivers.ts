/**
 * Test support: webhook receivers built on the senders' own libraries, for proving receiver
 * mode on what teams really run. Each listens on 127.0.0.1:0, takes deliveries at
 * `POST /webhooks`, processes each event id once (a repeat is acknowledged and skipped),
 * `processAfterMs` after answering, and tells how often at `GET /processed/{id}`.
 *
 * - `github`: @octokit/webhooks' node middleware (it refuses a delivery without
 *   X-GitHub-Event, X-GitHub-Delivery or X-Hub-Signature-256 with 400); `verify: false`
 *   takes deliveries without checking the signature (a receiver that trusts anyone).
 * - `stripe`: Stripe's library (`webhooks.constructEvent`, a tolerance of 300 s, which
 *   refuses old timestamps and takes future ones).
 *
 * `gatewayKey`: every delivery must also carry `X-Gateway-Key` with that value (401 otherwise).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhooks, createNodeMiddleware } from '@octokit/webhooks';
import Stripe from 'stripe';

export interface LibraryReceiverOptions {
  readonly library: 'github' | 'stripe';
  readonly secret: string;
  readonly verify?: boolean;
  readonly gatewayKey?: string;
  readonly processAfterMs?: number;
  /** The Stripe API version the receiver's library is pinned to: an event of another is refused, as stripe-go and Stripe.net refuse it. */
  readonly stripeApiVersion?: string;
}

export interface LibraryReceiver {
  /** `http://127.0.0.1:PORT/webhooks` */
  readonly url: string;
  /** `http://127.0.0.1:PORT/processed/{id}` */
  readonly processedUrl: string;
  close(): Promise<void>;
}

export async function startLibraryReceiver(o: LibraryReceiverOptions): Promise<LibraryReceiver> {
  const processed = new Map<string, number>();
  const taken = new Set<string>();
  /** The work an event asks for, done once per id, after the answer. */
  const process = (id: string): void => {
    if (taken.has(id)) return;
    taken.add(id);
    setTimeout(() => processed.set(id, (processed.get(id) ?? 0) + 1), o.processAfterMs ?? 0).unref();
  };
  const reply = (res: ServerResponse, status: number, body = ''): void => void res.writeHead(status, { 'content-type': 'text/plain' }).end(body);

  let handle: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>;
  if (o.library === 'github') {
    const webhooks = new Webhooks({ secret: o.secret });
    webhooks.onAny((event) => process(event.id));
    const middleware = createNodeMiddleware(webhooks, { path: '/webhooks', log: { debug() {}, info() {}, warn() {}, error() {} } });
    handle = o.verify === false
      ? async (req, res) => {
          const id = String(req.headers['x-github-delivery'] ?? '');
          await webhooks.receive({ id, name: String(req.headers['x-github-event'] ?? 'ping') as 'ping', payload: JSON.parse((await rawBody(req)).toString('utf8')) });
          reply(res, 200, 'ok');
        }
      : (req, res) => middleware(req, res, () => reply(res, 404));
  } else {
    const stripe = new Stripe('sk_test_restprobe_stand_in');
    handle = async (req, res) => {
      let event: { id: string; api_version?: string | null };
      try {
        event = stripe.webhooks.constructEvent(await rawBody(req), String(req.headers['stripe-signature'] ?? ''), o.secret);
      } catch (err) {
        return reply(res, 400, `Webhook Error: ${(err as Error).message}`);
      }
      if (o.stripeApiVersion !== undefined && event.api_version !== o.stripeApiVersion) return reply(res, 400, `Received event with API version ${event.api_version}, but the library is pinned to ${o.stripeApiVersion}`);
      reply(res, 200, '{"received":true}');
      process(event.id);
    };
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://receiver');
    const asked = /^\/processed\/(.+)$/.exec(url.pathname);
    if (req.method === 'GET' && asked) {
      const id = decodeURIComponent(asked[1]!);
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, count: processed.get(id) ?? 0 }));
    }
    if (o.gatewayKey !== undefined && req.headers['x-gateway-key'] !== o.gatewayKey) return reply(res, 401, 'no gateway key');
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/webhooks`,
    processedUrl: `${origin}/processed/{id}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

async function rawBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
