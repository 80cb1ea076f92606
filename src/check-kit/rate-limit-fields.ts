/**
 * What a rate limiter's answers say, read and judged against their grammars:
 * `Retry-After` (RFC 9110 §10.2.3), `RateLimit` and `RateLimit-Policy`
 * (draft-ietf-httpapi-ratelimit-headers-10; draft-07's Dictionary is recognised and
 * read as such), and the legacy fields, which are only reported.
 */
import type { HttpResponse } from '../model/context.js';
import { httpDateProblem, notAnHttpDate } from './http-grammar.js';
import { parseDictionary, parseList, type BareItem, type SfItem } from './structured-fields.js';


/**
 * Why a `Retry-After` value is not `delay-seconds` or an IMF-fixdate (senders MUST
 * generate that date format, RFC 9110 §5.6.7); undefined when it is one.
 *
 * @example
 * ```ts
 * retryAfterProblem('1.5'); // 'is neither delay-seconds (digits) nor an HTTP-date'
 * ```
 */
export function retryAfterProblem(value: string): string | undefined {
  if (/^\d+$/.test(value)) return undefined;
  const problem = httpDateProblem(value);
  return problem === notAnHttpDate ? 'is neither delay-seconds (digits) nor an HTTP-date' : problem;
}

/** One quota policy a RateLimit-Policy names. */
export interface QuotaPolicy {
  readonly name: string;
  readonly quota: number;
  /** The window, seconds, when given. */
  readonly window?: number;
}

/** One RateLimit item: what is left of a policy. */
export interface QuotaLeft {
  readonly name: string;
  readonly remaining: number;
  /** Seconds until the quota comes back, when given. */
  readonly reset?: number;
}

/** A response's RateLimit fields, read; `problems` are breaches of the draft's grammar. */
export interface RateLimitFields {
  /** `10` (List items), or `07` (one Dictionary: limit, remaining, reset). */
  readonly draft: '10' | '07';
  readonly policies: readonly QuotaPolicy[];
  readonly left: readonly QuotaLeft[];
  readonly problems: readonly string[];
}

const isCount = (v: BareItem | undefined): v is { type: 'integer'; value: number } => v?.type === 'integer' && v.value >= 0;
const quotaUnits = new Set(['requests', 'content-bytes', 'concurrent-requests']);

/** The policy name of a draft-10 item (an sf-string), with a problem when it is not one. */
function policyName(item: SfItem, field: string, problems: string[]): string {
  if (item.value.type !== 'string') problems.push(`${field}: the policy name ${String(item.value.value)} is a ${item.value.type}; draft-10 names policies with quoted strings`);
  return String(item.value.value);
}

function readPolicies(text: string, problems: string[]): QuotaPolicy[] {
  const parsed = parseList(text);
  if (!parsed.ok) {
    problems.push(`RateLimit-Policy "${text}" is not a Structured Field List: ${parsed.problem}`);
    return [];
  }
  return parsed.value.flatMap((item) => {
    const name = policyName(item, 'RateLimit-Policy', problems);
    const q = item.params.get('q');
    const w = item.params.get('w');
    const qu = item.params.get('qu');
    if (!isCount(q)) problems.push(`RateLimit-Policy "${name}": q is ${q === undefined ? 'missing' : `${String(q.value)}`}, expected a non-negative integer (REQUIRED)`);
    if (w !== undefined && !(w.type === 'integer' && w.value > 0)) problems.push(`RateLimit-Policy "${name}": w is ${String(w.value)}, expected a positive integer of seconds`);
    if (qu !== undefined && !(qu.type === 'string' && quotaUnits.has(qu.value))) problems.push(`RateLimit-Policy "${name}": qu is ${String(qu.value)}, expected "requests", "content-bytes" or "concurrent-requests"`);
    if (!isCount(q)) return [];
    return [{ name, quota: q.value, ...(w?.type === 'integer' && { window: w.value }) }];
  });
}

function readLeft(text: string, problems: string[]): QuotaLeft[] {
  const parsed = parseList(text);
  if (!parsed.ok) {
    problems.push(`RateLimit "${text}" is not a Structured Field List: ${parsed.problem}`);
    return [];
  }
  return parsed.value.flatMap((item) => {
    const name = policyName(item, 'RateLimit', problems);
    const r = item.params.get('r');
    const t = item.params.get('t');
    if (!isCount(r)) problems.push(`RateLimit "${name}": r is ${r === undefined ? 'missing' : String(r.value)}, expected a non-negative integer (REQUIRED)`);
    if (t !== undefined && !isCount(t)) problems.push(`RateLimit "${name}": t is ${String(t.value)}, expected non-negative delay-seconds`);
    if (!isCount(r)) return [];
    return [{ name, remaining: r.value, ...(isCount(t) && { reset: t.value }) }];
  });
}

/** Draft-07's `RateLimit: limit=100, remaining=50, reset=5`, when the value is that. */
function readDraft07(text: string): RateLimitFields | undefined {
  const parsed = parseDictionary(text);
  if (!parsed.ok || !parsed.value.has('remaining')) return undefined;
  const get = (k: string): BareItem | undefined => parsed.value.get(k)?.value;
  const [limit, remaining, reset] = [get('limit'), get('remaining'), get('reset')];
  const problems = [limit, remaining, reset].some((v) => v !== undefined && !isCount(v)) ? [`RateLimit "${text}": limit, remaining and reset must be non-negative integers (draft-07)`] : [];
  return {
    draft: '07',
    policies: isCount(limit) ? [{ name: 'default', quota: limit.value }] : [],
    left: isCount(remaining) ? [{ name: 'default', remaining: remaining.value, ...(isCount(reset) && { reset: reset.value }) }] : [],
    problems,
  };
}

/**
 * The RateLimit fields of a response; undefined when it carries neither. Names in
 * RateLimit that RateLimit-Policy does not list are a problem (the draft's SHOULD).
 */
export function readRateLimitFields(res: HttpResponse): RateLimitFields | undefined {
  const policyText = res.headers['ratelimit-policy'];
  const leftText = res.headers['ratelimit'];
  if (policyText === undefined && leftText === undefined) return undefined;
  const older = leftText === undefined ? undefined : readDraft07(leftText);
  if (older !== undefined) return older;
  const problems: string[] = [];
  const policies = policyText === undefined ? [] : readPolicies(policyText, problems);
  const left = leftText === undefined ? [] : readLeft(leftText, problems);
  if (policyText !== undefined) {
    const named = new Set(policies.map((p) => p.name));
    for (const l of left) if (!named.has(l.name)) problems.push(`RateLimit names "${l.name}", which RateLimit-Policy does not list`);
  }
  return { draft: '10', policies, left, problems };
}

/** The item of what is left that limits soonest: the lowest remaining. */
export function tightest(fields: RateLimitFields | undefined): QuotaLeft | undefined {
  return fields?.left.reduce<QuotaLeft | undefined>((low, l) => (low === undefined || l.remaining < low.remaining ? l : low), undefined);
}

const legacyNames = /^(x-ratelimit-|x-rate-limit-|ratelimit-(limit|remaining|reset)$)/;

/** Legacy rate-limit fields (X-RateLimit-*, draft-06's RateLimit-Limit …), as `name: value` lines. */
export function legacyFields(res: HttpResponse): string[] {
  return Object.entries(res.headers)
    .filter(([name]) => legacyNames.test(name))
    .map(([name, value]) => `${name}: ${value}`);
}
