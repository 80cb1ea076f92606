/** How messages name a response and its body: one wording for checks, fixtures and the run's own token requests. */
import type { HttpResponse } from './context.js';

/** `GET /v2/projects → 404 application/problem+json` */
export function describe(res: HttpResponse): string {
  const path = new URL(res.url).pathname + new URL(res.url).search;
  return `${res.method} ${path} → ${res.status}${res.mediaType ? ` ${res.mediaType}` : ''}`;
}

/** A short description of a body for messages: `empty`, `JSON array`, `text "<html>…"`. */
export function summarise(res: Pick<HttpResponse, 'text' | 'json'>): string {
  if (res.text.length === 0) return 'empty';
  if (res.json === undefined) return `not JSON (${JSON.stringify(res.text.slice(0, 40))}${res.text.length > 40 ? '…' : ''})`;
  if (res.json === null) return 'JSON null';
  if (Array.isArray(res.json)) return 'a JSON array';
  return `JSON ${typeof res.json}`;
}

/** Compact JSON for messages, cut at `max` characters. */
export function brief(value: unknown, max = 120): string {
  const s = JSON.stringify(value) ?? String(value);
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
