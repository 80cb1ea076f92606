/**
 * JSON Pointers (RFC 6901): where a node of an OpenAPI document lives, so a later step (a
 * validator, a message) can name it exactly, and where a page's items and next cursor are
 * (`collections[].pagination.envelope`).
 */

/** `~` and `/` escaped as RFC 6901 §3 says. */
const escape = (token: string | number): string => String(token).replace(/~/g, '~0').replace(/\//g, '~1');

const unescape = (token: string): string => token.replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * The pointer of a path of tokens.
 *
 * @example
 * ```ts
 * pointerOf(['paths', '/things', 'get']); // '/paths/~1things/get'
 * ```
 */
export function pointerOf(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => `/${escape(t)}`).join('');
}

/** The pointer of `tokens` below `base`. */
export function below(base: string, ...tokens: readonly (string | number)[]): string {
  return base + pointerOf(tokens);
}

/**
 * The tokens of a pointer, or of a `$ref`'s fragment (`#/components/…`, percent-decoded).
 * `undefined` for a reference that is not a local fragment.
 *
 * @example
 * ```ts
 * tokensOf('#/components/schemas/Thing'); // ['components', 'schemas', 'Thing']
 * ```
 */
export function tokensOf(reference: string): string[] | undefined {
  let pointer = reference;
  if (pointer.startsWith('#')) {
    try {
      pointer = decodeURIComponent(pointer.slice(1));
    } catch {
      return undefined;
    }
  }
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer.slice(1).split('/').map(unescape);
}

/** The value at `tokens` below `root`, or `undefined` when a step is missing. */
export function valueAt(root: unknown, tokens: readonly string[]): unknown {
  let node: unknown = root;
  for (const token of tokens) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (typeof node === 'object' && node !== null && Object.hasOwn(node, token)) {
      node = (node as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return node;
}

/**
 * The value `pointer` names in `root`; `undefined` when a step is missing or the pointer is
 * malformed. `""` is the whole document.
 *
 * @example
 * ```ts
 * resolvePointer({ results: [{ id: 1 }], next: null }, '/results'); // [{ id: 1 }]
 * resolvePointer({ 'a/b': 1 }, '/a~1b');                             // 1
 * ```
 */
export function resolvePointer(root: unknown, pointer: string): unknown {
  const tokens = pointer.startsWith('#') ? undefined : tokensOf(pointer);
  return tokens === undefined ? undefined : valueAt(root, tokens);
}
