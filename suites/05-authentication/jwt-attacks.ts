/**
 * §5 rule 6 (RFC 8725 §2–3, RFC 7519 §4.1, RFC 6750 §3.1): the resource server refuses
 * forged and wrong tokens with 401 and a challenge. Each check first shows the genuine
 * token (or one signed with the test key) accepted on the same request.
 */
import { CheckSkipped, defineCheck, type CheckId } from '../../src/model/check.js';
import type { CheckContext } from '../../src/model/context.js';
import type { CollectionProfile } from '../../src/model/profile.js';
import type { OAuthClient, SigningKey } from '../../src/model/needs.js';
import { decodedGenuineJwt, expectAccepted, expectRefused, presentToken } from '../../src/check-kit/bearer.js';
import { forgeAlgNone, forgeKeyConfusion, tamperPayload, tamperSignature, type DecodedJwt } from '../../src/check-kit/jwt.js';
import { freshClaims, noScope, signWithTestKey, withoutScope } from '../../src/check-kit/jwt-sign.js';
import { keyFor, publishedKeys } from '../../src/check-kit/jwks.js';
import { expectStatus } from '../../src/check-kit/expect.js';
import { scopeAs401 } from '../../src/check-kit/auth.js';
import { requireProtected } from '../../src/check-kit/protected-route.js';

/** The genuine token, shown accepted on the collection first. */
async function acceptedGenuine(ctx: CheckContext, client: OAuthClient, collection: CollectionProfile): Promise<{ token: string; jwt: DecodedJwt }> {
  const genuine = await decodedGenuineJwt(ctx, client);
  await expectAccepted(ctx, collection, genuine.token, 'the genuine access token');
  return genuine;
}

/** How long one control token serves the run: its forgeries then have at least four of their five minutes (freshClaims) left. */
const controlServesMs = 60_000;

/** The run's control token, and the genuine token it and every forgery from it are made from. */
interface Control {
  readonly control: string;
  /** Its issue time's base (freshClaims), which each forgery shares. */
  readonly now: number;
  readonly jwt: DecodedJwt;
}

/**
 * The run's control token: the genuine claims, fresh, signed with the test key. One for a
 * minute of the run, so its acceptance on each route is asked once (acceptanceOf) while a
 * forgery made from it still has four of its five minutes left, however long the run waits.
 */
function sharedControl(ctx: CheckContext, signing: SigningKey, jwt: DecodedJwt): Promise<Control> {
  return ctx.leased('a token signed with auth.jwt.testSigningKey', async () => {
    const now = Math.floor(Date.now() / 1000);
    const control = await signWithTestKey(signing, freshClaims(jwt, now), jwt);
    return { value: { control, now, jwt }, expiresAt: Date.now() + controlServesMs };
  });
}

/** A token signed with the test key, the genuine claims fresh and `change`d; the unchanged one (the run's control) is shown accepted first. */
async function signedWith(ctx: CheckContext, client: OAuthClient, signing: SigningKey, collection: CollectionProfile, change: (claims: Record<string, unknown>, now: number) => Record<string, unknown>): Promise<{ control: string; forged: string }> {
  const genuine = await acceptedGenuine(ctx, client, collection);
  const { control, now, jwt } = await sharedControl(ctx, signing, genuine.jwt);
  ctx.treatAsSecret(control, 'SIGNED_TOKEN');
  await expectAccepted(ctx, collection, control, 'a token signed with auth.jwt.testSigningKey (the genuine claims, fresh)');
  // The control but for the one claim changed: from the same genuine token (a renewed one has another jti), with the same issue time.
  const forged = await signWithTestKey(signing, change(freshClaims(jwt, now), now), jwt);
  ctx.treatAsSecret(forged, 'SIGNED_TOKEN');
  return { control, forged };
}

export const algNoneRefused = defineCheck({
  id: 'AUT-jwt-alg-none-refused',
  title: 'An unsigned token (alg none) is refused',
  rule: 'The resource server MUST refuse a token with `alg: none` with 401 and a challenge (RFC 8725 §2.1, §3.1; conventions §5.6).',
  severity: 'must',
  needs: ['jwtAccess', 'firstCollection'],
  async run(ctx, { jwtAccess, firstCollection: collection }) {
    const { token, jwt } = await acceptedGenuine(ctx, jwtAccess, collection);
    const none = forgeAlgNone(jwt);
    await expectRefused(ctx, collection, [none, none.replace(/^[^.]+/, Buffer.from(JSON.stringify({ ...jwt.header, alg: 'None' })).toString('base64url'))], 'the genuine claims unsigned (alg none)', token);
  },
});

export const keyConfusionRefused = defineCheck({
  id: 'AUT-jwt-key-confusion-refused',
  title: 'HS256 signed with the public key is refused',
  rule: 'The resource server MUST refuse an HS256 token signed with its published public key as the HMAC secret, with 401 and a challenge: it pins the algorithm (RFC 8725 §2.1, §3.1; conventions §5.6).',
  severity: 'must',
  needs: ['jwtAccess', 'firstCollection'],
  async run(ctx, { jwtAccess, firstCollection: collection }) {
    const { token, jwt } = await acceptedGenuine(ctx, jwtAccess, collection);
    const key = keyFor(await publishedKeys(ctx, jwtAccess), jwt.header.kid);
    if (key === undefined) throw new CheckSkipped('the JWK Set publishes no public key (a server that signs with a shared secret publishes none): there is no public key to confuse');
    await expectRefused(ctx, collection, forgeKeyConfusion(jwt, key), 'the genuine claims signed HS256 with the public key as the secret', token);
  },
});

