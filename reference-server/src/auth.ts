/**
 * API-key authentication (conventions §5.1, §5.3; RFC 6750 §3 for the challenge).
 *
 * The key travels in `X-API-Key: <key>` or `Authorization: Bearer <key>`, never in the
 * URL. Every credential the request presents must be the key; comparison is constant-time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { genericProblem, ProblemError } from './problem.js';

const realm = 'restprobe-reference';

const digest = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

/**
 * The keys that authenticate: the server's own, and those minted through `/v2/api-keys`
 * until they are deleted. Kept as SHA-256 digests: equal lengths, so timingSafeEqual
 * never leaks a length, and no key is hashed again per request.
 */
export class KeyRing {
  private readonly digests = new Map<string, Buffer>();

  constructor(primary: string) {
    this.digests.set('', digest(primary));
  }

  add(id: string, key: string): void {
    this.digests.set(id, digest(key));
  }

  remove(id: string): void {
    if (id !== '') this.digests.delete(id);
  }

  /** Constant-time against every key, so timing tells nothing of which one matched. */
  has(presented: string): boolean {
    const p = digest(presented);
    let found = false;
    for (const d of this.digests.values()) found = timingSafeEqual(p, d) || found;
    return found;
  }
}

/** The credentials a request presents, in whichever of the two accepted headers. */
function presentedKeys(headers: IncomingHttpHeaders): string[] {
  const keys: string[] = [];
  const apiKey = headers['x-api-key'];
  if (typeof apiKey === 'string') keys.push(apiKey.trim());
  const authorization = headers.authorization;
  if (authorization !== undefined) {
    // Only the Bearer scheme carries the key; the scheme name is case-insensitive.
    const bearer = /^Bearer +([^\s]+) *$/i.exec(authorization);
    if (bearer?.[1] !== undefined) keys.push(bearer[1]);
  }
  return keys;
}

/**
 * Lets the request through or throws 401 with a `WWW-Authenticate` challenge: a bare
 * `realm` when no credentials came (RFC 6750 §3.1: no error code then), and
 * `error="invalid_token"` when they came and are wrong.
 */
export function authenticate(headers: IncomingHttpHeaders, keys: KeyRing): void {
  const presented = presentedKeys(headers);
  if (presented.length === 0) {
    throw new ProblemError(
      genericProblem(
        401,
        'This request needs an API key, sent as "X-API-Key: <key>" or "Authorization: Bearer <key>".',
      ),
      { 'WWW-Authenticate': `Bearer realm="${realm}"` },
    );
  }
  if (!presented.every((key) => keys.has(key))) {
    throw new ProblemError(genericProblem(401, 'The API key sent with this request is not valid.'), {
      'WWW-Authenticate': `Bearer realm="${realm}", error="invalid_token"`,
    });
  }
}
