/**
 * The run's order: derived from the seed alone (same checks + seed → same order; nothing
 * is read from earlier runs). Exclusive checks come first, while the pool is empty anyway;
 * then slow checks (so the run does not end waiting on one of them alone); checks of the
 * `last` class come after all others, and `review` checks after them; and a check comes after the checks it depends on.
 * It orders check instances (one per collection a check runs on, see instances.ts).
 */
import type { CheckInstance } from './instances.js';

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
 * planOrder(instancesOf(catalogue, profile), 42).map((i) => i.key); // the same list for seed 42, every time
 * ```
 */
export function planOrder(instances: readonly CheckInstance[], seed: number): CheckInstance[] {
  const next = random(seed);
  const of = (schedule: string) => instances.filter((i) => i.check.schedule === schedule);
  const parallel = of('parallel');
  const mixed = [
    // Alone while the pool is still empty: an exclusive check later would drain it.
    ...shuffled(of('exclusive'), next),
    ...shuffled(parallel.filter((i) => i.check.slow), next),
    ...shuffled(parallel.filter((i) => !i.check.slow), next),
    ...shuffled(of('last'), next),
    // After everything: they judge what the others received.
    ...shuffled(of('review'), next),
  ];
  return dependenciesFirst(mixed);
}

/** Moves each instance after the (selected) instances it depends on, keeping the order otherwise. */
function dependenciesFirst(order: readonly CheckInstance[]): CheckInstance[] {
  const byKey = new Map(order.map((i) => [i.key, i]));
  const placed = new Set<string>();
  const out: CheckInstance[] = [];
  const place = (c: CheckInstance, path: ReadonlySet<string>): void => {
    if (placed.has(c.key) || path.has(c.key)) return;
    const inPath = new Set(path).add(c.key);
    for (const key of c.dependsOn) {
      const dep = byKey.get(key);
      if (dep) place(dep, inPath);
    }
    placed.add(c.key);
    out.push(c);
  };
  for (const c of order) place(c, new Set());
  return out;
}