export const tamperedRefused = defineCheck({
  id: 'AUT-jwt-tampered-refused',
  title: 'A token with a broken signature is refused',
  rule: 'The resource server MUST verify the signature of every token and refuse a tampered one with 401 and a challenge (RFC 7515 §5.2; conventions §5.6).',
  severity: 'must',
  needs: ['jwtAccess', 'firstCollection'],
  async run(ctx, { jwtAccess, firstCollection: collection }) {
    const { token, jwt } = await acceptedGenuine(ctx, jwtAccess, collection);
    await expectRefused(ctx, collection, [tamperSignature(jwt), tamperPayload(jwt)], 'a tampered signature or payload', token, { elsewhere: 'first' });
  },
});

/** A check that a token signed with the test key, one claim wrong, gets 401 with a challenge. */
function wrongClaimCheck(def: { id: CheckId; title: string; rule: string; what: string; change: (claims: Record<string, unknown>, now: number) => Record<string, unknown> }) {
  return defineCheck({
    id: def.id,
    title: def.title,
    rule: def.rule,
    severity: 'must',
    needs: ['jwtAccess', 'jwtSigningKey', 'firstCollection'],
    async run(ctx, { jwtAccess, jwtSigningKey, firstCollection: collection }) {
      const { control, forged } = await signedWith(ctx, jwtAccess, jwtSigningKey, collection, def.change);
      await expectRefused(ctx, collection, [forged], def.what, control);
    },
  });
}

export const expiredRefused = wrongClaimCheck({
  id: 'AUT-jwt-expired-refused',
  title: 'An expired token is refused',
  rule: 'The resource server MUST refuse a token whose `exp` has passed with 401 and a challenge (RFC 7519 §4.1.4; conventions §5.6).',
  what: 'a token that expired an hour ago',
  change: (c, now) => ({ ...c, iat: now - 7200, exp: now - 3600, ...('nbf' in c && { nbf: now - 7200 }) }),
});

export const nbfFutureRefused = wrongClaimCheck({
  id: 'AUT-jwt-nbf-future-refused',
  title: 'A token not yet valid is refused',
  rule: 'The resource server MUST refuse a token whose `nbf` is in the future with 401 and a challenge (RFC 7519 §4.1.5).',
  what: 'a token valid only from an hour ahead (nbf)',
  change: (c, now) => ({ ...c, nbf: now + 3600, exp: now + 3900 }),
});

export const wrongIssRefused = wrongClaimCheck({
  id: 'AUT-jwt-wrong-iss-refused',
  title: 'A token from another issuer is refused',
  rule: 'The resource server MUST refuse a token whose `iss` is not its authorization server with 401 and a challenge (RFC 8725 §3.8; conventions §5.6).',
  what: 'a token from the issuer https://restprobe.invalid/issuer',
  change: (c) => ({ ...c, iss: 'https://restprobe.invalid/issuer' }),
});

export const wrongAudRefused = wrongClaimCheck({
  id: 'AUT-jwt-wrong-aud-refused',
  title: 'A token for another audience is refused',
  rule: 'The resource server MUST refuse a token whose `aud` does not name it with 401 and a challenge (RFC 7519 §4.1.3, RFC 8725 §3.9; conventions §5.6).',
  what: 'a token for the audience https://restprobe.invalid/audience',
  change: (c) => ({ ...c, aud: 'https://restprobe.invalid/audience' }),
});

export const scope403 = defineCheck({
  id: 'AUT-jwt-scope-403',
  title: 'A valid token without the scope gets 403',
  rule: 'A valid token whose scope does not cover the request MUST get 403 (conventions §5.3–5.4; RFC 6750 §3.1 `insufficient_scope`).',
  severity: 'must',
  needs: ['jwtAccess', 'jwtSigningKey', 'firstCollection'],
  // A server that answers a missing scope with 401 for API keys does so for tokens too: one root cause.
  dependsOn: ['AUT-scope-403'],
  async run(ctx, { jwtAccess, jwtSigningKey, firstCollection: collection }) {
    await requireProtected(ctx, collection, 'whether a token without the scope is refused');
    const { forged } = await signedWith(ctx, jwtAccess, jwtSigningKey, collection, withoutScope);
    const res = await presentToken(ctx, collection, forged);
    expectStatus(res, 403, `a valid token whose scopes, roles and permissions are only ${noScope}`, res.status === 401 ? scopeAs401 : undefined);
  },
});

export const jwtAttackChecks = [algNoneRefused, keyConfusionRefused, tamperedRefused, expiredRefused, nbfFutureRefused, wrongIssRefused, wrongAudRefused, scope403];
