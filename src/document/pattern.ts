/**
 * A document's `pattern` as a JavaScript RegExp. Authors write them for their own engines
 * (Java, .NET, Python, ECMA-262 with or without the `u` flag): with `u` where the pattern
 * compiles so, as JSON Schema 2020-12 §6.4 asks (`\p{L}` is a Unicode property only then),
 * else without it (`\-` outside a class, which only `u` refuses); undefined for a pattern
 * no JavaScript engine compiles (`(?i)`, a possessive `++`), which is then not judged.
 *
 * @example
 * ```ts
 * documentPattern('^[\\p{L} ]+$')?.test('Zoë'); // true
 * documentPattern('(?i)^[a-z]+$'); // undefined
 * ```
 */
export function documentPattern(pattern: string): RegExp | undefined {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(pattern, flags);
    } catch {
      // Not in this dialect: the next.
    }
  }
  return undefined;
}
