/**
 * The faults in force for the request being answered. Each server has its own set (tests
 * run many servers in one process), so the set cannot be a module constant; instead the
 * pipeline answers each request inside its server's set (app.ts), and whatever the request
 * runs reads it here, rather than being handed it through every call on the way.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FaultName } from './faults.js';

const inForce = new AsyncLocalStorage<ReadonlySet<FaultName>>();
const none: ReadonlySet<FaultName> = new Set();

/** Runs `work` (and all it starts) with `faults` in force. */
export function withFaults<T>(faults: ReadonlySet<FaultName>, work: () => T): T {
  // No fault to put in force and none in force: nothing to carry. A clean server's process
  // then never turns Node's async hooks on, which every promise pays for once they are
  // (a tenth of the server's time per request).
  if (faults.size === 0 && (inForce.getStore()?.size ?? 0) === 0) return work();
  return inForce.run(faults, work);
}

/** Runs `work` with no fault in force (what webhook payloads show, whatever the request). */
export function withoutFaults<T>(work: () => T): T {
  return withFaults(none, work);
}

/** Whether `name` is in force for this request (outside any request: no fault is). */
export function faultActive(name: FaultName): boolean {
  return (inForce.getStore() ?? none).has(name);
}
