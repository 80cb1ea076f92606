/**
 * Structured Field Values for HTTP (RFC 8941), the parts the RateLimit fields use: Lists
 * and Dictionaries of Items with Parameters. A value that breaks the grammar gives one
 * problem, naming where; nothing is guessed.
 */

export type BareItem =
  | { readonly type: 'integer' | 'decimal'; readonly value: number }
  | { readonly type: 'string' | 'token' | 'bytes'; readonly value: string }
  | { readonly type: 'boolean'; readonly value: boolean };

export interface SfItem {
  readonly value: BareItem;
  readonly params: ReadonlyMap<string, BareItem>;
}

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

class Malformed extends Error {}

const lcKey = /[a-z*][a-z0-9_\-.*]*/y;
const tokenRest = /[!#$%&'*+\-.^_`|~0-9A-Za-z:/]*/y;

/** A recursive-descent reader over one field value (RFC 8941 §4.2). */
class Reader {
  private i = 0;
  constructor(private readonly s: string) {}

  fail(what: string): never {
    throw new Malformed(`${what} at character ${this.i + 1}`);
  }

  private peek(): string {
    return this.s[this.i] ?? '';
  }

  private skip(chars: string): void {
    while (this.i < this.s.length && chars.includes(this.s[this.i]!)) this.i++;
  }

  private match(re: RegExp): string {
    re.lastIndex = this.i;
    const m = re.exec(this.s);
    if (m === null || m[0] === '') this.fail('expected a key');
    this.i += m[0].length;
    return m[0];
  }

  /** Runs `member` over the comma-separated members of the whole value. */
  members(member: () => void): void {
    this.skip(' ');
    if (this.i === this.s.length) this.fail('an empty value');
    for (;;) {
      member();
      this.skip(' \t');
      if (this.i === this.s.length) return;
      if (this.peek() !== ',') this.fail(`"${this.peek()}" where a comma or the end was due`);
      this.i++;
      this.skip(' \t');
      if (this.i === this.s.length) this.fail('a trailing comma');
    }
  }

  key(): string {
    return this.match(lcKey);
  }

  /** After a dictionary key: `=item`, or nothing (true), with parameters either way. */
  dictionaryValue(): SfItem {
    if (this.peek() !== '=') return { value: { type: 'boolean', value: true }, params: this.params() };
    this.i++;
    return this.item();
  }

  item(): SfItem {
    if (this.peek() === '(') this.fail('an inner list, where an item was due');
    const value = this.bareItem();
    return { value, params: this.params() };
  }

  /** `*( ";" *SP key [ "=" bare-item ] )`, a key without a value being true. */
  params(): Map<string, BareItem> {
    const params = new Map<string, BareItem>();
    while (this.peek() === ';') {
      this.i++;
      this.skip(' ');
      const key = this.key();
      let value: BareItem = { type: 'boolean', value: true };
      if (this.peek() === '=') {
        this.i++;
        value = this.bareItem();
      }
      params.set(key, value);
    }
    return params;
  }

  bareItem(): BareItem {
    const c = this.peek();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    if (c === '"') return this.string();
    if (c === ':') return this.bytes();
    if (c === '?') return this.boolean();
    if (/[A-Za-z*]/.test(c)) {
      this.i++;
      return { type: 'token', value: c + this.matchOptional(tokenRest) };
    }
    return this.fail(c === '' ? 'the value ends where an item was due' : `"${c}" cannot start an item`);
  }

  private matchOptional(re: RegExp): string {
    re.lastIndex = this.i;
    const m = re.exec(this.s)?.[0] ?? '';
    this.i += m.length;
    return m;
  }

  private number(): BareItem {
    const m = this.matchOptional(/-?\d+(?:\.\d+)?/y);
    if (m === '' || m === '-') this.fail('a number without digits');
    const [whole, fraction] = m.replace('-', '').split('.');
    if (fraction === undefined) {
      if (whole!.length > 15) this.fail('an integer of more than 15 digits');
      return { type: 'integer', value: Number(m) };
    }
    if (whole!.length > 12 || fraction.length > 3) this.fail('a decimal of more than 12.3 digits');
    return { type: 'decimal', value: Number(m) };
  }

  private string(): BareItem {
    this.i++;
    let out = '';
    for (;;) {
      if (this.i >= this.s.length) this.fail('a string without its closing quote');
      const c = this.s[this.i++]!;
      if (c === '"') return { type: 'string', value: out };
      if (c === '\\') {
        const next = this.s[this.i++];
        if (next !== '"' && next !== '\\') this.fail('a backslash that escapes neither " nor \\');
        out += next;
      } else if (c < ' ' || c > '~') this.fail('a character a string may not hold');
      else out += c;
    }
  }

  private bytes(): BareItem {
    this.i++;
    const m = this.matchOptional(/[A-Za-z0-9+/=]*/y);
    if (this.peek() !== ':') this.fail('a byte sequence without its closing colon');
    this.i++;
    return { type: 'bytes', value: m };
  }

  private boolean(): BareItem {
    const m = this.s.slice(this.i, this.i + 2);
    if (m !== '?0' && m !== '?1') this.fail('a boolean that is neither ?0 nor ?1');
    this.i += 2;
    return { type: 'boolean', value: m === '?1' };
  }
}

function parse<T>(text: string, read: (r: Reader) => T): Parsed<T> {
  try {
    return { ok: true, value: read(new Reader(text)) };
  } catch (err) {
    if (err instanceof Malformed) return { ok: false, problem: err.message };
    throw err;
  }
}

/**
 * A List of Items (RFC 8941 §4.2.1).
 *
 * @example
 * ```ts
 * parseList('"burst";q=100;w=60, "daily";q=1000'); // ok: two items, names as strings
 * ```
 */
export function parseList(text: string): Parsed<SfItem[]> {
  return parse(text, (r) => {
    const items: SfItem[] = [];
    r.members(() => items.push(r.item()));
    return items;
  });
}

/**
 * A Dictionary (RFC 8941 §4.2.2); a member without a value is true.
 *
 * @example
 * ```ts
 * parseDictionary('limit=100, remaining=50, reset=5'); // ok: three integers
 * ```
 */
export function parseDictionary(text: string): Parsed<Map<string, SfItem>> {
  return parse(text, (r) => {
    const members = new Map<string, SfItem>();
    r.members(() => {
      const key = r.key();
      members.set(key, r.dictionaryValue());
    });
    return members;
  });
}
