/**
 * The harness as a webhook receiver: one listener on 127.0.0.1 (port 0) per run, started
 * when a check first asks for it and closed when the run ends. Each check gets a channel
 * of its own (a path, or the same path under `webhooks.publicUrl` when a forwarder stands
 * in front), which records every delivery's raw bytes and answers as the check says.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Answer, Channel, Delivery, WebhookInbox } from '../model/webhook-inbox.js';

export type { Answer, Channel, Delivery };

export class WebhookListener implements WebhookInbox {
  private readonly channels = new Map<string, ChannelImpl>();
  private readonly pending = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    /** `http://127.0.0.1:PORT` */
    readonly origin: string,
    private readonly publicUrl: string | undefined,
  ) {}

  /** Listens on 127.0.0.1 only, on a free port. */
  static async start(publicUrl?: string): Promise<WebhookListener> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port: 0, host: '127.0.0.1' }, () => resolve());
    });
    const listener = new WebhookListener(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, publicUrl?.replace(/\/+$/, ''));
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('error', () => res.destroy());
      req.on('end', () => {
        const path = new URL(req.url ?? '/', 'http://listener').pathname;
        // The last segment names the channel, so a forwarder may add a prefix.
        const channel = listener.channels.get(path.split('/').at(-1) ?? '');
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
        if (channel === undefined) {
          // A channel its check has closed: 410 tells a sender to stop (Standard Webhooks).
          res.writeHead(410, { 'content-length': '0' }).end();
          return;
        }
        const delivery: Delivery = { method: req.method ?? '', path, headers, raw: Buffer.concat(chunks), receivedAt: Date.now() };
        const { status, delayMs = 0 } = channel.record(delivery);
        delivery.answered = `${status}${delayMs > 0 ? ` after ${delayMs} ms` : ''}`;
        const timer = setTimeout(() => {
          listener.pending.delete(timer);
          if (!res.destroyed) res.writeHead(status, { 'content-length': '0' }).end();
        }, delayMs);
        listener.pending.add(timer);
      });
    });
    return listener;
  }

  channel(): Channel {
    const token = `restprobe-${randomBytes(12).toString('hex')}`;
    const channel = new ChannelImpl(`${this.publicUrl ?? this.origin}/hooks/${token}`, () => this.channels.delete(token));
    this.channels.set(token, channel);
    return channel;
  }

  /** Stops listening, drops every connection and held answer. */
  /** Whether it still accepts connections (false once closed). */
  get listening(): boolean {
    return this.server.listening;
  }

  async close(): Promise<void> {
    for (const t of this.pending) clearTimeout(t);
    this.pending.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

class ChannelImpl implements Channel {
  readonly deliveries: Delivery[] = [];
  private readonly waiters = new Set<() => void>();
  answer: (delivery: Delivery) => Answer = () => ({ status: 204 });

  constructor(
    readonly url: string,
    private readonly onClose: () => void,
  ) {}

  record(delivery: Delivery): Answer {
    const answer = this.answer(delivery);
    this.deliveries.push(delivery);
    for (const w of [...this.waiters]) w();
    return answer;
  }

  next(matches: (d: Delivery) => boolean, withinMs: number, signal: AbortSignal, from = 0): Promise<Delivery | undefined> {
    return new Promise((resolve) => {
      const done = (d: Delivery | undefined): void => {
        clearTimeout(timer);
        this.waiters.delete(look);
        signal.removeEventListener('abort', abort);
        resolve(d);
      };
      const look = (): void => {
        const found = this.deliveries.slice(from).find(matches);
        if (found) done(found);
      };
      const abort = (): void => done(undefined);
      const timer = setTimeout(() => done(undefined), withinMs);
      signal.addEventListener('abort', abort, { once: true });
      this.waiters.add(look);
      look();
    });
  }

  close(): void {
    this.onClose();
  }
}
