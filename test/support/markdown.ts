/**
 * Test support: the links and headings of a Markdown file, as GitHub renders them, so a
 * test can hold the README and docs/ to links that resolve.
 */

/** The text outside fenced code blocks and inline code spans: a `[x](y)` in code is no link. */
export function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/**
 * The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as
 * hyphens, a repeated heading suffixed `-1`, `-2` ….
 *
 * @example
 * ```ts
 * headingAnchors('## `serve`: the reference server\n## Exit codes'); // Set { 'serve-the-reference-server', 'exit-codes' }
 * ```
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const code = /^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm;
  for (const [, text] of markdown.replace(code, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = text!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** The targets of a file's links that stay in the repository: no scheme, no mailto. */
export function relativeLinks(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)]
    .map(([, target]) => target!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}
