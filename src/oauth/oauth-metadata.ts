/**
 * Where the authorization server's endpoints are: the config's explicit ones, else its
 * RFC 8414 metadata (`/.well-known/oauth-authorization-server`), else OpenID Connect
 * discovery (`/.well-known/openid-configuration`). Discovered once per run.
 */
import { RestprobeError } from '../errors.js';
import type { CheckContext, HttpResponse } from '../model/context.js';
import type { OAuthProfile } from '../model/profile.js';
import { describe } from '../model/describe-response.js';
import { SetupFailure } from '../model/check.js';
import { isObject } from '../model/json.js';

/** The authorization server as the checks use it. */
export interface OAuthEndpoints {
  /** The metadata's `issuer`, else auth.oauth.issuer (absent when neither says). */
  readonly issuer?: string;
  readonly authorizationEndpoint?: string;
  readonly tokenEndpoint: string;
  readonly jwksUri?: string;
  /** `revocation_endpoint` (RFC 7009, as RFC 8414 §2 advertises it), when the metadata names an http(s) URL: where the refresh tokens a run obtained are revoked. */
  readonly revocationEndpoint?: string;
  /** `token_endpoint_auth_methods_supported`; RFC 8414's default is client_secret_basic. */
  readonly authMethods: readonly string[];
  /** The metadata document, or {} when the config gave every endpoint. */
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** Metadata changes rarely: one discovery serves a whole run. */
const metadataLifetimeMs = 60 * 60 * 1000;

/**
 * The two well-known URLs of an issuer: RFC 8414 §3 inserts the suffix between host and
 * path; OIDC Discovery §4 appends it to the issuer.
 */
export function wellKnownUrls(issuer: string): string[] {
  const u = new URL(issuer);
  const path = u.pathname.replace(/\/+$/, '');
  return [`${u.origin}/.well-known/oauth-authorization-server${path}`, `${u.origin}${path}/.well-known/openid-configuration`];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The run's discovered endpoints (shared by every check). */
export function oauthEndpoints(ctx: CheckContext, oauth: OAuthProfile): Promise<OAuthEndpoints> {
  const via: Discovery = { baseUrl: ctx.profile.baseUrl, get: (url) => ctx.http.send({ method: 'GET', url, auth: false }), note: (line) => ctx.note(line) };
  return ctx.leased('oauth-endpoints', async () => ({ value: await discoverEndpoints(via, oauth), expiresAt: Date.now() + metadataLifetimeMs }));
}

/** What discovery sends through and reports to: a check's session and notes, or the run's API token's own. */
export interface Discovery {
  /** The target's base URL, whose origin is the issuer when the config names none. */
  readonly baseUrl: string;
  get(url: string): Promise<HttpResponse>;
  note(line: string): void;
}

/** The endpoints of `oauth`, from the config and the metadata. */
export async function discoverEndpoints(via: Discovery, oauth: OAuthProfile): Promise<OAuthEndpoints> {
  const explicit = oauth.tokenEndpoint !== undefined && oauth.authorizationEndpoint !== undefined && oauth.jwksUrl !== undefined;
  const issuer = oauth.issuer ?? (explicit ? undefined : new URL(via.baseUrl).origin);
  let metadata: Record<string, unknown> = {};
  if (issuer !== undefined && !explicit) {
    try {
      metadata = await fetchMetadata(via, issuer);
    } catch (err) {
      // A server without metadata is still usable when the config names its token endpoint.
      if (oauth.tokenEndpoint === undefined) throw err;
      via.note(`no authorization server metadata for ${issuer}: using the configured endpoints`);
    }
  }
  for (const member of ['token_endpoint', 'authorization_endpoint', 'jwks_uri']) {
    const v = str(metadata[member]);
    // A metadata document's word is the server's: an endpoint that is no http(s) URL is a setup error here, not a crash at the first request.
    if (v !== undefined && !/^https?:$/.test(URL.canParse(v) ? new URL(v).protocol : '')) throw new RestprobeError('ERR_SETUP', `setup: the authorization server's metadata has ${member} ${JSON.stringify(v.slice(0, 100))}, expected an absolute http(s) URL`, [], { rootCause: `metadata ${member} is no URL` });
  }
  const tokenEndpoint = oauth.tokenEndpoint ?? str(metadata.token_endpoint);
  if (tokenEndpoint === undefined) throw new RestprobeError('ERR_SETUP', `setup: the authorization server's metadata names no token_endpoint, and auth.oauth.tokenEndpoint is not set`, [], { rootCause: 'no token endpoint' });
  const authMethods = Array.isArray(metadata.token_endpoint_auth_methods_supported) ? metadata.token_endpoint_auth_methods_supported.filter((m): m is string => typeof m === 'string') : ['client_secret_basic'];
  const authorizationEndpoint = oauth.authorizationEndpoint ?? str(metadata.authorization_endpoint);
  const jwksUri = oauth.jwksUrl ?? str(metadata.jwks_uri);
  // Only used to revoke what the run obtained: one that is no URL is not an error, just no endpoint.
  const revocation = str(metadata.revocation_endpoint);
  const revocationEndpoint = revocation !== undefined && /^https?:$/.test(URL.canParse(revocation) ? new URL(revocation).protocol : '') ? revocation : undefined;
  // Never the base URL's origin guessed for discovery: where no metadata answered, it names no issuer.
  const named = str(metadata.issuer) ?? oauth.issuer;
  return { ...(named !== undefined && { issuer: named }), ...(authorizationEndpoint !== undefined && { authorizationEndpoint }), tokenEndpoint, ...(jwksUri !== undefined && { jwksUri }), ...(revocationEndpoint !== undefined && { revocationEndpoint }), authMethods, metadata };
}

/** The first well-known document that answers 200 with a JSON object; neither is a setup error. */
async function fetchMetadata(via: Discovery, issuer: string): Promise<Record<string, unknown>> {
  const tried: HttpResponse[] = [];
  for (const url of wellKnownUrls(issuer)) {
    const res = await via.get(url);
    if (res.status === 200 && isObject(res.json)) return res.json;
    tried.push(res);
  }
  const last = tried.at(-1)!;
  throw new SetupFailure(last, `no authorization server metadata for ${issuer}: ${tried.map(describe).join('; ')} (set auth.oauth.issuer, or the endpoints explicitly)`, 'no authorization server metadata');
}
