/**
 * Test support: a stand-in OAuth 2.0 authorization server and resource server on
 * 127.0.0.1:0, implementing the issue-14 contract (tokens-contract.md) with switches for
 * how real servers differ without breaking a rule (opaque tokens, client_secret_post with
 * 400 invalid_client, a lower-case token_type, a 400 page for the implicit grant, OIDC
 * discovery only, HS256, a session cookie during login) and for each violation the
 * reference server's faults name. It remembers every secret it hands out, so a test can
 * look for them in reports.
 *
 * Routes: the metadata, `/oauth/jwks`, `/oauth/authorize` (GET: a login page; POST: the
 * login), `/oauth/token`, and `GET /v2/projects` (and `/v2/projects/{id}`, none of which exists) and
 * `GET /v2/tasks` (the resources, Bearer only).
 */
import { createHash, createHmac, createPublicKey, randomBytes, timingSafeEqual, type JsonWebKey } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { compactVerify, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

/** The violations, named as the reference server's faults are. */
export type OAuthViolation =
  | 'jwt-alg-none-accepted' | 'jwt-key-confusion' | 'jwt-signature-unchecked' | 'jwt-exp-unchecked' | 'jwt-nbf-unchecked' | 'jwt-iss-unchecked' | 'jwt-aud-unchecked' | 'jwt-scope-ignored'
  | 'token-lifetime-24h' | 'jwt-pii-in-claims' | 'jwt-no-typ' | 'jwt-claims-missing' | 'token-response-cacheable' | 'client-secret-unchecked' | 'unknown-grant-500' | 'password-grant-accepted'
  | 'implicit-flow-accepted' | 'pkce-optional' | 'pkce-plain-accepted' | 'pkce-verifier-unchecked' | 'code-reusable' | 'state-dropped' | 'redirect-uri-prefix-match' | 'redirect-uri-subdirectory'
  | 'refresh-not-rotated' | 'old-refresh-still-valid' | 'refresh-reuse-no-revoke';

export interface OAuthServerOptions {
  readonly violations?: readonly OAuthViolation[];
  /** Opaque access tokens (the resource server looks them up). */
  readonly opaque?: boolean;
  /** Only client_secret_post, and invalid_client as 400 (RFC 6749 §5.2 allows it without Basic). */
  readonly postOnly?: boolean;
  readonly lowerCaseTokenType?: boolean;
  /** `response_type=token` gets a 400 page instead of an error redirect. */
  readonly implicit400?: boolean;
  /** Only `/.well-known/openid-configuration`. */
  readonly oidcOnly?: boolean;
  /** No metadata at all (the config must name the endpoints). */
  readonly noMetadata?: boolean;
  readonly alg?: 'RS256' | 'HS256';
  /** A code presented twice is refused, but the tokens of its first use stay valid (RFC 6749 §4.1.2: SHOULD revoke). */
  readonly keepTokensOnCodeReuse?: boolean;
  /** The login page sets a cookie the login POST must carry. */
  readonly loginCookie?: boolean;
  /** Tokens carry an Auth0-style `permissions` array, and the resource server authorizes by it alone. */
  readonly authorizeByPermissions?: boolean;
  /** The issuer is the origin with this path (Keycloak's `/realms/<name>`). */
  readonly issuerPath?: string;
  /** invalid_grant errors get this status (Auth0 sends 403). */
  readonly invalidGrantStatus?: number;
  /** How a reused (rotated-out) refresh token is refused, instead of 400 invalid_grant: Ory Hydra's older 401 token_inactive. */
  readonly reusedRefreshError?: { readonly status: number; readonly error: string };
  /** Keycloak's extra claims on a service account's token: `email_verified: false`, `clientAddress`, `clientHost`, `preferred_username`, `azp`. */
  readonly keycloakClaims?: boolean;
  /** An invalid token gets 400 with an invalid_token challenge (RFC 6750 §3.1 says SHOULD 401; the conventions say 401). */
  readonly invalidToken400?: boolean;
  /** Access tokens carry no nbf, as oidc-provider's do by default (RFC 7519 makes it optional; RFC 9068 leaves it out). */
  readonly noNbf?: boolean;
  /** The resource server's 401s carry no WWW-Authenticate challenge. */
  readonly noChallenge?: boolean;
  /** A request without credentials gets 403 (forged ones still get 401 with a challenge). */
  readonly missingCredentials403?: boolean;
  /** Token responses form-encoded (`access_token=…&token_type=bearer`), as GitHub's answers without `Accept: application/json` (RFC 6749 §5.1 says JSON). */
  readonly formEncodedTokens?: boolean;
  /** Token responses carry no expires_in (RFC 6749 §5.1: RECOMMENDED only). */
  readonly noExpiresIn?: boolean;
  /** The metadata's token_endpoint is no URL. */
  readonly brokenMetadata?: boolean;
  /** The authorization endpoint redirects to a Location that is no URL. */
  readonly brokenLocation?: boolean;
  /**
   * A code requested without a challenge is issued, and redeemed only with some
   * code_verifier, unchecked: PKCE looks required, but the downgrade RFC 9700 §4.8.2
   * forbids goes through.
   */
  readonly pkceDowngrade?: boolean;
  /** Authorization requests and client-credentials grants without `audience=<this>` are refused, as an Auth0 tenant without a default audience does. */
  readonly requireAudience?: string;
  /** After the login a consent page asks to approve the client (Keycloak's: submit buttons accept, then cancel); only accept issues the code. */
  readonly consentPage?: boolean;
  /** Logins it takes before it locks the user out (brute-force protection, as Keycloak's): the login page comes back with 401 after that many. */
  readonly lockoutAfterLogins?: number;
  /** A wrong client secret gets 401 unauthorized_client, as Keycloak answers it. */
  readonly unauthorizedClientForBadSecret?: boolean;
  /** The client may not use client credentials: 400 unauthorized_client (Keycloak without a service account, Auth0 without the grant). */
  readonly noClientCredentials?: boolean;
  /** `GET /v2/tasks` takes any bearer value that decodes as a JWT, verifying nothing (a second route with its own, broken, middleware). */
  readonly looseTasksRoute?: boolean;
  /** GET /v2/tasks needs no token and reads none ([AllowAnonymous], NestJS @Public()): 200 to anyone, whatever Authorization says. */
  readonly publicTasks?: boolean;
  /**
   * The client is public (a single-page or mobile app): its token requests carry client_id
   * alone, a secret is refused, and client credentials are not its grant (unauthorized_client).
   */
  readonly publicClient?: boolean;
  /** The code flow's tokens (a user's) differ from the client-credentials ones: they live `seconds`, or carry the user's email and name. */
  readonly userTokens?: { readonly seconds?: number; readonly personalData?: boolean };
  /** Access tokens (and expires_in) live this many seconds instead of 600. */
  readonly tokenSeconds?: number;
  /** expires_in says this many seconds fewer than the token lives: the seconds left when the answer was written (Spring Authorization Server's 299 for 300). */
  readonly expiresInElapsed?: number;
  /** How many seconds past exp (and before nbf) the resource server still takes a token; default 5. */
  readonly leewaySeconds?: number;
  /** Each access token carries the client id (`client_id`, `azp`) after a `pad` claim of 0, 1 or 2 characters in turn, so the id's base64url lands at every alignment (as `Basic base64(id:secret)` holds it). */
  readonly clientIdAtEveryAlignment?: boolean;
  /** A refresh with a token of a family revoked for reuse drops the connection, unanswered (a crashing handler behind a proxy). */
  readonly dropRevokedFamilyRefresh?: boolean;
}

export interface OAuthServer {
  readonly url: string;
  readonly redirectUri: string;
  /** The env a config for it reads: RESTPROBE_OAUTH_CLIENT_ID, …_CLIENT_SECRET, …_USERNAME, …_PASSWORD, RESTPROBE_JWT_TEST_KEY. */
  readonly env: Record<string, string>;
  /** Every code, token and refresh token handed out so far. */
  readonly issued: readonly string[];
  /** The grant_type of every token request that issued tokens, in order. */
  readonly grants: readonly string[];
  close(): Promise<void>;
}

const redirectUri = 'http://127.0.0.1/restprobe/callback';
const clientId = 'restprobe-client';
const username = 'probe-user';
const realm = 'restprobe-stand-in';

interface Pending { readonly loggedIn?: boolean; readonly responseType: string; readonly redirectUri: string; readonly state?: string; readonly challenge?: string; readonly method?: string; readonly scope: string; readonly cookie?: string }
interface CodeGrant { readonly pending: Pending; used: boolean; family?: string }
interface Refresh { readonly family: string; active: boolean }

type Key = Parameters<SignJWT['sign']>[0];

const rand = (n = 24): string => randomBytes(n).toString('base64url');

async function body(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

const same = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * @example
 * ```ts
 * const as = await startOAuthServer({ opaque: true });
 * // config: auth.oauth with clientId { env: RESTPROBE_OAUTH_CLIENT_ID } …, env: as.env
 * ```
 */
/**
 * One RSA key pair for every stand-in of the process (each has its own `kid`): a 2048-bit pair
 * takes about 0.15 s of CPU to make, and the token tests start some eighty stand-ins.
 */
let rsaPair: ReturnType<typeof generateKeyPair> | undefined;

export async function startOAuthServer(opts: OAuthServerOptions = {}): Promise<OAuthServer> {
  const has = (v: OAuthViolation): boolean => opts.violations?.includes(v) ?? false;
  const alg = opts.alg ?? 'RS256';
  const clientSecret = rand();
  const password = rand(12);
  /** Logins taken so far (lockoutAfterLogins). */
  let logins = 0;
  const issued: string[] = [];
  const grants: string[] = [];
  const kid = rand(6);
  let signKey: Key;
  let verifyKey: Key;
  let privateJwk: JWK;
  let publicJwk: JWK | undefined;
  if (alg === 'RS256') {
    const pair = await (rsaPair ??= generateKeyPair('RS256', { extractable: true }));
    signKey = pair.privateKey;
    verifyKey = pair.publicKey;
    privateJwk = { ...(await exportJWK(pair.privateKey)), kid, alg };
    publicJwk = { ...(await exportJWK(pair.publicKey)), kid, alg, use: 'sig' };
  } else {
    const secret = randomBytes(32);
    signKey = verifyKey = secret;
    privateJwk = { kty: 'oct', k: secret.toString('base64url'), kid, alg };
  }
  const publicPem = publicJwk && createPublicKey({ key: publicJwk as JsonWebKey, format: 'jwk' }).export({ type: 'spki', format: 'pem' }).toString();

  const pending = new Map<string, Pending>();
  const codes = new Map<string, CodeGrant>();
  const refreshes = new Map<string, Refresh>();
  const revokedFamilies = new Set<string>();
  const opaque = new Map<string, { exp: number; scope: string }>();
  let origin = '';
  let issuer = '';

  const issue = (v: string): string => (issued.push(v), v);

  /** How long a token for `sub` lives, in seconds. */
  const lifeOf = (sub: string): number => (has('token-lifetime-24h') ? 86_400 : ((sub === username ? opts.userTokens?.seconds : undefined) ?? opts.tokenSeconds ?? 600));

  async function accessToken(sub: string, scope: string): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const user = sub === username;
    const life = lifeOf(sub);
    if (opts.opaque) {
      const t = issue(rand(32));
      opaque.set(t, { exp: now + life, scope });
      return t;
    }
    // A pad claim first shifts every later claim, the client id's too, by 0, 1 or 2 bytes in turn.
    const pad = opts.clientIdAtEveryAlignment ? { pad: 'x'.repeat(issued.length % 3), azp: clientId } : {};
    const claims: Record<string, unknown> = { ...pad, iss: issuer, sub, aud: `${origin}/v2`, exp: now + life, iat: now, nbf: now, scope, client_id: clientId, jti: rand(8) };
    if (has('jwt-claims-missing')) delete claims.aud, delete claims.nbf;
    if (opts.noNbf) delete claims.nbf;
    if (opts.keycloakClaims) Object.assign(claims, { typ: 'Bearer', azp: clientId, email_verified: false, clientHost: '127.0.0.1', clientAddress: '127.0.0.1', preferred_username: `service-account-${clientId}` });
    if (opts.authorizeByPermissions) claims.permissions = scope.split(' ').map((s) => s.replace('*', 'projects'));
    if (has('jwt-pii-in-claims') || (user && opts.userTokens?.personalData)) Object.assign(claims, { email: 'probe.user@example.com', name: 'Probe User' });
    const header = { alg, kid, ...(!has('jwt-no-typ') && { typ: 'at+jwt' }) };
    return issue(await new SignJWT(claims).setProtectedHeader(header).sign(signKey));
  }

  async function tokenAnswer(res: ServerResponse, sub: string, scope: string, withRefresh: string | undefined): Promise<void> {
    const out: Record<string, unknown> = { access_token: await accessToken(sub, scope), token_type: opts.lowerCaseTokenType ? 'bearer' : 'Bearer', expires_in: lifeOf(sub) - (opts.expiresInElapsed ?? 0), scope };
    if (opts.noExpiresIn) delete out.expires_in;
    if (withRefresh !== undefined) {
      const r = issue(rand(32));
      refreshes.set(r, { family: withRefresh, active: true });
      out.refresh_token = r;
    }
    if (opts.formEncodedTokens) {
      res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded', 'cache-control': 'no-store' }).end(new URLSearchParams(Object.entries(out).map(([k, v]): [string, string] => [k, String(v)])).toString());
      return;
    }
    tokenJson(res, 200, out);
  }

  function tokenJson(res: ServerResponse, status: number, value: unknown, extra: Record<string, string> = {}): void {
    const cache = has('token-response-cacheable') ? { 'cache-control': 'max-age=300' } : { 'cache-control': 'no-store', pragma: 'no-cache' };
    res.writeHead(status, { 'content-type': 'application/json', ...cache, ...extra }).end(JSON.stringify(value));
  }
  const tokenError = (res: ServerResponse, error: string, status = error === 'invalid_grant' ? (opts.invalidGrantStatus ?? 400) : 400, extra: Record<string, string> = {}): void => tokenJson(res, status, { error, error_description: error.replace(/_/g, ' ') }, extra);

  const loginPage = (res: ServerResponse, id: string, status = 200, cookie?: string): void => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...(cookie && { 'set-cookie': `as_session=${cookie}; HttpOnly; Path=/` }) });
    res.end(`<!doctype html><title>Log in</title><form method="post" action="authorize"><input type="hidden" name="request" value="${id}"><input name="username"><input type="password" name="password"><button>Log in</button></form>`);
  };

  function errorRedirect(res: ServerResponse, uri: string, error: string, state: string | null): void {
    const u = new URL(uri);
    u.searchParams.set('error', error);
    if (state !== null) u.searchParams.set('state', state);
    res.writeHead(303, { location: u.href }).end();
  }

  function authorizeGet(url: URL, res: ServerResponse): void {
    const q = url.searchParams;
    if (opts.brokenLocation) return void res.writeHead(302, { location: 'http://[::1' }).end();
    const uri = q.get('redirect_uri') ?? '';
    // redirect-uri-subdirectory: GitHub's OAuth apps take any path below the callback URL's.
    const uriOk = uri === redirectUri || (has('redirect-uri-prefix-match') && uri.startsWith(redirectUri)) || (has('redirect-uri-subdirectory') && uri.startsWith(`${redirectUri.replace(/\/$/, '')}/`));
    if (q.get('client_id') !== clientId || !uriOk) {
      res.writeHead(400, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ title: 'Bad authorization request', status: 400 }));
      return;
    }
    const state = q.get('state');
    const type = q.get('response_type');
    if (type === 'token' && !has('implicit-flow-accepted')) {
      if (opts.implicit400) res.writeHead(400, { 'content-type': 'text/html' }).end('<p>unsupported response type</p>');
      else errorRedirect(res, uri, 'unsupported_response_type', state);
      return;
    }
    if (type !== 'code' && type !== 'token') return errorRedirect(res, uri, 'unsupported_response_type', state);
    if (opts.requireAudience !== undefined && q.get('audience') !== opts.requireAudience) return errorRedirect(res, uri, 'invalid_request', state);
    const challenge = q.get('code_challenge') ?? undefined;
    const method = q.get('code_challenge_method') ?? 'plain';
    if (type === 'code' && challenge === undefined && !has('pkce-optional') && !opts.pkceDowngrade) return errorRedirect(res, uri, 'invalid_request', state);
    if (type === 'code' && challenge !== undefined && method !== 'S256' && !(method === 'plain' && has('pkce-plain-accepted'))) return errorRedirect(res, uri, 'invalid_request', state);
    const id = rand();
    const cookie = opts.loginCookie ? rand() : undefined;
    pending.set(id, { responseType: type, redirectUri: uri, ...(state !== null && { state }), ...(challenge !== undefined && { challenge, method }), scope: q.get('scope') ?? 'read:* write:*', ...(cookie && { cookie }) });
    loginPage(res, id, 200, cookie);
  }

  async function authorizePost(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await body(req);
    const id = form.get('request') ?? '';
    const p = pending.get(id);
    if (p === undefined || (p.cookie !== undefined && !(req.headers.cookie ?? '').includes(`as_session=${p.cookie}`))) {
      res.writeHead(400, { 'content-type': 'text/html' }).end('<p>unknown request</p>');
      return;
    }
    const consenting = form.has('accept') || form.has('cancel');
    if (consenting) {
      if (!form.has('accept') || form.has('cancel') || !p.loggedIn) return errorRedirect(res, p.redirectUri, 'access_denied', p.state ?? null);
    } else {
      if (form.get('username') !== username || form.get('password') !== password) return loginPage(res, id, 401);
      if (opts.lockoutAfterLogins !== undefined && logins++ >= opts.lockoutAfterLogins) return loginPage(res, id, 401);
      if (opts.consentPage) {
        pending.set(id, { ...p, loggedIn: true });
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<h1>Allow restprobe?</h1><form method="post" action="/oauth/authorize"><input type="hidden" name="request" value="${id}"><input type="submit" name="accept" value="Yes"><input type="submit" name="cancel" value="No"></form>`);
        return;
      }
    }
    pending.delete(id);
    const u = new URL(p.redirectUri);
    const state = has('state-dropped') ? undefined : p.state;
    if (p.responseType === 'token') {
      const frag = new URLSearchParams({ access_token: await accessToken(username, p.scope), token_type: 'Bearer', ...(state !== undefined && { state }) });
      res.writeHead(303, { location: `${u.href}#${frag}` }).end();
      return;
    }
    const code = issue(rand());
    codes.set(code, { pending: p, used: false });
    u.searchParams.set('code', code);
    if (state !== undefined) u.searchParams.set('state', state);
    res.writeHead(303, { location: u.href }).end();
  }

  /** The authenticated client, or undefined after answering invalid_client. */
  function client(req: IncomingMessage, res: ServerResponse, form: URLSearchParams): boolean {
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
    // A public client identifies itself (RFC 6749 §3.2.1) and has no secret to present.
    if (opts.publicClient) {
      if (form.get('client_id') === clientId && basic === null && !form.has('client_secret')) return true;
      tokenError(res, 'invalid_client', 400);
      return false;
    }
    let id: string | null;
    let secret: string | null;
    if (basic && !opts.postOnly) {
      const [i = '', s = ''] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':');
      [id, secret] = [decodeURIComponent(i.replace(/\+/g, ' ')), decodeURIComponent(s.replace(/\+/g, ' '))];
    } else [id, secret] = [form.get('client_id'), form.get('client_secret')];
    if (id === clientId && secret !== null && (same(secret, clientSecret) || has('client-secret-unchecked'))) return true;
    if (opts.unauthorizedClientForBadSecret && id === clientId) tokenError(res, 'unauthorized_client', 401, { 'www-authenticate': `Basic realm="${realm}"` });
    else if (opts.postOnly) tokenError(res, 'invalid_client', 400);
    else tokenError(res, 'invalid_client', 401, { 'www-authenticate': `Basic realm="${realm}"` });
    return false;
  }

  function revoke(family: string | undefined): void {
    if (family === undefined) return;
    revokedFamilies.add(family);
  }

  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await body(req);
    if (!client(req, res, form)) return;
    const grant = form.get('grant_type');
    res.on('finish', () => void (res.statusCode === 200 && grants.push(grant ?? '')));
    if (grant === 'client_credentials' && (opts.noClientCredentials || opts.publicClient)) return tokenError(res, 'unauthorized_client');
    if (grant === 'client_credentials' && opts.requireAudience !== undefined && form.get('audience') !== opts.requireAudience) return tokenError(res, 'invalid_request');
    if (grant === 'client_credentials') return tokenAnswer(res, clientId, form.get('scope') ?? 'read:* write:*', undefined);
    if (grant === 'authorization_code') {
      const c = codes.get(form.get('code') ?? '');
      if (c === undefined || c.pending.redirectUri !== form.get('redirect_uri')) return tokenError(res, 'invalid_grant');
      if (c.used && !has('code-reusable')) {
        if (!opts.keepTokensOnCodeReuse) revoke(c.family);
        return tokenError(res, 'invalid_grant');
      }
      const verifier = form.get('code_verifier');
      const { challenge, method } = c.pending;
      if (challenge === undefined && opts.pkceDowngrade && verifier === null) return tokenError(res, 'invalid_grant');
      if (challenge !== undefined && !has('pkce-verifier-unchecked')) {
        const ok = verifier !== null && (method === 'plain' ? verifier === challenge : createHash('sha256').update(verifier).digest('base64url') === challenge);
        if (!ok) return tokenError(res, 'invalid_grant');
      }
      c.used = true;
      c.family = rand(8);
      return tokenAnswer(res, username, c.pending.scope, c.family);
    }
    if (grant === 'refresh_token') {
      const r = refreshes.get(form.get('refresh_token') ?? '');
      if (r !== undefined && revokedFamilies.has(r.family) && opts.dropRevokedFamilyRefresh) {
        res.destroy();
        return;
      }
      if (r === undefined || revokedFamilies.has(r.family)) return tokenError(res, 'invalid_grant');
      if (!r.active) {
        if (!has('refresh-reuse-no-revoke')) revoke(r.family);
        return opts.reusedRefreshError ? tokenError(res, opts.reusedRefreshError.error, opts.reusedRefreshError.status) : tokenError(res, 'invalid_grant');
      }
      if (has('refresh-not-rotated')) return tokenAnswer(res, username, 'read:* write:*', undefined);
      if (!has('old-refresh-still-valid')) r.active = false;
      return tokenAnswer(res, username, 'read:* write:*', r.family);
    }
    // A server that runs the grant refuses a wrong login with invalid_grant (RFC 6749 §5.2).
    if (grant === 'password' && has('password-grant-accepted')) return form.get('username') === username && form.get('password') === password ? tokenAnswer(res, username, 'read:* write:*', undefined) : tokenError(res, 'invalid_grant');
    if (grant === null) return tokenError(res, 'invalid_request');
    if (has('unknown-grant-500') && grant !== 'password') {
      res.writeHead(500).end();
      return;
    }
    tokenError(res, 'unsupported_grant_type');
  }

  /** The claims of a valid token, 'invalid', or 'scope' when it lacks the read scope. */
  async function bearer(token: string): Promise<'ok' | 'invalid' | 'scope'> {
    const now = Math.floor(Date.now() / 1000);
    let claims: Record<string, unknown>;
    if (opts.opaque) {
      const t = opaque.get(token);
      if (t === undefined || t.exp <= now) return 'invalid';
      claims = { scope: t.scope };
    } else {
      const parts = token.split('.');
      if (parts.length !== 3) return 'invalid';
      let header: { alg?: string };
      try {
        header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as { alg?: string };
        claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
      } catch {
        return 'invalid';
      }
      // Decoding without verifying still pins the algorithm: only the signature goes unchecked.
      if (has('jwt-signature-unchecked') && header.alg !== alg) return 'invalid';
      const confused = has('jwt-key-confusion') && header.alg === 'HS256' && publicPem !== undefined && createHmac('sha256', publicPem).update(`${parts[0]}.${parts[1]}`).digest('base64url') === parts[2];
      const unsigned = has('jwt-alg-none-accepted') && header.alg?.toLowerCase() === 'none';
      if (!confused && !unsigned && !has('jwt-signature-unchecked')) {
        try {
          await compactVerify(token, verifyKey, { algorithms: [alg] });
        } catch {
          return 'invalid';
        }
      }
      const tolerance = opts.leewaySeconds ?? 5;
      if (!has('jwt-exp-unchecked') && (typeof claims.exp !== 'number' || now >= claims.exp + tolerance)) return 'invalid';
      if (!has('jwt-nbf-unchecked') && typeof claims.nbf === 'number' && now < claims.nbf - tolerance) return 'invalid';
      if (!has('jwt-iss-unchecked') && claims.iss !== issuer) return 'invalid';
      const aud = claims.aud;
      const audMissingAllowed = has('jwt-claims-missing') && aud === undefined;
      if (!has('jwt-aud-unchecked') && !audMissingAllowed && !(aud === `${origin}/v2` || (Array.isArray(aud) && aud.includes(`${origin}/v2`)))) return 'invalid';
    }
    const scopes = opts.authorizeByPermissions && !opts.opaque ? (Array.isArray(claims.permissions) ? claims.permissions.map(String) : []) : String(claims.scope ?? '').split(' ');
    return has('jwt-scope-ignored') || scopes.includes('read:*') || scopes.includes('read:projects') ? 'ok' : 'scope';
  }

  /** Whether a bearer value's payload decodes as JSON (all the loose route asks). */
  function decodes(authorization: string | undefined): boolean {
    try {
      return typeof JSON.parse(Buffer.from((authorization ?? '').split('.')[1] ?? '', 'base64url').toString('utf8')) === 'object';
    } catch {
      return false;
    }
  }

  /** A listing, or with `item` one project, which none is: 404 once the token is taken. */
  async function resource(req: IncomingMessage, res: ServerResponse, item = false): Promise<void> {
    const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    const verdict = m ? await bearer(m[1]!) : 'missing';
    if (verdict === 'ok' && item) return void res.writeHead(404, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ title: 'Not Found', status: 404 }));
    if (verdict === 'ok') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items: [], next_cursor: null }));
      return;
    }
    const problem = (status: number, challenge: string): void => void res.writeHead(status, { 'content-type': 'application/problem+json', ...(!(opts.noChallenge && status === 401) && { 'www-authenticate': challenge }) }).end(JSON.stringify({ title: status === 403 ? 'Forbidden' : 'Unauthorized', status }));
    if (verdict === 'scope') problem(403, `Bearer realm="${realm}", error="insufficient_scope"`);
    else if (verdict === 'missing' && opts.missingCredentials403) problem(403, `Bearer realm="${realm}"`);
    else problem(verdict === 'invalid' && opts.invalidToken400 ? 400 : 401, `Bearer realm="${realm}"${verdict === 'invalid' ? ', error="invalid_token"' : ''}`);
  }

  function metadata(res: ServerResponse): void {
    const doc = {
      issuer,
      authorization_endpoint: `${origin}/oauth/authorize`,
      token_endpoint: opts.brokenMetadata ? 'oauth/token' : `${origin}/oauth/token`,
      jwks_uri: `${origin}/oauth/jwks`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: opts.postOnly ? ['client_secret_post'] : ['client_secret_basic', 'client_secret_post', 'none'],
      scopes_supported: ['read:*', 'write:*'],
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const route = `${req.method} ${url.pathname}`;
    const run = async (): Promise<void> => {
      if (route === 'GET /.well-known/oauth-authorization-server' && !opts.oidcOnly && !opts.noMetadata) return metadata(res);
      if (route === 'GET /.well-known/openid-configuration' && opts.oidcOnly) return metadata(res);
      if (route === 'GET /oauth/jwks') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: publicJwk ? [publicJwk] : [] }));
      if (route === 'GET /oauth/authorize') return authorizeGet(url, res);
      if (route === 'POST /oauth/authorize') return authorizePost(req, res);
      if (route === 'POST /oauth/token') return token(req, res);
      if (route === 'GET /v2/projects') return resource(req, res);
      if (/^GET \/v2\/projects\/[^/]+$/.test(route)) return resource(req, res, true);
      if (route === 'GET /v2/tasks' && opts.publicTasks) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}');
      if (route === 'GET /v2/tasks') return opts.looseTasksRoute && decodes(req.headers.authorization) ? void res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}') : resource(req, res);
      res.writeHead(404, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ title: 'Not Found', status: 404 }));
    };
    run().catch(() => res.writeHead(500).end());
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  issuer = `${origin}${opts.issuerPath ?? ''}`;
  return {
    url: origin,
    redirectUri,
    env: { RESTPROBE_OAUTH_CLIENT_ID: clientId, RESTPROBE_OAUTH_CLIENT_SECRET: clientSecret, RESTPROBE_OAUTH_USERNAME: username, RESTPROBE_OAUTH_PASSWORD: password, RESTPROBE_JWT_TEST_KEY: JSON.stringify(privateJwk) },
    issued,
    grants,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
