/**
 * The `scope` parameter (RFC 6749 §3.3): space-separated `<action>:<resource>` scopes,
 * each within what may be granted. Absent or empty: everything allowed.
 */
import { fullScopes, grants, isScope, type Scope } from '../scopes.js';

/** What may be asked for by default: every action on every resource. */
export const defaultScopes = fullScopes;

/** The scopes asked for, or `undefined` when one is malformed or beyond `allowed` (→ invalid_scope). */
export function requestedScopes(text: string | null, allowed: readonly Scope[] = defaultScopes): Scope[] | undefined {
  if (text === null || text === '') return [...allowed];
  const scopes: Scope[] = [];
  for (const item of text.split(' ')) {
    if (!isScope(item) || !grants(allowed, item)) return undefined;
    if (!scopes.includes(item)) scopes.push(item);
  }
  return scopes;
}
