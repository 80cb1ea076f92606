/**
 * §5 rules 5–6 and §8.5: the JWT access tokens the authorization server issues (RFC 7519,
 * RFC 8725, RFC 9068). The run asks for one token of each kind, and each check's evidence
 * holds the responses that issued what it judges; the lifetime and personal-data checks judge
 * every kind the run can get (the client-credentials token and the code flow's, a user's).
 */
import { CheckFailure, CheckSkipped, ShouldFailure, defineCheck } from '../../src/model/check.js';
import { decodedGenuineJwt, everyIssuedJwt, genuineJwt } from '../../src/check-kit/bearer.js';
import { oauthEndpoints } from '../../src/check-kit/oauth-metadata.js';
import { ensure } from '../../src/check-kit/expect.js';
import { accessTokenSeconds, lifetimeRule } from './token-endpoint.js';
import { isObject } from '../../src/model/json.js';

/** What RFC 9068 §2.2 requires of a JWT access token; `nbf`, which the conventions also list, is judged as a SHOULD. */
const requiredClaims = ['iss', 'sub', 'aud', 'exp', 'iat'] as const;
const numericDates = ['exp', 'iat', 'nbf'] as const;

export const jwtFormat = defineCheck({
  id: 'AUT-jwt-format',
  title: 'Access tokens are well-formed JWTs with an allowed alg and a typ',
  rule: 'A JWT access token MUST be three base64url parts whose header names an allowed `alg` (never `none`) and a `typ` (conventions §5.5, stricter than RFC 7519 §5.1 and RFC 8725 §3.11, where `typ` is recommended).',
  severity: 'must',
  needs: ['jwtAccess'],
  async run(ctx, { jwtAccess }) {
    const { jwt } = await genuineJwt(ctx, jwtAccess, true);
    if (typeof jwt === 'string') throw new CheckFailure(`the access token is no well-formed JWT: ${jwt}; expected header.payload.signature in base64url`, 'three base64url parts', jwt);
    const alg = jwt.header.alg;
    const allowed = jwtAccess.jwt.algorithms;
    ensure(typeof alg === 'string' && alg.toLowerCase() !== 'none' && allowed.includes(alg), `the access token's header has alg ${JSON.stringify(alg ?? null)}, expected one of ${allowed.join(', ')} (auth.jwt.algorithms)`, allowed.join(', '), String(alg));
    ensure(typeof jwt.header.typ === 'string' && jwt.header.typ !== '', `the access token's header has no typ, expected one (at+jwt per RFC 9068; conventions §5.5 ask for alg and typ)`, 'typ', 'none');
  },
});

export const jwtClaims = defineCheck({
  id: 'AUT-jwt-claims',
  title: 'Access tokens carry iss, sub, aud, exp and iat (and nbf)',
  rule: 'A JWT access token MUST carry `iss`, `sub`, `aud`, `exp` and `iat` (RFC 9068 §2.2), the dates as NumericDates, `iss` the authorization server\'s issuer and `aud` naming the configured audience (RFC 7519 §4.1, RFC 8414 §2), and SHOULD carry `nbf` (conventions §5.5 list it; RFC 7519 makes it optional and RFC 9068 leaves it out).',
  severity: 'must',
  needs: ['jwtAccess'],
  async run(ctx, { jwtAccess }) {
    const { jwt } = await decodedGenuineJwt(ctx, jwtAccess, true);
    const claims = jwt.claims;
    // Every problem at once: a token without nbf still has its iss and aud compared.
    const problems: string[] = [];
    const missing = requiredClaims.filter((c) => claims[c] === undefined);
    if (missing.length > 0) problems.push(`it lacks ${missing.join(', ')}`);
    const notDates = numericDates.filter((c) => claims[c] !== undefined && typeof claims[c] !== 'number');
    if (notDates.length > 0) problems.push(`its ${notDates.join(', ')} ${notDates.length === 1 ? 'is' : 'are'} not a number (NumericDates are seconds since the epoch)`);
    const issuer = jwtAccess.jwt.issuer ?? (await oauthEndpoints(ctx, jwtAccess.oauth)).issuer;
    const whence = jwtAccess.jwt.issuer !== undefined ? 'auth.jwt.issuer' : "the metadata's issuer, else auth.oauth.issuer; auth.jwt.issuer may name another";
    if (issuer !== undefined && claims.iss !== undefined && claims.iss !== issuer) problems.push(`its iss is ${JSON.stringify(claims.iss)}, expected the issuer ${JSON.stringify(issuer)} (${whence})`);
    const audience = jwtAccess.jwt.audience;
    const aud = claims.aud;
    if (audience !== undefined && aud !== undefined && aud !== audience && !(Array.isArray(aud) && aud.includes(audience))) problems.push(`its aud is ${JSON.stringify(aud)}, expected it to name ${JSON.stringify(audience)} (auth.jwt.audience)`);
    const noNbf = claims.nbf === undefined ? 'it has no nbf (conventions §5.5 list it; RFC 7519 §4.1.5 makes it optional, RFC 9068 §2.2 leaves it out)' : undefined;
    if (problems.length > 0) throw new CheckFailure(`the access token breaks the rule: ${[...problems, ...(noNbf ? [noNbf] : [])].join('; ')}; expected ${requiredClaims.join(', ')} (RFC 9068 §2.2), NumericDates, and the configured issuer and audience`, `${requiredClaims.join(' ')}, nbf`, problems.join('; '));
    if (noNbf !== undefined) throw new ShouldFailure(`the access token carries ${requiredClaims.join(', ')}, but ${noNbf}; expected nbf as well (SHOULD)`, 'nbf', 'absent');
  },
});

