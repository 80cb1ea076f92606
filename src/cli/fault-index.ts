import { faultCatalogue, receiverFaultCatalogue } from '../../reference-server/src/index.js';
import type { FaultIndex } from './checks-command.js';

/** Check id → names of the reference server's (and, for receiver-mode checks, the reference receiver's) faults that must trip it. */
export function faultIndex(): FaultIndex {
  const index = new Map<string, string[]>();
  for (const fault of [...faultCatalogue, ...receiverFaultCatalogue]) for (const id of fault.detects) index.set(id, [...(index.get(id) ?? []), fault.name]);
  return index;
}
