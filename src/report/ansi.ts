/** Plain ANSI styling, applied only when the caller says the stream shows colour. */

const codes = { bold: 1, dim: 2, red: 31, green: 32, yellow: 33, magenta: 35, gray: 90 } as const;
export type Style = keyof typeof codes;

/**
 * `text` wrapped in the styles' escape codes, or unchanged when `enabled` is false.
 *
 * @example
 * ```ts
 * paint('FAIL', ['bold', 'red'], process.stdout.isTTY); // '\x1b[1;31mFAIL\x1b[0m' on a terminal
 * ```
 */
export function paint(text: string, styles: Style | readonly Style[], enabled: boolean): string {
  if (!enabled || text === '') return text;
  const list = typeof styles === 'string' ? [styles] : styles;
  return `\x1b[${list.map((s) => codes[s]).join(';')}m${text}\x1b[0m`;
}
