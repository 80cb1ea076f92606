/**
 * Writes a {@link Draft} as YAML with its comments in place: the header first, a note above
 * the key it is about or on its line, the keys left to fill in as commented lines at the end
 * of their section. Short lists and `{ env: NAME }` secrets are written on one line.
 */
import { Document, isMap, isPair, isScalar, isSeq, type Node, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { isObject } from '../model/json.js';
import type { ConfigPath, Draft, DraftComment } from './draft.js';

/** `# text` lines of yaml's comments come from the text with a leading space per line. */
const commentText = (lines: readonly string[]): string => lines.map((l) => (l === '' ? '' : ` ${l}`)).join('\n');

const appended = (existing: string | null | undefined, lines: readonly string[]): string => (existing ? `${existing}\n${commentText(lines)}` : commentText(lines));

/** Whether a value reads best on one line: a list of scalars, or `{ env: NAME }`. */
function flowWorthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.every((v) => typeof v !== 'object' || v === null) && JSON.stringify(value).length <= 100;
  return isObject(value) && Object.keys(value).length === 1 && typeof value['env'] === 'string';
}

function setFlow(node: unknown, value: unknown): void {
  if (isMap(node) || isSeq(node)) {
    if (flowWorthy(value)) (node as YAMLMap | YAMLSeq).flow = true;
    const items = (node as YAMLMap | YAMLSeq).items as unknown[];
    items.forEach((item, i) => {
      if (isPair(item)) setFlow(item.value, isObject(value) ? value[String((item.key as { value?: unknown }).value)] : undefined);
      else setFlow(item, Array.isArray(value) ? value[i] : undefined);
    });
  }
}

/** The pair holding the last key of `at` (for a key) or the list item (for an index). */
function holder(doc: Document, at: ConfigPath): { pair?: Pair<unknown, unknown>; node?: Node } {
  if (at.length === 0) return {};
  const parent = doc.getIn(at.slice(0, -1), true);
  const last = at[at.length - 1];
  if (isMap(parent)) {
    const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === last);
    return pair === undefined ? {} : { pair, node: pair.value as Node };
  }
  if (isSeq(parent) && typeof last === 'number') return { node: parent.items[last] as Node };
  return {};
}

function place(doc: Document, c: DraftComment): void {
  if (c.kind === 'end') {
    const target = c.at.length === 0 ? doc.contents : doc.getIn(c.at, true);
    if (c.at.length === 0) doc.comment = appended(doc.comment, c.lines);
    else if (isMap(target) || isSeq(target)) target.comment = appended(target.comment, c.lines);
    return;
  }
  const { pair, node } = holder(doc, c.at);
  if (c.kind === 'before') {
    const key = pair?.key;
    const target = isScalar(key) ? key : (node as (Node & { commentBefore?: string | null }) | undefined);
    if (target !== undefined) target.commentBefore = appended(target.commentBefore, c.lines);
    return;
  }
  // Trailing: on a scalar's or a flow collection's own line.
  if (node !== undefined && (isScalar(node) || ((isMap(node) || isSeq(node)) && node.flow === true))) node.comment = appended(node.comment, c.lines);
  else if (pair !== undefined && isScalar(pair.key)) pair.key.commentBefore = appended(pair.key.commentBefore, c.lines);
}

/**
 * The draft as YAML text.
 *
 * @example
 * ```ts
 * renderDraft(draft);
 * // '# restprobe config, written by restprobe init …\n\ncollections:\n  - name: things\n    path: /things # GET, POST\n…'
 * ```
 */
export function renderDraft(draft: Draft): string {
  // Bodies may share objects (one example used twice): written out each time, never as YAML aliases.
  const doc = new Document(draft.config, { aliasDuplicateObjects: false });
  setFlow(doc.contents, draft.config);
  if (draft.header.length > 0) doc.commentBefore = commentText(draft.header);
  for (const c of draft.comments) place(doc, c);
  return doc.toString({ lineWidth: 0, flowCollectionPadding: true });
}
