/**
 * The last line of defence: no secret value reaches a report file. Requests are redacted
 * as they are recorded; this pass catches whatever slipped through, in every form a
 * writer or a target may have encoded it (JSON string, XML or HTML text, URL component,
 * form body, base64 and base64url at any alignment: a target echoing `Authorization:
 * Basic …`), and any piece of it of {@link fragmentLength} characters or more that is
 * plausibly the secret (a message or body cut mid-secret; in base64, as many bytes), never a
 * word that merely shares 8 letters with it.
 */
import type { Secret } from './model/profile.js';

/** Shorter values would match innocent text (and a real key is never that short). */
const minSecretLength = 4;

/** A run this long taken from a secret is scrubbed wherever it stands, whole secret or not. */
export const fragmentLength = 8;

/** The forms a value takes in the formats restprobe writes. */
function textForms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const markup = value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const xml = markup.replace(/'/g, '&apos;');
  const html = markup.replace(/'/g, '&#39;');
  // A form body encodes a little differently from encodeURIComponent (space as +, ~ and ! escaped).
  const form = new URLSearchParams([['', value]]).toString().slice(1);
  return [value, json, xml, html, encodeURIComponent(value), form];
}

/**
 * The base64 and base64url characters that `value` alone decides, wherever it stands in
 * the encoded bytes: one core per alignment (offset 0, 1 or 2 within a 3-byte group).
 * `Basic base64("id:secret")` holds the secret's core for the alignment `id:` gives it.
 */
export function base64Cores(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    // Characters before ceil(8·offset/6) hold the padding's bits; from floor(8·(offset+n)/6) on, the next bytes'.
    const core = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    if (core.length >= fragmentLength) cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'), encodeURIComponent(core));
  }
  return cores;
}

/** Every form of `value` the scrubber looks for: its text encodings, and the base64 cores of each. */
function encodingsOf(value: string): string[] {
  const texts = [...new Set(textForms(value))];
  return [...new Set([...texts, ...texts.flatMap(base64Cores)])];
}

/**
 * The base64 characters that hold fragmentLength whole bytes wherever they start: a shorter
 * run of a base64 core holds fewer bytes of the secret than a text run must. Eight characters
 * are only six bytes, which the mark `restprobe-…` in an encoded cursor shares with a
 * username `probe-user`.
 */
export const base64RunLength = Math.ceil((fragmentLength * 8) / 6) + 1;

/** A secret's forms, the forms whose pieces are scrubbed too, and the hashes of those pieces: what scrubbing needs of it. */
interface Prepared {
  readonly forms: readonly string[];
  readonly pieces: readonly string[];
  /** The pieces that are text, not base64 cores: a run of fragmentLength of them is a piece of the secret. */
  readonly textPieces: readonly string[];
  readonly grams: ReadonlySet<number>;
  /** The hashes of each form's first fragmentLength characters. */
  readonly heads: ReadonlySet<number>;
}

/**
 * The forms of a secret whose pieces are secret: all of its forms, or for a JSON object (a
 * JWK) its string members' and its base64 forms. Its structure as text is not: `{"kty":"EC","x":"` is in every JWK, and its
 * HTML form's `&quot;x-` (a member starting `x-`) once scrubbed the `"x-` of a curl line.
 */
function pieceForms(value: string): { text: string[]; base64: string[] } {
  let parsed: unknown;
  try {
    parsed = value.trimStart().startsWith('{') ? JSON.parse(value) : undefined;
  } catch {
    parsed = undefined;
  }
  const split = (texts: string[], base64: string[]) => ({ text: [...new Set(texts)], base64: [...new Set(base64)] });
  if (parsed === null || typeof parsed !== 'object') {
    const texts = textForms(value);
    return split(texts, texts.flatMap(base64Cores));
  }
  const strings = (v: unknown): string[] => (typeof v === 'string' ? [v] : v !== null && typeof v === 'object' ? Object.values(v).flatMap(strings) : []);
  const members = strings(parsed).filter((v) => v.length >= fragmentLength).flatMap(textForms);
  // Its base64 forms stay whole: an echo may encode the JSON, structure and all, and cut it anywhere.
  return split(members, [...members.flatMap(base64Cores), ...textForms(value).flatMap(base64Cores)]);
}

/**
 * Prepared secrets by value. A run scrubs every record and report with the same secrets
 * (a signing key's JWK alone has thousands of fragments), so each is prepared once. Kept
 * small: a long-lived process (the vitest adapter) starts afresh past the cap.
 */
const prepared = new Map<string, Prepared>();
const maxPrepared = 2_000;

