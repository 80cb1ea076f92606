/**
 * Answers held to the API's OpenAPI document: each answer the run received is matched to
 * the operation it answered (its server, path template and method), and judged against the
 * response the document describes for its status (the code, its `4XX` range, or `default`).
 *
 * What is judged, one rule per check of the DOC section: the status is documented; a body's
 * media type is one the document lists for it; a JSON body validates against its schema
 * (response direction: `writeOnly` properties are not required); the headers the document
 * marks `required` are present and valid. Answers to paths or methods the document does not
 * describe (a probe of an unknown path, a 405 probe, another version) are not judged: the
 * document makes no promise about them. Findings are one per operation and problem, with
 * how many answers showed it and the first of them as evidence.
 */
import type { CheckContext, ReceivedExchange } from '../model/context.js';
import type { OpenApiDocument } from '../model/openapi-document.js';
import type { TargetProfile } from '../model/profile.js';
import { CheckFailure, CheckSkipped, ShouldFailure } from '../model/check.js';
import { isObject } from '../model/json.js';
import { pathItems, type Operation, type Response } from '../document/operations.js';
import { serverPath, serversOf } from '../document/servers.js';
import { validatorOf, type SchemaValidator } from '../document/json-schema.js';
import { flatten, type FlatSchema } from '../document/schema.js';
import type { Located } from '../model/openapi-document.js';

/** An answer matched to the operation it answered. */
export interface DocumentedAnswer {
  readonly exchange: ReceivedExchange;
  readonly operation: Operation;
  /** The response the document describes for the answer's status, when it describes one. */
  readonly response: Response | undefined;
  /** `HEAD` answered under the document's `GET`: judged without a body. */
  readonly bodiless: boolean;
  /** A `HEAD` the document does not list, judged under its `GET`. */
  readonly headOfGet?: boolean;
}

/** A problem that breaks what the document SHOULD say, not what it MUST: a warn. */
export interface ShouldProblem {
  readonly should: string;
}

/** What a rule makes of one answer: a problem (short, the same for the same fault), or nothing. */
export type AnswerRule = (answer: DocumentedAnswer, judge: DocumentJudge) => string | ShouldProblem | undefined;

interface Template {
  readonly path: string;
  readonly operations: readonly Operation[];
  readonly pattern: RegExp;
  /** How many segments are parameters: a concrete path wins over a templated one (OpenAPI 3.x §4.8.8). */
  readonly params: number;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function templateOf(path: string, operations: readonly Operation[]): Template {
  const parts = path.split(/(\{[^}]+\})/);
  const source = parts.map((p) => (/^\{[^}]+\}$/.test(p) ? '[^/]+' : escape(p))).join('');
  return { path, operations, pattern: new RegExp(`^${source}$`), params: parts.filter((p) => /^\{[^}]+\}$/.test(p)).length };
}

/** The media type's essence: lower case, without parameters. */
export const essenceOf = (contentType: string): string => (contentType.split(';')[0] ?? '').trim().toLowerCase();

/** Whether a documented media range (`application/json`, `application/*`, `*\/*`) covers `essence`. */
function covers(range: string, essence: string): boolean {
  const r = essenceOf(range);
  if (r === '*/*' || r === essence) return true;
  return r.endsWith('/*') && essence.startsWith(r.slice(0, -1));
}

const isJson = (essence: string): boolean => essence === 'application/json' || /^[a-z]+\/[^/]+\+json$/.test(essence);

/**
 * The documented media type an answer's body is judged by: the one that covers its type, or
 * for an error in problem+json a documented plain `application/json`, as generators document
 * ProblemDetails (ASP.NET's ApiExplorer, so Swashbuckle and NSwag; FastAPI's 422). A success
 * in another type than the one documented is not covered: clients are generated from it.
 */
function documentedMedia(response: Response, essence: string, status: number): { readonly media: Response['content'][number]; readonly asJson: boolean } | undefined {
  const media = response.content.find((m) => covers(m.type, essence));
  if (media !== undefined) return { media, asJson: false };
  const json = essence === 'application/problem+json' && status >= 400 ? response.content.find((m) => essenceOf(m.type) === 'application/json') : undefined;
  return json === undefined ? undefined : { media: json, asJson: true };
}

