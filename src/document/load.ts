/**
 * Reads an OpenAPI 3.0 or 3.1 document from a file or an http(s) URL, JSON or YAML, with
 * every `$ref` to another file or URL bundled in, so that the rest of restprobe sees one
 * tree whose references are all local (`#/…`).
 *
 * Multi-file resolution is @apidevtools/json-schema-ref-parser's: relative references from
 * nested files, YAML and JSON, circular schemas kept as references. A JSON document whose
 * references all point into itself (what frameworks generate) needs none, and is read as it
 * is. Anything that goes wrong is one `ERR_OPENAPI_INVALID` line naming the document:
 * unreadable, not parsable, not OpenAPI 3.x, or a `$ref` that points nowhere.
 */
import { access, readFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { RestprobeError } from '../errors.js';
import { isObject } from '../model/json.js';
import { tokensOf, valueAt } from '../model/json-pointer.js';
import { OpenApiDocument, type OpenApiVersion } from '../model/openapi-document.js';

/** How long one file of the document may take to download. */
const downloadTimeoutMs = 30_000;

const isUrl = (source: string): boolean => /^https?:\/\//i.test(source);

const invalid = (source: string, problem: string, cause?: unknown): RestprobeError =>
  new RestprobeError('ERR_OPENAPI_INVALID', `OpenAPI document ${source}: ${problem}`, [], cause === undefined ? {} : { cause });

/** The first line of a parser's message, without the location it repeats. */
function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).trim();
}

/** Why the resolver failed, in one line: what it found, then what was expected. */
function resolverProblem(err: unknown): string {
  const e = err as { name?: string; message?: string; code?: string; targetRef?: string; source?: string };
  const message = firstLine(e.message ?? String(err));
  if (e.name === 'MissingPointerError' || e.code === 'EMISSINGPOINTER') {
    // The reference as written, and the file it points into (another file's, for a multi-file document).
    const where = /"([^"]*)"/.exec(message)?.[1] ?? e.targetRef ?? message;
    return `a $ref points nowhere: ${e.source ?? 'the document'} has no ${where} (every $ref must name a part of a document)`;
  }
  if (e.name === 'InvalidPointerError') return `${message} (a $ref's fragment must be a JSON Pointer such as #/components/schemas/Thing)`;
  if (e.name === 'ParserError') return `cannot be parsed: ${message.replace(/^Error parsing \S+: /, '')}`;
  if (e.name === 'ResolverError') return `cannot be read: ${message}`;
  return message;
}

/**
 * The document, when it is JSON and every `$ref` in it is a fragment of the document itself
 * that resolves: the resolver would return the same tree (with each reference written as the
 * same place, or one it leads to), after walking every node (0.1 s of CPU for the reference
 * server's document, and its library loaded). Anything else is left to the resolver, and its
 * messages: YAML, a reference to another file, one that points nowhere, a schema with an `$id`
 * (a 3.1 schema resolves `#…` against its own `$id`), text that does not parse, a file that
 * cannot be read.
 */
async function selfContained(location: string, source: string, download?: (url: string) => Promise<string>): Promise<unknown> {
  let text: string;
  try {
    if (!isUrl(source)) text = await readFile(location, 'utf8');
    else if (download !== undefined) text = await download(location);
    else return undefined;
  } catch {
    return undefined;
  }
  if (!text.trimStart().startsWith('{')) return undefined;
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return undefined;
  }
  const resolves = (node: unknown): boolean => {
    if (Array.isArray(node)) return node.every(resolves);
    if (!isObject(node)) return true;
    if (typeof node['$id'] === 'string') return false;
    const ref = node['$ref'];
    if (typeof ref === 'string') {
      const tokens = ref.startsWith('#') ? tokensOf(ref) : undefined;
      if (tokens === undefined || valueAt(root, tokens) === undefined) return false;
    }
    return Object.values(node).every(resolves);
  };
  return resolves(root) ? root : undefined;
}

/**
 * An http(s) file's text, where no run's client is given (`restprobe init`): the resolver's own
 * download keeps a 30 s timer alive after a failure, which held the process that long.
 */
