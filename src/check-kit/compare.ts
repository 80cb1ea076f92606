/**
 * Representation comparison that ignores what the server may change on its own
 * (`volatileFields`: timestamps and the like) and reports the first differences.
 */
import { brief } from './expect.js';

/** Differences between two representations, as `field: a → b` lines (empty when equal). */
export function diffRepresentations(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  volatileFields: readonly string[],
): string[] {
  const out: string[] = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (volatileFields.includes(key)) continue;
    if (!deepEqual(before[key], after[key])) out.push(`${key}: ${brief(before[key], 60)} → ${brief(after[key], 60)}`);
  }
  return out;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The named fields of `o` that it has. */
export function pickFields(o: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]));
}
