/**
 * The last line of defence: no secret value reaches a report file. Requests are redacted
 * as they are recorded; this pass catches whatever slipped through, in every form a
 * writer may have encoded it (JSON string, XML text, URL component).
 */
import type { Secret } from './model/profile.js';

/** Shorter values would match innocent text (and a real key is never that short). */
const minSecretLength = 4;

/** The forms a value takes in the formats restprobe writes. */
function encodings(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const xml = value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
  return [...new Set([value, json, xml, encodeURIComponent(value)])];
}

/**
 * `text` with every occurrence of each secret (≥ 4 characters) replaced by `$ENV_NAME`.
 *
 * @example
 * ```ts
 * scrubSecrets('x-api-key: k3y-123', [{ envName: 'API_KEY', value: 'k3y-123' }]); // 'x-api-key: $API_KEY'
 * ```
 */
export function scrubSecrets(text: string, secrets: readonly Secret[]): string {
  // Longest first, so a secret that contains another is replaced whole.
  const ordered = secrets.filter((s) => s.value.length >= minSecretLength).sort((a, b) => b.value.length - a.value.length);
  let out = text;
  for (const secret of ordered) {
    for (const form of encodings(secret.value)) out = out.split(form).join(`$${secret.envName}`);
  }
  return out;
}