async function fetchText(url: string, redirects = 5): Promise<string> {
  const { request } = await import('undici');
  let res: Awaited<ReturnType<typeof request>>;
  try {
    res = await request(url, { method: 'GET', signal: AbortSignal.timeout(downloadTimeoutMs) });
  } catch (err) {
    const code = (err as { code?: string }).code ?? (err as Error).name;
    throw new Error(`GET ${url}: cannot connect (${code})`, { cause: err });
  }
  const location = res.headers['location'];
  if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string' && redirects > 0) {
    await res.body.dump();
    return fetchText(new URL(location, url).href, redirects - 1);
  }
  if (res.statusCode < 200 || res.statusCode > 299) {
    await res.body.dump();
    throw new Error(`GET ${url} answered ${res.statusCode}`);
  }
  return res.body.text();
}

/** `download`, each URL fetched once (a failure too): the fast path and the resolver share its answers. */
function once(download: (url: string) => Promise<string>): (url: string) => Promise<string> {
  const fetched = new Map<string, Promise<string>>();
  return (url) => {
    let text = fetched.get(url);
    if (text === undefined) fetched.set(url, (text = download(url)));
    return text;
  };
}

/** `3.0` or `3.1` from the root's `openapi` field, or the reason the root is no OpenAPI 3.x document. */
function versionOf(root: unknown): OpenApiVersion | { problem: string } {
  if (!isObject(root)) return { problem: `holds ${Array.isArray(root) ? 'an array' : typeof root}, expected an OpenAPI object` };
  const openapi = root['openapi'];
  if (typeof openapi !== 'string') {
    const swagger = root['swagger'];
    if (swagger !== undefined) return { problem: `is Swagger ${String(swagger)}, expected OpenAPI 3.0 or 3.1 (convert it first, e.g. with swagger2openapi)` };
    return { problem: 'has no "openapi" field, expected an OpenAPI 3.0 or 3.1 document' };
  }
  const m = /^3\.([01])\.\d+/.exec(openapi);
  if (m === null) return { problem: `says openapi: ${openapi}, expected 3.0.x or 3.1.x` };
  if (root['paths'] !== undefined && !isObject(root['paths'])) return { problem: '"paths" is not an object' };
  return m[1] === '0' ? '3.0' : '3.1';
}

/**
 * The document at `source` (a file path or an http(s) URL), bundled; `download`, when given,
 * reads each http(s) file of it (else the resolver's own HTTP client does).
 *
 * @throws RestprobeError `ERR_OPENAPI_INVALID` when it cannot be read or parsed, is not
 *   OpenAPI 3.0 or 3.1, or holds a `$ref` that does not resolve.
 *
 * @example
 * ```ts
 * const doc = await loadOpenApi('api/openapi.yaml');   // $refs to api/schemas/*.yaml bundled in
 * doc.version; // '3.1'
 * await loadOpenApi('swagger.json');
 * // throws: OpenAPI document swagger.json: is Swagger 2.0, expected OpenAPI 3.0 or 3.1 (…)
 * ```
 */
export async function loadOpenApi(source: string, download?: (url: string) => Promise<string>): Promise<OpenApiDocument> {
  const location = isUrl(source) ? source : resolvePath(source);
  if (!isUrl(source)) {
    try {
      await access(location);
    } catch (err) {
      throw invalid(source, `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`, err);
    }
  }
  // Each file read once: the resolver reads the root again only when it is not self-contained.
  // The last download that failed, whose reason the resolver's error leaves out.
  let failed: Error | undefined;
  const read = once(async (url) => {
    try {
      return await (download ?? fetchText)(url);
    } catch (err) {
      failed = err instanceof Error ? err : new Error(String(err));
      throw err;
    }
  });
  let root = await selfContained(location, source, read);
  if (root === undefined) {
    try {
      const { default: $RefParser } = await import('@apidevtools/json-schema-ref-parser');
      // The user names the URL (often a staging host on a private network): no SSRF guard here.
      // `download` (a run's own client: its CA, proxy, timeout and body cap) reads http(s) files when given.
      const http = { safeUrlResolver: false, timeout: downloadTimeoutMs, read: (file: { url: string }) => read(file.url) };
      // A document fetched from a URL may not pull files of this machine into the bundle.
      root = await $RefParser.bundle(location, { resolve: { http, ...(isUrl(source) && { file: false }) } });
    } catch (err) {
      const reason = (err as { name?: string }).name === 'ResolverError' && failed !== undefined ? `cannot be read: ${failed.message}` : resolverProblem(err);
      throw invalid(source, reason, err);
    }
  }
  const version = versionOf(root);
  if (typeof version !== 'string') throw invalid(source, version.problem);
  return new OpenApiDocument(root as Record<string, unknown>, version, source);
}
