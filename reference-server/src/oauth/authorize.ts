/**
 * The authorization endpoint (RFC 6749 §4.1.1–4.1.2, RFC 7636 §4.3–4.4, RFC 9700 §2.1).
 *
 * GET validates the request. An unknown client or a redirect URI other than the registered
 * one gets 400 and is never redirected (the URI cannot be trusted); any other error is
 * redirected to the client with `error` and the `state` as sent. A valid request gets the
 * login page, which holds an opaque id of the pending request. POST with that id and the
 * right login redirects to the client with a code (and the state, when one was sent).
 */
import type { FaultName } from '../faults.js';
import type { Reply } from '../respond.js';
import type { Scope } from '../scopes.js';
import type { AccessTokens } from './access-tokens.js';
import { registeredRedirectUri, type Clients } from './clients.js';
import { Codes, type Challenge } from './codes.js';
import { ExpiringStore } from '../secret-store.js';
import { parameter, repeatedParameter } from './form.js';
import { loginPage } from './login-page.js';
import { problem, seeOther } from './replies.js';
import { requestedScopes } from './requested-scope.js';
import { newSecret } from '../secrets.js';
import type { Users } from './users.js';

/** A login page may be submitted for ten minutes. */
const pendingMs = 10 * 60_000;

/** RFC 7636 §4.2: a challenge is 43 to 128 unreserved characters. */
const challengePattern = /^[A-Za-z0-9._~-]{43,128}$/;

interface PendingRequest {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly scopes: readonly Scope[];
  readonly state: string | null;
  /** `token` only under fault `implicit-flow-accepted`. */
  readonly responseType: 'code' | 'token';
  readonly challenge?: Challenge;
}

/** `uri` with `params` added to its query (or, for the implicit flow, as its fragment). */
function withParams(uri: string, params: Record<string, string | null>, inFragment = false): string {
  const url = new URL(uri);
  const list = inFragment ? new URLSearchParams() : url.searchParams;
  for (const [name, value] of Object.entries(params)) if (value !== null) list.set(name, value);
  if (inFragment) url.hash = list.toString();
  return url.href;
}

/** The registered redirect URI, parsed once. */
const registered = new URL(registeredRedirectUri);

export class AuthorizationEndpoint {
  private readonly pending = new ExpiringStore<PendingRequest>(pendingMs);

  constructor(
    private readonly clients: Clients,
    private readonly users: Users,
    private readonly codes: Codes,
    private readonly tokens: AccessTokens,
    private readonly faults: ReadonlySet<FaultName>,
  ) {}

  /**
   * Whether a redirect URI may be used: the registered one exactly (fault
   * `redirect-uri-prefix-match`: any extension of it; fault `redirect-uri-extra-query`: its
   * origin and path with any query, django-oauth-toolkit's match, the registered one having none).
   */
  private redirectAllowed(uri: string | null): uri is string {
    if (uri === null) return false;
    if (uri === registeredRedirectUri) return true;
    if (!URL.canParse(uri)) return false;
    if (this.faults.has('redirect-uri-prefix-match') && uri.startsWith(registeredRedirectUri)) return true;
    if (!this.faults.has('redirect-uri-extra-query')) return false;
    const asked = new URL(uri);
    return asked.origin === registered.origin && asked.pathname === registered.pathname;
  }

  /** GET: the login page, or the error (400 here, or redirected to the client). */
  show(query: URLSearchParams): Reply {
    const clientId = query.getAll('client_id').length > 1 ? null : parameter(query, 'client_id');
    if (!this.clients.knows(clientId)) return problem(400, 'client_id is missing, repeated or names no registered client; nothing is redirected.');
    const redirectUri = query.getAll('redirect_uri').length > 1 ? null : parameter(query, 'redirect_uri');
    if (!this.redirectAllowed(redirectUri)) return problem(400, 'redirect_uri is missing, repeated or not the registered redirect URI; nothing is redirected.');
    const state = query.get('state');
    const fail = (error: string, description: string): Reply => seeOther(withParams(redirectUri, { error, error_description: description, state }));
    const repeated = repeatedParameter(query);
    if (repeated !== undefined) return fail('invalid_request', `The parameter ${repeated} is repeated.`);
    const responseType = parameter(query, 'response_type');
    if (responseType === null) return fail('invalid_request', 'response_type is missing; only "code" is supported.');
    // Fault `implicit-flow-accepted`: the implicit grant (RFC 9700 §2.1.2 forbids it) is served.
    const implicit = responseType === 'token' && this.faults.has('implicit-flow-accepted');
    if (responseType !== 'code' && !implicit) return fail('unsupported_response_type', 'Only response_type=code is supported.');
    let challenge: Challenge | undefined;
    if (!implicit) {
      const value = parameter(query, 'code_challenge');
      // A missing method means plain (RFC 7636 §4.3), which is refused too.
      const method = parameter(query, 'code_challenge_method') ?? 'plain';
      if (value === null) {
        // Fault `pkce-optional`: a request without PKCE is served.
        if (!this.faults.has('pkce-optional')) return fail('invalid_request', 'code_challenge is required (PKCE, RFC 7636).');
      } else {
        const methodAccepted = method === 'S256' || (method === 'plain' && this.faults.has('pkce-plain-accepted'));
        if (!methodAccepted) return fail('invalid_request', 'code_challenge_method must be S256.');
        if (!challengePattern.test(value)) return fail('invalid_request', 'code_challenge must be 43 to 128 unreserved characters.');
        challenge = { value, method };
      }
    }
    const scopes = requestedScopes(parameter(query, 'scope'));
    if (scopes === undefined) return fail('invalid_scope', 'scope asks for something malformed or not granted (scopes are <read|write>:<resource or *>).');
    const request = newSecret(24);
    this.pending.set(request, { clientId, redirectUri, scopes, state, responseType: implicit ? 'token' : 'code', ...(challenge && { challenge }) });
    return loginPage({ request, clientId, scopes }, 200);
  }

  /** POST: checks the login, then redirects to the client with a code. */
  async submit(form: URLSearchParams): Promise<Reply> {
    const request = parameter(form, 'request');
    const pending = request === null ? undefined : this.pending.get(request);
    if (request === null || pending === undefined) return problem(400, 'The login form is unknown, expired or already used; start the authorization again.');
    const userId = this.users.login(form.get('username') ?? '', form.get('password') ?? '');
    if (userId === undefined) return loginPage({ request, clientId: pending.clientId, scopes: pending.scopes, error: 'Wrong username or password.' }, 401);
    this.pending.delete(request);
    // Fault `state-dropped`: the state never comes back.
    const state = this.faults.has('state-dropped') ? null : pending.state;
    if (pending.responseType === 'token') {
      const issued = await this.tokens.issue({ sub: userId, clientId: pending.clientId, scopes: pending.scopes });
      const params = { access_token: issued.token, token_type: 'Bearer', expires_in: String(issued.expiresIn), scope: pending.scopes.join(' '), state };
      return seeOther(withParams(pending.redirectUri, params, true));
    }
    const code = this.codes.issue({ clientId: pending.clientId, redirectUri: pending.redirectUri, userId, scopes: pending.scopes, ...(pending.challenge && { challenge: pending.challenge }) });
    return seeOther(withParams(pending.redirectUri, { code, state }));
  }
}
