/**
 * Scopes (conventions §5.4): `<action>:<resource>`, enforced on every call.
 *
 * - The action is `read` for GET and HEAD (and OPTIONS, which needs no credentials here)
 *   and `write` for POST, PUT, PATCH and DELETE. Write does not imply read.
 * - The resource is the first path segment after the version: `/v2/projects/{id}` needs
 *   `…:projects`, `/v2/api-keys` needs `…:api-keys`. One rule, no exceptions by route:
 *   a project's tasks (`/v2/projects/{id}/tasks`) count as `projects`, for reads and
 *   writes alike, while a task addressed at the top level (`/v2/tasks/{id}`) is `tasks`.
 * - `read:*` and `write:*` stand for the action on every resource.
 */

/** A scope as credentials carry it, such as `read:projects` or `write:*`. */
export type Scope = `${Action}:${string}`;

export type Action = 'read' | 'write';

/** The well-formed scopes: an action, a colon, a resource segment or `*`. */
export const scopePattern = /^(read|write):(\*|[a-z][a-z0-9-]{0,63})$/;

/** The server's primary key: every action on every resource. */
export const fullScopes: readonly Scope[] = ['read:*', 'write:*'];

/** The read-only key: every read, no write. */
export const readOnlyScopes: readonly Scope[] = ['read:*'];

/** Whether `text` is a well-formed scope. */
export function isScope(text: string): text is Scope {
  return scopePattern.test(text);
}

/** The action a method performs. */
export function actionOf(method: string): Action {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? 'read' : 'write';
}

/**
 * The scope a request needs: its action on the first segment after `/v<n>`, or
 * `undefined` for a path with no such segment (the `/v2` index needs credentials only).
 */
export function requiredScope(method: string, path: string): Scope | undefined {
  const segments = path.split('/').filter((s) => s !== '');
  const rest = /^v\d+$/.test(segments[0] ?? '') ? segments.slice(1) : segments;
  const resource = rest[0];
  return resource === undefined ? undefined : `${actionOf(method)}:${resource}`;
}

/** Whether scopes `held` grant `wanted`: the same scope, or the wildcard of its action. */
export function grants(held: readonly Scope[], wanted: Scope): boolean {
  const action = wanted.slice(0, wanted.indexOf(':'));
  return held.includes(wanted) || held.includes(`${action as Action}:*`);
}

/**
 * What two credentials may both do (a request that presents two must satisfy both):
 * the pairwise meet, where `read:*` meets `read:projects` in `read:projects`.
 */
export function intersectScopes(a: readonly Scope[], b: readonly Scope[]): Scope[] {
  const meet = new Set<Scope>();
  for (const x of a) {
    if (grants(b, x)) meet.add(x);
  }
  for (const y of b) {
    if (grants(a, y)) meet.add(y);
  }
  return [...meet];
}
