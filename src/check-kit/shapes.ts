/**
 * Response shapes (conventions §9.4): what a client of one major version relies on — the
 * field names and JSON types a response shows, and the status codes — with the values
 * left out (ids, timestamps and names differ between runs; only names and types matter).
 *
 * A shape is a map from field paths to the JSON types seen there: `$` (the body), `$.data`,
 * `$.data[]` (the elements of an array, all of them merged), `$.data[].id`. A member that
 * some merged objects lacked is `optional`. `null` is kept as a type, but a field that was
 * only ever null says nothing about its type, so null never makes a change breaking.
 *
 * {@link compareShapes} applies §9.4's table to two shapes of the same response: a removed
 * (or renamed) field and a changed type are breaking; an added field is safe. Enum values
 * are values, not shapes: adding one is never seen as a change. The members of a `_links`
 * object are optional by nature: "the server decides which actions are open" (conventions
 * §1, §2), so a link that comes and goes with the item's state is no change of shape.
 */

import type { FieldShape, JsonType, Shape, ShapeSnapshot } from '../model/shape.js';

export type { FieldShape, JsonType, ProbeShape, Shape, ShapeBaseline, ShapeSnapshot } from '../model/shape.js';
import { jsonType } from '../model/json.js';
import { uuidPattern } from '../model/ids.js';
export { jsonType };

/** What changed between two shapes, worded for a report (`$.id: was string, is now number`). */
export interface ShapeChanges {
  /** Breaking within a major version (§9.4): removed or retyped fields, other status codes. */
  readonly breaking: readonly string[];
  /** Safe within a major version: added fields. */
  readonly safe: readonly string[];
  /** What the baseline had and this run did not observe (an empty array, a probe not sent). */
  readonly unobserved: readonly string[];
}

const identifier = /^[A-Za-z_$][\w$-]*$/;

/** The path of `parent`'s member `name`: `$.data`, or `$["odd name"]`. */
export function memberPath(parent: string, name: string): string {
  return identifier.test(name) ? `${parent}.${name}` : `${parent}[${JSON.stringify(name)}]`;
}

/** The path of `path`'s parent (`$.data[].id` → `$.data[]`); undefined for `$`. */
export function parentPath(path: string): string | undefined {
  const m = /(?:\.[A-Za-z_$][\w$-]*|\[\]|\["(?:[^"\\]|\\.)*"\])$/.exec(path);
  return m === null ? undefined : path.slice(0, m.index);
}


interface Seen {
  readonly types: Set<JsonType>;
  /** For object paths: how many objects were seen there. */
  objects: number;
  /** For member paths: in how many of the parent's objects the member was. */
  present: number;
}

/**
 * The shape of a JSON value.
 *
 * @example
 * ```ts
 * shapeOf({ data: [{ id: 'a' }, { id: 'b', note: null }], next_cursor: null });
 * // { $: {types:['object']}, '$.data': {types:['array']}, '$.data[]': {types:['object']},
 * //   '$.data[].id': {types:['string']}, '$.data[].note': {types:['null'], optional: true},
 * //   '$.next_cursor': {types:['null']} }
 * ```
 */
export function shapeOf(value: unknown): Shape {
  const seen = new Map<string, Seen>();
  const at = (path: string): Seen => {
    let s = seen.get(path);
    if (s === undefined) seen.set(path, (s = { types: new Set(), objects: 0, present: 0 }));
    return s;
  };
  const walk = (v: unknown, path: string): void => {
    const here = at(path);
    const type = jsonType(v);
    here.types.add(type);
    if (type === 'object') {
      here.objects += 1;
      for (const [name, member] of Object.entries(v as Record<string, unknown>)) {
        const p = memberPath(path, name);
        at(p).present += 1;
        walk(member, p);
      }
    } else if (type === 'array') {
      for (const element of v as unknown[]) walk(element, `${path}[]`);
    }
  };
  walk(value, '$');
  const out: Record<string, FieldShape> = {};
  for (const path of [...seen.keys()].sort()) {
    const s = seen.get(path)!;
    const parent = parentPath(path);
    const optional = parent !== undefined && !path.endsWith('[]') && (s.present < seen.get(parent)!.objects || parent.endsWith('._links'));
    out[path] = { types: [...s.types].sort(), ...(optional && { optional: true as const }) };
  }
  return out;
}

