/** Whether a parsed JSON value is an object (not null, not an array): a body or member with named fields. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
