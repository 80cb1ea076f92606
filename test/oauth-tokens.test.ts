/**
 * The issue-14 token checks against a stand-in authorization and resource server
 * (test/support/oauth-server.ts): every check passes on the conforming server and on the
 * ways a certified third-party server differs, each violation fails exactly the checks
 * that name it, a config with client credentials only skips the rest naming their keys,
 * and no token, code, verifier or secret reaches any report.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { chmod, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProfile } from '../src/config/load.js';
import { runChecks } from '../src/engine/run.js';
import { buildReport } from '../src/report/model.js';
import { writeReports } from '../src/report/write.js';
import type { CheckResult } from '../src/model/result.js';
import type { TargetProfile } from '../src/model/profile.js';
import type { Check } from '../src/model/check.js';
import { missingCredentials401 } from '../suites/05-authentication/credentials.js';
import { tokenEndpointChecks } from '../suites/05-authentication/token-endpoint.js';
import { codeFlowChecks, pkceRequired } from '../suites/05-authentication/code-flow.js';
import { issuedJwtChecks } from '../suites/05-authentication/issued-jwts.js';
import { jwtAttackChecks } from '../suites/05-authentication/jwt-attacks.js';
import { refreshChecks } from '../suites/03-states/refresh-rotation.js';
import { startOAuthServer, type OAuthServer, type OAuthServerOptions, type OAuthViolation } from './support/oauth-server.js';

const tokenChecks = [...tokenEndpointChecks, ...codeFlowChecks, ...issuedJwtChecks, ...jwtAttackChecks, ...refreshChecks];
const jwtIds: readonly string[] = [...issuedJwtChecks, ...jwtAttackChecks].map((c) => c.id);

let open: OAuthServer | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

type Login = 'form' | 'command' | 'none';

async function profileFor(as: OAuthServer, login: Login = 'form', extra: { env?: Record<string, string>; collections?: string[]; signingKey?: boolean; algorithms?: string[]; explicitEndpoints?: boolean; redirectUri?: string; oauth?: (as: OAuthServer) => Record<string, unknown>; jwt?: (as: OAuthServer) => Record<string, unknown> } = {}): Promise<TargetProfile> {
  const dir = await mkdtemp(join(tmpdir(), 'restprobe-oauth-'));
  let loginConfig: unknown;
  if (login === 'form') loginConfig = { form: { fields: { username: { env: 'RESTPROBE_OAUTH_USERNAME' }, password: { env: 'RESTPROBE_OAUTH_PASSWORD' } } } };
  if (login === 'command') {
    // A team's own script: logs in with fetch and prints where the server sent it.
    const script = join(dir, 'login.mjs');
    await writeFile(
      script,
      `const url = process.env.RESTPROBE_AUTHORIZATION_URL;
const page = await fetch(url, { redirect: 'manual' });
if (page.status !== 200) { console.log(new URL(page.headers.get('location') ?? url, url).href); process.exit(0); }
const html = await page.text();
const request = /name="request" value="([^"]+)"/.exec(html)[1];
const res = await fetch(new URL('authorize', url), { method: 'POST', redirect: 'manual', body: new URLSearchParams({ request, username: process.argv[2], password: process.argv[3] }) });
console.log('logged in');
console.log(res.headers.get('location'));
`,
    );
    await chmod(script, 0o755);
    loginConfig = { command: [process.execPath, script, as.env.RESTPROBE_OAUTH_USERNAME!, as.env.RESTPROBE_OAUTH_PASSWORD!], timeoutMs: 5000 };
  }
  const config = {
    baseUrl: as.url,
    http: { timeoutMs: 3000 },
    collections: (extra.collections ?? ['projects']).map((name) => ({ name, path: `/v2/${name}`, methods: ['GET'] })),
    auth: {
      oauth: {
        ...(extra.explicitEndpoints && { tokenEndpoint: `${as.url}/oauth/token`, authorizationEndpoint: `${as.url}/oauth/authorize`, jwksUrl: `${as.url}/oauth/jwks` }),
        clientId: { env: 'RESTPROBE_OAUTH_CLIENT_ID' }, clientSecret: { env: 'RESTPROBE_OAUTH_CLIENT_SECRET' }, scopes: ['read:*', 'write:*'], redirectUri: extra.redirectUri ?? as.redirectUri, ...(loginConfig !== undefined && { login: loginConfig }), ...extra.oauth?.(as) },
      jwt: { ...(extra.signingKey !== false && { testSigningKey: { env: 'RESTPROBE_JWT_TEST_KEY' } }), ...(extra.algorithms && { algorithms: extra.algorithms }), ...extra.jwt?.(as) },
    },
  };
  const path = join(dir, 'restprobe.config.json');
  await writeFile(path, JSON.stringify(config));
  return loadProfile({ configPath: path, env: { ...as.env, ...extra.env } });
}

async function run(opts: OAuthServerOptions, login: Login = 'form', extra: Parameters<typeof profileFor>[2] & { alsoRun?: readonly Check[] } = {}): Promise<{ results: CheckResult[]; by: Record<string, string>; explain: string; profile: TargetProfile }> {
  const as = await startOAuthServer(opts);
  open = as;
  const profile = await profileFor(as, login, extra);
  const { results } = await runChecks({ profile, checks: [...tokenChecks, ...(extra.alsoRun ?? [])], seed: 7 });
  const by = Object.fromEntries(results.map((r) => [r.id, r.status]));
  return { results, by, explain: results.map((r) => `${r.id}: ${r.status} ${r.message}`).join('\n'), profile };
}

const allPass = Object.fromEntries(tokenChecks.map((c) => [c.id, 'pass']));

describe('a conforming authorization server', () => {
  it('passes every token check, code flow included (a login form)', async () => {
    const { by, explain } = await run({});
    expect(by, explain).toEqual(allPass);
  });

  it('gets the shared access token once per run: the JWT attack checks share it', async () => {
    await run({});
    // One for the shared token (renewed as it expires), and one answer the run shares among the
    // checks that judge an issued token or its answer (each holds it in its evidence) and
    // AUT-token-invalid-client's control with the configured secret.
    expect(open!.grants.filter((g) => g === 'client_credentials')).toHaveLength(2);
  });

  it('the three refresh checks judge one family of their own: one refresh granted in the run (then the old token and the newest refused), not one a check', async () => {
    const { by, explain } = await run({});
    expect([by['STA-refresh-rotates'], by['STA-refresh-old-refused'], by['STA-refresh-reuse-revokes-family']], explain).toEqual(['pass', 'pass', 'pass']);
    // The stand-in lists the grants it issued tokens for.
    expect(open!.grants.filter((g) => g === 'refresh_token')).toHaveLength(1);
  });

  it('a family whose newest refresh token is answered with a dropped connection errors only STA-refresh-reuse-revokes-family: the two checks whose steps were answered judge them', async () => {
    const { by, explain } = await run({ dropRevokedFamilyRefresh: true });
    expect([by['STA-refresh-rotates'], by['STA-refresh-old-refused'], by['STA-refresh-reuse-revokes-family']], explain).toEqual(['pass', 'pass', 'error']);
  });

  it('passes with a login command of the team\'s own', async () => {
    const { by, explain } = await run({}, 'command');
    expect(by, explain).toEqual(allPass);
  });

  it.each<[string, OAuthServerOptions, string[]?]>([
    ['client_secret_post only, invalid_client as 400', { postOnly: true }],
    ['a lower-case token_type', { lowerCaseTokenType: true }],
    ['a 400 page for the implicit grant', { implicit400: true }],
    ['OpenID Connect discovery only', { oidcOnly: true }],
    ['a session cookie during login', { loginCookie: true }],
    ["Keycloak's service-account claims (email_verified: false, clientAddress)", { keycloakClaims: true }],
  ])('passes them all with %s', async (_name, opts) => {
    const { by, explain } = await run(opts);
    expect(by, explain).toEqual(allPass);
  });

  it('with opaque access tokens: the JWT checks skip saying so, the rest pass', async () => {
    const { results, explain } = await run({ opaque: true });
    for (const r of results) {
      if (jwtIds.includes(r.id)) expect([r.id, r.status, r.message], explain).toEqual([r.id, 'skip', expect.stringMatching(/opaque/)]);
      else expect([r.id, r.status], explain).toEqual([r.id, 'pass']);
    }
  });

  it('without metadata, its endpoints in the config: every check passes', async () => {
    const { by, explain } = await run({ noMetadata: true }, 'form', { explicitEndpoints: true });
    expect(by, explain).toEqual(allPass);
  });

  it('with Auth0-style permissions that the resource server authorizes by: the scope check narrows them too, and every check passes', async () => {
    const { by, explain } = await run({ authorizeByPermissions: true });
    expect(by, explain).toEqual(allPass);
  });

  it('with an issuer that is not the API origin and no metadata (two endpoints configured): iss is not judged against a guess', async () => {
    // auth.oauth.jwksUrl is not set (auth.jwt.jwksUrl is): the endpoints are not all explicit, so the base URL's origin is tried for metadata.
    const { by, explain } = await run({ noMetadata: true, issuerPath: '/realms/test' }, 'form', {
      oauth: (as) => ({ tokenEndpoint: `${as.url}/oauth/token`, authorizationEndpoint: `${as.url}/oauth/authorize` }),
      jwt: (as) => ({ jwksUrl: `${as.url}/oauth/jwks` }),
    });
    expect(by, explain).toEqual(allPass);
  });

  it('without expires_in: AUT-client-credentials-token warns (RFC 6749 §5.1 RECOMMENDED), the JWT lifetime still passes', async () => {
    const { by, explain } = await run({ noExpiresIn: true });
    expect(by, explain).toEqual({ ...allPass, 'AUT-client-credentials-token': 'warn' });
  });

  it('with expires_in counted down from the issue (Spring Authorization Server answers 299 for a 300 s token): taken, and noted; a lifetime under 300 s still fails', async () => {
    const { by, explain, results } = await run({ tokenSeconds: 300, expiresInElapsed: 1 });
    expect(by, explain).toEqual(allPass);
    expect(results.find((r) => r.id === 'AUT-client-credentials-token')!.evidence.notes).toContain('expires_in 299: the seconds left of a 300 s token, counted down from its issue (taken up to 5 s under)');
    const short = await run({ tokenSeconds: 290 });
    expect(short.by['AUT-client-credentials-token'], short.explain).toBe('fail');
  });

  it('refusing a reused refresh token with 401 token_inactive (older Ory Hydra): a failure on the code, not a setup error blaming the client that was just served', async () => {
    const { by, explain, results } = await run({ reusedRefreshError: { status: 401, error: 'token_inactive' } });
    expect(by, explain).toEqual({ ...allPass, 'STA-refresh-old-refused': 'fail' });
    expect(results.find((r) => r.id === 'STA-refresh-old-refused')!.message).toMatch(/presenting the rotated-out refresh token at once.*→ 401.*expected 400/);
  });

  it('answering invalid_grant with 403 (as Auth0 does): the refusals hold, the status is warned', async () => {
    const { by, explain } = await run({ invalidGrantStatus: 403 });
    const warned = ['AUT-pkce-verifier-checked', 'AUT-code-single-use', 'STA-refresh-old-refused', 'STA-refresh-reuse-revokes-family'];
    expect(by, explain).toEqual({ ...allPass, ...Object.fromEntries(warned.map((id) => [id, 'warn'])) });
  });

  it('that wants an audience parameter (as Auth0 does): every check passes with auth.oauth.parameters, and none without it', async () => {
    const audience = 'https://api.example.com';
    const { by, explain } = await run({ requireAudience: audience }, 'form', { oauth: () => ({ parameters: { audience } }) });
    expect(by, explain).toEqual(allPass);
    const without = await run({ requireAudience: audience });
    expect(Object.values(without.by).filter((s) => s === 'pass').length, without.explain).toBeLessThan(tokenChecks.length / 2);
    expect(Object.values(without.by), without.explain).not.toContain('fail');
  });

  it('with a consent page after the login (as Keycloak shows one): every check passes with login.form.consent, and none fails without it', async () => {
    const consented = await run({ consentPage: true }, 'form', { oauth: () => ({ login: { form: { fields: { username: { env: 'RESTPROBE_OAUTH_USERNAME' }, password: { env: 'RESTPROBE_OAUTH_PASSWORD' } }, consent: true } } }) });
    expect(consented.by, consented.explain).toEqual(allPass);
    const without = await run({ consentPage: true });
    expect(Object.values(without.by), without.explain).not.toContain('fail');
    expect(without.by['STA-refresh-rotates'], without.explain).toBe('error');
    // The setup error names the page and the key that approves it.
    expect(without.results.find((r) => r.id === 'STA-refresh-rotates')!.message).toMatch(/ended at POST \/oauth\/authorize → 200 text\/html without a redirect to the redirect URI: after the login the server showed a consent page \(a form without a password field\) that was not approved: restprobe approves it with auth\.oauth\.login\.form\.consent: true/);
  });

  it("with a login field the form does not have: the code-flow checks' setup errors name the field and the form's own fields", async () => {
    const { results, explain } = await run({}, 'form', { oauth: () => ({ login: { form: { fields: { user: { env: 'RESTPROBE_OAUTH_USERNAME' }, password: { env: 'RESTPROBE_OAUTH_PASSWORD' } } } } }) });
    const flow = results.find((r) => r.id === 'STA-refresh-rotates')!;
    expect([flow.status, flow.errorCode], explain).toEqual(['error', 'ERR_SETUP']);
    expect(flow.message).toMatch(/the login form at http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize has no field named user \(its fields: request, username, password; auth\.oauth\.login\.form\.fields names them\); the login form came back after it was submitted/);
  });

  it('with a wrong password: the setup errors say the login form came back, and the login field names pass unremarked', async () => {
    const { results } = await run({}, 'form', { env: { RESTPROBE_OAUTH_PASSWORD: 'not-the-password' } });
    const flow = results.find((r) => r.id === 'STA-refresh-rotates')!;
    expect(flow.message).toMatch(/ended at POST \/oauth\/authorize → 401 text\/html without a redirect to the redirect URI: the login form came back after it was submitted: the server did not take the login/);
    expect(flow.message).not.toMatch(/has no field named/);
  });

  it("with tokens without nbf (oidc-provider's default): AUT-jwt-claims warns (nbf is a SHOULD), the rest pass", async () => {
    const { by, results, explain } = await run({ noNbf: true });
    expect(by, explain).toEqual({ ...allPass, 'AUT-jwt-claims': 'warn' });
    expect(results.find((r) => r.id === 'AUT-jwt-claims')!.message).toMatch(/carries iss, sub, aud, exp, iat, but it has no nbf/);
  });

  it('answering a request without credentials with 403, but every forgery with 401 and a challenge: the attack checks pass (the 403 is AUT-missing-credentials-401\'s to judge)', async () => {
    const { by, explain } = await run({ missingCredentials403: true }, 'form', { alsoRun: [missingCredentials401] });
    expect(by, explain).toEqual({ ...allPass, 'AUT-missing-credentials-401': 'fail' });
  });

  it('with HS256 tokens: the key-confusion check skips (no public key), the rest pass', async () => {
    const { by, explain } = await run({ alg: 'HS256' }, 'form', { algorithms: ['HS256'] });
    expect(by, explain).toEqual({ ...allPass, 'AUT-jwt-key-confusion-refused': 'skip' });
  });
});

describe('the code flow\'s tokens, a user\'s, beside the client-credentials ones', () => {
  it('that live an hour fail AUT-jwt-lifetime, naming the code flow\'s token; the client-credentials one is fine', async () => {
    const { by, results, explain } = await run({ userTokens: { seconds: 3600 } });
    expect(by, explain).toEqual({ ...allPass, 'AUT-jwt-lifetime': 'fail' });
    const lifetime = results.find((r) => r.id === 'AUT-jwt-lifetime')!;
    expect(lifetime.message).toBe("the code flow's access token (a user's) lives 3600 s (exp − iat), expected 300–900 s (the conventions' rule, §5 and §8.5: access tokens live 5–15 minutes; RFC 6749 sets no range)");
    expect(lifetime.evidence.found).toBe("the client-credentials access token: 600 s; the code flow's access token (a user's): 3600 s");
  });

  it('that carry the user\'s email and name fail AUT-jwt-no-personal-data, naming the code flow\'s token', async () => {
    const { by, results, explain } = await run({ userTokens: { personalData: true } });
    expect(by, explain).toEqual({ ...allPass, 'AUT-jwt-no-personal-data': 'fail' });
    expect(results.find((r) => r.id === 'AUT-jwt-no-personal-data')!.message).toMatch(/^the code flow's access token \(a user's\)'s payload holds what looks like personal data: email \(its name\), name \(its name\); expected none/);
  });

  it('are judged only where a login is configured: without one, the client-credentials token alone passes', async () => {
    const { by, explain } = await run({ userTokens: { seconds: 3600, personalData: true } }, 'none', { signingKey: false });
    expect([by['AUT-jwt-lifetime'], by['AUT-jwt-no-personal-data']], explain).toEqual(['pass', 'pass']);
  });
});

describe('a public client (a single-page or mobile app: PKCE, no secret)', () => {
  const confidentialOnly = ['AUT-client-credentials-token', 'AUT-token-invalid-client'];
  const publicConfig = (extra: Record<string, unknown> = {}) => () => ({ clientSecret: undefined, ...extra });

  it.each<[string, Record<string, unknown>]>([
    ['without auth.oauth.clientSecret', {}],
    ['with auth.oauth.clientAuth none', { clientAuth: 'none' }],
  ])('%s: every check passes on the code flow\'s tokens, sending client_id alone; those that need a confidential client skip naming auth.oauth.clientSecret', async (_what, extra) => {
    const { results, explain } = await run({ publicClient: true }, 'form', { oauth: publicConfig(extra) });
    for (const r of results) {
      if (confidentialOnly.includes(r.id)) expect([r.id, r.status, r.configKey, r.message], explain).toEqual([r.id, 'skip', 'auth.oauth.clientSecret', expect.stringMatching(/the client is public \(no auth\.oauth\.clientSecret\): this check needs a confidential client/)]);
      else expect([r.id, r.status], explain).toEqual([r.id, 'pass']);
    }
    // The stand-in refuses a secret from its public client and client credentials to it: none was tried.
    expect(open!.grants, explain).not.toContain('client_credentials');
    // The tokens came from the code flow: the run's flow done right, and the flows of the checks that spend theirs (the refresh family's among them).
    expect(open!.grants.filter((g) => g === 'authorization_code').length).toBeGreaterThanOrEqual(3);
  });

  it.each<[OAuthViolation, string]>([
    ['token-lifetime-24h', 'AUT-jwt-lifetime'],
    ['jwt-alg-none-accepted', 'AUT-jwt-alg-none-refused'],
    ['jwt-pii-in-claims', 'AUT-jwt-no-personal-data'],
    ['pkce-optional', 'AUT-pkce-required'],
    ['token-response-cacheable', 'AUT-token-no-store'],
  ])('with %s fails %s on the code flow\'s tokens', async (violation, id) => {
    const { results, explain } = await run({ publicClient: true, violations: [violation] }, 'form', { oauth: publicConfig() });
    expect(results.filter((r) => r.status === 'fail').map((r) => r.id), explain).toEqual([id]);
  });

  it('without a login: the token checks that need tokens skip naming auth.oauth.login, and the grant refusals pass', async () => {
    const { results, explain } = await run({ publicClient: true }, 'none', { oauth: publicConfig(), signingKey: false });
    const judged = Object.fromEntries(results.filter((r) => r.status !== 'skip').map((r) => [r.id, r.status]));
    expect(judged, explain).toEqual({ 'AUT-token-unsupported-grant': 'pass', 'AUT-password-grant-refused': 'pass' });
    const jwt = results.find((r) => r.id === 'AUT-jwt-claims')!;
    expect([jwt.configKey, jwt.message]).toEqual(['auth.oauth.login', 'the client is public (no auth.oauth.clientSecret), so it gets tokens through the code flow only: no unattended login configured for the authorization code flow']);
  });
});

describe('a client not allowed the client-credentials grant', () => {
  it('gets setup errors where a check needs such a token, never a failure', async () => {
    const { results, by, explain } = await run({ noClientCredentials: true });
    expect(results.filter((r) => r.status === 'fail' || r.status === 'warn').map((r) => r.id), explain).toEqual([]);
    for (const id of ['AUT-client-credentials-token', 'AUT-token-no-store', ...jwtIds.filter((i) => i !== 'AUT-jwt-scope-403')]) expect([id, by[id]], explain).toEqual([id, 'error']);
  });
});

describe('a config with a wrong client secret', () => {
  it('gets no verdict where the token endpoint refused the client itself: neither a pass nor a failure', async () => {
    const { results, explain } = await run({}, 'form', { env: { RESTPROBE_OAUTH_CLIENT_SECRET: 'not-the-secret' } });
    // Only the state needs no token request.
    const judged = results.filter((r) => r.status !== 'error').map((r) => [r.id, r.status]);
    expect(judged, explain).toEqual([['AUT-state-echoed', 'pass']]);
  });
});

describe('a config with a wrong client secret, refused as Keycloak refuses it (401 unauthorized_client)', () => {
  it('gets no verdict where the token endpoint refused the client itself', async () => {
    const { results, explain } = await run({ unauthorizedClientForBadSecret: true }, 'form', { env: { RESTPROBE_OAUTH_CLIENT_SECRET: 'not-the-secret' } });
    const judged = results.filter((r) => r.status !== 'error').map((r) => [r.id, r.status]);
    expect(judged, explain).toEqual([['AUT-state-echoed', 'pass']]);
  });
});

describe('an authorization server whose metadata names a token endpoint that is no URL', () => {
  it('ends the checks that need it as setup errors, never harness faults', async () => {
    const { results, explain } = await run({ brokenMetadata: true });
    for (const r of results) expect([r.id, r.status, r.errorCode], explain).toEqual([r.id, 'error', 'ERR_SETUP']);
  });
});

describe('an authorization server whose redirect is no URL', () => {
  it('ends each code-flow check as a setup error, never a harness fault', async () => {
    const { results, explain } = await run({ brokenLocation: true });
    const flow = results.filter((r) => [...codeFlowChecks, ...refreshChecks].some((c) => c.id === r.id) || r.id === 'AUT-implicit-refused');
    for (const r of flow) expect([r.id, r.status, r.errorCode], explain).toEqual([r.id, 'error', 'ERR_SETUP']);
  });
});

describe('a config with client credentials only', () => {
  it('runs the client-credentials checks and skips the rest naming their keys', async () => {
    const { results, explain } = await run({}, 'none', { signingKey: false });
    const skipped = Object.fromEntries(results.filter((r) => r.status === 'skip').map((r) => [r.id, r.configKey]));
    expect(skipped, explain).toEqual({
      'AUT-implicit-refused': 'auth.oauth.login',
      ...Object.fromEntries(codeFlowChecks.map((c) => [c.id, 'auth.oauth.login'])),
      ...Object.fromEntries(refreshChecks.map((c) => [c.id, 'auth.oauth.login'])),
      ...Object.fromEntries(['AUT-jwt-expired-refused', 'AUT-jwt-nbf-future-refused', 'AUT-jwt-wrong-iss-refused', 'AUT-jwt-wrong-aud-refused', 'AUT-jwt-scope-403'].map((id) => [id, 'auth.jwt.testSigningKey'])),
    });
    expect(results.filter((r) => r.status !== 'skip').every((r) => r.status === 'pass'), explain).toBe(true);
  });
});

/** Each violation and the checks it must fail (the reference-server fault table of the contract). */
const violations: [OAuthViolation, string[]][] = [
  ['jwt-alg-none-accepted', ['AUT-jwt-alg-none-refused']],
  ['jwt-key-confusion', ['AUT-jwt-key-confusion-refused']],
  ['jwt-signature-unchecked', ['AUT-jwt-tampered-refused']],
  ['jwt-exp-unchecked', ['AUT-jwt-expired-refused']],
  ['jwt-nbf-unchecked', ['AUT-jwt-nbf-future-refused']],
  ['jwt-iss-unchecked', ['AUT-jwt-wrong-iss-refused']],
  ['jwt-aud-unchecked', ['AUT-jwt-wrong-aud-refused']],
  ['jwt-scope-ignored', ['AUT-jwt-scope-403']],
  ['token-lifetime-24h', ['AUT-client-credentials-token', 'AUT-jwt-lifetime']],
  ['jwt-pii-in-claims', ['AUT-jwt-no-personal-data']],
  ['jwt-no-typ', ['AUT-jwt-format']],
  ['jwt-claims-missing', ['AUT-jwt-claims']],
  ['token-response-cacheable', ['AUT-token-no-store']],
  ['client-secret-unchecked', ['AUT-token-invalid-client']],
  ['unknown-grant-500', ['AUT-token-unsupported-grant']],
  ['password-grant-accepted', ['AUT-password-grant-refused']],
  ['implicit-flow-accepted', ['AUT-implicit-refused']],
  ['pkce-optional', ['AUT-pkce-required']],
  ['pkce-plain-accepted', ['AUT-pkce-plain-refused']],
  ['pkce-verifier-unchecked', ['AUT-pkce-verifier-checked']],
  ['code-reusable', ['AUT-code-single-use']],
  ['state-dropped', ['AUT-state-echoed']],
  ['redirect-uri-prefix-match', ['AUT-redirect-uri-exact']],
  ['redirect-uri-subdirectory', ['AUT-redirect-uri-exact']],
  ['refresh-not-rotated', ['STA-refresh-rotates']],
  ['old-refresh-still-valid', ['STA-refresh-old-refused']],
  ['refresh-reuse-no-revoke', ['STA-refresh-reuse-revokes-family']],
];

