import type { JsonType } from './shape.js';

/** Whether a parsed JSON value is an object (not null, not an array): a body or member with named fields. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The JSON type of a parsed value (`jsonType([])` is `'array'`, `jsonType(null)` is `'null'`). */
export function jsonType(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const t = typeof value;
  return t === 'string' || t === 'number' || t === 'boolean' ? t : 'object';
}
