/**
 * The reference authorization server: the OAuth endpoints, served in front of the API on
 * every node, over one set of stores (clients, pending logins, codes, refresh families),
 * so that a code issued on one node redeems on another.
 *
 * The endpoints are public (no API key) and sit outside the API's pipeline: no rate
 * limiter (a full run logs in and refreshes many times), no Accept negotiation, no API
 * fault. Anything under `/oauth/` or `/.well-known/` that is not one of them goes on to the
 * API, which answers 404.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultName } from '../faults.js';
import type { Reply } from '../respond.js';
import { parseTarget } from '../router.js';
import { AccessTokens } from './access-tokens.js';
import { AuthorizationEndpoint } from './authorize.js';
import { clientId, Clients } from './clients.js';
import { Codes } from './codes.js';
import { FormError, readForm } from './form.js';
import { createSigningKeys, type JwtAlgorithm, type SigningKeys } from './keys.js';
import { authorizePath, jwks, jwksPath, metadata, metadataPath, revocationPath, tokenPath } from './metadata.js';
import { ServerOrigin } from './origin.js';
import { RefreshFamilies } from './refresh-families.js';
import { json, problem, writeReply } from './replies.js';
import { RevocationEndpoint } from './revocation-endpoint.js';
import { TokenEndpoint } from './token-endpoint.js';
import { testUser, Users } from './users.js';

export { jwtAlgorithms, type JwtAlgorithm } from './keys.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** What `serve` prints and tests read as environment variables (a type, so it is a `Record<string, string>`). */
export type OAuthSecrets = {
  readonly RESTPROBE_OAUTH_CLIENT_ID: string;
  readonly RESTPROBE_OAUTH_CLIENT_SECRET: string;
  readonly RESTPROBE_OAUTH_USERNAME: string;
  readonly RESTPROBE_OAUTH_PASSWORD: string;
  /** The private signing key, one line of JWK JSON. */
  readonly RESTPROBE_JWT_TEST_KEY: string;
};

export interface AuthorizationServerOptions {
  readonly faults: ReadonlySet<FaultName>;
  /** RS256 (default) or HS256. */
  readonly alg?: JwtAlgorithm;
  /** The API's path below the origin: `/v2`, or empty under the schemes that keep the version out of the path. */
  readonly apiBase: string;
}

/** The methods each endpoint answers (HEAD with GET). */
const endpoints: Readonly<Record<string, readonly string[]>> = {
  [metadataPath]: ['GET', 'HEAD'],
  [jwksPath]: ['GET', 'HEAD'],
  [authorizePath]: ['GET', 'HEAD', 'POST'],
  [tokenPath]: ['POST'],
  [revocationPath]: ['POST'],
};

export class AuthorizationServer {
  readonly origin: ServerOrigin;
  /** Issues and verifies access tokens; the API's authentication verifies with it. */
  readonly accessTokens: AccessTokens;
  readonly secrets: OAuthSecrets;
  private readonly authorization: AuthorizationEndpoint;
  private readonly token: TokenEndpoint;
  private readonly revocation: RevocationEndpoint;

  private constructor(private readonly keys: SigningKeys, options: AuthorizationServerOptions) {
    const { faults } = options;
    this.origin = new ServerOrigin(options.apiBase);
    this.accessTokens = new AccessTokens(keys, this.origin, faults);
    const clients = new Clients(faults);
    const users = new Users();
    const codes = new Codes(faults);
    this.authorization = new AuthorizationEndpoint(clients, users, codes, this.accessTokens, faults);
    const families = new RefreshFamilies(faults);
    this.token = new TokenEndpoint(clients, users, codes, families, this.accessTokens, faults);
    this.revocation = new RevocationEndpoint(clients, families);
    this.secrets = {
      RESTPROBE_OAUTH_CLIENT_ID: clientId,
      RESTPROBE_OAUTH_CLIENT_SECRET: clients.secret,
      RESTPROBE_OAUTH_USERNAME: testUser.username,
      RESTPROBE_OAUTH_PASSWORD: users.password,
      RESTPROBE_JWT_TEST_KEY: keys.testKey,
    };
  }

  static async create(options: AuthorizationServerOptions): Promise<AuthorizationServer> {
    return new AuthorizationServer(await createSigningKeys(options.alg ?? 'RS256'), options);
  }

  /** `api` with the OAuth endpoints in front of it. */
  inFrontOf(api: Listener): Listener {
    return (req, res) => {
      const { path, query } = parseTarget(req.url ?? '');
      const methods = endpoints[path];
      if (methods === undefined) {
        api(req, res);
        return;
      }
      const method = req.method ?? '';
      this.answer(method, path, query, methods, req)
        .catch((): Reply => (path === tokenPath ? this.token.error(500, 'server_error', 'The server failed to handle this request.') : problem(500, 'The server failed to handle this request.')))
        .then((reply) => writeReply(res, reply, method === 'HEAD'))
        .catch(() => res.destroy());
    };
  }

  private async answer(method: string, path: string, query: URLSearchParams, methods: readonly string[], req: IncomingMessage): Promise<Reply> {
    const allow = [...methods, 'OPTIONS'].join(', ');
    const headers = path === tokenPath ? this.token.headers() : {};
    if (method === 'OPTIONS') return { status: 204, headers: { ...headers, Allow: allow } };
    if (!methods.includes(method)) {
      req.resume();
      return path === tokenPath
        ? this.token.error(405, 'invalid_request', 'The token endpoint takes POST only.', { Allow: allow })
        : problem(405, `This path does not support ${method}; see Allow.`, { Allow: allow });
    }
    if (path === metadataPath) return json(200, metadata(this.origin));
    if (path === jwksPath) return json(200, jwks(this.keys.publicJwks));
    if (path === tokenPath) return this.token.answer(req);
    if (path === revocationPath) return this.revocation.answer(req);
    if (method !== 'POST') return this.authorization.show(query);
    try {
      return await this.authorization.submit(await readForm(req));
    } catch (e) {
      if (e instanceof FormError) return problem(400, e.message);
      throw e;
    }
  }
}
