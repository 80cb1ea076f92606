/**
 * Reads a config file as JSON or YAML. Any failure is `ERR_CONFIG_UNREADABLE`, naming the
 * file and, for syntax errors, the line and column.
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { RestprobeError } from '../errors.js';

type Syntax = 'json' | 'yaml';

/** A parse failure with a 1-based position when the parser gave one. */
interface ParseFailure {
  readonly reason: string;
  readonly line?: number;
  readonly column?: number;
}

type Parsed = { ok: true; value: unknown } | { ok: false; failure: ParseFailure };

/** 1-based line and column of a character offset. */
function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/**
 * The first key an object of valid JSON `text` names twice, where it is named the second
 * time, and the path to that object. JSON.parse keeps the last silently, so a config's
 * second `auth` would quietly replace the first (YAML's parser refuses duplicates itself).
 */
function duplicateKey(text: string): { key: string; path: string; offset: number } | undefined {
  // One frame per open object or array: an object's keys so far and the key being read; an array's index.
  const frames: { keys?: Set<string>; key?: string; index: number; expectKey: boolean }[] = [];
  const pathTo = (): string =>
    frames
      .slice(0, -1)
      .map((f) => (f.keys ? `.${f.key}` : `[${f.index}]`))
      .join('')
      .replace(/^\./, '');
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const top = frames.at(-1);
    if (c === '{') frames.push({ keys: new Set(), index: 0, expectKey: true });
    else if (c === '[') frames.push({ index: 0, expectKey: false });
    else if (c === '}' || c === ']') frames.pop();
    else if (c === ',' && top) {
      if (top.keys) top.expectKey = true;
      else top.index++;
    } else if (c === '"') {
      const start = i;
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (top?.keys && top.expectKey) {
        const key = JSON.parse(text.slice(start, i + 1)) as string;
        if (top.keys.has(key)) return { key, path: pathTo(), offset: start };
        top.keys.add(key);
        top.key = key;
        top.expectKey = false;
      }
    }
  }
  return undefined;
}

function parseJson(text: string): Parsed {
  try {
    const value: unknown = JSON.parse(text);
    const twice = duplicateKey(text);
    if (twice === undefined) return { ok: true, value };
    const where = twice.path === '' ? '' : ` in ${twice.path}`;
    return { ok: false, failure: { reason: `"${twice.key}" is named twice${where} (JSON keeps only the last): keep one`, ...position(text, twice.offset) } };
  } catch (err) {
    const message = (err as Error).message;
    // Node 20 says "… in JSON at position 42"; newer versions add "(line 3 column 5)".
    const at = /\s*in JSON at position (\d+)(?: \(line \d+ column \d+\))?/.exec(message);
    const reason = message.replace(at?.[0] ?? '', '').trim();
    if (!at?.[1]) return { ok: false, failure: { reason } };
    return { ok: false, failure: { reason, ...position(text, Number(at[1])) } };
  }
}

/** The YAML parser, loaded only for a config that may be YAML (most are JSON: a start-up saved). */
async function parseYaml(text: string): Promise<Parsed> {
  const { parseDocument } = await import('yaml');
  const doc = parseDocument(text, { prettyErrors: true });
  const first = doc.errors[0];
  if (!first) return { ok: true, value: doc.toJS() };
  const [start] = first.linePos ?? [];
  // The message repeats the position and adds a source excerpt; keep the first sentence.
  const reason = (first.message.split('\n')[0] ?? first.message).replace(/ at line \d+, column \d+:?$/, '');
  return { ok: false, failure: { reason, line: start?.line, column: start?.col } };
}

/** The syntax a file's name promises, if any. */
function syntaxOf(file: string): Syntax | undefined {
  const ext = extname(file).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  return undefined;
}

async function parse(text: string, syntax: Syntax | undefined): Promise<Parsed> {
  if (syntax === 'json') return parseJson(text);
  if (syntax === 'yaml') return parseYaml(text);
  // Unknown extension: JSON first, then YAML; report the error of the syntax it looks like.
  const json = parseJson(text);
  if (json.ok) return json;
  const yaml = await parseYaml(text);
  return yaml.ok || !/^\s*[[{]/.test(text) ? yaml : json;
}

/** Why a file could not be read, in words, from a Node fs error. */
function readFailure(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory, not a file';
    default:
      return code ?? (err as Error).message;
  }
}

/**
 * The parsed content of a config file (JSON or YAML by extension; otherwise JSON, then
 * YAML). An empty file reads as `{}`.
 *
 * @example
 * ```ts
 * await readConfigFile('restprobe.config.yaml'); // { baseUrl: 'https://…', … }
 * await readConfigFile('broken.json');
 * // throws ERR_CONFIG_UNREADABLE: cannot parse broken.json (line 3, column 5): Expected ',' or '}' after property value
 * ```
 */
export async function readConfigFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new RestprobeError('ERR_CONFIG_UNREADABLE', `cannot read config file ${file}: ${readFailure(cause)}`, [], { cause });
  }
  // A byte-order mark is invisible in editors but breaks JSON.parse.
  text = text.replace(/^\uFEFF/, '');
  if (text.trim() === '') return {};

  const parsed = await parse(text, syntaxOf(file));
  if (parsed.ok) return parsed.value;
  const { reason, line, column } = parsed.failure;
  const where = line !== undefined ? ` (line ${line}, column ${column ?? 1})` : '';
  throw new RestprobeError('ERR_CONFIG_UNREADABLE', `cannot parse config file ${file}${where}: ${reason}`, [
    `${file}${line !== undefined ? `:${line}:${column ?? 1}` : ''}: ${reason}`,
  ]);
}
