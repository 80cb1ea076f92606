/**
 * A create body told apart from another by one of its own values: for a check that needs two
 * bodies that differ where a collection has no mark field to tell them apart.
 */

/**
 * `body` with its first string field but `except` suffixed with ` (restprobe <why>)`;
 * undefined when it has no such field.
 *
 * @example
 * ```ts
 * alteredBody({ name: 'p', done: false }, 'id', 'other'); // { name: 'p (restprobe other)', done: false }
 * ```
 */
export function alteredBody(body: Readonly<Record<string, unknown>>, except: string, why: string): Record<string, unknown> | undefined {
  const field = Object.keys(body).find((k) => typeof body[k] === 'string' && k !== except);
  return field === undefined ? undefined : { ...body, [field]: `${String(body[field])} (restprobe ${why})` };
}
