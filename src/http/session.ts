/**
 * One check's view of HTTP: resolves paths, adds credentials, sends through the shared
 * client, and records every exchange; evidence is redacted when a report asks for it.
 */
import { keyHeaders } from '../model/key-headers.js';

export { keyHeaders };
import type { ExchangeRecord } from '../model/result.js';
import type { HttpResponse, HttpSession, RequestSpec } from '../model/context.js';
import type { IssuedCredential, Secret, TargetProfile, VersionProfile } from '../model/profile.js';
import { RestprobeError } from '../errors.js';
import type { RawResponse } from './client.js';
import type { Send } from './guards.js';
import { toCurl } from './curl.js';
import { hasQueryParam, withQueryParam } from './target-url.js';
import { configuredSecretMembers, redactHeaders, redactJsonText } from './redact.js';
import { scrubSecrets } from '../secrets-scrub.js';

/** What every request sends, to any origin. */
const plainHeaders: Readonly<Record<string, string>> = Object.freeze({ accept: 'application/json' });

/** Bodies longer than this are cut in the evidence (the check still sees all of it). */
const evidenceBodyLimit = 4096;

/**
 * An exchange as it happened: raw, secrets included. It never leaves the session: reports
 * get {@link RecordingSession.records}, redacted, and only for what they keep, so a
 * passing check pays for no redaction and no curl command.
 */
export interface RawExchange {
  readonly method: string;
  readonly url: string;
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly requestBody: string | undefined;
  /** The response, when one came (a {@link RecordedExchange} is its own). */
  readonly response?: { readonly status: number; readonly rawHeaders: Record<string, string | string[]>; readonly text: string };
  readonly error?: string;
  readonly durationMs: number;
}

/** What a session sends through: a client, or a client behind guards. */
export interface Transport {
  readonly send: Send;
  /** Connection-level parser errors the client saw (see HttpClient.protocolErrors). */
  readonly protocolErrors: readonly string[];
}

export class RecordingSession implements HttpSession {
  private readonly credentialHeader: string[];
  /** Members the config says hold a secret (a minted key's `value`), redacted from evidence like `token` is. */
  private readonly secretMembers: readonly string[];
  /** The current version's own header, which a request sent with `version: false` leaves out. */
  private readonly versionHeaderNames: readonly string[];
  /** What every request to the target sends unless it says otherwise: Accept, and the version under a header scheme of its own. */
  private readonly targetHeaders: Readonly<Record<string, string>>;
  /** {@link targetHeaders} and the credentials (renewed ones: made per request). */
  private defaultHeaders: Readonly<Record<string, string>>;
  private readonly origins: Set<string>;

  constructor(
    private readonly transport: Transport,
    private readonly profile: TargetProfile,
    /** Shared with other sessions of the same check, so all land in one evidence. */
    readonly exchanges: RawExchange[] = [],
    /** What to scrub: the profile's secrets and any a check found (a minted key); shared likewise. */
    readonly secrets: Secret[] = [...profile.secrets],
  ) {
    this.credentialHeader = profile.auth.apiKey ? [profile.auth.apiKey.header] : [];
    this.secretMembers = configuredSecretMembers(profile);
    this.versionHeaderNames = Object.keys(currentVersionHeaders(profile));
    this.targetHeaders = Object.freeze({ ...plainHeaders, ...currentVersionHeaders(profile) });
    this.defaultHeaders = Object.freeze({ ...this.targetHeaders, ...credentialHeaders(profile) });
    this.origins = targetOrigins(profile);
  }

  get protocolErrors(): readonly string[] {
    return this.transport.protocolErrors;
  }

  url(path: string): string {
    return resolveUrl(this.profile.baseUrl, path);
  }

  clearRecording(): void {
    this.exchanges.length = 0;
  }

  recordingMark(): number {
    return this.exchanges.length;
  }

  keepRecording(from: number, to: number): void {
    const kept = this.exchanges.slice(from, to);
    this.exchanges.length = 0;
    this.exchanges.push(...kept);
  }

  async send(spec: RequestSpec): Promise<HttpResponse> {
    const path = spec.path ?? '/';
    // A path joined to the base URL stays on the target's origin: only an absolute URL
    // needs parsing to decide whether it may carry credentials.
    const absolute = spec.url !== undefined || isAbsoluteUrl(path);
    const url = absolute ? versionedUrl(this.profile, spec.url ?? path, this.origins) : versionedUrl(this.profile, this.url(path));
    const issued = this.profile.auth.apiKey?.issued;
    if (issued !== undefined && this.credentialed(spec, absolute ? url : undefined)) await this.renewCredential(issued);
    const headers = this.headersFor(spec, absolute ? url : undefined);
    const body = spec.json !== undefined ? JSON.stringify(spec.json) : spec.form !== undefined ? formBody(spec.form) : spec.body;
    const bodyText = body === undefined ? undefined : typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
    const started = performance.now();
    try {
      const raw = await this.transport.send({ method: spec.method, url, headers, body, startedAt: started });
      const exchange = new RecordedExchange(spec.method, url, raw.sentHeaders ?? headers, bodyText, raw, Math.round(performance.now() - started), this.exchanges.length);
      this.exchanges.push(exchange);
      return exchange;
    } catch (err) {
      const message = err instanceof RestprobeError ? err.message : String(err);
      this.exchanges.push({ method: spec.method, url, requestHeaders: headers, requestBody: bodyText, error: message, durationMs: Math.round(performance.now() - started) });
      throw err;
    }
  }

