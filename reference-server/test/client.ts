/**
 * A small test client for the reference server: undici requests with the raw path kept
 * as written (no URL normalisation), and a raw-socket exchange for what undici hides.
 */
import { connect } from 'node:net';
import type { Readable } from 'node:stream';
import { Agent } from 'undici';
import { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../src/index.js';

export interface Exchange {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** The body parsed as JSON. */
  json<T = any>(): T;
}

export interface CallOptions {
  readonly headers?: Record<string, string>;
  /** A value to send as JSON (with Content-Type: application/json unless headers say otherwise). */
  readonly json?: unknown;
  /** A raw body, sent as is. */
  readonly body?: string | Buffer | Readable;
  /** Send the API key (default true). */
  readonly auth?: boolean;
  /** Which node to ask: an index into `server.urls` (default 0, the first). */
  readonly node?: number;
  /** Another origin to ask instead of a node (such as `server.plainUrl`). */
  readonly origin?: string;
}

/** A started server and a client bound to it. */
export interface Harness {
  readonly server: ReferenceServer;
  call(method: string, path: string, options?: CallOptions): Promise<Exchange>;
  /** POST a project and return its representation. */
  createProject(fields?: Record<string, unknown>): Promise<Record<string, any>>;
  close(): Promise<void>;
}

export async function startHarness(
  faults: readonly string[] = [],
  options: Omit<ReferenceServerOptions, 'faults'> = {},
): Promise<Harness> {
  const server = await startReferenceServer({ ...options, faults });
  // With `tls`, the server's own CA is the one trusted; verification stays on.
  const agent = new Agent({ connections: 16, ...(server.ca !== undefined && { connect: { ca: server.ca } }) });
  const call = async (method: string, path: string, options: CallOptions = {}): Promise<Exchange> => {
    const headers: Record<string, string> = {};
    if (options.auth !== false) headers['x-api-key'] = server.secrets.RESTPROBE_API_KEY;
    let body = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    Object.assign(headers, options.headers);
    // The raw path goes on the wire as written: no URL normalisation of `..` or `%2f`.
    const origin = options.origin ?? server.urls[options.node ?? 0];
    if (origin === undefined) throw new Error(`no node ${options.node}: the server has ${server.urls.length}`);
    const res = await agent.request({ origin, path, method: method as 'GET', headers, body: body ?? null });
    const text = await res.body.text();
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    return { status: res.statusCode, headers: flat, text, json: () => JSON.parse(text) };
  };
  return {
    server,
    call,
    async createProject(fields = {}) {
      const res = await call('POST', '/v2/projects', { json: { name: 'probe', ...fields } });
      if (res.status !== 201 && res.status !== 200) throw new Error(`create failed: ${res.status} ${res.text}`);
      return res.json();
    },
    async close() {
      await agent.close();
      await server.close();
    },
  };
}

/** Sends raw bytes and returns everything the server sent until it closed or `idleMs` passed. */
export function rawExchange(port: number, bytes: string, idleMs = 150): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('latin1'));
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      clearTimeout(timer);
      timer = setTimeout(finish, idleMs);
    });
    socket.on('end', finish);
    socket.on('error', reject);
    socket.write(bytes);
    timer = setTimeout(finish, idleMs * 4);
  });
}
