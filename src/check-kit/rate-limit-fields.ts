/**
 * What a rate limiter's answers say, read and judged against their grammars:
 * `Retry-After` (RFC 9110 §10.2.3), the RateLimit fields in the draft of
 * draft-ietf-httpapi-ratelimit-headers their names show (-06's separate fields, -07's
 * Dictionary, -10's Lists: express-rate-limit's `draft-6`, `draft-7` and `draft-8`), and the
 * legacy X-RateLimit fields, which are only reported.
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

/**
 * The draft of draft-ietf-httpapi-ratelimit-headers a response's fields follow, as their
 * names and syntax show: `06` (RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset),
 * `07` (one RateLimit Dictionary), `10` (Lists of named policies, the syntax since draft-08).
 */
export type RateLimitDraft = '06' | '07' | '10';

/** Each draft's syntax, for messages. */
export const draftSyntax: Readonly<Record<RateLimitDraft, string>> = {
  '06': 'draft-06 (RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset, an integer each)',
  '07': 'draft-07 (one RateLimit Dictionary: limit, remaining, reset)',
  '10': 'draft-10 (RateLimit and RateLimit-Policy, Lists of named policies)',
};

/** A response's RateLimit fields, read; `problems` are breaches of their draft's grammar. */
export interface RateLimitFields {
  readonly draft: RateLimitDraft;
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

/**
 * Draft-06 and -07's RateLimit-Policy, `100;w=60, 1000;w=3600`: quotas as Integers, `w` the
 * window. Undefined when the value is not that (a draft-10 List names its policies).
 */
function oldPolicies(text: string | undefined): SfItem[] | undefined {
  if (text === undefined) return undefined;
  const parsed = parseList(text);
  return parsed.ok && parsed.value.every((i) => i.value.type === 'integer' && !i.params.has('q')) ? parsed.value : undefined;
}

/**
 * Before draft-08 there is one unnamed quota: it is called `default`, its window read from
 * the RateLimit-Policy item that has its quota (the only one, when there is one).
 */
function unnamedQuota(draft: '06' | '07', limit: number | undefined, remaining: number | undefined, reset: number | undefined, policyText: string | undefined, problems: string[]): RateLimitFields {
  const items = oldPolicies(policyText);
  if (policyText !== undefined && items === undefined) problems.push(`RateLimit-Policy "${policyText}" is not quotas as integers with an optional w, as draft-${draft} writes them (e.g. 100;w=60)`);
  const policy = items?.find((i) => i.value.value === limit) ?? (items?.length === 1 ? items[0] : undefined);
  const w = policy?.params.get('w');
  if (w !== undefined && !(w.type === 'integer' && w.value > 0)) problems.push(`RateLimit-Policy "${policyText ?? ''}": w is ${String(w.value)}, expected a positive integer of seconds`);
  const quota = limit ?? (typeof policy?.value.value === 'number' ? policy.value.value : undefined);
  return {
    draft,
    policies: quota === undefined ? [] : [{ name: 'default', quota, ...(w?.type === 'integer' && w.value > 0 && { window: w.value }) }],
    left: remaining === undefined ? [] : [{ name: 'default', remaining, ...(reset !== undefined && { reset }) }],
    problems,
  };
}

/** Draft-06's three fields, as sent and as read (lower-case). */
const separateFields = { 'ratelimit-limit': 'RateLimit-Limit', 'ratelimit-remaining': 'RateLimit-Remaining', 'ratelimit-reset': 'RateLimit-Reset' } as const;

/** Draft-06's `RateLimit-Limit: 100`, `RateLimit-Remaining: 50`, `RateLimit-Reset: 5`: an Integer each. */
function readDraft06(headers: HttpResponse['headers']): RateLimitFields {
  const problems: string[] = [];
  const [limit, remaining, reset] = Object.entries(separateFields).map(([name, shown]) => {
    const text = headers[name];
    if (text === undefined) return undefined;
    const parsed = parseList(text);
    const item = parsed.ok && parsed.value.length === 1 ? parsed.value[0]!.value : undefined;
    if (isCount(item)) return item.value;
    problems.push(`${shown}: "${text}" is not a non-negative integer (draft-06)`);
    return undefined;
  });
  return unnamedQuota('06', limit, remaining, reset, headers['ratelimit-policy'], problems);
}

/** Draft-07's `RateLimit: limit=100, remaining=50, reset=5`, when the value is that. */
function readDraft07(text: string, policyText: string | undefined): RateLimitFields | undefined {
  const parsed = parseDictionary(text);
  if (!parsed.ok || !['limit', 'remaining', 'reset'].some((k) => parsed.value.has(k))) return undefined;
  const get = (k: string): BareItem | undefined => parsed.value.get(k)?.value;
  const [limit, remaining, reset] = [get('limit'), get('remaining'), get('reset')];
  const problems = [limit, remaining, reset].some((v) => v !== undefined && !isCount(v)) ? [`RateLimit "${text}": limit, remaining and reset must be non-negative integers (draft-07)`] : [];
  const count = (v: BareItem | undefined): number | undefined => (isCount(v) ? v.value : undefined);
  return unnamedQuota('07', count(limit), count(remaining), count(reset), policyText, problems);
}

/**
 * The RateLimit fields of a response, read as the draft their names and syntax show;
 * undefined when it carries none. Names in a draft-10 RateLimit that RateLimit-Policy does
 * not list are a problem (the draft's SHOULD).
 */
export function readRateLimitFields(res: HttpResponse): RateLimitFields | undefined {
  if (Object.keys(separateFields).some((name) => res.headers[name] !== undefined)) return readDraft06(res.headers);
  const policyText = res.headers['ratelimit-policy'];
  const leftText = res.headers['ratelimit'];
  if (policyText === undefined && leftText === undefined) return undefined;
  const older = leftText === undefined ? undefined : readDraft07(leftText, policyText);
  if (older !== undefined) return older;
  // A draft-07 RateLimit-Policy without its RateLimit is still draft-07's syntax.
  if (leftText === undefined && oldPolicies(policyText) !== undefined) return unnamedQuota('07', undefined, undefined, undefined, policyText, []);
  const problems: string[] = [];
  const policies = policyText === undefined ? [] : readPolicies(policyText, problems);
  const left = leftText === undefined ? [] : readLeft(leftText, problems);
  if (policyText !== undefined) {
    const named = new Set(policies.map((p) => p.name));
    for (const l of left) if (!named.has(l.name)) problems.push(`RateLimit names "${l.name}", which RateLimit-Policy does not list`);
  }
  return { draft: '10', policies, left, problems };
}

/** The policy with the lowest quota, the one a burst meets first. */
export function lowestQuota(fields: RateLimitFields | undefined): QuotaPolicy | undefined {
  return fields?.policies.reduce<QuotaPolicy | undefined>((low, p) => (low === undefined || p.quota < low.quota ? p : low), undefined);
}

/** The item of what is left that limits soonest: the lowest remaining. */
export function tightest(fields: RateLimitFields | undefined): QuotaLeft | undefined {
  return fields?.left.reduce<QuotaLeft | undefined>((low, l) => (low === undefined || l.remaining < low.remaining ? l : low), undefined);
}

/** What a response said was left of a quota, in its own draft's words: `RateLimit r=3 for "burst"`, `RateLimit-Remaining: 3`. */
export function remainingOf(fields: RateLimitFields, left: QuotaLeft): string {
  if (fields.draft === '06') return `RateLimit-Remaining: ${left.remaining}`;
  return fields.draft === '07' ? `RateLimit remaining=${left.remaining}` : `RateLimit r=${left.remaining} for "${left.name}"`;
}

const legacyNames = /^(x-ratelimit-|x-rate-limit-)/;

/** Legacy rate-limit fields (X-RateLimit-*, X-Rate-Limit-*), which no draft defines, as `name: value` lines. */
export function legacyFields(res: HttpResponse): string[] {
  return Object.entries(res.headers)
    .filter(([name]) => legacyNames.test(name))
    .map(([name, value]) => `${name}: ${value}`);
}
