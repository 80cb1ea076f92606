/**
 * A loaded OpenAPI 3.0 or 3.1 document: one JSON tree whose `$ref`s all point inside it
 * (external files were bundled in by `load.ts`), and the one way to follow them.
 *
 * Nodes are handed around as {@link Located} values, the node with its JSON Pointer, so that
 * what is inferred from a schema can later be validated against that very schema (ajv
 * compiles `<document>#<pointer>`) and messages can say where in the document a thing is.
 */
import { isObject } from './json.js';
import { below, pointerOf, tokensOf, valueAt } from './json-pointer.js';

export type OpenApiVersion = '3.0' | '3.1';

/** A node of the document and where it lives (after its `$ref`s were followed). */
export interface Located<T = unknown> {
  readonly value: T;
  readonly pointer: string;
}

/** A JSON object as parsed. */
export type JsonObject = Record<string, unknown>;

/** How many `$ref`s in a row are followed before a chain is taken for a loop. */
const maxRefChain = 32;

/**
 * @example
 * ```ts
 * const doc = await loadOpenApi('openapi.yaml');
 * const get = doc.at('/paths/~1things/get'); // { value: { responses: … }, pointer: '/paths/~1things/get' }
 * ```
 */
export class OpenApiDocument {
  constructor(
    /** The bundled document: every `$ref` in it is a local `#/…` fragment. */
    readonly root: JsonObject,
    /** `3.0` or `3.1` (from the `openapi` field). */
    readonly version: OpenApiVersion,
    /** The file or URL it was read from, for messages and for resolving relative server URLs. */
    readonly source: string,
  ) {}

  /** The exact `openapi` field (`3.1.0`). */
  get openapi(): string {
    return String(this.root['openapi']);
  }

  /**
   * The node at `pointer`, its `$ref` chain followed; `undefined` when it is missing or the
   * chain loops.
   */
  at(pointer: string): Located | undefined {
    const tokens = tokensOf(pointer);
    if (tokens === undefined) return undefined;
    const value = valueAt(this.root, tokens);
    return value === undefined ? undefined : this.resolve({ value, pointer });
  }

  /** A located node with its `$ref` chain followed (the node itself when it is no reference). */
  resolve<T>(node: Located<T>): Located | undefined {
    let current: Located = node;
    for (let i = 0; i < maxRefChain; i++) {
      const ref = isObject(current.value) ? current.value['$ref'] : undefined;
      if (typeof ref !== 'string') return current;
      const tokens = tokensOf(ref);
      if (tokens === undefined) return undefined;
      const value = valueAt(this.root, tokens);
      if (value === undefined) return undefined;
      current = { value, pointer: pointerOf(tokens) };
    }
    return undefined;
  }

  /** The member `key` of a resolved object node, resolved in turn. */
  child(node: Located | undefined, ...keys: readonly (string | number)[]): Located | undefined {
    let current = node;
    for (const key of keys) {
      if (current === undefined) return undefined;
      const container = current.value;
      const value = Array.isArray(container) ? container[Number(key)] : isObject(container) ? container[String(key)] : undefined;
      if (value === undefined) return undefined;
      current = this.resolve({ value, pointer: below(current.pointer, key) });
    }
    return current;
  }

  /** The members of a resolved object node, each resolved, in document order. */
  entries(node: Located | undefined): [string, Located][] {
    if (node === undefined || !isObject(node.value)) return [];
    return Object.keys(node.value).flatMap((key) => {
      const located = this.child(node, key);
      return located === undefined ? [] : [[key, located] as [string, Located]];
    });
  }

  /** The items of a resolved array node, each resolved. */
  items(node: Located | undefined): Located[] {
    if (node === undefined || !Array.isArray(node.value)) return [];
    return node.value.flatMap((_, i) => this.child(node, i) ?? []);
  }
}