  /**
   * Takes an answer another check's session received into this session's evidence (an
   * answer shared by several checks, {@link CheckContext.sharedAnswers}) and returns it indexed
   * here, so a verdict on it cites this evidence. An answer of this session is returned as it is.
   */
  adopt(res: HttpResponse): HttpResponse {
    if ((this.exchanges[res.exchangeIndex] as unknown) === res) return res;
    if (!(res instanceof RecordedExchange)) throw new TypeError('only an answer a recording session received can be shared');
    const copy = res.at(this.exchanges.length);
    this.exchanges.push(copy);
    return copy;
  }

  /**
   * The recorded exchanges as evidence: `full` (redacted headers and bodies, bodies cut at
   * 4 KiB, a curl command) for the last `last` of them, or a `summary` line each.
   */
  records(mode: 'full' | 'summary', last = Infinity): ExchangeRecord[] {
    const chosen = Number.isFinite(last) ? this.exchanges.slice(-last) : this.exchanges;
    return chosen.map((x) => (mode === 'full' ? this.fullRecord(x) : this.summaryRecord(x)));
  }

  /**
   * The last `last` exchanges in full, plus the `focus` exchange when it is older, so the
   * evidence always holds the request a verdict is about. Returns its index in the list.
   */
  recordsAround(focus: number | undefined, last: number): { records: ExchangeRecord[]; focus?: number } {
    const start = Math.max(0, this.exchanges.length - last);
    const records = this.records('full', last);
    const focused = focus === undefined ? undefined : this.exchanges[focus];
    if (focus === undefined || focused === undefined) return { records };
    if (focus >= start) return { records, focus: focus - start };
    return { records: [this.fullRecord(focused), ...records.slice(1)], focus: 0 };
  }

  private summaryRecord(x: RawExchange): ExchangeRecord {
    return {
      request: { method: x.method, url: scrubSecrets(x.url, this.secrets), headers: {} },
      ...(x.response && { response: { status: x.response.status, headers: {} } }),
      ...(x.error !== undefined && { error: scrubSecrets(x.error, this.secrets) }),
      durationMs: x.durationMs,
      curl: '',
    };
  }

  private fullRecord(x: RawExchange): ExchangeRecord {
    const shown = x.response && this.forEvidence(x.response.text);
    return {
      request: {
        method: x.method,
        url: scrubSecrets(x.url, this.secrets),
        headers: this.scrubHeaders(redactHeaders(x.requestHeaders, this.credentialHeader)),
        ...(x.requestBody !== undefined && { body: this.forEvidence(x.requestBody).text }),
      },
      ...(x.response &&
        shown && {
          response: {
            status: x.response.status,
            headers: this.scrubHeaders(redactHeaders(x.response.rawHeaders, this.credentialHeader)),
            ...(x.response.text.length > 0 && { body: shown.text }),
            ...(shown.truncated && { bodyTruncated: true }),
          },
        }),
      ...(x.error !== undefined && { error: scrubSecrets(x.error, this.secrets) }),
      durationMs: x.durationMs,
      curl: toCurl({ method: x.method, url: x.url, headers: x.requestHeaders, ...(x.requestBody !== undefined && { body: x.requestBody }) }, this.secrets, this.credentialHeader),
    };
  }

  /** Whether the request carries the configured credentials: they go to the target's own origins only, wherever a Location points. */
  private credentialed(spec: RequestSpec, absoluteUrl: string | undefined): boolean {
    return spec.auth !== false && this.onTarget(absoluteUrl);
  }

  private onTarget(absoluteUrl: string | undefined): boolean {
    return absoluteUrl === undefined || this.origins.has(new URL(absoluteUrl).origin);
  }

  /**
   * An issued credential (the API's access token from auth.oauth) renewed when it is about to
   * expire, before a request that carries it; each value is scrubbed from this session's evidence.
   */
  private async renewCredential(issued: IssuedCredential): Promise<void> {
    const value = await issued.fresh();
    if (this.secrets.some((s) => s.value === value)) return;
    this.secrets.push({ envName: this.profile.auth.apiKey!.value.envName, value });
    this.defaultHeaders = Object.freeze({ ...this.targetHeaders, ...credentialHeaders(this.profile) });
  }