/** The last member name of a path (`$.data[].id` → `id`, `$["2026-01-01"]` → `2026-01-01`); undefined for `$` or an element. */
function memberName(path: string): string | undefined {
  const quoted = /\[("(?:[^"\\]|\\.)*")\]$/.exec(path);
  if (quoted !== null) return JSON.parse(quoted[1]!) as string;
  return /\.([A-Za-z_$][\w$-]*)$/.exec(path)?.[1];
}

/**
 * Whether a member is named like a value, as the keys of a map keyed by data are (a number,
 * a date, a UUID: `{"usage": {"2026-11-21": 3}}`, `{"roles": {"8f14e45f-…": "admin"}}`): such
 * keys differ between runs as the data does, so one missing now is no removed field.
 */
export function isDataKey(path: string): boolean {
  const name = memberName(path);
  return name !== undefined && (/^[+-]?\d/.test(name) || uuidPattern.test(name));
}

const nonNull = (f: FieldShape): JsonType[] => f.types.filter((t) => t !== 'null');
const typesText = (f: FieldShape): string => f.types.join(' or ');

/** Options of {@link compareShapes}. */
export interface CompareOptions {
  /**
   * The paths that show stored items the run did not write (a listing's elements, an item
   * read from the listing): which of their fields appear depends on the items (a field left
   * out when empty, a state's own fields, one kind of a union), and the items differ between
   * runs, so a field missing there is noted as unobserved, not judged removed.
   */
  readonly storedData?: (path: string) => boolean;
  /**
   * The paths inside a field of such an item (`$.data[].attributes.size`), where a changed type
   * is noted, not judged: a free-form field (Django's JSONField, FastAPI's `dict[str, Any]`,
   * Spring's `JsonNode`) holds a number in one item and text in another. A stored item's own
   * fields (`$.data[].id`) are the API's, and their types are judged.
   */
  readonly freeForm?: (path: string) => boolean;
}

/**
 * §9.4 applied to two shapes of one response: every path of `before` that `now` lacks
 * while still showing its parent object is a removed field (unless `before` had it as
 * optional, or it shows stored data, see {@link CompareOptions}, or is named like a value:
 * {@link isDataKey}); a path whose non-null
 * types now include one it never had is a changed type (noted only inside a stored item's field, see {@link CompareOptions}). Paths under a reported one, or
 * under an array that is empty now, are not worded again. An added path under a parent
 * `before` had is a safe addition.
 *
 * @example
 * ```ts
 * compareShapes(shapeOf({ id: 'a' }), shapeOf({ id: 1, note: 'x' }));
 * // { breaking: ['$.id: was string, is now number'], safe: ['$.note: added (string)'], unobserved: [] }
 * ```
 */
