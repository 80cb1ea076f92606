/**
 * Test support for the framework stand-ins: what every stand-in hands the test (its URL,
 * the restprobe config a new user would write for it, the secrets that config names), and
 * the few node:http helpers the hand-written ones share (reading a body, answering JSON).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface FrameworkStandIn {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  /** The restprobe config (without `baseUrl`), as JSON would hold it. */
  readonly config: Record<string, unknown>;
  /** The environment the config's `{ "env": NAME }` secrets are read from. */
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

/** The raw body, whole. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

/** The media type of the request's Content-Type, lowercased, without parameters ('' when absent). */
export const mediaType = (req: IncomingMessage): string => (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

/** Answers `body` as JSON (or nothing when undefined), HEAD without its body. */
export function sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, type = 'application/json'): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { ...(text && { 'content-type': type, 'content-length': String(Buffer.byteLength(text)) }), ...headers });
  res.end(req.method === 'HEAD' ? undefined : text);
}

export { isObject } from '../../../src/model/json.js';