  /** `absoluteUrl` is set when the request leaves the base URL's path space. */
  private headersFor(spec: RequestSpec, absoluteUrl: string | undefined): Readonly<Record<string, string>> {
    const defaults = !this.onTarget(absoluteUrl) ? plainHeaders : spec.auth === false ? this.targetHeaders : this.defaultHeaders;
    // Most requests send just the defaults: one shared object, not one per request.
    if (spec.json === undefined && spec.form === undefined && spec.headers === undefined && spec.version !== false) return defaults;
    const headers: Record<string, string> = { ...defaults };
    if (spec.version === false) for (const name of this.versionHeaderNames) delete headers[name];
    if (spec.json !== undefined) headers['content-type'] = 'application/json';
    else if (spec.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    if (spec.headers) for (const name in spec.headers) headers[name.toLowerCase()] = spec.headers[name]!;
    return headers;
  }

  /** A secret in a header that is not a credential header by name (a check's own, an echo) is scrubbed too. */
  private scrubHeaders<T extends string | string[]>(headers: Record<string, T>): Record<string, T> {
    const scrub = (v: string): string => scrubSecrets(v, this.secrets);
    return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.map(scrub) : scrub(v)])) as Record<string, T>;
  }

  private forEvidence(text: string): { text: string; truncated: boolean } {
    const safe = scrubSecrets(redactJsonText(text, this.secretMembers), this.secrets);
    return safe.length > evidenceBodyLimit
      ? { text: safe.slice(0, evidenceBodyLimit), truncated: true }
      : { text: safe, truncated: false };
  }
}

/** Form fields as an `application/x-www-form-urlencoded` body (the WHATWG serializer: space as `+`). */
export function formBody(fields: Readonly<Record<string, string>>): string {
  return new URLSearchParams(fields).toString();
}

/** The target's origins: the base URL's and every configured node's. */
export function targetOrigins(profile: TargetProfile): Set<string> {
  return new Set([profile.baseUrl, ...profile.nodes].map((u) => new URL(u).origin));
}

/**
 * `url` as a request to the target sends it. Under the query scheme (§9.2) every request to
 * the target names a version, as such an API may refuse one that does not: the current
 * one, unless the URL names its own. `origins` given: `url` may lie elsewhere, and is left
 * alone there; absent, it is the target's. An authorization server on the target's own
 * origin gets the parameter too, which it ignores (RFC 6749 §3.1, §3.2: unrecognized
 * parameters MUST be ignored).
 */
export function versionedUrl(profile: TargetProfile, url: string, origins?: ReadonlySet<string>): string {
  const v = profile.version;
  if (v?.scheme !== 'query' || hasQueryParam(url, v.queryParam)) return url;
  if (origins !== undefined && !origins.has(new URL(url).origin)) return url;
  return withQueryParam(url, v.queryParam, v.current);
}

/** `url` without the version {@link versionedUrl} added: the item it names, as the ledger knows it. */
export function unversionedUrl(profile: TargetProfile, url: string): string {
  const v = profile.version;
  if (v?.scheme !== 'query') return url;
  const added = `${encodeURIComponent(v.queryParam)}=${encodeURIComponent(v.current)}`;
  return url.endsWith(`?${added}`) || url.endsWith(`&${added}`) ? url.slice(0, -added.length - 1) : url;
}

/**
 * The header that names `version` under the header scheme (§9.2): the vendor media type in
 * Accept, or the version in a header of the API's own.
 *
 * @example
 * ```ts
 * versionHeader({ scheme: 'header', header: 'X-API-Version', … }, '2'); // { 'X-API-Version': '2' }
 * ```
 */
export function versionHeader(v: VersionProfile, version: string): Record<string, string> {
  return v.header.toLowerCase() === 'accept' ? { Accept: `application/vnd.${v.vendor ?? ''}+json; version=${version}` } : { [v.header]: version };
}

/**
 * What every request to the target sends under the header scheme with a header of the
 * API's own (`X-API-Version`): the current version, as a client pinned to it does, since
 * such an API may refuse a request that names none (Asp.Versioning does unless told to
 * assume a default). Nothing under the other schemes, nor in Accept, whose vendor media type
 * would change what every response is judged as (`application/json`, §2).
 */
export function currentVersionHeaders(profile: TargetProfile): Record<string, string> {
  const v = profile.version;
  if (v?.scheme !== 'header' || v.header.toLowerCase() === 'accept') return {};
  return { [v.header.toLowerCase()]: v.current };
}

