import type { HttpResponse } from '../model/context.js';

/** The `error` of an RFC 6749 §5.2 body, or undefined. */
export function oauthErrorCode(res: HttpResponse): string | undefined {
  const e = (res.json as { error?: unknown } | undefined)?.error;
  return typeof e === 'string' ? e : undefined;
}