function prepare(value: string): Prepared {
  let p = prepared.get(value);
  if (p === undefined) {
    const forms = encodingsOf(value);
    const { text: textPieces, base64 } = pieceForms(value);
    const pieces = [...new Set([...textPieces, ...base64])];
    const grams = new Set<number>();
    for (const piece of pieces) for (let i = 0; i + fragmentLength <= piece.length; i++) grams.add(hashOf(piece, i));
    // A whole form shows in its first window (a JSON secret's forms hold the structure its pieces leave out).
    const heads = new Set(forms.filter((f) => f.length >= fragmentLength).map((f) => hashOf(f, 0)));
    if (prepared.size >= maxPrepared) prepared.clear();
    prepared.set(value, (p = { forms, pieces, textPieces, grams, heads }));
  }
  return p;
}

/**
 * `text` with every occurrence of each secret (≥ 4 characters) replaced by `$ENV_NAME`,
 * and then every run of 8 or more characters taken from a secret (a cut-off prefix, a
 * tail; 12 or more of its base64, which hold 8 bytes) replaced the same way.
 *
 * @example
 * ```ts
 * scrubSecrets('x-api-key: k3y-123', [{ envName: 'API_KEY', value: 'k3y-123' }]); // 'x-api-key: $API_KEY'
 * scrubSecrets('token sk-live-9e8d7c…', [{ envName: 'KEY', value: 'sk-live-9e8d7c6b5a' }]); // 'token $KEY…'
 * ```
 */
export function scrubSecrets(text: string, secrets: readonly Secret[]): string {
  // Longest first, so a secret that contains another is replaced whole.
  const ordered = candidates(text, secrets.filter((s) => s.value.length >= minSecretLength)).sort((a, b) => b.value.length - a.value.length);
  let out = text;
  for (const secret of ordered) {
    for (const form of prepare(secret.value).forms) out = out.split(form).join(`$${secret.envName}`);
  }
  for (const secret of ordered) {
    if (secret.value.length < fragmentLength) continue;
    out = scrubFragments(out, prepare(secret.value), `$${secret.envName}`);
  }
  return out;
}

/**
 * One bit for every window hash of the secrets screened since it was last emptied (see
 * {@link screenedIn}), to skip texts that hold none at one bit test a window. A bit array,
 * not a set of the hashes: a new secret's thousands of windows (a JWK's) are put in at a
 * store each, which a set's inserts cost several times over in every run; a false hit only
 * costs the exact look that follows.
 */
/** The screen holds 2^screenLog2 bits. */
const screenLog2 = 24;
let screen: Uint32Array | undefined;
/** Hashes put in since the screen was last emptied. */
let screened = 0;
/** Bumped when the screen is emptied, so each secret in use is put back once. */
let epoch = 0;
/** The screen's epoch each prepared secret was put in. */
const screenedIn = new WeakMap<Prepared, number>();
/** Emptied past this many hashes, which keeps false hits rare: a long-lived process (the fault matrix) meets new secrets all the time. */
const maxScreen = 500_000;

/** A hash's bit in the screen: its top bits after a multiplicative mix, as the rolling hash's low bits mix least. */
const bitOf = (h: number): number => Math.imul(h, 0x9e3779b1) >>> (32 - screenLog2);

/**
 * The secrets whose forms or pieces `text` may hold: one rolling-hash pass over the text
 * against the screen of every secret's windows (a piece shows in any of its windows, a whole
 * form in its first), so the many texts that hold no secret (most records and report lines)
 * cost that pass instead of a search per form and a pass per secret. Only the windows that
 * hit are then looked for secret by secret. Shorter secrets are always searched.
 */
function candidates(text: string, secrets: readonly Secret[]): Secret[] {
  const short = secrets.filter((s) => s.value.length < fragmentLength);
  const long = secrets.filter((s) => s.value.length >= fragmentLength).map((s) => ({ secret: s, p: prepare(s.value) }));
  if (long.length === 0 || text.length < fragmentLength) return short;
  // Emptied only past what this list needs on its own, so a list that large is not screened afresh every time.
  const needed = long.reduce((n, { p }) => n + p.grams.size + p.heads.size, 0);
  screen ??= new Uint32Array(2 ** (screenLog2 - 5));
  const bits = screen;
  if (screened > maxScreen + needed) {
    bits.fill(0);
    screened = 0;
    epoch++;
  }
  const put = (h: number): void => {
    const b = bitOf(h);
    bits[b >>> 5]! |= 1 << (b & 31);
  };
  for (const { p } of long) {
    if (screenedIn.get(p) === epoch) continue;
    p.grams.forEach(put);
    p.heads.forEach(put);
    screened += p.grams.size + p.heads.size;
    screenedIn.set(p, epoch);
  }
  const hits: number[] = [];
  eachWindow(text, (h) => {
    const b = bitOf(h);
    if ((bits[b >>> 5]! & (1 << (b & 31))) !== 0) hits.push(h);
  });
  if (hits.length === 0) return short;
  return [...short, ...long.filter(({ p }) => hits.some((x) => p.grams.has(x) || p.heads.has(x))).map(({ secret }) => secret)];
}