/** A header's first value, as undici gives it. */
function headerOf(exchange: ReceivedExchange, name: string): string | undefined {
  const value = exchange.response.rawHeaders[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The document, ready to judge answers: its operations by path template, the paths its
 * servers put before them on the wire, and a response-direction validator.
 *
 * @example
 * ```ts
 * const judge = new DocumentJudge(openapi, ctx.profile);
 * const answers = judge.answers(ctx.received()); // those the document describes
 * ```
 */
export class DocumentJudge {
  private readonly templates: Template[];
  private readonly prefixes: string[];
  private readonly origins: Set<string>;

  constructor(
    readonly doc: OpenApiDocument,
    private readonly profile: TargetProfile,
  ) {
    this.templates = pathItems(doc)
      .filter((p) => p.operations.length > 0)
      .map((p) => templateOf(p.path, p.operations))
      .sort((a, b) => a.params - b.params);
    const base = new URL(profile.baseUrl);
    const basePath = base.pathname.replace(/\/+$/, '');
    const servers = serversOf(doc);
    const serverPaths = servers.map(serverPath);
    // A server's path as written, and below the base URL's path (a relative server of a document read from a file).
    this.prefixes = [...new Set(serverPaths.flatMap((p) => [p, `${basePath}${p}`]))].sort((a, b) => b.length - a.length);
    this.origins = new Set([base.origin, ...profile.nodes.map((n) => new URL(n).origin), ...servers.flatMap((s) => (s.absolute !== undefined ? [new URL(s.absolute).origin] : []))]);
  }

  /** The operation an answer answered, when the document describes it. */
  operationOf(method: string, url: string): { operation: Operation; bodiless: boolean; headOfGet?: boolean } | undefined {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    if (!this.origins.has(parsed.origin)) return undefined;
    const upper = method.toUpperCase();
    for (const prefix of this.prefixes) {
      if (!parsed.pathname.startsWith(prefix)) continue;
      const rest = parsed.pathname.slice(prefix.length) || '/';
      if (!rest.startsWith('/')) continue;
      const template = this.templates.find((t) => t.pattern.test(rest));
      if (template === undefined) continue;
      const own = template.operations.find((o) => o.method === upper);
      if (own !== undefined) return { operation: own, bodiless: upper === 'HEAD' };
      // A HEAD the document does not list answers as its GET would, without the body (RFC 9110 §9.3.2).
      const get = upper === 'HEAD' ? template.operations.find((o) => o.method === 'GET') : undefined;
      return get === undefined ? undefined : { operation: get, bodiless: true, headOfGet: true };
    }
    return undefined;
  }

  /**
   * The version a request asked for in a header or the query, when it is not the current one
   * (a VER check's probe of a deprecated or removed version): the document describes the
   * current version only. Under the URL scheme another version has another path, which the
   * servers' paths tell apart.
   */
  private otherVersion(exchange: ReceivedExchange): string | undefined {
    const v = this.profile.version;
    if (v === undefined || v.scheme === 'url') return undefined;
    let asked: string | undefined;
    if (v.scheme === 'query') asked = new URL(exchange.url).searchParams.get(v.queryParam) ?? undefined;
    else {
      const name = v.header.toLowerCase();
      const value = Object.entries(exchange.requestHeaders).find(([k]) => k.toLowerCase() === name)?.[1];
      asked = name === 'accept' ? /;\s*version=([^;,\s]+)/i.exec(value ?? '')?.[1] : value;
    }
    return asked !== undefined && asked.replace(/^v/i, '') !== v.current ? asked : undefined;
  }

  /** The received answers the document describes, each with its operation and documented response. */
  answers(received: readonly ReceivedExchange[]): DocumentedAnswer[] {
    return received.flatMap((exchange) => {
      if (this.otherVersion(exchange) !== undefined) return [];
      const found = this.operationOf(exchange.method, exchange.url);
      return found === undefined ? [] : [{ exchange, ...found, response: responseFor(found.operation, exchange.response.status) }];
    });
  }

  /** Whether `value` is valid against the schema at `schema`, as a response. */
  validate(schema: Parameters<SchemaValidator['validate']>[0], value: unknown): ReturnType<SchemaValidator['validate']> {
    return validatorOf(this.doc, 'response').validate(schema, value);
  }

  /**
   * Paths a check may GET to get answers of its own when the run received none the
   * document describes (`--only DOC`): each documented GET without path parameters, below
   * the first server's path, relative to the base URL.
   */
  probePaths(profile: TargetProfile): string[] {
    const basePath = new URL(profile.baseUrl).pathname.replace(/\/+$/, '');
    const first = serversOf(this.doc)[0];
    const server = first === undefined ? '' : serverPath(first);
    const below = server.startsWith(`${basePath}/`) ? server.slice(basePath.length) : server;
    return this.templates.filter((t) => t.params === 0 && t.operations.some((o) => o.method === 'GET')).map((t) => (t.path === '/' && below !== '' ? below : `${below}${t.path}`));
  }
}

/** Judges by document and profile: the run's DOC checks share one (its templates, and the validator it compiles). */
const judges = new WeakMap<OpenApiDocument, WeakMap<TargetProfile, DocumentJudge>>();

/**
 * The judge of `doc` for `profile`, made once.
 *
 * @example
 * ```ts
 * judgeFor(openapi, ctx.profile).operationOf('POST', ctx.http.url(collection.path));
 * ```
 */
export function judgeFor(doc: OpenApiDocument, profile: TargetProfile): DocumentJudge {
  let byProfile = judges.get(doc);
  if (byProfile === undefined) judges.set(doc, (byProfile = new WeakMap()));
  let judge = byProfile.get(profile);
  if (judge === undefined) byProfile.set(profile, (judge = new DocumentJudge(doc, profile)));
  return judge;
}

/** The response the document describes for `status`: its own code, else its range (`4XX`), else `default`. */
export function responseFor(operation: Operation, status: number): Response | undefined {
  const code = String(status);
  return (
    operation.responses.find((r) => r.status === code) ??
    operation.responses.find((r) => r.status.toUpperCase() === `${code[0]}XX`) ??
    operation.responses.find((r) => r.status === 'default')
  );
}

/** The body of an answer, when it has one (a HEAD's, a 204's, a 304's has none). */
function bodyOf(answer: DocumentedAnswer): string | undefined {
  if (answer.bodiless || answer.exchange.method.toUpperCase() === 'HEAD') return undefined;
  const text = answer.exchange.response.text;
  return text.length === 0 ? undefined : text;
}

/** Findings a message lists; the rest are counted. */
const maxFindingsShown = 10;

/** The documented status codes of an operation, for messages. */
const documented = (operation: Operation): string => operation.responses.map((r) => r.status).join(', ') || 'none';

/**
 * Statuses the HTTP machinery gives any operation (a conditional request, authentication and
 * the scopes it grants, media type negotiation, a precondition, a rate limiter), whatever it does: generated
 * documents seldom list them, and OpenAPI does not ask a Responses Object to cover every code
 * (3.1 §4.8.16). Undocumented, they are not held against the document. Not 405: an answer is
 * matched to a method the document lists, so a 405 there refuses what it promises.
 */
const machineryStatuses: ReadonlySet<number> = new Set([304, 401, 403, 406, 412, 415, 428, 429]);

/**
 * DOC-status-documented: the answer's status is described for its operation. A 4xx (but a
 * 405, which refuses a method the document lists) is a SHOULD where the operation lists no
 * client error but 422: OpenAPI 3.1 §4.8.16 expects a document to cover the known errors, not
 * every code, and generated documents list the success and little else (FastAPI adds 422
 * alone; springdoc, Swashbuckle and drf-spectacular list 200). An operation that lists its
 * client errors promises those: another 4xx MUST be among them (a 410 where it lists 404).
 */
export const statusRule: AnswerRule = ({ operation, response, exchange, headOfGet }) => {
  const status = exchange.response.status;
  if (response !== undefined || machineryStatuses.has(status)) return undefined;
  // A HEAD the document does not list, refused by a framework that serves GET alone (FastAPI, ASP.NET): the document promised nothing of it.
  if (headOfGet === true && (status === 405 || status === 501)) return undefined;
  const problem = `answered ${status}, which is not documented (documented: ${documented(operation)})`;
  const listsClientErrors = operation.responses.some((r) => /^4\d\d$/.test(r.status) && r.status !== '422');
  return status >= 400 && status < 500 && status !== 405 && !listsClientErrors ? { should: problem } : problem;
};

/** DOC-media-type-documented: a body comes with a media type the document lists for its status. */
export const mediaTypeRule: AnswerRule = (answer) => {
  const { response, exchange } = answer;
  if (response === undefined || bodyOf(answer) === undefined) return undefined;
  const type = headerOf(exchange, 'content-type');
  const listed = response.content.map((m) => m.type);
  if (type === undefined) return `answered ${exchange.response.status} with a body and no Content-Type (documented: ${listed.join(', ') || 'no body'})`;
  const essence = essenceOf(type);
  const status = exchange.response.status;
  if (listed.length === 0) {
    // A response without `content` leaves its payload undescribed (OpenAPI 3.1 §4.8.17: content describes potential payloads): NestJS's
    // @ApiNotFoundResponse({ description }) and springdoc's content = @Content() document an error so, with the framework's JSON error body.
    const problem = `answered ${status} with a ${essence} body where the document describes no body`;
    return status >= 400 ? { should: problem } : problem;
  }
  const found = documentedMedia(response, essence, status);
  if (found === undefined) return `answered ${status} with Content-Type ${essence}, which is not documented (documented: ${listed.join(', ')})`;
  return found.asJson ? { should: `answered ${status} with Content-Type ${essence} where the document lists ${found.media.type} (as ASP.NET's ApiExplorer and FastAPI document problem details): judged by that schema` } : undefined;
};

/** DOC-body-matches-schema: a JSON body validates against the schema of its documented media type. */
export const schemaRule: AnswerRule = (answer, judge) => {
  const { response, exchange } = answer;
  const body = bodyOf(answer);
  const type = headerOf(exchange, 'content-type');
  if (response === undefined || body === undefined || type === undefined) return undefined;
  const essence = essenceOf(type);
  const media = documentedMedia(response, essence, exchange.response.status)?.media;
  if (media?.schema === undefined || !isJson(essence)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return `answered ${exchange.response.status} with a ${essence} body that is not JSON`;
  }
  const validity = judge.validate(media.schema, value);
  if (validity.ok) {
    // OpenAPI 3.0 §4.7.25 (3.1 via JSON Schema's writeOnly): a writeOnly property SHOULD NOT be sent in a response (a password echoed back).
    const shown = writeOnlyShown(judge.doc, flatOf(judge.doc, media.schema), value);
    return shown.length === 0 ? undefined : { should: `answered ${exchange.response.status} with a body that shows writeOnly ${shown.join(', ')} (schema ${media.schema.pointer})` };
  }
  const problem = `answered ${exchange.response.status} with a body where ${validity.problem} (schema ${media.schema.pointer})`;
  // A value that breaks only a format (a date-time without an offset, as Spring's LocalDateTime and .NET's DateTime write one): JSON Schema 2020-12 makes format an annotation.
  return validity.formatOnly === true ? { should: problem } : problem;
};

/** Flattened schemas by document and pointer: every answer of a run is walked through the same few. */
const flattened = new WeakMap<OpenApiDocument, Map<string, FlatSchema>>();

function flatOf(doc: OpenApiDocument, node: Located): FlatSchema {
  let byPointer = flattened.get(doc);
  if (byPointer === undefined) flattened.set(doc, (byPointer = new Map()));
  let f = byPointer.get(node.pointer);
  if (f === undefined) byPointer.set(node.pointer, (f = flatten(doc, node)));
  return f;
}

/**
 * Where `value` holds a property its schema marks writeOnly, as JSON pointers (`/password`,
 * `/data/0/password`): through properties and array items, a few levels deep, one array item
 * each (a listing's items share a schema).
 */
function writeOnlyShown(doc: OpenApiDocument, f: FlatSchema, value: unknown, at = '', depth = 0): string[] {
  if (depth > 6) return [];
  if (Array.isArray(value)) return f.items === undefined || value.length === 0 ? [] : writeOnlyShown(doc, flatOf(doc, f.items), value[0], `${at}/0`, depth + 1);
  if (!isObject(value)) return [];
  return [...f.properties].flatMap(([name, node]) => {
    if (!(name in value)) return [];
    const where = `${at}/${name}`;
    const property = flatOf(doc, node);
    return property.writeOnly ? [where] : writeOnlyShown(doc, property, value[name], where, depth + 1);
  });
}

/** A header value as the schema's type reads it (headers are text on the wire: `simple` style, OpenAPI §4.8.12.4). */
function headerValue(text: string, schema: unknown): unknown {
  const type = isObject(schema) ? schema['type'] : undefined;
  const types = Array.isArray(type) ? type : [type];
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(text.trim())) return Number(text.trim());
  if (types.includes('boolean') && /^(true|false)$/.test(text.trim())) return text.trim() === 'true';
  if (types.includes('array')) return text.split(',').map((s) => s.trim());
  return text;
}

/**
 * DOC-required-headers: each header the documented response marks required is present and
 * valid. A value that breaks only a `format` is a SHOULD, as for a body: `format` is an
 * annotation in JSON Schema 2020-12 (an HTTP-date `Sunset` documented as `date-time`).
 */
export const headersRule: AnswerRule = ({ response, exchange }, judge) => {
  if (response === undefined) return undefined;
  const problems = response.headers.flatMap(([name, header]) => {
    // Content-Type is described by `content`, never by `headers` (OpenAPI §4.8.21.1).
    if (name.toLowerCase() === 'content-type' || !isObject(header.value)) return [];
    const value = headerOf(exchange, name);
    if (value === undefined) return header.value['required'] === true ? [{ text: `${name} is missing`, formatOnly: false }] : [];
    const schema = judge.doc.child(header, 'schema');
    if (schema === undefined) return [];
    const validity = judge.validate(schema, headerValue(value, schema.value));
    return validity.ok ? [] : [{ text: `${name} ${validity.problem.replace(/^\(the value\) /, '')}`, formatOnly: validity.formatOnly === true }];
  });
  if (problems.length === 0) return undefined;
  const problem = `answered ${exchange.response.status} where ${problems.map((p) => p.text).join(', ')}`;
  return problems.every((p) => p.formatOnly) ? { should: problem } : problem;
};

/**
 * Holds every answer the run received that the document describes to `rule`. Passes when at
 * least one was judged and none broke it; fails with one finding per operation and problem,
 * each with how many answers showed it, the first of them cited as evidence. With no answer
 * to judge yet (the DOC checks run alone), GETs the document's parameterless paths first.
 *
 * @example
 * ```ts
 * async run(ctx, { openapi }) { await holdAnswers(ctx, openapi, statusRule, 'status'); }
 * ```
 */
export async function holdAnswers(ctx: CheckContext, openapi: OpenApiDocument, rule: AnswerRule, subject: string): Promise<void> {
  const judge = judgeFor(openapi, ctx.profile);
  let answers = judge.answers(ctx.received());
  if (answers.length === 0) {
    for (const path of judge.probePaths(ctx.profile)) await ctx.http.send({ method: 'GET', path });
    answers = judge.answers(ctx.received());
  }
  if (answers.length === 0) throw new CheckSkipped('no answer of the run was to an operation the OpenAPI document describes (its servers and paths did not match the requests)');
  const findings = new Map<string, { first: DocumentedAnswer; problem: string; should: boolean; count: number }>();
  for (const answer of answers) {
    const found = rule(answer, judge);
    if (found === undefined) continue;
    const [problem, should] = typeof found === 'string' ? [found, false] : [found.should, true];
    // One finding for every item of a listing that breaks the schema alike (`/data/3/name`, `/data/7/name`).
    const key = `${answer.operation.method} ${answer.operation.path} ${problem.replace(/\/\d+(?=\/|\s)/g, '/*')}`;
    const seen = findings.get(key);
    if (seen === undefined) findings.set(key, { first: answer, problem, should, count: 1 });
    else seen.count++;
  }
  const operations = new Set(answers.map((a) => `${a.operation.method} ${a.operation.path}`));
  ctx.observed(`the ${subject} of ${answers.length} answers to ${operations.size} documented operations`);
  if (findings.size === 0) return;
  // What MUST hold first: the verdict is a fail when any of it breaks, a warn when only what SHOULD does.
  const ordered = [...findings.values()].sort((a, b) => Number(a.should) - Number(b.should));
  const lines = ordered.map(({ first, problem, count }) => {
    const { operation } = first;
    const times = count === 1 ? '' : ` (${count} answers)`;
    return `${operation.method} ${operation.path} ${problem}${times}, first to ${first.exchange.sentBy}`;
  });
  // The first answer of each finding goes into the evidence; the message names them all.
  const cited = ordered.slice(0, 8).map(({ first }) => ctx.cite(first.exchange));
  const shown = lines.slice(0, maxFindingsShown);
  const found = `${shown.join('; ')}${lines.length > shown.length ? `; and ${lines.length - shown.length} more findings of the same kind` : ''}`;
  const Failure = ordered.every((f) => f.should) ? ShouldFailure : CheckFailure;
  throw new Failure(`${findings.size === 1 ? 'one operation answers' : `${findings.size} findings: operations answer`} unlike the document: ${found}`, `every answer's ${subject} as the OpenAPI document describes it`, found, cited[0]);
}
