/**
 * The run's seed: given (to replay a run, or to run shards of one), or random. Every way of
 * running checks reads it here, so a seed a report or a failure message printed is taken
 * back the same way everywhere.
 */
import { randomInt } from 'node:crypto';
import { RestprobeError } from '../errors.js';

/**
 * The seed `value` names (a whole number, as text or a number), or a random one when it is
 * undefined. `source` names where it came from in the error (`--seed`).
 *
 * @throws RestprobeError (`ERR_USAGE`) when `value` is not a whole number.
 * @example
 * ```ts
 * parseSeed('42', '--seed'); // 42
 * parseSeed(undefined, '--seed'); // random, 0 ≤ seed < 2^31 - 1
 * ```
 */
export function parseSeed(value: string | number | undefined, source: string): number {
  if (value === undefined) return randomInt(0, 2 ** 31 - 1);
  const n = typeof value === 'number' ? value : /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw new RestprobeError('ERR_USAGE', `${source}: "${value}" is not an integer; expected the seed a report printed`);
  return n | 0;
}
