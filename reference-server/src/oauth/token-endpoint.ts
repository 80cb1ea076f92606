/**
 * The token endpoint (RFC 6749 §3.2, §4.1.3, §4.4, §6; RFC 7636 §4.5–4.6): form bodies in,
 * JSON out, `Cache-Control: no-store` and `Pragma: no-cache` on every answer (§5.1), and
 * §5.2 error bodies (`error`, `error_description`; not problem+json). The grant type is
 * looked at before the client: an unsupported one gets `unsupported_grant_type` whoever asks.
 */
import type { IncomingMessage } from 'node:http';
import type { FaultName } from '../faults.js';
import type { Reply } from '../respond.js';
import type { Scope } from '../scopes.js';
import type { AccessTokens } from './access-tokens.js';
import type { Clients } from './clients.js';
import { verifierMatches, type Codes } from './codes.js';
import { FormError, parameter, readForm, repeatedParameter } from './form.js';
import type { RefreshFamilies } from './refresh-families.js';
import { json } from './replies.js';
import { requestedScopes } from './requested-scope.js';
import type { Users } from './users.js';

/** The grants served; `password` joins them only under fault `password-grant-accepted`. */
const grantTypes = ['authorization_code', 'client_credentials', 'refresh_token'] as const;

/** A grant type the server knows of and refuses (RFC 9700 §2.4), as opposed to an unknown one. */
const refusedGrantTypes = ['password', 'implicit'];

/** The `WWW-Authenticate` of a 401 invalid_client (RFC 6749 §5.2). */
export const clientChallenge = 'Basic realm="restprobe-reference"';

export class TokenEndpoint {
  constructor(
    private readonly clients: Clients,
    private readonly users: Users,
    private readonly codes: Codes,
    private readonly families: RefreshFamilies,
    private readonly tokens: AccessTokens,
    private readonly faults: ReadonlySet<FaultName>,
  ) {}

