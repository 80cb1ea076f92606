/**
 * A whole restprobe config drafted from an OpenAPI document: where the API lives, its
 * credentials (as environment variable names), its version scheme, its collections, and a
 * header saying how far to trust it. Only keys the config schema has are written; what the
 * document says beyond them is a comment, what it leaves unsaid a commented line to fill in.
 */
import type { RawCollection } from '../config/raw-config.js';
import { isObject } from '../model/json.js';
import { inferAuth, type AuthInference } from './auth.js';
import { BodyInference } from './bodies.js';
import { collectionConfig, type ProbeTarget } from './collection-config.js';
import { collectionShapes } from './collections.js';
import type { OpenApiDocument } from '../model/openapi-document.js';
import { Draft, fillInLine } from './draft.js';
import { SchemaValidator } from '../document/json-schema.js';
import { pathItems, successResponse, type Operation, type PathItem } from '../document/operations.js';
import { targetOf } from '../document/servers.js';
import { inferSubscription } from './subscription.js';
import { inferVersion } from './version.js';

export interface InferOptions {
  /** Put before every environment variable name the config gives (`RESTPROBE_`). Default none. */
  readonly envPrefix?: string;
  /** The base URL to write (`--probe`'s, the one the team confirmed); else a comment names the document's servers. */
  readonly baseUrl?: string;
  /** The `$schema` value (the bundled config schema, relative to where the file goes). */
  readonly schemaRef?: string;
  /** The name the config will be saved under, for the header's `restprobe run` line. */
  readonly fileName?: string;
  /** restprobe's version, for the header. */
  readonly toolVersion?: string;
  /** The document as the config names it (`openapi`: a URL, or a path from the config's folder): a run holds every answer to it. */
  readonly openapi?: string;
}

export interface Inference {
  readonly draft: Draft;
  /** The collections as configured, for `--probe`. */
  readonly probes: readonly ProbeTarget[];
  /** The credential restprobe would send, for `--probe`. */
  readonly credential?: { readonly header: string; readonly env: string };
  /** The base URL the document's first server gives, if it is absolute. */
  readonly documentBaseUrl?: string;
}

/** Operations whose success declares `Cache-Control` with `no-store`: their answers hold a secret. */
function secretAnswers(items: readonly PathItem[], prefix: string): string[] {
  return items.flatMap((i) => i.operations).filter((op) => {
    const ok = successResponse(op);
    return ok?.headers.some(([name, h]) => name.toLowerCase() === 'cache-control' && /no-store/.test(JSON.stringify(h.value))) === true;
  }).map((op) => `${op.method} ${prefix}${op.path}`);
}

function header(doc: OpenApiDocument, options: InferOptions, auth: AuthInference): string[] {
  const info = isObject(doc.root['info']) ? doc.root['info'] : {};
  const title = typeof info['title'] === 'string' ? `"${info['title']}"${typeof info['version'] === 'string' ? ` ${info['version']}` : ''}` : 'an API';
  const file = options.fileName ?? 'restprobe.config.yaml';
  const lines = [
    `restprobe config for ${title}, written by restprobe init${options.toolVersion === undefined ? '' : ` ${options.toolVersion}`} from ${doc.source} (OpenAPI ${doc.openapi}).`,
    '',
    'It was inferred from the document, not from the API, and generated documents are often wrong:',
    'Django REST framework types integer ids as strings, frameworks leave out the media types and',
    'error answers they really give, examples go stale. Check each value against what the API does',
    '(`restprobe init --openapi … --probe <staging URL>` GETs each collection), then edit this file:',
    'it is yours, and restprobe never rewrites it. A line ending "# fill in: …" names what the',
    'document could not say: uncomment it and give the value.',
  ];
  if (auth.variables.length > 0) {
    const width = Math.max(...auth.variables.map((v) => v.name.length));
    lines.push('', 'Secrets are never written here: export them before a run (unset ones skip the checks that need them).');
    for (const v of auth.variables) lines.push(`  export ${`${v.name}=…`.padEnd(width + 2)}   # ${v.holds}`);
  }
  lines.push('', `Then: restprobe run ${options.baseUrl ?? '<base URL>'} -c ${file}`);
  return lines;
}

/**
 * The draft config for a document.
 *
 * @example
 * ```ts
 * const { draft } = inferConfig(await loadOpenApi('openapi.yaml'), { envPrefix: 'ACME_' });
 * renderDraft(draft); // the commented YAML `restprobe init` writes
 * ```
 */
