/**
 * Control characters from a target's responses must not reach a terminal (escape
 * sequences can rewrite what the user sees) or a Markdown comment.
 */

// C0 controls other than tab, line feed and carriage return; DEL; C1 controls.
const controls = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/**
 * `text` without control characters; tabs and line breaks are kept.
 *
 * @example
 * ```ts
 * stripControlChars('ok\u001b[2Jgone'); // 'ok[2Jgone'
 * ```
 */
export function stripControlChars(text: string): string {
  return text.replace(controls, '');
}