export const jwtLifetime = defineCheck({
  id: 'AUT-jwt-lifetime',
  title: 'Access tokens live 5–15 minutes',
  rule: 'Every JWT access token the authorization server issues, the client-credentials one and the code flow\'s, MUST live 5 to 15 minutes: `exp` − `iat` between 300 and 900 seconds (conventions §5, §8.5).',
  severity: 'must',
  needs: ['jwtAccess'],
  async run(ctx, { jwtAccess }) {
    const range = `${accessTokenSeconds.min}–${accessTokenSeconds.max} s`;
    const lives: string[] = [];
    const bad: string[] = [];
    for (const { label, jwt } of await everyIssuedJwt(ctx, jwtAccess)) {
      const { exp, iat } = jwt.claims;
      if (typeof exp !== 'number' || typeof iat !== 'number') {
        ctx.note(`${label} lacks a numeric exp or iat: AUT-jwt-claims judges that`);
        continue;
      }
      const life = exp - iat;
      lives.push(`${label}: ${life} s`);
      if (life < accessTokenSeconds.min || life > accessTokenSeconds.max) bad.push(`${label} lives ${life} s (exp − iat)`);
    }
    if (lives.length === 0) throw new CheckSkipped('no access token carries a numeric exp and iat: AUT-jwt-claims judges that');
    if (bad.length > 0) throw new CheckFailure(`${bad.join('; ')}, expected ${range} (${lifetimeRule})`, range, lives.join('; '));
  },
});

/**
 * The claims (dotted paths) whose name or string value matches a personal-data pattern;
 * values are never returned. A name counts only when the claim holds something (a
 * non-empty string, an object, a list): a flag such as Keycloak's `email_verified: false`
 * is no personal data.
 */
export function personalClaims(claims: Record<string, unknown>, patterns: { readonly claims: readonly string[]; readonly values: readonly string[] }): string[] {
  const names = patterns.claims.map((p) => new RegExp(p, 'i'));
  const values = patterns.values.map((p) => new RegExp(p, 'i'));
  const found: string[] = [];
  const walk = (o: Record<string, unknown>, prefix: string, depth: number): void => {
    for (const [k, v] of Object.entries(o)) {
      const path = `${prefix}${k}`;
      const holds = (typeof v === 'string' && v !== '') || (typeof v === 'object' && v !== null);
      if (holds && names.some((r) => r.test(k))) found.push(`${path} (its name)`);
      else if (typeof v === 'string' && values.some((r) => r.test(v))) found.push(`${path} (its value)`);
      else if (isObject(v) && depth < 4) walk(v, `${path}.`, depth + 1);
    }
  };
  walk(claims, '', 0);
  return found;
}

export const jwtNoPersonalData = defineCheck({
  id: 'AUT-jwt-no-personal-data',
  title: 'Access tokens carry no personal data',
  rule: 'A JWT access token the authorization server issues, the client-credentials one and the code flow\'s alike, MUST NOT carry secrets or personal data (email, phone, names, passwords, addresses): it is signed, not encrypted (conventions §5.6; RFC 9068 §6).',
  severity: 'must',
  needs: ['jwtAccess'],
  async run(ctx, { jwtAccess }) {
    const bad = (await everyIssuedJwt(ctx, jwtAccess)).flatMap(({ label, jwt }) => {
      const found = personalClaims(jwt.claims, jwtAccess.jwt.personalData);
      return found.length === 0 ? [] : [`${label}'s payload holds what looks like personal data: ${found.join(', ')}`];
    });
    if (bad.length > 0) throw new CheckFailure(`${bad.join('; ')}; expected none (conventions §5.6: signed is not encrypted; auth.jwt.personalDataPatterns says what counts)`, 'no personal data', bad.join('; '));
  },
});

export const issuedJwtChecks = [jwtFormat, jwtClaims, jwtLifetime, jwtNoPersonalData];
