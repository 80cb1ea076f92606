/**
 * Session guards: small interceptors around the transport, each enforcing one rule before
 * a request leaves, composed in one place (the check's context). A refused request is
 * never sent and throws a typed error.
 *
 * @example
 * ```ts
 * const send = guard(client.send.bind(client), [refuseWhenClosed(state), refuseWrites(true), abortOn(signal)]);
 * ```
 */
import { RestprobeError } from '../errors.js';
import type { RawRequest, RawResponse } from './client.js';

export type Send = (req: RawRequest) => Promise<RawResponse>;
export type Guard = (next: Send) => Send;

/** `send` wrapped by `guards`, the first outermost. */
export function guard(send: Send, guards: readonly Guard[]): Send {
  return guards.reduceRight((next, g) => g(next), send);
}

/** The methods that may change state; a read-only run never sends them. */
const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function isWrite(method: string): boolean {
  return writeMethods.has(method.toUpperCase());
}

/**
 * Read-only runs: a write reaching the transport is a harness bug (needs keep writing
 * checks from running), so it throws instead of being sent.
 */
export function refuseWrites(readOnly: boolean): Guard {
  return (next) =>
    readOnly
      ? (req) =>
          isWrite(req.method)
            ? Promise.reject(new RestprobeError('ERR_HARNESS', `read-only run: restprobe tried to send ${req.method} ${req.url} (a harness bug); it was not sent`))
            : next(req)
      : next;
}

/** Where a check's session stands: open, or closed after its cleanup. */
export interface SessionState {
  readonly closed: boolean;
}

/** After cleanup nothing more is sent for the check, so nothing is created that cleanup would miss. */
export function refuseWhenClosed(state: SessionState): Guard {
  return (next) => (req) =>
    state.closed
      ? Promise.reject(new RestprobeError('ERR_HARNESS', `${req.method} ${req.url}: the check's session is closed (its deadline passed and its cleanup ran); not sent`))
      : next(req);
}

/** Every request carries the check's signal: at its deadline, new requests are refused and in-flight ones aborted. */
export function abortOn(signal: AbortSignal): Guard {
  return (next) => (req) => {
    if (signal.aborted) return Promise.reject(abortReason(signal, req));
    return next(req.signal === undefined ? { ...req, signal } : req);
  };
}

function abortReason(signal: AbortSignal, req: RawRequest): RestprobeError {
  return signal.reason instanceof RestprobeError ? signal.reason : new RestprobeError('ERR_TIMEOUT', `${req.method} ${req.url}: aborted`);
}
