/**
 * "Did you mean" for misspelt config keys: the closest known name, if it is close enough
 * to be a typo rather than a different word.
 */

/** Edit distance (insert, delete, substitute, swap of neighbours), case-insensitive. */
function distance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) =>
    Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      d[i]![j] = best;
    }
  }
  return at(s.length, t.length);
}

/**
 * The known name closest to `name`, or `undefined` when none is within a typo's reach
 * (a third of the name's length, at least one edit).
 *
 * @example
 * ```ts
 * closestName('pth', ['name', 'path', 'itemPath']); // 'path'
 * closestName('colour', ['name', 'path']);          // undefined
 * ```
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.floor(name.length / 3));
  let best: { name: string; d: number } | undefined;
  for (const candidate of known) {
    const d = distance(name, candidate);
    if (d <= limit && (best === undefined || d < best.d)) best = { name: candidate, d };
  }
  return best?.name;
}
