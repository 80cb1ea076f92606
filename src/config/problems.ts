/**
 * Turns ajv's errors into one line per problem: the path in dotted form, then what was
 * expected, then what was found — `collections[0].path: must start with "/" (found "v2")`.
 *
 * The schema may word a keyword's failure itself with `x-messages: { <keyword>: text }`,
 * and marks secrets with `x-secret: true` so their values are never echoed.
 */
import type { ErrorObject } from 'ajv';
import { closestName } from './suggest.js';

/** How the config's top level is named in a problem line. */
const rootName = '(top level)';

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A JSON Pointer as a dotted path, with array indexes in brackets.
 *
 * @example
 * ```ts
 * dottedPath('/collections/0/path'); // 'collections[0].path'
 * dottedPath('');                    // '(top level)'
 * ```
 */
export function dottedPath(pointer: string): string {
  if (pointer === '') return rootName;
  let out = '';
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^(0|[1-9][0-9]*)$/.test(token)) out += `[${token}]`;
    else if (identifier.test(token)) out += out === '' ? token : `.${token}`;
    else out += `[${JSON.stringify(token)}]`;
  }
  return out;
}

/** A short description of a JSON value: `number 42`, `string "v2"`, `an object`. */
function describeValue(value: unknown, secret: boolean): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string': {
      // A literal where a secret belongs is most likely the secret itself: never repeat it.
      if (secret) return 'a string';
      const shown = value.length > 60 ? `${value.slice(0, 57)}…` : value;
      return `string ${JSON.stringify(shown)}`;
    }
    case 'number':
    case 'boolean':
      return `${typeof value} ${String(value)}`;
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

const article = (type: string): string => (type === 'object' || type === 'array' || type === 'integer' ? 'an' : 'a');

const quoteList = (values: readonly unknown[]): string => values.map((v) => JSON.stringify(v)).join(', ');

/** What ajv's keyword expected, in words; `undefined` for keywords that need no "found". */
function expectation(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type': {
      const types = String(p['type']).split(',');
      return `must be ${types.map((t) => `${article(t)} ${t}`).join(' or ')}`;
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${String(p['comparison'])} ${String(p['limit'])}`;
    case 'minLength':
      return p['limit'] === 1 ? 'must not be empty' : `must be at least ${String(p['limit'])} characters long`;
    case 'maxLength':
      return `must be at most ${String(p['limit'])} characters long`;
    case 'pattern':
      return `must match ${String(p['pattern'])}`;
    case 'format':
      return `must be a valid ${String(p['format'])}`;
    case 'enum':
      return `must be one of ${quoteList((p['allowedValues'] as unknown[] | undefined) ?? [])}`;
    case 'const':
      return `must be ${JSON.stringify(p['allowedValue'])}`;
    default:
      return error.message ?? `must satisfy "${error.keyword}"`;
  }
}

/** One problem line for one ajv error (needs the validator's `verbose` option). */
function problemLine(error: ErrorObject): string {
  const path = dottedPath(error.instancePath);
  const schema = (error.parentSchema ?? {}) as Record<string, unknown>;
  const p = error.params as Record<string, unknown>;

  if (error.keyword === 'required') return `${path}: missing required property "${String(p['missingProperty'])}"`;
  if (error.keyword === 'additionalProperties') {
    const name = String(p['additionalProperty']);
    const known = Object.keys((schema['properties'] as Record<string, unknown> | undefined) ?? {});
    const guess = closestName(name, known);
    const hint = guess ? ` (did you mean "${guess}"?)` : known.length > 0 ? ` (expected one of ${quoteList(known)})` : '';
    return `${path}: unknown property "${name}"${hint}`;
  }

  if (error.keyword === 'uniqueItems') {
    const [i, j] = [Number(p['j']), Number(p['i'])].sort((x, y) => x - y);
    const item = (error.data as unknown[])[i ?? 0];
    return `${path}: must not repeat items (found ${describeValue(item, false)} at [${i}] and [${j}])`;
  }

  const worded = (schema['x-messages'] as Record<string, string> | undefined)?.[error.keyword];
  const found = describeValue(error.data, schema['x-secret'] === true);
  return `${path}: ${worded ?? expectation(error)} (found ${found})`;
}

/**
 * One line per problem, in the order ajv found them, without repeats.
 *
 * @example
 * ```ts
 * if (!validate(data)) problemsFromAjv(validate.errors ?? []);
 * // ['baseUrl: must be a string (found number 42)',
 * //  'collections[0]: unknown property "pth" (did you mean "path"?)']
 * ```
 */
export function problemsFromAjv(errors: readonly ErrorObject[]): string[] {
  // A bad property name gets two errors: the name's own, then a bare "property name must be valid".
  return [...new Set(errors.filter((e) => e.keyword !== 'propertyNames').map(problemLine))];
}
