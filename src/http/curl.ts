/**
 * A curl command that repeats a request. Secrets appear as `$ENV_VAR` (double-quoted so
 * the shell expands them); everything else is single-quoted so it is taken literally.
 */
import type { Secret } from '../model/profile.js';
import { REDACTED, isCredentialHeader } from './redact.js';
import { scrubSecrets } from '../secrets-scrub.js';

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Double-quoted for the shell: each secret becomes a `$NAME` reference that expands, and
 * everything else (`$`, backquotes, quotes, backslashes included) is taken literally.
 */
function shellDoubleQuoteWithRefs(text: string, secrets: readonly Secret[]): string {
  // Mark each secret with a placeholder no header can hold (NUL), escape, then write the references.
  const marked = scrubSecrets(text, secrets.map((s, i) => ({ envName: `\0${i}\0`, value: s.value })));
  const escaped = marked.replace(/(["\\`$])/g, '\\$1');
  return `"${escaped.replace(/\\\$\0(\d+)\0/g, (_, i: string) => `$${secrets[Number(i)]!.envName}`)}"`;
}

export interface CurlInput {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/**
 * A credential header as curl should send it: the configured secret it is (alone or after
 * an auth scheme, `Bearer $API_KEY`) as a `$NAME` reference, or else `<redacted>` whole.
 * Never part of the value: a piece scrubbed out of `Basic base64(id:secret)` leaves the
 * rest of the secret readable.
 */
function credentialHeader(name: string, value: string, secrets: readonly Secret[]): string {
  const space = value.indexOf(' ');
  const [scheme, credential] = space > 0 && /^[A-Za-z][\w.+-]*$/.test(value.slice(0, space)) ? [`${value.slice(0, space)} `, value.slice(space + 1)] : ['', value];
  const secret = secrets.find((s) => s.value === credential);
  if (secret === undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(secret.envName)) return `-H ${shellQuote(`${name}: ${REDACTED}`)}`;
  return `-H "${`${name}: ${scheme}`.replace(/(["\\`$])/g, '\\$1')}$${secret.envName}"`;
}

/**
 * @example
 * ```ts
 * toCurl({ method: 'GET', url: 'http://127.0.0.1:8080/v2/projects',
 *          headers: { 'x-api-key': 'k3y…' } }, [{ envName: 'API_KEY', value: 'k3y…' }], ['x-api-key']);
 * // curl -sS -i -X GET 'http://127.0.0.1:8080/v2/projects' -H "x-api-key: $API_KEY"
 * ```
 */
export function toCurl(req: CurlInput, secrets: readonly Secret[], extraCredentialHeaders: readonly string[] = []): string {
  // `-X HEAD` would make curl wait for a body that never comes; -I sends a real HEAD.
  const parts = req.method === 'HEAD' ? ['curl -sS -I'] : ['curl -sS -i', `-X ${req.method}`];
  parts.push(shellQuote(scrubSecrets(req.url, secrets)));
  for (const [name, value] of Object.entries(req.headers)) {
    if (isCredentialHeader(name, extraCredentialHeaders)) parts.push(credentialHeader(name, value, secrets));
    else if (scrubSecrets(value, secrets) !== value) parts.push(`-H ${shellDoubleQuoteWithRefs(`${name}: ${value}`, secrets)}`);
    else parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  if (req.body !== undefined && req.body.length > 0) parts.push(`--data-binary ${shellQuote(scrubSecrets(req.body, secrets))}`);
  return parts.join(' ');
}
