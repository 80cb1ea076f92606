/**
 * Media types: the Accept header (RFC 9110 §12.5.1) parsed in one place for both its
 * uses, and the essence of a Content-Type (§8.3.1). Accept decides whether
 * the client takes JSON at all (406, negotiation.ts) and, under the header versioning
 * scheme, which version it asks for (the `version` parameter of the vendor media type,
 * versions.ts). Two parsers used to disagree: a range the client refused (`q=0`) or one
 * malformed still chose a version, and a quoted `,` or `;` cut a range short.
 */

/** The header scheme's vendor media type; it is JSON, and answered as application/json. */
export const vendorMediaType = 'application/vnd.restprobe+json';

const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const qvalue = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** One media range of an Accept header. */
export interface MediaRange {
  /** Lower-case, `*` for a wildcard. */
  readonly type: string;
  readonly subtype: string;
  /** Parameters other than the weight, by lower-case name, quoted strings unquoted. */
  readonly params: ReadonlyMap<string, string>;
  readonly q: number;
}

/** Splits a header value on `separator`, leaving quoted strings whole. */
function splitOutsideQuotes(value: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i] ?? '';
    if (quoted && c === '\\') {
      current += c + (value[i + 1] ?? '');
      i++;
    } else if (c === '"') {
      quoted = !quoted;
      current += c;
    } else if (c === separator && !quoted) {
      parts.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  parts.push(current);
  return parts;
}

/** A parameter value: a token as is, a quoted string without its quotes and escapes. */
function unquote(value: string): string {
  const m = /^"((?:[^"\\]|\\.)*)"$/.exec(value);
  return m === null ? value : (m[1] ?? '').replace(/\\(.)/g, '$1');
}

/** One `media-range [ weight ]`; `undefined` when it is malformed (and so ignored). */
function parseMediaRange(text: string): MediaRange | undefined {
  const [essence = '', ...rawParams] = splitOutsideQuotes(text, ';');
  const [type = '', subtype = '', ...rest] = essence.trim().toLowerCase().split('/');
  if (rest.length > 0 || !token.test(type) || !token.test(subtype)) return undefined;
  if (type === '*' && subtype !== '*') return undefined;
  let q = 1;
  const params = new Map<string, string>();
  for (const param of rawParams) {
    const eq = param.indexOf('=');
    const name = param.slice(0, eq === -1 ? undefined : eq).trim().toLowerCase();
    const value = eq === -1 ? '' : param.slice(eq + 1).trim();
    if (name !== 'q') {
      if (!params.has(name)) params.set(name, unquote(value));
      continue;
    }
    if (!qvalue.test(value)) return undefined;
    q = Number(value);
  }
  return { type, subtype, params, q };
}

/** The well-formed media ranges of an Accept header, in the order sent. */
export function parseAccept(accept: string): MediaRange[] {
  return splitOutsideQuotes(accept, ',').flatMap((part) => (part.trim() === '' ? [] : (parseMediaRange(part) ?? [])));
}

const isVendor = (range: MediaRange): boolean => `${range.type}/${range.subtype}` === vendorMediaType;

/** How closely a range names JSON: 3 exactly (or the vendor type), 2 `application/*`, 1 `*\/*`, 0 not at all. */
function jsonSpecificity(range: MediaRange): number {
  if (range.type === 'application' && (range.subtype === 'json' || isVendor(range))) return 3;
  if (range.type === 'application' && range.subtype === '*') return 2;
  return range.type === '*' ? 1 : 0;
}

/**
 * Whether an Accept header admits `application/json`. The most specific matching range
 * decides (so `application/json;q=0, *\/*` refuses JSON). An absent or empty header
 * accepts anything.
 */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  // Clients repeat one Accept header: parse it once. (A pure function of the header, and
  // the header is no secret, so the shortcut's timing tells nothing.)
  if (accept === lastAccept.header) return lastAccept.accepts;
  const accepts = (weightOf(parseAccept(accept), jsonSpecificity) ?? 0) > 0;
  lastAccept = { header: accept, accepts };
  return accepts;
}

let lastAccept = { header: '', accepts: true };

/**
 * Whether an Accept header prefers `text/csv` (a listing's other representation) to JSON:
 * CSV named (`text/csv` or `text/*`), at a weight above JSON's (the most specific range
 * decides each). `*\/*` alone, or no header, gets JSON.
 */
export function prefersCsv(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  const ranges = parseAccept(accept);
  const csv = weightOf(ranges, (r) => (r.type === 'text' ? (r.subtype === 'csv' ? 3 : r.subtype === '*' ? 2 : 0) : 0));
  return csv !== undefined && csv > 0 && csv > (weightOf(ranges, jsonSpecificity) ?? 0);
}

/** The weight the most specific range that names a type gives it (`specificity` 0: the range does not); undefined when none does. */
function weightOf(ranges: readonly MediaRange[], specificity: (range: MediaRange) => number): number | undefined {
  let best: { specificity: number; q: number } | undefined;
  for (const range of ranges) {
    const s = specificity(range);
    if (s > 0 && (best === undefined || s > best.specificity || (s === best.specificity && range.q > best.q))) best = { specificity: s, q: range.q };
  }
  return best?.q;
}

/**
 * The `version` parameter of the vendor media type the client prefers (the highest q;
 * the first of equals); undefined when no range it accepts names one. A refused range
 * (`q=0`) or a malformed one chooses nothing.
 */
export function acceptedVersion(accept: string | undefined): string | undefined {
  let best: MediaRange | undefined;
  for (const range of parseAccept(accept ?? '')) {
    if (!isVendor(range) || !range.params.has('version') || range.q === 0) continue;
    if (best === undefined || range.q > best.q) best = range;
  }
  return best?.params.get('version');
}

/** `type/subtype` of a Content-Type, lowercased, parameters (charset…) dropped. */
export function mediaTypeEssence(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}
