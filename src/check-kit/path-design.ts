/**
 * Resource design read from paths (§2 general rules): segments are lowercase kebab-case
 * nouns, collections are plural, no verb appears (the method is the verb), and nesting goes
 * at most two levels deep (`/<collection>/<id>/<sub-collection>`).
 */

/** Words that are verbs and not also common resource nouns. */
const verbs: ReadonlySet<string> = new Set([
  'get', 'list', 'fetch', 'read', 'create', 'add', 'insert', 'update', 'edit', 'modify', 'set', 'put', 'patch', 'delete', 'remove',
  'destroy', 'do', 'make', 'run', 'execute', 'perform', 'complete', 'finish', 'cancel', 'approve', 'reject', 'send', 'submit',
  'activate', 'deactivate', 'enable', 'disable', 'start', 'stop', 'reset', 'sync', 'calculate', 'validate', 'upload', 'download',
  'login', 'logout', 'signin', 'signout', 'register', 'subscribe', 'unsubscribe', 'assign', 'unassign', 'move', 'copy', 'clone',
]);

/** Plurals that do not end in "s". */
const irregularPlurals: ReadonlySet<string> = new Set(['people', 'children', 'men', 'women', 'data', 'media', 'criteria', 'phenomena', 'feet', 'teeth', 'mice', 'geese', 'indices', 'alumni']);

const kebab = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const version = /^v\d+$/i;
/** Segments that look like ids: a template, digits, a UUID, or anything with a digit and 16+ characters. */
const looksLikeId = (s: string): boolean => /^\{[^}]*\}$/.test(s) || /^\d+$/.test(s) || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s) || (s.length >= 16 && /\d/.test(s));

/**
 * What breaks the rules in one path (relative to the base URL's path); empty when nothing does.
 * `ids` are values known to be ids (of items the check created); `listing`: the path is a
 * collection's, so its last segment names a collection too.
 *
 * @example
 * ```ts
 * pathProblems('/v2/projects/{id}/tasks');          // []
 * pathProblems('/v2/tasks/7/complete');              // ['"complete" is a verb: the method is the verb (§2)']
 * pathProblems('/v2/Project/{id}');                  // ['"Project" is not lowercase kebab-case', '"Project" names a collection but is not plural']
 * ```
 */
export function pathProblems(path: string, ids: ReadonlySet<string> = new Set(), listing = false): string[] {
  const segments = (path.split('?')[0] ?? '').split('/').filter((s) => s !== '').map((s) => { try { return decodeURIComponent(s); } catch { return s; } });
  const isId = (s: string) => ids.has(s) || looksLikeId(s);
  const problems: string[] = [];
  const named = segments.filter((s) => !version.test(s) && !isId(s));
  segments.forEach((s, i) => {
    if (version.test(s) || isId(s)) return;
    if (!kebab.test(s)) problems.push(`"${s}" is not lowercase kebab-case`);
    const words = s.toLowerCase().split(/[-_]/);
    if (words.some((w) => verbs.has(w))) problems.push(`"${s}" is a verb: the method is the verb (§2)`);
    const next = segments[i + 1];
    const last = words.at(-1) ?? '';
    const collection = next === undefined ? listing : isId(next);
    if (collection && !(last.endsWith('s') || irregularPlurals.has(last))) problems.push(`"${s}" names a collection but is not plural`);
  });
  if (named.length > 2) problems.push(`nests ${named.length} levels (${named.join(' → ')}), at most 2: /<collection>/<id>/<sub-collection> (§2)`);
  return problems;
}