/** A hash of `length` characters of `s` from `at`, the same as the rolling one below. */
function hashOf(s: string, at: number): number {
  let h = 0;
  for (let i = at; i < at + fragmentLength; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/** 31^(fragmentLength − 1), to drop the oldest character from a rolling hash. */
const dropFactor = Array.from({ length: fragmentLength - 1 }).reduce<number>((p) => Math.imul(p, 31), 1);

/** Calls `visit` with the hash ({@link hashOf}) of each window of fragmentLength characters of `text` and where it starts, rolling it along in one pass. */
function eachWindow(text: string, visit: (hash: number, at: number) => void): void {
  if (text.length < fragmentLength) return;
  let h = hashOf(text, 0);
  for (let at = 0; ; at++) {
    visit(h, at);
    if (at + fragmentLength >= text.length) return;
    h = (Math.imul(h - Math.imul(text.charCodeAt(at), dropFactor), 31) + text.charCodeAt(at + fragmentLength)) | 0;
  }
}

/** Lower-case or capitalised words and the separators between them: how ordinary text (and a check id) reads. */
const wordLike = /^[-_. /]*[A-Za-z][a-z]*(?:[-_. /]+[A-Za-z][a-z]*)*[-_. /]*$/;
const isWordChar = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9]/.test(c);

/** Where a text was cut: its edge, or the ellipsis restprobe puts where it cuts (`brief`). */
const isCut = (c: string | undefined): boolean => c === undefined || c === '…';

/**
 * Whether the run `text[start, end)`, made of pieces of a secret's forms, is plausibly
 * that secret rather than ordinary words it shares letters with (`-password-` of
 * `any-password-123` inside `AUT-password-grant-refused`). A run that does not read as
 * words (digits, symbols, mixed case: any real key or token) is; a run of words is only
 * where a cut secret would be: the secret's start cut off right after it, or its end cut
 * off right before it (whatever the echo put on the other side: `pppsk_live_e…`), or
 * either standing alone (not inside a longer word).
 */
function plausiblySecret(text: string, start: number, end: number, forms: readonly string[]): boolean {
  const run = text.slice(start, end);
  if (!wordLike.test(run)) return true;
  const longer = forms.filter((f) => f.length > run.length);
  if (longer.some((f) => (f.startsWith(run) && isCut(text[end])) || (f.endsWith(run) && isCut(text[start - 1])))) return true;
  if (isWordChar(text[start - 1]) || isWordChar(text[end])) return false;
  return longer.some((f) => f.startsWith(run) || f.endsWith(run));
}

/**
 * Replaces every maximal run of `text` that is made of a piece (≥ fragmentLength) of one
 * of `forms`, when it is {@link plausiblySecret}. A rolling hash finds candidate windows in one pass, so a multi-megabyte
 * report costs milliseconds; each candidate is confirmed against the forms themselves.
 */
function scrubFragments(text: string, { pieces: forms, textPieces, grams }: Prepared, replacement: string): string {
  if (text.length < fragmentLength) return text;
  const spans: [number, number][] = [];
  eachWindow(text, (h, at) => {
    if (!grams.has(h)) return;
    const window = text.slice(at, at + fragmentLength);
    if (!forms.some((f) => f.includes(window))) return;
    const end = at + fragmentLength;
    const last = spans.at(-1);
    if (last && at <= last[1]) last[1] = end;
    else spans.push([at, end]);
  });
  // A run found only in base64 cores counts from base64RunLength characters: as many bytes of the secret as a text run holds.
  const longEnough = ([start, end]: [number, number]): boolean => end - start >= base64RunLength || textPieces.some((f) => f.includes(text.slice(start, start + fragmentLength)));
  const plausible = spans.filter(([start, end]) => longEnough([start, end]) && plausiblySecret(text, start, end, forms));
  if (plausible.length === 0) return text;
  let out = '';
  let from = 0;
  for (const [start, end] of plausible) {
    out += text.slice(from, start) + replacement;
    from = end;
  }
  return out + text.slice(from);
}
