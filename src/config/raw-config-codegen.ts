/**
 * The TypeScript type of a raw config (`RawConfig`), generated from the config schema so the
 * two cannot drift: `npm run config:generate` writes `raw-config.generated.ts`, and a test
 * fails when the committed file differs from what the schema gives.
 *
 * A generator of our own, not json-schema-to-typescript: the schema uses a small subset of
 * JSON Schema (types, properties, `required`, `items`, `enum`, `const`, `$ref` to its
 * definitions, `oneOf`), and the config's types must be `readonly` throughout and read an
 * `apiKey`'s "value or fromOAuth, not both" as a union, which that tool does not do.
 */
import { RestprobeError } from '../errors.js';

/** The part of JSON Schema the config schema uses (validation-only keywords are ignored). */
export interface SchemaNode {
  readonly description?: string;
  readonly type?: string;
  readonly $ref?: string;
  readonly properties?: Readonly<Record<string, SchemaNode | true>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | SchemaNode;
  readonly items?: SchemaNode;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly oneOf?: readonly SchemaNode[];
  readonly definitions?: Readonly<Record<string, SchemaNode>>;
}

/** The name a definition's type gets: `collection` → `RawCollection`. */
export const definitionTypeName = (name: string): string => `Raw${name[0]!.toUpperCase()}${name.slice(1)}`;

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const propertyName = (name: string): string => (identifier.test(name) ? name : JSON.stringify(name));

/** A JSDoc comment of `text` at `indent`, or nothing. */
const doc = (text: string | undefined, indent: string): string => (text === undefined ? '' : `${indent}/** ${text.replace(/\*\//g, '*\\/')} */\n`);

/** Whether `type` is a union at its top level (not only inside braces or parentheses). */
function isUnion(type: string): boolean {
  let depth = 0;
  for (const c of type) {
    if (c === '{' || c === '(') depth++;
    else if (c === '}' || c === ')') depth--;
    else if (c === '|' && depth === 0) return true;
  }
  return false;
}

/** `T[]` needs parentheses around a union. */
const arrayOf = (item: string): string => `readonly ${isUnion(item) ? `(${item})` : item}[]`;

/** Whether `node` only constrains which of its parent's properties are required (a `oneOf` branch without a type). */
const isRequirementBranch = (node: SchemaNode): boolean => node.type === undefined && node.$ref === undefined && node.required !== undefined;

function typeOf(node: SchemaNode | true, indent: string): string {
  if (node === true) return 'unknown';
  if (node.$ref !== undefined) {
    const name = /^#\/definitions\/(.+)$/.exec(node.$ref)?.[1];
    if (name === undefined) throw new RestprobeError('ERR_HARNESS', `config schema: found $ref ${node.$ref}, expected #/definitions/<name>`);
    return definitionTypeName(name);
  }
  if (node.const !== undefined) return JSON.stringify(node.const);
  if (node.enum !== undefined) return node.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (node.oneOf !== undefined) {
    if (node.oneOf.every(isRequirementBranch)) return node.oneOf.map((branch) => objectType(node, indent, branch, node.oneOf!)).join(' | ');
    return node.oneOf.map((branch) => typeOf(branch, indent)).join(' | ');
  }
  switch (node.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return arrayOf(node.items === undefined ? 'unknown' : typeOf(node.items, indent));
    case 'object':
      return objectType(node, indent);
    default:
      throw new RestprobeError('ERR_HARNESS', `config schema: found a node of type ${JSON.stringify(node.type)}, expected one the generator knows (${JSON.stringify(node).slice(0, 80)})`);
  }
}

/**
 * An object's type. With `branch` (one of `oneOf`'s requirement branches), the variant where
 * that branch's properties are required and the other branches' are absent.
 */
function objectType(node: SchemaNode, indent: string, branch?: SchemaNode, branches: readonly SchemaNode[] = []): string {
  if (node.properties === undefined) {
    const values = node.additionalProperties;
    // An open JSON body: anything the API takes.
    if (values === undefined || values === true) return 'Record<string, unknown>';
    if (values === false) return 'Record<string, never>';
    return `Readonly<Record<string, ${typeOf(values, indent)}>>`;
  }
  const mine = new Set([...(node.required ?? []), ...(branch?.required ?? [])]);
  const others = new Set(branches.filter((b) => b !== branch).flatMap((b) => b.required ?? []));
  const inner = `${indent}  `;
  const members = Object.entries(node.properties)
    .filter(([name]) => mine.has(name) || !others.has(name))
    .map(([name, child]) => `${doc(child === true ? undefined : child.description, inner)}${inner}readonly ${propertyName(name)}${mine.has(name) ? '' : '?'}: ${typeOf(child, inner)};\n`);
  return `{\n${members.join('')}${indent}}`;
}

/**
 * The TypeScript source of `RawConfig` and of one type per definition of `schema`.
 *
 * @example
 * ```ts
 * rawConfigSource(JSON.parse(readFileSync(configSchemaPath(), 'utf8')));
 * // '// Generated from … export interface RawConfig {\n  readonly baseUrl?: string; …'
 * ```
 */
export function rawConfigSource(schema: SchemaNode): string {
  const declaration = (name: string, node: SchemaNode): string => {
    const type = typeOf(node, '');
    return `${doc(node.description, '')}${type.startsWith('{') ? `export interface ${name} ${type}` : `export type ${name} = ${type};`}\n`;
  };
  return [
    '// Generated from fixtures/schema/restprobe.config.schema.json by `npm run config:generate`: do not edit.\n',
    '// raw-config.test.ts fails when this file differs from what the schema gives.\n\n',
    declaration('RawConfig', schema),
    ...Object.entries(schema.definitions ?? {}).map(([name, node]) => `\n${declaration(definitionTypeName(name), node)}`),
  ].join('');
}
