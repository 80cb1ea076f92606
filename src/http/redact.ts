/**
 * Redaction: what the harness records must never hold a credential.
 *
 * Three layers: headers that carry credentials by name, JSON body members whose names
 * say they hold a secret, and, last, every known secret value wherever it appears.
 */

export const REDACTED = '<redacted>';

/** Headers whose value is a credential, whatever the target. */
const credentialHeaders = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'cookie',
  'set-cookie',
]);

/** JSON members whose value is a secret (access_token, client_secret, password, apiKey…). */
const secretWords = /token|secret|password|passwd|api[-_]?key|authorization|cookie|credential/i;

/**
 * A member name that says it holds a secret: `access_token`, `client_secret`, `key`, `api_key`,
 * `signingKey`…, or one of `extra`, the names the config gives (a minted key's `value`).
 */
export function isSecretMemberName(name: string, extra: readonly string[] = []): boolean {
  return secretWords.test(name) || /(^|[-_.])key$/i.test(name) || /[a-z0-9]Key$/.test(name) || extra.includes(name);
}

/**
 * The members the config says hold a secret, whatever their names: the minted key's
 * (`auth.mint.secretField`, OpenAI's admin keys answer `value`) and the webhook secret's
 * (`webhooks.subscribe.secretField`).
 */
export function configuredSecretMembers(profile: { readonly auth: { readonly mint?: { readonly secretField: string } }; readonly webhooks?: { readonly secretField: string } }): string[] {
  return [profile.auth.mint?.secretField, profile.webhooks?.secretField].filter((n) => n !== undefined);
}

/** The string values of secret-named members (see {@link isSecretMemberName}) of a JSON value, at any depth up to 8. */
export function secretMemberValues(value: unknown, extra: readonly string[] = [], depth = 0): string[] {
  if (depth > 8 || typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) =>
    isSecretMemberName(k, extra) && (typeof v === 'string' || typeof v === 'number') ? [String(v)] : secretMemberValues(v, extra, depth + 1),
  );
}

export function isCredentialHeader(name: string, extra: readonly string[] = []): boolean {
  const lower = name.toLowerCase();
  return credentialHeaders.has(lower) || extra.some((h) => h.toLowerCase() === lower);
}


export function redactHeaders<T extends string | string[]>(
  headers: Record<string, T>,
  extra: readonly string[] = [],
): Record<string, T | string> {
  const out: Record<string, T | string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = isCredentialHeader(name, extra) ? REDACTED : value;
  }
  return out;
}

/** Redacts secret-named members (and those named `extra`) of a JSON text; non-JSON text is returned as it is. */
export function redactJsonText(text: string, extra: readonly string[] = []): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  let changed = false;
  const walk = (v: unknown, depth: number): unknown => {
    if (v === null || typeof v !== 'object') return v;
    // Hostile bodies can nest deeply: a subtree past this depth is not inspected, so it is
    // not shown either (this also keeps the result shallow enough for JSON.stringify).
    if (depth > 64) {
      changed = true;
      return REDACTED;
    }
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      // Whatever a secret-named member holds (a string, a list of tokens, an object) is secret.
      if (isSecretMemberName(k, extra) && x !== null && typeof x !== 'boolean') {
        o[k] = REDACTED;
        changed = true;
      } else o[k] = walk(x, depth + 1);
    }
    return o;
  };
  const result = walk(parsed, 0);
  return changed ? JSON.stringify(result) : text;
}
