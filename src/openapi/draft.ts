/**
 * A config in the making: the values inferred (valid against the config schema as they
 * stand) and the comments that go with them, each attached to a place in the config by its
 * path. `render.ts` writes it as commented YAML.
 */

/** Keys and indexes from the config's root (`['collections', 0, 'create']`). */
export type ConfigPath = readonly (string | number)[];

export interface DraftComment {
  readonly at: ConfigPath;
  /**
   * `before`: lines above the key at `at`; `trailing`: on the value's own line;
   * `end`: lines closing the map or list at `at` (commented-out keys to fill in).
   */
  readonly kind: 'before' | 'trailing' | 'end';
  readonly lines: readonly string[];
}

/**
 * The commented line of a key the document could not give a value for, from `key: why`.
 *
 * @example
 * ```ts
 * fillInLine('personalised: whether answers depend on who asks'); // 'personalised: …  # fill in: whether answers depend on who asks'
 * ```
 */
export function fillInLine(text: string): string {
  const colon = text.indexOf(': ');
  return colon === -1 ? `${text}  # fill in` : `${text.slice(0, colon)}: …  # fill in: ${text.slice(colon + 2)}`;
}

/**
 * @example
 * ```ts
 * const draft = new Draft({ collections: [{ name: 'things', path: '/things' }] });
 * draft.trailing(['collections', 0, 'path'], 'GET, POST in the document');
 * draft.end(['collections', 0], fillInLine('personalised: whether answers depend on who asks'));
 * ```
 */
export class Draft {
  readonly comments: DraftComment[] = [];
  /** The header comment, one entry a line ('' for a blank comment line). */
  readonly header: string[] = [];

  constructor(readonly config: Record<string, unknown>) {}

  before(at: ConfigPath, ...lines: readonly string[]): void {
    if (lines.length > 0) this.comments.push({ at, kind: 'before', lines });
  }

  trailing(at: ConfigPath, text: string): void {
    this.comments.push({ at, kind: 'trailing', lines: [text] });
  }

  end(at: ConfigPath, ...lines: readonly string[]): void {
    if (lines.length > 0) this.comments.push({ at, kind: 'end', lines });
  }
}