/** What the run's own requests to the target send (the health probe, cleanup, the search for marked items): Accept, the version, fresh credentials. */
export async function runRequestHeaders(profile: TargetProfile): Promise<Record<string, string>> {
  return { ...plainHeaders, ...currentVersionHeaders(profile), ...(await freshCredentialHeaders(profile)) };
}

/** The headers that carry the configured credentials (none when none are configured, or an issued one is not issued yet). */
export function credentialHeaders(profile: TargetProfile): Record<string, string> {
  const key = profile.auth.apiKey;
  return key && key.value.value !== '' ? keyHeaders(key.header, key.value.value, key.scheme) : {};
}

/**
 * {@link credentialHeaders} with an issued credential (`auth.apiKey.fromOAuth`) renewed first
 * when it is about to expire: for the run's own requests outside a check's session (the
 * health probe, cleanup, the search for marked items), which a long run sends after the
 * first token has expired.
 *
 * @example
 * ```ts
 * await send({ method: 'DELETE', url, headers: { accept: 'application/json', ...(await freshCredentialHeaders(profile)) } });
 * ```
 */
export async function freshCredentialHeaders(profile: TargetProfile): Promise<Record<string, string>> {
  await profile.auth.apiKey?.issued?.fresh();
  return credentialHeaders(profile);
}

/** Joins a base URL and a path or path+query; an absolute URL is returned as it is. */
export function resolveUrl(baseUrl: string, path: string): string {
  if (isAbsoluteUrl(path)) return path;
  const base = baseUrl.endsWith('/') ? baseUrl.replace(/\/+$/, '') : baseUrl;
  return base + (path.startsWith('/') ? path : `/${path}`);
}

function isAbsoluteUrl(path: string): boolean {
  // Most paths start with '/': no regex for them.
  return path.charCodeAt(0) !== 47 && /^https?:\/\//i.test(path);
}

/**
 * An exchange that got a response: what the check sees (an {@link HttpResponse}) and what
 * the evidence records (a {@link RawExchange}, its own `response`), in one object per
 * request. The body is decoded and parsed, and the headers flattened, only when something
 * asks: for many responses nothing does.
 */
class RecordedExchange implements HttpResponse, RawExchange {
  readonly status: number;
  readonly rawHeaders: Record<string, string | string[]>;
  // Private fields: a check that spreads or prints its response shows no request credentials.
  readonly #requestHeaders: Readonly<Record<string, string>>;
  readonly #requestBody: string | undefined;
  readonly #body: Buffer;
  #flat: Readonly<Record<string, string>> | undefined;
  #decoded: string | undefined;
  #parsed: { value: unknown } | undefined;

  constructor(
    readonly method: string,
    readonly url: string,
    requestHeaders: Readonly<Record<string, string>>,
    requestBody: string | undefined,
    raw: RawResponse,
    readonly durationMs: number,
    readonly exchangeIndex: number,
  ) {
    this.#requestHeaders = requestHeaders;
    this.#requestBody = requestBody;
    this.status = raw.status;
    this.rawHeaders = raw.headers;
    this.#body = raw.body;
  }

  /** The same exchange at another place in another check's evidence (the body is not copied). */
  at(exchangeIndex: number): RecordedExchange {
    return new RecordedExchange(this.method, this.url, this.#requestHeaders, this.#requestBody, { status: this.status, headers: this.rawHeaders, body: this.#body }, this.durationMs, exchangeIndex);
  }

  get requestHeaders(): Readonly<Record<string, string>> {
    return this.#requestHeaders;
  }

  get requestBody(): string | undefined {
    return this.#requestBody;
  }

  get response(): this {
    return this;
  }

  /** Frozen: a check cannot change the evidence through what it reads. */
  get headers(): Readonly<Record<string, string>> {
    this.#flat ??= Object.freeze(flattenHeaders(this.rawHeaders));
    return this.#flat;
  }

  get text(): string {
    this.#decoded ??= this.#body.toString('utf8');
    return this.#decoded;
  }

  get json(): unknown {
    this.#parsed ??= { value: parseJson(this.text) };
    return this.#parsed.value;
  }

  get mediaType(): string {
    return mediaTypeOf(this.headers['content-type']);
  }
}

/**
 * undici gives lower-case names; repeated fields are joined (Set-Cookie by newlines). When
 * no field repeats, the headers are returned as they are (read-only to checks).
 */
function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  let repeated = false;
  for (const name in headers) if (typeof headers[name] !== 'string') repeated = true;
  if (!repeated) return headers as Record<string, string>;
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    out[name] = typeof value === 'string' ? value : value.join(name === 'set-cookie' ? '\n' : ', ');
  }
  return out;
}

function mediaTypeOf(contentType: string | undefined): string {
  if (contentType === undefined) return '';
  const semi = contentType.indexOf(';');
  return (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}

/** The JSON a body holds, or undefined when it is empty or not JSON. */
export function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