  /** The cache headers every answer carries (fault `token-response-cacheable`: cacheable for 5 minutes). */
  headers(): Record<string, string> {
    return this.faults.has('token-response-cacheable') ? { 'Cache-Control': 'max-age=300' } : { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
  }

  /** A §5.2 error. */
  error(status: number, error: string, description: string, headers: Record<string, string> = {}): Reply {
    return json(status, { error, error_description: description }, { ...this.headers(), ...headers });
  }

  async answer(req: IncomingMessage): Promise<Reply> {
    let form: URLSearchParams;
    try {
      form = await readForm(req);
    } catch (e) {
      if (e instanceof FormError) return this.error(400, 'invalid_request', e.message);
      throw e;
    }
    const repeated = repeatedParameter(form);
    if (repeated !== undefined) return this.error(400, 'invalid_request', `The parameter ${repeated} is repeated.`);
    const grantType = parameter(form, 'grant_type');
    if (grantType === null) return this.error(400, 'invalid_request', 'grant_type is missing.');
    const passwordGrant = grantType === 'password' && this.faults.has('password-grant-accepted');
    if (!(grantTypes as readonly string[]).includes(grantType) && !passwordGrant) {
      // Fault `unknown-grant-500`: a grant type nobody planned for crashes the handler.
      if (this.faults.has('unknown-grant-500') && !refusedGrantTypes.includes(grantType)) return this.error(500, 'server_error', 'The server failed to handle this request.');
      return this.error(400, 'unsupported_grant_type', 'Supported grant types: authorization_code, client_credentials, refresh_token.');
    }
    const client = this.clients.authenticate(req.headers, form);
    if (!client.ok) return client.error === 'invalid_client' ? this.error(401, 'invalid_client', client.description, { 'WWW-Authenticate': clientChallenge }) : this.error(400, client.error, client.description);
    if (grantType === 'client_credentials') return this.clientCredentials(form, client.clientId);
    if (grantType === 'authorization_code') return this.authorizationCode(form, client.clientId);
    if (grantType === 'refresh_token') return this.refresh(form, client.clientId);
    return this.password(form, client.clientId);
  }

  /** RFC 6749 §4.4: an access token for the client itself, no refresh token. */
  private async clientCredentials(form: URLSearchParams, clientId: string): Promise<Reply> {
    const scopes = requestedScopes(parameter(form, 'scope'));
    if (scopes === undefined) return this.invalidScope();
    return this.success({ sub: clientId, clientId, scopes });
  }

  private async authorizationCode(form: URLSearchParams, clientId: string): Promise<Reply> {
    const code = parameter(form, 'code');
    const redirectUri = parameter(form, 'redirect_uri');
    if (code === null || redirectUri === null) return this.error(400, 'invalid_request', `${code === null ? 'code' : 'redirect_uri'} is missing.`);
    const redemption = this.codes.redeem(code, clientId);
    if (!redemption.ok) {
      if (redemption.replayedFamily !== undefined) this.families.revoke(redemption.replayedFamily);
      return this.error(400, 'invalid_grant', redemption.description);
    }
    const { grant } = redemption;
    // RFC 6749 §4.1.3: the same redirect_uri as in the authorization request.
    if (redirectUri !== grant.redirectUri) return this.error(400, 'invalid_grant', 'redirect_uri differs from the authorization request.');
    const verifier = parameter(form, 'code_verifier');
    // Fault `pkce-verifier-unchecked`: any verifier, or none, redeems the code.
    if (grant.challenge !== undefined && !this.faults.has('pkce-verifier-unchecked') && (verifier === null || !verifierMatches(grant.challenge, verifier))) {
      return this.error(400, 'invalid_grant', 'code_verifier is missing or does not match the code_challenge.');
    }
    const started = this.families.start({ clientId, userId: grant.userId, scopes: grant.scopes });
    redemption.settle(started.family);
    return this.success({ sub: grant.userId, clientId, scopes: grant.scopes }, started.refreshToken);
  }

  /** RFC 6749 §6, with rotation (RFC 9700 §4.14.2); `scope` may narrow, never widen. */
  private async refresh(form: URLSearchParams, clientId: string): Promise<Reply> {
    const token = parameter(form, 'refresh_token');
    if (token === null) return this.error(400, 'invalid_request', 'refresh_token is missing.');
    const refreshed = this.families.refresh(token, clientId);
    if (!refreshed.ok) return this.error(400, 'invalid_grant', refreshed.description);
    const scopes = requestedScopes(parameter(form, 'scope'), refreshed.grant.scopes);
    if (scopes === undefined) return this.invalidScope();
    return this.success({ sub: refreshed.grant.userId, clientId, scopes }, refreshed.refreshToken);
  }

  /** Fault `password-grant-accepted`: the resource owner password grant, which RFC 9700 §2.4 forbids. */
  private async password(form: URLSearchParams, clientId: string): Promise<Reply> {
    const userId = this.users.login(form.get('username') ?? '', form.get('password') ?? '');
    if (userId === undefined) return this.error(400, 'invalid_grant', 'Wrong username or password.');
    const scopes = requestedScopes(parameter(form, 'scope'));
    if (scopes === undefined) return this.invalidScope();
    return this.success({ sub: userId, clientId, scopes });
  }

  private invalidScope(): Reply {
    return this.error(400, 'invalid_scope', 'scope asks for something malformed or not granted (scopes are <read|write>:<resource or *>).');
  }

  private async success(grant: { sub: string; clientId: string; scopes: readonly Scope[] }, refreshToken?: string): Promise<Reply> {
    const issued = await this.tokens.issue(grant);
    const body = {
      access_token: issued.token,
      token_type: 'Bearer',
      expires_in: issued.expiresIn,
      scope: grant.scopes.join(' '),
      ...(refreshToken !== undefined && { refresh_token: refreshToken }),
    };
    return json(200, body, this.headers());
  }
}