export function inferConfig(doc: OpenApiDocument, options: InferOptions = {}): Inference {
  const config: Record<string, unknown> = {};
  const draft = new Draft(config);
  const items = pathItems(doc);
  const target = targetOf(doc);
  const bodies = new BodyInference(doc, new SchemaValidator(doc, 'request'));
  const shapes = collectionShapes(doc, items);
  const subscription = inferSubscription(doc, items.flatMap((i) => i.operations), bodies, target.prefix);

  const collections: RawCollection[] = [];
  const probes: ProbeTarget[] = [];
  const operations: Operation[] = [];
  for (const shape of shapes.collections) {
    if (shape.create !== undefined && shape.create === subscription?.operation) continue;
    const made = collectionConfig({ doc, bodies, prefix: target.prefix, draft }, shape, ['collections', collections.length]);
    collections.push(made.config);
    probes.push(made.probe);
    operations.push(...made.operations);
  }
  const baseUrl = options.baseUrl ?? target.baseUrl;
  const auth = inferAuth(doc, operations, baseUrl, options.envPrefix ?? '');
  const version = inferVersion(doc, target, collections.map((c) => c.path), shapes.collections.map((s) => s.list));

  if (options.schemaRef !== undefined) config['$schema'] = options.schemaRef;
  if (options.baseUrl !== undefined) config['baseUrl'] = options.baseUrl;
  if (options.openapi !== undefined) config['openapi'] = options.openapi;
  if (auth.auth !== undefined) config['auth'] = auth.auth;
  if (version.version !== undefined) config['version'] = version.version;
  if (collections.length > 0) config['collections'] = collections;
  if (subscription?.webhooks !== undefined) config['webhooks'] = subscription.webhooks;

  draft.header.push(...header(doc, options, auth));
  const first = Object.keys(config)[0];
  const servers = target.servers.map((s) => `${s.absolute ?? s.url}${s.description === undefined ? '' : ` (${s.description})`}`);
  const where = options.baseUrl !== undefined ? [] : [`baseUrl: ${target.baseUrl ?? '…'}  # the document's servers: ${servers.join(', ')}; give a staging deployment's URL here or on the command line (restprobe writes to what it probes)`];
  if (first !== undefined) draft.before([first], ...where);
  if (options.openapi !== undefined) draft.trailing(['openapi'], 'every answer of a run is held to it (the DOC checks)');
  if (config['auth'] !== undefined) {
    draft.before(['auth'], ...auth.notes);
    draft.end(['auth'], ...auth.fillIns.map((f) => fillInLine(f.replace(/^auth\./, ''))));
  } else draft.end([], ...auth.notes, ...auth.fillIns.map(fillInLine));
  if (config['version'] !== undefined) {
    draft.before(['version'], ...version.notes);
    draft.end(['version'], ...version.fillIns.map((f) => fillInLine(f.replace(/^version\./, ''))));
  } else draft.end([], ...version.notes, ...version.fillIns.map(fillInLine));

  if (collections.length === 0) draft.end([], 'collections: …  # fill in: the document shows no collection (a path whose GET lists items)');
  draft.end(collections.length > 0 ? ['collections'] : [], ...shapes.skipped.map((s) => `${target.prefix}${s.path}: not configured, ${s.why}`));
  const secrets = secretAnswers(items, target.prefix);
  if (secrets.length > 0) draft.end([], fillInLine(`secretEndpoints: requests whose answers hold a secret no cache may store ([{ method, path, body }]); the document marks ${secrets.join(', ')} no-store`));
  if (items.some((i) => i.operations.some((o) => o.responses.some((r) => r.status === '429')))) draft.end([], fillInLine('rateLimit: the limit the API enforces ({ limit: …, window: 1m, credential: { env: … } }): the document answers 429'));
  if (config['webhooks'] !== undefined) {
    draft.before(['webhooks'], ...(subscription?.notes ?? []));
    draft.end(['webhooks'], ...(subscription?.fillIns ?? []).map(fillInLine));
  } else if (subscription !== undefined) draft.end([], ...subscription.fillIns.map(fillInLine));
  else if (isObject(doc.root['webhooks']) || items.some((i) => i.operations.some((o) => o.callbacks.length > 0))) draft.end([], fillInLine('webhooks: how restprobe subscribes ({ subscribe: { path, body } }): the document describes webhooks, but no operation whose body names the URL to call'));
  const key = auth.auth?.apiKey;
  return {
    draft,
    probes,
    ...(key !== undefined && 'value' in key && { credential: { header: key.header ?? 'X-API-Key', env: key.value.env } }),
    ...(target.baseUrl !== undefined && { documentBaseUrl: target.baseUrl }),
  };
}
