/**
 * XML 1.0 text and attribute escaping. Characters XML cannot hold at all (most control
 * characters, lone surrogates, U+FFFE/U+FFFF) are dropped: a target's garbage bytes must
 * not make the JUnit file unreadable for the CI dashboard.
 */

// Everything outside XML 1.0's Char production: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
const notXmlChar = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Text content, safe between tags.
 *
 * @example
 * ```ts
 * xmlText('a < b && c\u0007'); // 'a &lt; b &amp;&amp; c'
 * ```
 */
export function xmlText(text: string): string {
  return text.replace(notXmlChar, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * An attribute value, safe inside double quotes; line breaks and tabs are kept as
 * character references (attribute normalisation would turn them into spaces).
 *
 * @example
 * ```ts
 * xmlAttr('say "hi"\n'); // 'say &quot;hi&quot;&#10;'
 * ```
 */
export function xmlAttr(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