describe('a violating authorization server', () => {
  it('with a redirect URI in the config the server does not know: the refusal checks cannot pass on refusals that have another cause', async () => {
    // The server refuses every request (400: unknown redirect URI); the code-flow control says so.
    const { by, explain } = await run({ violations: ['pkce-optional', 'pkce-plain-accepted', 'implicit-flow-accepted', 'redirect-uri-prefix-match'] }, 'form', { redirectUri: 'http://127.0.0.1/other/callback' });
    for (const id of ['AUT-pkce-required', 'AUT-pkce-plain-refused', 'AUT-implicit-refused', 'AUT-redirect-uri-exact']) expect([id, by[id]], explain).toEqual([id, 'error']);
  });

  it('runs the password grant with a made-up login (a login command): invalid_grant shows it runs, and fails', async () => {
    const { by, explain } = await run({ violations: ['password-grant-accepted'] }, 'command');
    expect(by['AUT-password-grant-refused'], explain).toBe('fail');
  });

  it('verifies tokens on one route and not on another: the forgeries are sent to the other collections too, and fail', async () => {
    const { by, explain } = await run({ looseTasksRoute: true }, 'form', { collections: ['projects', 'tasks'] });
    const attacks = jwtAttackChecks.map((c) => c.id).filter((id) => id !== 'AUT-jwt-scope-403');
    expect(by, explain).toEqual({ ...allPass, ...Object.fromEntries(attacks.map((id) => [id, 'fail'])) });
  });

  it('a public route among the collections ([AllowAnonymous]) takes any token, forged or not: no forgery is sent there, and the checks pass on the protected one', async () => {
    const { by, explain, results } = await run({ publicTasks: true }, 'form', { collections: ['projects', 'tasks'] });
    const attacks = jwtAttackChecks.map((c) => c.id);
    expect(Object.fromEntries(attacks.map((id) => [id, by[id]])), explain).toEqual(Object.fromEntries(attacks.map((id) => [id, 'pass'])));
    expect(results.find((r) => r.id === 'AUT-jwt-alg-none-refused')!.evidence.notes).toContain('/v2/tasks answers a request without credentials with a 2xx: no forgery was sent there, where a token is not needed');
  });

  it('where the first collection is public, the first protected one takes every forgery in its place: a tampered payload is sent as well as a tampered signature', async () => {
    const { by, explain, results } = await run({ publicTasks: true }, 'form', { collections: ['tasks', 'projects'] });
    expect(by['AUT-jwt-tampered-refused'], explain).toBe('pass');
    // On /v2/projects: the shared request without credentials (401), the control token taken (200), then each forgery refused.
    const projects = results.find((r) => r.id === 'AUT-jwt-tampered-refused')!.evidence.exchanges.filter((x) => new URL(x.request.url).pathname === '/v2/projects');
    const sent = projects.slice(projects.findIndex((x) => x.response?.status === 200) + 1).filter((x) => x.response?.status === 401);
    expect(sent).toHaveLength(2);
  });

  it('where the only collection is public, the forged-token and scope checks skip, naming collections, instead of failing on a route that reads no token', async () => {
    const { results, explain } = await run({ publicTasks: true }, 'form', { collections: ['tasks'] });
    for (const id of jwtAttackChecks.map((c) => c.id)) expect([id, results.find((r) => r.id === id)?.status, results.find((r) => r.id === id)?.configKey], explain).toEqual([id, 'skip', 'collections']);
  });

  it.each(violations)('%s fails %j and nothing else', async (violation, expected) => {
    const { results, explain } = await run({ violations: [violation] });
    const failing = results.filter((r) => r.status === 'fail' || r.status === 'warn').map((r) => r.id);
    expect(failing.sort(), explain).toEqual([...expected].sort());
  });

  it('a wrong client secret answered 401 unauthorized_client (as Keycloak does) fails AUT-token-invalid-client, saying which code means what', async () => {
    const { by, results, explain } = await run({ unauthorizedClientForBadSecret: true });
    expect(by, explain).toEqual({ ...allPass, 'AUT-token-invalid-client': 'fail' });
    expect(results.find((r) => r.id === 'AUT-token-invalid-client')!.message).toMatch(/error "unauthorized_client", expected "invalid_client" \(RFC 6749 §5\.2: unauthorized_client is for a client that may not use the grant/);
  });

  it('a resource server that refuses forged tokens with 400 invalid_token fails the attacks on the conventions\' 401, saying the forgeries were refused', async () => {
    const { by, results, explain } = await run({ invalidToken400: true });
    const attacks: string[] = jwtAttackChecks.map((c) => c.id).filter((id) => id !== 'AUT-jwt-scope-403');
    expect(by, explain).toEqual({ ...allPass, ...Object.fromEntries(attacks.map((id) => [id, 'fail'])) });
    for (const r of results.filter((x) => attacks.includes(x.id))) expect(r.message).toMatch(/were refused, but not with 401 and a challenge — .*→ 400.*\(conventions §5\.3; RFC 6750 §3\.1: invalid_token\)$/);
  });

  it("an iss that is not the configured issuer fails AUT-jwt-claims, naming where the issuer came from", async () => {
    const { results, explain } = await run({}, 'form', { jwt: () => ({ issuer: 'https://restprobe.invalid/issuer' }) });
    const claims = results.find((r) => r.id === 'AUT-jwt-claims')!;
    expect([claims.status, claims.message], explain).toEqual(['fail', expect.stringMatching(/expected the issuer "https:\/\/restprobe\.invalid\/issuer" \(auth\.jwt\.issuer\);/)]);
  });

  it('a token without aud and nbf, from another issuer than configured: AUT-jwt-claims names every problem at once', async () => {
    const { results, explain } = await run({ violations: ['jwt-claims-missing'] }, 'form', { jwt: () => ({ issuer: 'https://restprobe.invalid/issuer' }) });
    const claims = results.find((r) => r.id === 'AUT-jwt-claims')!;
    expect(claims.status, explain).toBe('fail');
    // The missing aud did not stop the issuer's comparison, and the absent nbf is said too.
    expect(claims.message).toMatch(/lacks aud;.*its iss is .*expected the issuer "https:\/\/restprobe\.invalid\/issuer".*it has no nbf/);
  });

  it('accepts an HS256 forgery signed with its public key while its 401s carry no challenge: the forgery fails its own check, the refused forgeries are blocked on the challenge', async () => {
    const { by, results, explain } = await run({ noChallenge: true, violations: ['jwt-key-confusion'] }, 'form', { alsoRun: [missingCredentials401] });
    expect([by['AUT-missing-credentials-401'], by['AUT-jwt-key-confusion-refused']], explain).toEqual(['fail', 'fail']);
    expect(results.find((r) => r.id === 'AUT-jwt-key-confusion-refused')!.message).toMatch(/were not refused \(\d+ accepted\)/);
    // Refused, as they must be, but with a 401 no request without credentials gets right either: one root cause.
    const refused = ['AUT-jwt-alg-none-refused', 'AUT-jwt-tampered-refused', 'AUT-jwt-expired-refused', 'AUT-jwt-nbf-future-refused', 'AUT-jwt-wrong-iss-refused', 'AUT-jwt-wrong-aud-refused'];
    for (const id of refused) expect([id, ...['status', 'errorCode', 'rootCause'].map((k) => results.find((r) => r.id === id)![k as 'status'])], explain).toEqual([id, 'error', 'ERR_BLOCKED', 'AUT-missing-credentials-401 failed']);
  });

  it('issues a code without a challenge and redeems it with any code_verifier (the PKCE downgrade, RFC 9700 §4.8.2): AUT-pkce-required fails, though a redemption without one is refused', async () => {
    const { by, explain, results } = await run({ pkceDowngrade: true });
    expect(by, explain).toEqual({ ...allPass, 'AUT-pkce-required': 'fail' });
    expect(results.find((r) => r.id === 'AUT-pkce-required')!.message).toContain('redeemed it with a code_verifier');
  });

  it('locks the user out after the run\'s control flow logged in: a changed request that meets the login page again is not taken for a refusal', async () => {
    // The downgrade would have the changed request's code redeemed: a pass here would hide it.
    const as = await startOAuthServer({ pkceDowngrade: true, lockoutAfterLogins: 1 });
    open = as;
    const { results } = await runChecks({ profile: await profileFor(as, 'form'), checks: [pkceRequired], seed: 7 });
    expect(results.map((r) => [r.id, r.status, r.errorCode])).toEqual([['AUT-pkce-required', 'error', 'ERR_SETUP']]);
    expect(results[0]!.message).toMatch(/the configured login did not go through \(the login form came back/);
  });

  it('warns when a reused code leaves the refresh token of its first use working (a SHOULD)', async () => {
    const { by, explain } = await run({ keepTokensOnCodeReuse: true });
    expect(by, explain).toEqual({ ...allPass, 'AUT-code-single-use': 'warn' });
  });
});

describe('secrets', () => {
  it('no token, code, verifier, client secret, password or signing key reaches any report', async () => {
    // Failing checks keep whole exchanges: the bodies and Locations that hold codes and tokens.
    const { results, profile } = await run({ violations: ['code-reusable', 'pkce-verifier-unchecked', 'old-refresh-still-valid', 'jwt-exp-unchecked', 'password-grant-accepted', 'implicit-flow-accepted'] });
    expect(results.filter((r) => r.status === 'fail').length).toBeGreaterThanOrEqual(6);
    const report = buildReport({ baseUrl: profile.baseUrl, startedAt: new Date(), durationMs: 1, seed: 7, strict: false, version: 'test', results });
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-oauth-report-'));
    await writeReports(report, { dir, formats: ['json', 'junit', 'md', 'html', 'allure'], secrets: profile.secrets });
    const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((f) => f.isFile());
    const written = (await Promise.all(files.map((f) => readFile(join(f.parentPath, f.name), 'utf8')))).join('\n');
    expect(written).toContain('AUT-code-single-use');
    // What was scrubbed stands as its name: the evidence held it.
    for (const name of ['$OAUTH_CODE', '$PKCE_VERIFIER', '$REFRESH_TOKEN', '$RESTPROBE_OAUTH_PASSWORD']) expect(written, name).toContain(name);
    const as = open!;
    for (const [name, value] of Object.entries(as.env)) if (name !== 'RESTPROBE_OAUTH_CLIENT_ID' && name !== 'RESTPROBE_OAUTH_USERNAME') expect(written, name).not.toContain(value);
    for (const value of as.issued) expect(written).not.toContain(value.slice(0, 12));
    // Verifiers and codes the harness made or read: every value in a form body or a Location is a $NAME.
    expect(written).not.toMatch(/code_verifier=(?!\$|%24)[A-Za-z0-9_~.-]{8}/);
    expect(written).not.toMatch(/[?&#]code=(?!\$|%24)[A-Za-z0-9_~.-]{8}/);
    expect(written).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.eyJ/);
  });
});
