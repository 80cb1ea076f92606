/** What ids look like, for the checks that must tell one kind from another. */

/** A UUID in its canonical 8-4-4-4-12 hex form, either case. */
export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What one item of a collection named `name` may be called in a member that refers to it
 * (`project` for `projects`, `category` for `categories`, `box` for `boxes`): every form a
 * plural in `s`, `es` or `ies` may come from, since which applies is not known.
 *
 * @example
 * ```ts
 * singularForms('categories'); // ['categorie', 'categori', 'category']
 * ```
 */
export function singularForms(name: string): string[] {
  return [...new Set([name.replace(/s$/, ''), name.replace(/es$/, ''), name.replace(/ies$/, 'y')])];
}
