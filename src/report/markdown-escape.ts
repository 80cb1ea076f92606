/**
 * Markdown escaping for text that may come from the target (found values, messages):
 * in a PR comment it must not format, link, mention anyone or break a table.
 */
import { stripControlChars } from './control-chars.js';
import { oneLine } from './wording.js';

/**
 * Inline text shown as is: the punctuation that formats, links, mentions or splits a
 * table cell is backslash-escaped (CommonMark allows that for any ASCII punctuation);
 * line breaks fold to spaces, so nothing here can start a list or a heading.
 *
 * @example
 * ```ts
 * mdText('see *this* @team'); // 'see \\*this\\* \\@team'
 * ```
 */
export function mdText(text: string): string {
  return oneLine(text).replace(/[\\`*_[\]<>|~@&]/g, '\\$&');
}

/** The longest run of backticks in `text`. */
function longestBacktickRun(text: string): number {
  return Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
}

/**
 * Inline code that holds any text, backticks included, on one line. Pipes are escaped
 * too, since GitHub splits table cells on them even inside code spans.
 *
 * @example
 * ```ts
 * mdCode('a`b'); // '``a`b``'
 * ```
 */
export function mdCode(text: string): string {
  const flat = oneLine(text).replace(/\|/g, '\\|');
  const fence = '`'.repeat(longestBacktickRun(flat) + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/**
 * A fenced code block whose fence no line of `text` can close.
 *
 * @example
 * ```ts
 * mdCodeBlock("curl -sS 'https://…'", 'sh');
 * ```
 */
export function mdCodeBlock(text: string, lang = ''): string {
  const body = stripControlChars(text);
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(body) + 1));
  return `${fence}${lang}\n${body}\n${fence}`;
}

/**
 * A table cell: pipes escaped, line breaks folded.
 *
 * @example
 * ```ts
 * mdCell('a|b'); // 'a\\|b'
 * ```
 */
export function mdCell(text: string): string {
  return oneLine(text).replace(/\|/g, '\\|');
}
