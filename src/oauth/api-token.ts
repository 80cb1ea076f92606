/**
 * The run's own API credential when the config says to get it from `auth.oauth`
 * (`auth.apiKey.fromOAuth`): an access token requested with client credentials when it is
 * first needed, and again before it expires, so a run longer than a token's life keeps
 * working. Its requests go through a client of its own, outside the run's budget and
 * guards (they are restprobe's setup, not probes of the API), and every token it is issued
 * joins the profile's secrets, so no report shows one.
 */
import { RestprobeError } from '../errors.js';
import { HttpClient } from '../http/client.js';
import { RecordingSession } from '../http/session.js';
import type { HttpResponse } from '../model/context.js';
import type { ConfidentialClient } from '../model/needs.js';
import type { IssuedCredential, Secret, TargetProfile } from '../model/profile.js';
import { describe } from '../model/describe-response.js';
import { oauthErrorCode } from './error-code.js';
import { discoverEndpoints, type OAuthEndpoints } from './oauth-metadata.js';
import { clientCredentialsGrant, renewAt, tokenRequestSpec, tokensOf } from './oauth-token.js';

/** The name an issued token has in curl commands and scrubbed text. */
export const apiTokenName = 'API_ACCESS_TOKEN';

export class ApiToken implements IssuedCredential {
  #current: { readonly token: string; readonly renewAt: number } | undefined;
  #pending: Promise<string> | undefined;
  #endpoints: OAuthEndpoints | undefined;

  /**
   * @param client the confidential client of `auth.oauth`
   * @param profile the run's profile, read when a token is requested: its HTTP settings and base URL, and its secrets, which every issued token joins
   */
  constructor(
    private readonly client: ConfidentialClient,
    private readonly profile: () => TargetProfile,
  ) {}

  /** The token last issued; '' before the first. */
  get value(): string {
    return this.#current?.token ?? '';
  }

  /** A token that is not about to expire: the current one, or one requested now (one request at a time however many ask). */
  fresh(): Promise<string> {
    const current = this.#current;
    if (current !== undefined && Date.now() < current.renewAt) return Promise.resolve(current.token);
    this.#pending ??= this.#request().finally(() => (this.#pending = undefined));
    return this.#pending;
  }

  async #request(): Promise<string> {
    const profile = this.profile();
    const http = new HttpClient({ timeoutMs: profile.http.timeoutMs, maxBodyBytes: profile.http.maxBodyBytes, connections: 1, maxRequests: Number.MAX_SAFE_INTEGER, ...(profile.http.proxy !== undefined && { proxy: profile.http.proxy }), ...(profile.http.ca !== undefined && { ca: profile.http.ca }) });
    try {
      const session = new RecordingSession({ send: (req) => http.send(req), protocolErrors: http.protocolErrors }, profile);
      this.#endpoints ??= await discoverEndpoints({ baseUrl: profile.baseUrl, get: (url) => session.send({ method: 'GET', url, auth: false }), note: () => undefined }, this.client.oauth);
      const res = await session.send(tokenRequestSpec(this.client, this.#endpoints, clientCredentialsGrant(this.client)).spec);
      const tokens = tokensOf(res);
      if (tokens === undefined) throw refused(res);
      // The profile's list, shared by every copy of it, is how reports written later know the token.
      (profile.secrets as Secret[]).push({ envName: apiTokenName, value: tokens.accessToken });
      this.#current = { token: tokens.accessToken, renewAt: renewAt(tokens.expiresIn) };
      return tokens.accessToken;
    } catch (err) {
      if (!(err instanceof RestprobeError) || err.code === 'ERR_CREDENTIALS_REJECTED') throw err;
      // A transport failure keeps its code; discovery that found no token endpoint is a refusal of the credential.
      throw new RestprobeError(err.code === 'ERR_SETUP' ? 'ERR_CREDENTIALS_REJECTED' : err.code, `getting the API's access token from auth.oauth (auth.apiKey.fromOAuth): ${err.message.replace(/^setup: /, '')}`, [], { cause: err });
    } finally {
      await http.close();
    }
  }
}

/** The refusal of the run's own token request, naming what came back (never a token: a refusal holds none). */
function refused(res: HttpResponse): RestprobeError {
  const error = oauthErrorCode(res);
  return new RestprobeError('ERR_CREDENTIALS_REJECTED', `the authorization server refused the API's access token (client credentials, auth.apiKey.fromOAuth): ${describe(res)}${error === undefined ? '' : ` with error ${error}`}, expected 200 with an access_token (are auth.oauth.clientId, clientSecret and scopes right?)`);
}

/** The run's credential as the profile holds it: the token sent `Bearer` in `header`, its value the token last issued. */
export function apiTokenCredential(token: ApiToken, header: string): { readonly header: string; readonly value: Secret; readonly issued: IssuedCredential } {
  return { header, value: { envName: apiTokenName, get value() { return token.value; } }, issued: token };
}
