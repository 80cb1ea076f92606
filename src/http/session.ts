/**
 * One check's view of HTTP: resolves paths, adds credentials, sends through the shared
 * client, and records every exchange (redacted, bodies truncated) for the evidence.
 */
import type { ExchangeRecord } from '../model/check.js';
import type { HttpResponse, HttpSession, RequestSpec } from '../model/context.js';
import type { TargetProfile } from '../model/profile.js';
import { RestprobeError } from '../errors.js';
import type { HttpClient } from './client.js';
import { toCurl } from './curl.js';
import { redactHeaders, redactJsonText } from './redact.js';
import { scrubSecrets } from '../secrets-scrub.js';

/** Bodies longer than this are cut in the evidence (the check still sees all of it). */
const evidenceBodyLimit = 4096;

export class RecordingSession implements HttpSession {
  readonly exchanges: ExchangeRecord[] = [];
  private readonly credentialHeader: string[];

  constructor(
    private readonly client: HttpClient,
    private readonly profile: TargetProfile,
  ) {
    this.credentialHeader = profile.auth.apiKey ? [profile.auth.apiKey.header] : [];
  }

  url(path: string): string {
    return resolveUrl(this.profile.baseUrl, path);
  }

  async send(spec: RequestSpec): Promise<HttpResponse> {
    const url = spec.url ?? this.url(spec.path ?? '/');
    const headers = this.headersFor(spec);
    const body = spec.json !== undefined ? JSON.stringify(spec.json) : spec.body;
    const bodyText = body === undefined ? undefined : typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
    const started = performance.now();
    const request = {
      method: spec.method,
      url: scrubSecrets(url, this.profile.secrets),
      headers: redactHeaders(headers, this.credentialHeader),
      ...(bodyText !== undefined && { body: this.forEvidence(bodyText).text }),
    };
    const curl = toCurl({ method: spec.method, url, headers, ...(bodyText !== undefined && { body: bodyText }) }, this.profile.secrets, this.credentialHeader);
    try {
      const raw = await this.client.send({ method: spec.method, url, headers, ...(body !== undefined && { body }) });
      const text = raw.body.toString('utf8');
      const durationMs = Math.round(performance.now() - started);
      const shown = this.forEvidence(text);
      this.exchanges.push({
        request,
        response: {
          status: raw.status,
          headers: redactHeaders(raw.headers, this.credentialHeader),
          ...(text.length > 0 && { body: shown.text }),
          ...(shown.truncated && { bodyTruncated: true }),
        },
        durationMs,
        curl,
      });
      const flat = flattenHeaders(raw.headers);
      return {
        status: raw.status,
        headers: flat,
        text,
        json: parseJson(text),
        mediaType: mediaTypeOf(flat['content-type']),
        exchangeIndex: this.exchanges.length - 1,
        url,
        method: spec.method,
      };
    } catch (err) {
      const message = err instanceof RestprobeError ? err.message : String(err);
      this.exchanges.push({ request, error: scrubSecrets(message, this.profile.secrets), durationMs: Math.round(performance.now() - started), curl });
      throw err;
    }
  }

  private headersFor(spec: RequestSpec): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (spec.json !== undefined) headers['content-type'] = 'application/json';
    if (spec.auth !== false) Object.assign(headers, credentialHeaders(this.profile));
    for (const [name, value] of Object.entries(spec.headers ?? {})) headers[name.toLowerCase()] = value;
    return headers;
  }

  private forEvidence(text: string): { text: string; truncated: boolean } {
    const safe = scrubSecrets(redactJsonText(text), this.profile.secrets);
    return safe.length > evidenceBodyLimit
      ? { text: safe.slice(0, evidenceBodyLimit), truncated: true }
      : { text: safe, truncated: false };
  }
}

/** The headers that carry the configured credentials (none when none are configured). */
export function credentialHeaders(profile: TargetProfile): Record<string, string> {
  const key = profile.auth.apiKey;
  if (!key) return {};
  const name = key.header.toLowerCase();
  return { [name]: name === 'authorization' ? `Bearer ${key.value.value}` : key.value.value };
}

/** Joins a base URL and a path or path+query; an absolute URL is returned as it is. */
export function resolveUrl(baseUrl: string, path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  return baseUrl.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
}

export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(name.toLowerCase() === 'set-cookie' ? '\n' : ', ') : value;
  }
  return out;
}

export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
