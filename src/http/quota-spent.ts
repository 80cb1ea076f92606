/**
 * What a served answer says of the client's quota: when its RateLimit fields say none is
 * left, the run holds its next requests until the stated reset rather than meet a 429 and
 * wait out its Retry-After. Read leniently (any draft a limiter sends); a field restprobe
 * cannot read is ignored here, and judged by LIM-ratelimit-headers.
 */

/** When a quota is spent: how long until its reset, and the fields that said so. */
export interface SpentQuota {
  readonly ms: number;
  readonly shown: string;
}

type Headers = Readonly<Record<string, string | string[] | undefined>>;

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v.join(', ') : v);
const seconds = (v: string | undefined): number | undefined => (v !== undefined && /^\d+$/.test(v.trim()) ? Number(v.trim()) : undefined);

/** `key=value` pairs of one list member or dictionary (`limit=100, remaining=0` or `"p";r=0;t=7`), keys lower-cased. */
function pairs(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of text.split(/[;,]/)) {
    const m = /^\s*([A-Za-z][\w-]*)\s*=\s*"?([^";,]*)"?\s*$/.exec(part);
    if (m) out.set(m[1]!.toLowerCase(), m[2]!);
  }
  return out;
}

/**
 * The spent quota a served answer reports, if any: `RateLimit: "default";r=0;t=7` (draft 8
 * and later: any policy with none remaining), `RateLimit: limit=100, remaining=0, reset=7`
 * (draft 7), or `RateLimit-Remaining: 0` with `RateLimit-Reset: 7` (draft 6).
 *
 * @example
 * ```ts
 * quotaSpent({ ratelimit: '"default";r=0;t=7' }); // { ms: 7000, shown: 'RateLimit: "default";r=0;t=7' }
 * ```
 */
export function quotaSpent(headers: Headers): SpentQuota | undefined {
  const field = one(headers['ratelimit']);
  if (field !== undefined) {
    const members = field.split(',').map(pairs);
    // Draft 8 and later: a list of policies, each with r (remaining) and t (seconds to reset).
    const spent = members.filter((m) => m.get('r') === '0').map((m) => seconds(m.get('t'))).filter((t): t is number => t !== undefined);
    if (spent.length > 0) return { ms: Math.max(...spent) * 1000, shown: `RateLimit: ${field}` };
    // Draft 7: one dictionary.
    const all = pairs(field);
    const reset = seconds(all.get('reset'));
    if (all.get('remaining') === '0' && reset !== undefined) return { ms: reset * 1000, shown: `RateLimit: ${field}` };
    return undefined;
  }
  const remaining = one(headers['ratelimit-remaining']);
  const reset = seconds(one(headers['ratelimit-reset']));
  if (remaining?.trim() === '0' && reset !== undefined) return { ms: reset * 1000, shown: `RateLimit-Remaining: 0, RateLimit-Reset: ${reset}` };
  return undefined;
}
