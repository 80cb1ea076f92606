/** What the benchmark's comparisons share: one way to load a URL, one way to summarise rounds. */
import autocannon from 'autocannon';

/** The middle value, or the mean of the two middle values: robust to a noisy round. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of nothing');
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The median of each round's `numerators[i] / denominators[i]`: both sides of a round ran
 * in adjacent windows, so a noisy neighbour weighs on them alike.
 */
export function medianRatio(numerators: readonly number[], denominators: readonly number[]): number {
  return median(numerators.map((n, i) => n / denominators[i]!));
}

/** Requests per second autocannon reaches on `url`; an error or a non-2xx stops the bench. */
export async function autocannonRate(url: string, connections: number, seconds: number, headers: Record<string, string>): Promise<number> {
  const result = await autocannon({ url, connections, duration: seconds, headers });
  if (result.errors > 0 || result.non2xx > 0) throw new Error(`autocannon saw ${result.errors} errors and ${result.non2xx} non-2xx responses from ${url}`);
  return result.requests.total / result.duration;
}
