/**
 * Request bodies: reading them under a size cap, and parsing them as JSON.
 *
 * Nothing here recurses over the parsed value (V8's JSON.parse is iterative), so deeply
 * nested bodies cost no stack; handlers read only the fields they know.
 */
import type { IncomingMessage } from 'node:http';
import { genericProblem, ProblemError, problemTypes, validationFailed } from './problem.js';

/** Largest body the server reads: 1 MiB. */
export const maxBodyBytes = 1024 * 1024;

/** A JSON object, as the tolerant reader sees it. */
export type JsonObject = Readonly<Record<string, unknown>>;

/** Whether the request announces a body (RFC 9112 §6.3): chunked, or a non-zero length. */
export function hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}

function tooLarge(): ProblemError {
  // A body past drainBytes is not read to its end, so the connection cannot be reused; closed after any 413 alike.
  return new ProblemError(
    genericProblem(413, `Request bodies are limited to ${maxBodyBytes} bytes (1 MiB).`),
    { Connection: 'close' },
  );
}

/**
 * Past this much, a body over the cap is cut off at once; up to it, the rest is read (and
 * discarded) before the 413, so a client still sending it gets the answer, not a reset.
 */
const drainBytes = 8 * maxBodyBytes;

/**
 * Reads the whole body, refusing with 413 once it passes the cap: what follows is read to
 * its end and discarded, never buffered, unless it passes {@link drainBytes} (or declares
 * a Content-Length over it), which is refused at once.
 */
export function readBody(req: IncomingMessage, cap = maxBodyBytes): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > drainBytes) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > drainBytes) {
        cleanup();
        req.resume(); // drain to nowhere until the connection closes
        reject(tooLarge());
        return;
      }
      if (size <= cap) chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      if (size > cap) reject(tooLarge());
      else resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    // The client went away mid-body: nobody is left to answer.
    const onClose = (): void => onError(new Error('request closed before its body ended'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** Thrown for bodies that are not JSON; carries what a client needs to fix it. */
export class MalformedJsonError extends ProblemError {}

/** 400 for a body that is not JSON at all. */
function malformed(detail: string): MalformedJsonError {
  return new MalformedJsonError({ type: problemTypes.malformedJson, title: 'Malformed JSON', status: 400, detail });
}

/** Strict UTF-8 (a bad byte throws). One for every body: making a decoder costs more than a body's decode. */
export const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Parses a body as UTF-8 JSON: 400 when it is not JSON. */
export function parseJson(raw: Buffer): unknown {
  let text: string;
  try {
    text = strictUtf8.decode(raw);
  } catch {
    throw malformed('The request body is not valid UTF-8, so it cannot be JSON (RFC 8259 §8.1).');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw malformed('The request body is not valid JSON; check quotes, commas and brackets.');
  }
}

/** 400 for a request that needs a body and sent none. */
export function bodyRequired(): ProblemError {
  return new ProblemError({
    type: problemTypes.bodyRequired,
    title: 'Body required',
    status: 400,
    detail: 'This request needs a JSON object as its body.',
  });
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The body must be a JSON object: 422 on `(body)` otherwise. */
export function requireObject(value: unknown): JsonObject {
  if (isJsonObject(value)) return value;
  const found = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
  throw validationFailed([{ field: '(body)', message: `must be a JSON object, not ${found}` }]);
}
