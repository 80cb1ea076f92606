/**
 * HTML escaping for text that may come from the target (bodies, headers, messages): in
 * the HTML report it must stay text, whatever markup or script it holds.
 */
import { stripControlChars } from './control-chars.js';

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text safe between tags and inside a double- or single-quoted attribute value: the five
 * markup characters become references, control characters (but tab and line breaks) go.
 *
 * @example
 * ```ts
 * html('<script>alert("x")</script>'); // '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'
 * ```
 */
export function html(text: string): string {
  return stripControlChars(text).replace(/[&<>"']/g, (c) => entities[c]!);
}

/**
 * A fragment id made of letters, digits and dashes, unique among the ids `taken` so far
 * (a suffix tells apart names that fold to the same slug).
 *
 * @example
 * ```ts
 * const taken = new Set<string>();
 * anchorId('END-get-item-200 [projects]', taken); // 'check-END-get-item-200-projects'
 * ```
 */
export function anchorId(name: string, taken: Set<string>): string {
  const base = `check-${name.replace(/[^A-Za-z0-9-]+/g, '-').replace(/^-+|-+$/g, '')}`;
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/**
 * Escaped text whose `code spans` (as rule texts write header names and values) show as code,
 * not as literal backticks.
 *
 * @example
 * ```ts
 * htmlWithCode('MUST carry an `ETag`'); // 'MUST carry an <code>ETag</code>'
 * ```
 */
export function htmlWithCode(text: string): string {
  return text
    .split(/(`[^`]+`)/)
    .map((part) => (part.length > 2 && part.startsWith('`') && part.endsWith('`') ? `<code>${html(part.slice(1, -1))}</code>` : html(part)))
    .join('');
}
