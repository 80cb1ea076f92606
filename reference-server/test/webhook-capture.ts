/**
 * Test support: a webhook endpoint on 127.0.0.1 that records every delivery (raw bytes
 * and headers) and answers as told, and a subscription to it on a reference server.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Harness } from './client.js';

export interface Delivery {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly raw: Buffer;
  readonly json: any;
}

export interface Capture {
  readonly url: string;
  readonly deliveries: Delivery[];
  /** The status (and delay) for the nth delivery (0-based); default 204 at once. */
  answer: (n: number) => { status: number; delayMs?: number };
  /** Resolves once `count` deliveries have arrived (rejects after `withinMs`). */
  waitFor(count: number, withinMs?: number): Promise<Delivery[]>;
  close(): Promise<void>;
}

export async function startCapture(): Promise<Capture> {
  const deliveries: Delivery[] = [];
  const waiters: (() => void)[] = [];
  const capture: Capture = {
    url: '',
    deliveries,
    answer: () => ({ status: 204 }),
    waitFor: (count, withinMs = 3_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${deliveries.length} of ${count} deliveries within ${withinMs} ms`)), withinMs);
        const check = (): void => {
          if (deliveries.length < count) return void waiters.push(check);
          clearTimeout(timer);
          resolve(deliveries.slice(0, count));
        };
        check();
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    let json: unknown;
    try {
      json = JSON.parse(raw.toString('utf8'));
    } catch {
      json = undefined;
    }
    const { status, delayMs = 0 } = capture.answer(deliveries.length);
    deliveries.push({ headers: req.headers, raw, json });
    for (const w of waiters.splice(0)) w();
    setTimeout(() => {
      if (!res.destroyed) res.writeHead(status).end();
    }, delayMs);
  });
  await new Promise<void>((r) => server.listen({ port: 0, host: '127.0.0.1' }, () => r()));
  (capture as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return capture;
}

/** Subscribes `capture` on the harness's server; returns the subscription's id, secret and Location. */
export async function subscribe(h: Harness, capture: Capture, events: string[] = ['*']): Promise<{ id: string; secret: string; location: string }> {
  const res = await h.call('POST', '/v2/webhook-subscriptions', { json: { url: capture.url, events } });
  if (res.status !== 201) throw new Error(`subscribe answered ${res.status}: ${res.text}`);
  return { id: res.json().id, secret: res.json().secret, location: res.headers['location'] ?? '' };
}

export const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
