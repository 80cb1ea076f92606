/**
 * The run's order: derived from the seed alone (same checks + seed → same order; nothing
 * is read from earlier runs). Exclusive checks come first, while the pool is empty anyway;
 * then slow checks (so the run does not end waiting on one of them alone); checks of the
 * `last` class come after all others; and a check comes after the checks it depends on.
 */
import type { Check } from '../model/check.js';

/** A small fast PRNG (mulberry32): the same seed gives the same sequence on every machine. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * @example
 * ```ts
 * planOrder(catalogue, 42).map((c) => c.id); // the same list for seed 42, every time
 * ```
 */
export function planOrder(checks: readonly Check[], seed: number): Check[] {
  const next = random(seed);
  const parallel = checks.filter((c) => c.schedule === 'parallel');
  const mixed = [
    // Alone while the pool is still empty: an exclusive check later would drain it.
    ...shuffled(checks.filter((c) => c.schedule === 'exclusive'), next),
    ...shuffled(parallel.filter((c) => c.slow), next),
    ...shuffled(parallel.filter((c) => !c.slow), next),
    ...shuffled(checks.filter((c) => c.schedule === 'last'), next),
  ];
  return dependenciesFirst(mixed);
}

/** Moves each check after the (selected) checks it depends on, keeping the order otherwise. */
function dependenciesFirst(order: readonly Check[]): Check[] {
  const byId = new Map(order.map((c) => [c.id, c]));
  const placed = new Set<string>();
  const out: Check[] = [];
  const place = (c: Check, path: ReadonlySet<string>): void => {
    if (placed.has(c.id) || path.has(c.id)) return;
    const inPath = new Set(path).add(c.id);
    for (const id of c.dependsOn) {
      const dep = byId.get(id);
      if (dep) place(dep, inPath);
    }
    placed.add(c.id);
    out.push(c);
  };
  for (const c of order) place(c, new Set());
  return out;
}
