/**
 * The registered client (one, confidential) and client authentication at the token
 * endpoint (RFC 6749 §2.3.1): HTTP Basic (`client_secret_basic`, id and secret
 * form-urlencoded before base64) or `client_id` + `client_secret` in the body
 * (`client_secret_post`), never both.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FaultName } from '../faults.js';
import { newSecret, sameSecret } from '../secrets.js';

/** The only client's id. */
export const clientId = 'restprobe-client';

/** Its one registered redirect URI: never contacted, the harness reads the Location. */
export const registeredRedirectUri = 'http://127.0.0.1/restprobe/callback';

/** What client authentication concluded. */
export type ClientAuthentication =
  | { readonly ok: true; readonly clientId: string }
  | { readonly ok: false; readonly error: 'invalid_client' | 'invalid_request'; readonly description: string };

/** Form-urlencoded decoding of one Basic credential half; undefined when it is not valid. */
function formDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** Id and secret from `Authorization: Basic …`; `null` when the header is not Basic at all. */
function basicCredentials(authorization: string | undefined): { id: string; secret: string } | undefined | null {
  const m = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(authorization ?? '');
  if (m?.[1] === undefined) return /^Basic\b/i.test(authorization ?? '') ? undefined : null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return undefined;
  const id = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  return id === undefined || secret === undefined ? undefined : { id, secret };
}

export class Clients {
  /** The client's secret: 32 random bytes, base64url. */
  readonly secret = newSecret();

  constructor(private readonly faults: ReadonlySet<FaultName>) {}

  /** Whether `id` names the registered client. */
  knows(id: string | null): id is string {
    return id === clientId;
  }

  /** Authenticates the client of a token request by either method (fault `client-secret-unchecked`: any secret). */
  authenticate(headers: IncomingHttpHeaders, form: URLSearchParams): ClientAuthentication {
    const basic = basicCredentials(headers.authorization);
    const postId = form.get('client_id');
    const postSecret = form.get('client_secret');
    if (basic === undefined) return { ok: false, error: 'invalid_client', description: 'The Basic credentials are not valid base64 of "id:secret".' };
    if (basic !== null && postSecret !== null) {
      return { ok: false, error: 'invalid_request', description: 'The client authenticated twice (Basic and client_secret); use one method.' };
    }
    const presented = basic ?? (postId !== null && postSecret !== null ? { id: postId, secret: postSecret } : undefined);
    if (presented === undefined) return { ok: false, error: 'invalid_client', description: 'The client did not authenticate (HTTP Basic, or client_id and client_secret).' };
    if (basic !== null && postId !== null && postId !== basic.id) {
      return { ok: false, error: 'invalid_client', description: 'client_id in the body differs from the authenticated client.' };
    }
    const secretRight = sameSecret(presented.secret, this.secret) || this.faults.has('client-secret-unchecked');
    if (!this.knows(presented.id) || !secretRight) return { ok: false, error: 'invalid_client', description: 'Unknown client or wrong client secret.' };
    return { ok: true, clientId: presented.id };
  }
}
