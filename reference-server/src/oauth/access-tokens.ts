/**
 * JWT access tokens (RFC 9068 profile, RFC 8725 practices): issued by the token endpoint,
 * verified by the resource API.
 *
 * Issued: header `{ alg, typ: "at+jwt", kid }`; claims iss, sub, aud, exp (iat + 600),
 * iat, nbf, scope, client_id, jti, and nothing personal. Verified with jose's `jwtVerify`:
 * the algorithm pinned to the configured one, issuer and audience required, at most 5 s of
 * clock tolerance. The JWT faults bend verification; they take a slower path (signature,
 * then claims checked here one by one) so that each fault skips exactly one step.
 */
import { randomUUID } from 'node:crypto';
import { compactVerify, decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { FaultName } from '../faults.js';
import { fullScopes, isScope, type Scope } from '../scopes.js';
import type { SigningKeys } from './keys.js';
import type { ServerOrigin } from './origin.js';
import { testUser } from './users.js';

/** Access tokens live ten minutes (24 hours under fault `token-lifetime-24h`). */
export const accessTokenSeconds = 600;
const faultyLifetimeSeconds = 24 * 60 * 60;

/** Seconds of clock skew tolerated on exp and nbf. */
const clockToleranceSeconds = 5;

/** The faults that change how tokens are verified (any one of them takes the slow path). */
const verificationFaults: readonly FaultName[] = [
  'jwt-alg-none-accepted',
  'jwt-key-confusion',
  'jwt-signature-unchecked',
  'jwt-exp-unchecked',
  'jwt-nbf-unchecked',
  'jwt-iss-unchecked',
  'jwt-aud-unchecked',
  'jwt-claims-missing',
];

/** Who a token is for. */
export interface TokenGrant {
  /** The user id, or the client id for client credentials. */
  readonly sub: string;
  readonly clientId: string;
  readonly scopes: readonly Scope[];
}

/** Whom a valid token was issued to. */
export interface TokenHolder {
  readonly client: string;
  /** The user of a user's token; absent for a client's own (client credentials: `sub` is the client). */
  readonly user?: string;
}

export interface IssuedAccessToken {
  readonly token: string;
  readonly expiresIn: number;
}

export class AccessTokens {
  constructor(
    private readonly keys: SigningKeys,
    private readonly origin: ServerOrigin,
    private readonly faults: ReadonlySet<FaultName>,
  ) {}

  async issue(grant: TokenGrant): Promise<IssuedAccessToken> {
    const f = this.faults;
    const iat = Math.floor(Date.now() / 1000);
    const expiresIn = f.has('token-lifetime-24h') ? faultyLifetimeSeconds : accessTokenSeconds;
    const complete = !f.has('jwt-claims-missing');
    const claims: JWTPayload = {
      iss: this.origin.issuer,
      sub: grant.sub,
      ...(complete && { aud: this.origin.audience }),
      exp: iat + expiresIn,
      iat,
      ...(complete && { nbf: iat }),
      scope: grant.scopes.join(' '),
      client_id: grant.clientId,
      jti: randomUUID(),
      // Fault `jwt-pii-in-claims`: the token carries the user's contact details.
      ...(f.has('jwt-pii-in-claims') && { email: testUser.email, name: testUser.name }),
    };
    const header = { alg: this.keys.alg, kid: this.keys.kid, ...(!f.has('jwt-no-typ') && { typ: 'at+jwt' }) };
    const token = await new SignJWT(claims).setProtectedHeader(header).sign(this.keys.signKey);
    return { token, expiresIn };
  }

  /**
   * The scopes a presented token grants, or `undefined` when it is not valid in any way
   * (malformed, wrong algorithm or signature, expired, not yet valid, foreign issuer or
   * audience). Under fault `jwt-scope-ignored` a valid token grants every scope.
   */
  async verify(token: string): Promise<readonly Scope[] | undefined> {
    const payload = await this.validPayload(token);
    if (payload === undefined) return undefined;
    if (this.faults.has('jwt-scope-ignored')) return fullScopes;
    const scope = typeof payload['scope'] === 'string' ? payload['scope'] : '';
    return scope.split(' ').filter(isScope);
  }

  /**
   * Whom a token that {@link verify} would accept was issued to: its client (`client_id`,
   * else `azp`, else `sub`), and its user when `sub` names someone else (a code-flow token).
   * `undefined` when the token is not valid or names no client. The rate limiter keys by it.
   */
  async holderOf(token: string): Promise<TokenHolder | undefined> {
    const payload = await this.validPayload(token);
    const named = (claim: unknown): claim is string => typeof claim === 'string' && claim !== '';
    const client = [payload?.['client_id'], payload?.azp, payload?.sub].find(named);
    if (payload === undefined || client === undefined) return undefined;
    return { client, ...(named(payload.sub) && payload.sub !== client && { user: payload.sub }) };
  }

  /** The claims of a valid token (as the faults bend validity), else `undefined`. */
  private async validPayload(token: string): Promise<JWTPayload | undefined> {
    try {
      return verificationFaults.some((name) => this.faults.has(name)) ? await this.verifyUnderFaults(token) : await this.verifyStrictly(token);
    } catch {
      return undefined;
    }
  }

  private async verifyStrictly(token: string): Promise<JWTPayload> {
    const { payload } = await jwtVerify(token, this.keys.verifyKey, {
      algorithms: [this.keys.alg],
      issuer: this.origin.issuer,
      audience: this.origin.audience,
      clockTolerance: clockToleranceSeconds,
      requiredClaims: ['exp'],
    });
    return payload;
  }

  /** Signature (as the faults bend it), then each claim, skipping what a fault skips. */
  private async verifyUnderFaults(token: string): Promise<JWTPayload> {
    const payload = await this.signedPayload(token);
    const f = this.faults;
    const now = Math.floor(Date.now() / 1000);
    const { exp, nbf, iss, aud } = payload;
    if (!f.has('jwt-exp-unchecked') && (typeof exp !== 'number' || exp <= now - clockToleranceSeconds)) throw new Error('expired');
    if (!f.has('jwt-nbf-unchecked') && nbf !== undefined && (typeof nbf !== 'number' || nbf > now + clockToleranceSeconds)) throw new Error('not yet valid');
    if (!f.has('jwt-iss-unchecked') && iss !== this.origin.issuer) throw new Error('foreign issuer');
    if (!f.has('jwt-aud-unchecked')) {
      const audiences = aud === undefined ? [] : Array.isArray(aud) ? aud : [aud];
      // Fault `jwt-claims-missing`: the server's own tokens have no aud, so none is required.
      const missingAllowed = aud === undefined && f.has('jwt-claims-missing');
      if (!missingAllowed && !audiences.includes(this.origin.audience)) throw new Error('foreign audience');
    }
    return payload;
  }

  private async signedPayload(token: string): Promise<JWTPayload> {
    const f = this.faults;
    const { alg } = decodeProtectedHeader(token);
    // Fault `jwt-alg-none-accepted`: an unsigned token is taken at its word.
    if (alg === 'none' && f.has('jwt-alg-none-accepted')) return decodeJwt(token);
    // Fault `jwt-signature-unchecked`: the pinned algorithm is named, the signature never checked.
    if (alg === this.keys.alg && f.has('jwt-signature-unchecked')) return decodeJwt(token);
    // Fault `jwt-key-confusion`: HS256 "verified" with the public key's PEM as the HMAC secret.
    if (alg === 'HS256' && this.keys.alg === 'RS256' && f.has('jwt-key-confusion')) {
      for (const secret of this.keys.confusionSecrets) {
        try {
          await compactVerify(token, secret, { algorithms: ['HS256'] });
          return decodeJwt(token);
        } catch {
          // Try the next encoding of the key.
        }
      }
      throw new Error('bad signature');
    }
    await compactVerify(token, this.keys.verifyKey, { algorithms: [this.keys.alg] });
    return decodeJwt(token);
  }
}
