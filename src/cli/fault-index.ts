import { faultCatalogue } from '../../reference-server/src/faults.js';
import type { FaultIndex } from './checks-command.js';

/** Check id → names of the reference-server faults that must trip it. */
export function faultIndex(): FaultIndex {
  const index = new Map<string, string[]>();
  for (const fault of faultCatalogue) for (const id of fault.detects) index.set(id, [...(index.get(id) ?? []), fault.name]);
  return index;
}
