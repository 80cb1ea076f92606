/**
 * The base URL every request path is appended to: absolute http(s), no credentials, no
 * query or fragment (they would end up in the middle of request URLs), no trailing slash.
 */

/**
 * The problem with a base URL, worded as "must …", or the normalised URL.
 *
 * @example
 * ```ts
 * normaliseBaseUrl('https://API.example.com/v2/'); // { ok: true, url: 'https://api.example.com/v2' }
 * normaliseBaseUrl('example.com');                 // { ok: false, problem: 'must be an absolute http:// or https:// URL (found "example.com")' }
 * ```
 */
export function normaliseBaseUrl(raw: string): { ok: true; url: string } | { ok: false; problem: string } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, problem: `must be an absolute http:// or https:// URL (found ${JSON.stringify(raw)})` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, problem: `must use http:// or https:// (found ${url.protocol}//)` };
  }
  // Credentials in a URL would be printed in every curl command and report; don't echo them.
  if (url.username !== '' || url.password !== '') {
    return { ok: false, problem: 'must not contain credentials (found user:password@); use auth.apiKey with { "env": "NAME" }' };
  }
  if (url.search !== '' || url.hash !== '') {
    // Names only: a query's values may be a key (?api_key=…), which must not be echoed.
    const shown = `${url.search === '' ? '' : `?${[...url.searchParams.keys()].map((k) => `${k}=…`).join('&')}`}${url.hash === '' ? '' : '#…'}`;
    return { ok: false, problem: `must not have a query or fragment (found ${shown})` };
  }
  return { ok: true, url: url.href.replace(/\/+$/, '') };
}
