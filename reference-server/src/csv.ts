/**
 * A listing's second representation: its page's items as `text/csv` (RFC 4180), a header
 * row of the items' scalar fields, then a row an item. Served where Accept prefers it
 * (media-types.ts `prefersCsv`), so Accept chooses between two representations of one
 * resource and the response must say so in Vary (conventions §4, conditional and cache headers).
 */
import type { Reply } from './respond.js';

export const csvMediaType = 'text/csv; charset=utf-8';

const isScalar = (v: unknown): v is string | number | boolean | null => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** A field as RFC 4180 writes it: quoted where it holds a quote, a comma or a line break. */
function field(v: string | number | boolean | null): string {
  const text = v === null ? '' : String(v);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The same page as CSV; a reply that is no JSON page of items is returned as it is. */
export function pageAsCsv(reply: Reply): Reply {
  const value = reply.status === 200 && reply.content !== undefined && 'value' in reply.content ? reply.content.value : undefined;
  const items = typeof value === 'object' && value !== null && Array.isArray((value as { data?: unknown }).data) ? ((value as { data: unknown[] }).data.filter((i) => typeof i === 'object' && i !== null) as Record<string, unknown>[]) : undefined;
  if (items === undefined) return reply;
  const columns = [...new Set(items.flatMap((item) => Object.keys(item).filter((k) => isScalar(item[k]))))];
  const rows = [columns.map(field), ...items.map((item) => columns.map((c) => { const v = item[c]; return field(isScalar(v) ? v : null); }))];
  // An empty page has no fields to name: no header row either.
  return { ...reply, content: { type: csvMediaType, text: items.length === 0 ? '' : rows.map((r) => `${r.join(',')}\r\n`).join('') } };
}
