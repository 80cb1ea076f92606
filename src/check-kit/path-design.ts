/**
 * Resource design read from paths (§2 general rules): segments are lowercase kebab-case
 * nouns, collections are plural, no verb appears (the method is the verb), and nesting goes
 * at most two levels deep (`/<collection>/<id>/<sub-collection>`).
 */
import { uuidPattern } from '../model/ids.js';

/** Words that are verbs; as the head (last word) of a segment they make it a verb. */
const verbs: ReadonlySet<string> = new Set([
  'get', 'list', 'fetch', 'read', 'create', 'add', 'insert', 'update', 'edit', 'modify', 'set', 'put', 'patch', 'delete', 'remove',
  'destroy', 'do', 'make', 'run', 'execute', 'perform', 'complete', 'finish', 'cancel', 'approve', 'reject', 'send', 'submit',
  'activate', 'deactivate', 'enable', 'disable', 'start', 'stop', 'reset', 'sync', 'calculate', 'validate', 'upload', 'download',
  'login', 'logout', 'signin', 'signout', 'register', 'subscribe', 'unsubscribe', 'assign', 'unassign', 'move', 'copy', 'clone',
  // The state changes APIs route as verbs (`@action` in DRF, `@Post(':id/archive')` in NestJS, Stripe's `/invoices/{id}/pay`).
  // Not archive, pay or capture: common nouns too (GitHub's migration archive, an employee's pay, a screen capture).
  'unarchive', 'restore', 'publish', 'unpublish', 'close', 'reopen', 'confirm', 'verify', 'void',
  'finalize', 'resolve', 'accept', 'decline', 'resend', 'retry',
]);

/**
 * Verbs that make a verb phrase even as the first word of a compound (`create-project`,
 * `get-users`): they name an operation, never a kind of thing. Other verbs are common noun
 * modifiers (`upload-sessions`, `login-attempts`, `sync-jobs`), judged by the head noun.
 */
const operationVerbs: ReadonlySet<string> = new Set(['get', 'list', 'fetch', 'create', 'add', 'insert', 'update', 'edit', 'modify', 'delete', 'remove', 'destroy', 'do', 'make', 'execute', 'perform']);

/** Compounds whose first word is an operation verb and which are nouns all the same (`add-ons`, GDPR `delete-requests`). */
const nounCompounds: ReadonlySet<string> = new Set(['add-on', 'add-ons', 'list-item', 'list-items', 'delete-request', 'delete-requests', 'update-log', 'update-logs', 'make-good', 'make-goods']);

/**
 * Singular nouns that end in "s" (`address`, `status`, `analysis`): a word in "-ss" always,
 * and these in "-us" and "-is", whose plurals (`menus`, `wikis`, `apis`) would otherwise look alike.
 */
const singularInS: ReadonlySet<string> = new Set(['status', 'bonus', 'campus', 'census', 'corpus', 'virus', 'analysis', 'basis', 'crisis', 'axis', 'thesis', 'diagnosis', 'synopsis', 'hypothesis']);

/** Whether a collection's head noun is plural (or a noun with no plural). */
const isPlural = (head: string): boolean => irregularPlurals.has(head) || (head.endsWith('s') && !head.endsWith('ss') && !singularInS.has(head));

/** Plurals that do not end in "s", and nouns with no plural (a collection of staff is `staff`). */
const irregularPlurals: ReadonlySet<string> = new Set([
  'people', 'children', 'men', 'women', 'data', 'media', 'criteria', 'phenomena', 'feet', 'teeth', 'mice', 'geese', 'indices', 'alumni',
  'staff', 'personnel', 'inventory', 'feedback', 'equipment', 'information', 'metadata', 'software', 'hardware', 'firmware', 'merchandise', 'mail', 'music', 'traffic', 'luggage', 'baggage', 'evidence', 'furniture', 'sheep', 'fish', 'deer', 'aircraft',
]);

const kebab = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** A version segment: `v2`, and `v1.0` as Asp.Versioning writes one in a URL. */
const version = /^v\d+(?:\.\d+)*$/i;
/**
 * Segments that look like ids: a template, digits, a UUID, a prefixed id with a digit
 * (Stripe's `cus_9s6XKz`, `usr_8f3k`), or anything with a digit and 16+ characters.
 */
const looksLikeId = (s: string): boolean => /^\{[^}]*\}$/.test(s) || /^\d+$/.test(s) || uuidPattern.test(s) || (/^[a-z]{2,8}_[A-Za-z0-9]+$/.test(s) && /\d/.test(s)) || (s.length >= 16 && /\d/.test(s));

/**
 * What breaks the rules in one path (relative to the base URL's path); empty when nothing does.
 * `ids` are values known to be ids (of items the check created); `listing`: the path is a
 * collection's, so its last segment names a collection too.
 *
 * A compound segment is judged by its head noun, its last word (`upload-sessions` is
 * sessions), unless it opens with an operation verb. Nesting is counted from the first
 * collection segment, so a gateway prefix (`/api/team-a/...`) counts the same whether the
 * base URL or the path holds it.
 *
 * @example
 * ```ts
 * pathProblems('/v2/projects/{id}/tasks');          // []
 * pathProblems('/api/v2/upload-sessions/{id}/parts'); // []
 * pathProblems('/v2/tasks/7/complete');              // ['"complete" is a verb: the method is the verb (§2)']
 * pathProblems('/v2/Project/{id}');                  // ['"Project" is not lowercase kebab-case', '"Project" names a collection but is not plural']
 * ```
 */
export function pathProblems(path: string, ids: ReadonlySet<string> = new Set(), listing = false): string[] {
  const segments = (path.split('?')[0] ?? '').split('/').filter((s) => s !== '').map((s) => { try { return decodeURIComponent(s); } catch { return s; } });
  const isId = (s: string) => ids.has(s) || looksLikeId(s);
  const named = (s: string) => !version.test(s) && !isId(s);
  const isCollection = (i: number) => (segments[i + 1] === undefined ? listing : isId(segments[i + 1]!));
  const problems: string[] = [];
  segments.forEach((s, i) => {
    if (!named(s)) return;
    if (!kebab.test(s)) problems.push(`"${s}" is not lowercase kebab-case`);
    const words = s.toLowerCase().split(/[-_]/);
    const head = words.at(-1) ?? '';
    if (verbs.has(head) || (words.length > 1 && operationVerbs.has(words[0]!) && !nounCompounds.has(s.toLowerCase()))) problems.push(`"${s}" is a verb: the method is the verb (§2)`);
    if (isCollection(i) && !isPlural(head)) problems.push(`"${s}" names a collection but is not plural`);
  });
  // From the first collection on: what comes before it is a prefix (a gateway's, a version).
  const first = segments.findIndex((s, i) => named(s) && isCollection(i));
  const nested = segments.slice(Math.max(first, 0)).filter(named);
  if (nested.length > 2) problems.push(`nests ${nested.length} levels (${nested.join(' → ')}), at most 2: /<collection>/<id>/<sub-collection> (§2)`);
  return problems;
}
