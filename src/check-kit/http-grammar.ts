/**
 * Header grammars the checks judge against (RFC 9110 §8.8.3 entity-tag, §5.6.2 token,
 * §5.6.4 quoted-string; RFC 9111 §5.2 Cache-Control). One parser per header, shared.
 */
import { imfFixdate } from '../http/polite.js';

const tchar = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]";
const token = `${tchar}+`;
// qdtext = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text; quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text )
const quotedString = '"(?:[\\t \\x21\\x23-\\x5B\\x5D-\\x7E\\x80-\\xFF]|\\\\[\\t \\x21-\\x7E\\x80-\\xFF])*"';

/** `entity-tag = [ W/ ] DQUOTE *etagc DQUOTE`, etagc = %x21 / %x23-7E / obs-text. */
const entityTag = /^(W\/)?"[\x21\x23-\x7E\x80-\xFF]*"$/;

export function isEntityTag(value: string): boolean {
  return entityTag.test(value);
}

export function isWeakTag(tag: string): boolean {
  return tag.startsWith('W/');
}

export interface CacheDirective {
  readonly name: string;
  /** The argument, unquoted; undefined when the directive has none. */
  readonly value?: string;
  /** Whether the argument was sent as a quoted-string. */
  readonly quoted: boolean;
}

const directive = new RegExp(`^(${token})(?:=(${token}|${quotedString}))?$`);

/**
 * Parses `Cache-Control = #cache-directive`. Returns the directives, or the problems that
 * make the value malformed (including `max-age`/`s-maxage` that are not unquoted digits).
 *
 * @example
 * ```ts
 * parseCacheControl('private, max-age="60"'); // { directives: [...], problems: ['max-age: must be unquoted digits (found "60")'] }
 * ```
 */
export function parseCacheControl(value: string): { directives: CacheDirective[]; problems: string[] } {
  const directives: CacheDirective[] = [];
  const problems: string[] = [];
  for (const raw of splitList(value)) {
    const m = directive.exec(raw);
    if (!m) {
      problems.push(`"${raw}" is not a directive (token [= token / quoted-string])`);
      continue;
    }
    const arg = m[2];
    const quoted = arg?.startsWith('"') ?? false;
    const d: CacheDirective = { name: m[1]!.toLowerCase(), quoted, ...(arg !== undefined && { value: quoted ? arg.slice(1, -1) : arg }) };
    if ((d.name === 'max-age' || d.name === 's-maxage') && (d.quoted || !/^\d+$/.test(d.value ?? ''))) {
      problems.push(`${d.name}: must be unquoted digits (found ${arg === undefined ? 'no value' : arg})`);
    }
    directives.push(d);
  }
  return { directives, problems };
}

/** Whether a Cache-Control value (absent: none) carries the directive `name`, e.g. `no-store`. */
export function hasCacheDirective(value: string | undefined, name: string): boolean {
  return parseCacheControl(value ?? '').directives.some((d) => d.name === name);
}

/** Splits a #list on commas outside quoted-strings, dropping empty elements (RFC 9110 §5.6.1). */
export function splitList(value: string): string[] {
  const out: string[] = [];
  let current = '';
  let inQuotes = false;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (inQuotes && ch === '\\') {
      current += ch + (value[i + 1] ?? '');
      i++;
      continue;
    }
    if (ch === '"') inQuotes = !inQuotes;
    if (ch === ',' && !inQuotes) {
      out.push(current.trim());
      current = '';
    } else current += ch;
  }
  out.push(current.trim());
  return out.filter((s) => s.length > 0);
}

/** Field names listed in Vary, lower-case. */
export function varyFields(value: string | undefined): string[] {
  return value === undefined ? [] : splitList(value).map((f) => f.toLowerCase());
}

/** Weak comparison of two entity-tags (RFC 9110 §8.8.3.2): the same opaque tag, either strength. */
export const weakMatch = (a: string | undefined, b: string): boolean => a !== undefined && a.replace(/^W\//, '') === b.replace(/^W\//, '');

/** Whether two Vary values name the same fields, in any order or case. */
export const sameVaryFields = (a: string | undefined, b: string): boolean => a !== undefined && [...varyFields(a)].sort().join() === [...varyFields(b)].sort().join();

const rfc850 = /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
const asctime = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

/** What {@link httpDateProblem} says of a value that is no HTTP-date at all. */
export const notAnHttpDate = 'is not an HTTP-date';

/**
 * Why a value is not an IMF-fixdate, the HTTP-date senders MUST generate (RFC 9110
 * §5.6.7); undefined when it is one.
 *
 * @example
 * ```ts
 * httpDateProblem('Sun, 06 Nov 1994 08:49:37 GMT'); // undefined
 * httpDateProblem('@1688169599');                    // 'is not an HTTP-date'
 * ```
 */
export function httpDateProblem(value: string): string | undefined {
  if (imfFixdate.test(value)) return Number.isNaN(Date.parse(value)) ? 'is not a real date' : undefined;
  if (rfc850.test(value) || asctime.test(value)) return 'is an obsolete HTTP-date format: senders MUST generate IMF-fixdate (Sun, 06 Nov 1994 08:49:37 GMT)';
  return notAnHttpDate;
}
