/**
 * The revocation endpoint (RFC 7009): a client revokes a refresh token it holds, and with it
 * the token's whole family, so a harness leaves no live grant behind. Form bodies in, the
 * client authenticated as at the token endpoint, 200 with no body for a revoked token and
 * for one the server does not know (§2.2: an invalid token is no error), §5.2 error bodies
 * otherwise. Access tokens are self-contained JWTs and expire in minutes: presenting one
 * revokes nothing, and is answered 200 like any token the server keeps no state for.
 */
import type { IncomingMessage } from 'node:http';
import type { Reply } from '../respond.js';
import type { Clients } from './clients.js';
import { FormError, parameter, readForm, repeatedParameter } from './form.js';
import type { RefreshFamilies } from './refresh-families.js';
import { json } from './replies.js';
import { clientChallenge } from './token-endpoint.js';

const noStore = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/** A §5.2 error, as RFC 7009 §2.2.1 says. */
function error(status: number, code: string, description: string, headers: Record<string, string> = {}): Reply {
  return json(status, { error: code, error_description: description }, { ...noStore, ...headers });
}

export class RevocationEndpoint {
  constructor(
    private readonly clients: Clients,
    private readonly families: RefreshFamilies,
  ) {}

  async answer(req: IncomingMessage): Promise<Reply> {
    let form: URLSearchParams;
    try {
      form = await readForm(req);
    } catch (e) {
      if (e instanceof FormError) return error(400, 'invalid_request', e.message);
      throw e;
    }
    const repeated = repeatedParameter(form);
    if (repeated !== undefined) return error(400, 'invalid_request', `The parameter ${repeated} is repeated.`);
    const client = this.clients.authenticate(req.headers, form);
    if (!client.ok) return client.error === 'invalid_client' ? error(401, 'invalid_client', client.description, { 'WWW-Authenticate': clientChallenge }) : error(400, client.error, client.description);
    const token = parameter(form, 'token');
    if (token === null) return error(400, 'invalid_request', 'token is missing.');
    if (!this.families.revokeToken(token, client.clientId)) return error(400, 'invalid_request', 'The token was issued to another client.');
    return { status: 200, headers: noStore };
  }
}
