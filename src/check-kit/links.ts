/** `_links` (§1 hypermedia): an object mapping an action name to a path (or a HAL-style `{ href }`). */

/** The links of a representation, name → target; empty when it has no `_links` object. */
export function linksOf(representation: unknown): Map<string, string> {
  const links = (representation as { _links?: unknown } | null | undefined)?._links;
  const out = new Map<string, string>();
  if (links === null || typeof links !== 'object' || Array.isArray(links)) return out;
  for (const [name, value] of Object.entries(links)) {
    const href = typeof value === 'string' ? value : (value as { href?: unknown } | null)?.href;
    if (typeof href === 'string') out.set(name, href);
  }
  return out;
}
