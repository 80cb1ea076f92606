/**
 * Response shapes as results and profiles carry them (VER-compatible-within-major): field
 * paths and JSON types, status codes, no values. src/check-kit/shapes.ts takes and compares them.
 */

export type JsonType = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

/** What one path holds: the JSON types seen there; `optional` when some object that had the path's parent lacked it. */
export interface FieldShape {
  readonly types: readonly JsonType[];
  readonly optional?: true;
}

/** A JSON value's shape: its field paths (`$`, `$.data[]`, `$.data[].id`) and their types. */
export type Shape = Readonly<Record<string, FieldShape>>;

/** One response of a fixed probe, as a snapshot keeps it: no ids, no values. */
export interface ProbeShape {
  /** The request, ids as `{id}`: `GET /v2/projects/{id}`. */
  readonly request: string;
  readonly status: number;
  /** The body's shape; absent when the body was empty or not JSON. */
  readonly body?: Shape;
}

/** One collection's responses to the fixed probes, and the major version they were taken on. */
export interface ShapeSnapshot {
  /** The API's major version (`2`), when the config or the collection's path names it. */
  readonly version?: string;
  /** By probe name (`list`, `item`, `missing item`, …). */
  readonly probes: Readonly<Record<string, ProbeShape>>;
}

/** The shapes an earlier report recorded (`--baseline`), by collection name. */
export interface ShapeBaseline {
  /** When the earlier run started (its report's `startedAt`), for messages. */
  readonly takenAt: string;
  readonly collections: Readonly<Record<string, ShapeSnapshot>>;
}