export function compareShapes(before: Shape, now: Shape, options: CompareOptions = {}): ShapeChanges {
  const breaking: string[] = [];
  const safe: string[] = [];
  const unobserved: string[] = [];
  /** Paths whose subtree is worded already (or not comparable). */
  const settled = new Set<string>();
  const under = (path: string): boolean => {
    for (let p = parentPath(path); p !== undefined; p = parentPath(p)) if (settled.has(p)) return true;
    return false;
  };
  for (const path of Object.keys(before).sort()) {
    if (under(path)) continue;
    const was = before[path]!;
    const is = now[path];
    if (is === undefined) {
      settled.add(path);
      const parent = parentPath(path);
      const parentNow = parent === undefined ? undefined : now[parent];
      if (path.endsWith('[]')) unobserved.push(`${path}: no elements now, so their shape was not seen`);
      else if (!parentNow?.types.includes('object') || was.optional === true) continue;
      else if (isDataKey(path)) unobserved.push(`${path}: not there now; named like a value (a number, a date, a UUID), it is taken for a key of a map keyed by data, not a field`);
      else if (options.storedData?.(path) === true) unobserved.push(`${path}: in none of the items read now (was ${typesText(was)}); they are not the baseline's items, and a field left out when empty looks the same`);
      else breaking.push(`${path}: removed (was ${typesText(was)})`);
      continue;
    }
    const wasTypes = nonNull(was);
    const added = nonNull(is).filter((t) => !wasTypes.includes(t));
    if (wasTypes.length > 0 && added.length > 0) {
      if (options.freeForm?.(path) === true) unobserved.push(`${path}: was ${wasTypes.join(' or ')} in the items read then, is ${nonNull(is).join(' or ')} in those read now; inside a field of items that are not the baseline's, it may be free-form data, not the API's change`);
      else breaking.push(`${path}: was ${wasTypes.join(' or ')}, is now ${nonNull(is).join(' or ')}`);
      settled.add(path);
    }
  }
  for (const path of Object.keys(now).sort()) {
    if (before[path] !== undefined || path.endsWith('[]') || isDataKey(path)) continue;
    const parent = parentPath(path);
    if (parent !== undefined && before[parent]?.types.includes('object') && !settled.has(parent)) safe.push(`${path}: added (${typesText(now[path]!)})`);
  }
  return { breaking, safe, unobserved };
}

/**
 * The probes whose bodies show items the run did not write, and which of their paths do:
 * a listing's elements, and all of an item read from the listing (src/check-kit/shape-probes.ts).
 * The created item and the error probes answer the run's own requests alike in every run.
 */
const storedData: Readonly<Record<string, (path: string) => boolean>> = {
  list: (path) => path.includes('[]'),
  'listed item': (path) => path !== '$',
};

/** Whether `path` lies inside a field of the item at `item`, below the field itself. */
const insideField = (path: string, item: string): boolean => path.startsWith(item) && path !== item && parentPath(path) !== item;

/** The paths of those probes inside a stored item's field (see CompareOptions.freeForm): a listing's items are its first array's elements. */
const freeForm: Readonly<Record<string, (path: string) => boolean>> = {
  list: (path) => path.includes('[]') && insideField(path, path.slice(0, path.indexOf('[]') + 2)),
  'listed item': (path) => insideField(path, '$'),
};

/**
 * Two snapshots of one collection compared probe by probe: another status code is
 * breaking, and so is a body that lost its JSON; bodies with the same status are compared
 * by {@link compareShapes}, with the fields of stored items that differ between runs only
 * noted when missing. A probe the baseline had and this run did not send is unobserved.
 * Each line names the probe's request.
 */
export function compareSnapshots(before: ShapeSnapshot, now: ShapeSnapshot): ShapeChanges {
  const out = { breaking: [] as string[], safe: [] as string[], unobserved: [] as string[] };
  for (const [name, was] of Object.entries(before.probes)) {
    const is = now.probes[name];
    if (is === undefined) {
      out.unobserved.push(`${was.request} (${name}): not sent this run`);
      continue;
    }
    if (is.status !== was.status) {
      out.breaking.push(`${is.request} (${name}) answered ${was.status}, now ${is.status}`);
      continue;
    }
    if (was.body === undefined) continue;
    if (is.body === undefined) {
      out.breaking.push(`${is.request} (${name}): a JSON body then, none now`);
      continue;
    }
    const changes = compareShapes(was.body, is.body, { storedData: storedData[name], freeForm: freeForm[name] });
    for (const key of ['breaking', 'safe', 'unobserved'] as const) out[key].push(...changes[key].map((line) => `${is.request} (${name}) ${line}`));
  }
  return out;
}
