/**
 * The run's own API credential from auth.oauth (`auth.apiKey: { "fromOAuth": true }`): an
 * access token restprobe requests with client credentials and renews before it expires, so a
 * run longer than a token's life works, through runChecks and through `restprobe run` (whose
 * preflight gets the first token). Against the stand-in authorization and resource server
 * issuing tokens of 2 seconds that its resource server takes not a second longer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadProfile } from '../src/config/load.js';
import { runChecks } from '../src/engine/run.js';
import { healthPhase, probeHealth } from '../src/engine/health.js';
import { clientForProfile, type RawRequest } from '../src/http/client.js';
import { CheckFailure, defineCheck } from '../src/model/check.js';
import { expectStatus } from '../src/check-kit/expect.js';
import { RestprobeError } from '../src/errors.js';
import type { TargetProfile } from '../src/model/profile.js';
import { credentialChecks } from '../suites/05-authentication/credentials.js';
import { startOAuthServer, type OAuthServer } from './support/oauth-server.js';
import { runInProcess } from './support/run-in-process.js';

let open: OAuthServer | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

/** The stand-in's variables under names of this test's own (the CLI reads process.env). */
const envNames = { RESTPROBE_OAUTH_CLIENT_ID: 'RESTPROBE_APITOKEN_TEST_ID', RESTPROBE_OAUTH_CLIENT_SECRET: 'RESTPROBE_APITOKEN_TEST_SECRET' } as const;

async function configFor(as: OAuthServer, auth: Record<string, unknown> = { apiKey: { fromOAuth: true } }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'restprobe-api-token-'));
  const path = join(dir, 'restprobe.config.json');
  const oauth = { clientId: { env: envNames.RESTPROBE_OAUTH_CLIENT_ID }, clientSecret: { env: envNames.RESTPROBE_OAUTH_CLIENT_SECRET }, scopes: ['read:*'] };
  await writeFile(path, JSON.stringify({ baseUrl: as.url, http: { timeoutMs: 3000 }, collections: [{ name: 'projects', path: '/v2/projects', methods: ['GET'] }], auth: { oauth, ...auth } }));
  return path;
}

const envOf = (as: OAuthServer, secret = as.env.RESTPROBE_OAUTH_CLIENT_SECRET!): Record<string, string> => ({ [envNames.RESTPROBE_OAUTH_CLIENT_ID]: as.env.RESTPROBE_OAUTH_CLIENT_ID!, [envNames.RESTPROBE_OAUTH_CLIENT_SECRET]: secret });

async function standIn(): Promise<{ as: OAuthServer; profile: TargetProfile }> {
  const as = await startOAuthServer({ tokenSeconds: 2, leewaySeconds: 0 });
  open = as;
  return { as, profile: await loadProfile({ configPath: await configFor(as), env: envOf(as) }) };
}

/** Reads the collection with the run's credential, waits past a token's life, and reads it again. */
const outlastsToken = defineCheck({
  id: 'AUT-test-outlasts-a-token',
  title: 'test: two reads 3 s apart',
  rule: 'Both reads MUST be served.',
  severity: 'must',
  needs: ['firstCollection'],
  async run(ctx, { firstCollection }) {
    expectStatus(await ctx.http.send({ method: 'GET', path: firstCollection.path }), 200, 'the first read');
    await sleep(3000);
    expectStatus(await ctx.http.send({ method: 'GET', path: firstCollection.path }), 200, 'the read 3 s later');
  },
});

describe('the API token from auth.oauth (auth.apiKey.fromOAuth)', () => {
  it('is requested with client credentials, sent as Authorization: Bearer, and renewed before it expires: a check that outlasts a token passes, and so do the credential checks', async () => {
    const { as, profile } = await standIn();
    expect(profile.auth.apiKey).toMatchObject({ header: 'Authorization', value: { envName: 'API_ACCESS_TOKEN' } });
    const { results } = await runChecks({ profile, checks: [outlastsToken, ...credentialChecks], seed: 3 });
    const by = Object.fromEntries(results.map((r) => [r.id, r.status]));
    const explain = results.map((r) => `${r.id}: ${r.status} ${r.message}`).join('\n');
    expect(by, explain).toMatchObject({ 'AUT-test-outlasts-a-token': 'pass', 'AUT-missing-credentials-401': 'pass', 'AUT-invalid-credentials-401': 'pass', 'AUT-key-not-in-query': 'pass' });
    // Renewed at least once in the three seconds, and each token is one the profile's secrets know.
    const tokens = as.issued;
    expect(as.grants.filter((g) => g === 'client_credentials').length).toBeGreaterThanOrEqual(2);
    for (const token of tokens) expect(profile.secrets.map((s) => s.value)).toContain(token);
  });

  it("is renewed for the run's own requests outside a check too (the health probe after a last check, cleanup): a probe after the first token expired still reads the collection", async () => {
    const { profile } = await standIn();
    const client = clientForProfile(profile);
    try {
      const send = (req: RawRequest) => client.send(req);
      expect(await healthPhase(profile, send)).toContain('GET /v2/projects → 200');
      await sleep(3000);
      // A stale token would be refused here (401): the control below shows the stand-in refuses it.
      expect(await probeHealth(profile, send)).toContain('GET /v2/projects → 200');
    } finally {
      await client.close();
    }
  });

  it('the control: the first token, kept as a static key, is refused once it has expired', async () => {
    const { profile } = await standIn();
    const first = await profile.auth.apiKey!.issued!.fresh();
    const fixed = { ...profile, auth: { ...profile.auth, apiKey: { header: 'Authorization', value: { envName: 'API_ACCESS_TOKEN', value: first } } } };
    const { results } = await runChecks({ profile: fixed, checks: [outlastsToken], seed: 3 });
    expect([results[0]!.status, results[0]!.message]).toEqual(['fail', expect.stringMatching(/^the read 3 s later: .*→ 401/)]);
  });

  it('keeps every token out of the reports: a failing check\'s curl names it $API_ACCESS_TOKEN', async () => {
    const { as, profile } = await standIn();
    const fails = defineCheck({ id: 'AUT-test-fails-after-a-read', title: 'test', rule: 'Fails.', severity: 'must', needs: ['firstCollection'], async run(ctx, { firstCollection }) {
      const res = await ctx.http.send({ method: 'GET', path: firstCollection.path });
      throw new CheckFailure(`found ${res.status}, expected a failure for the test`, 'a failure', String(res.status), res.exchangeIndex);
    } });
    const { results } = await runChecks({ profile, checks: [fails], seed: 3 });
    const text = JSON.stringify(results);
    expect(results[0]!.evidence.exchanges.at(-1)!.curl).toContain('Bearer $API_ACCESS_TOKEN');
    for (const token of as.issued) expect(text).not.toContain(token.slice(0, 12));
  });

  it('through restprobe run: the preflight gets the first token, the checks use it, and no token reaches a report; a refused one ends the run before any check', async () => {
    const as = await startOAuthServer({ tokenSeconds: 2, leewaySeconds: 0 });
    open = as;
    const config = await configFor(as);
    const saved = Object.fromEntries(Object.values(envNames).map((n) => [n, process.env[n]]));
    Object.assign(process.env, envOf(as));
    try {
      const ran = await runInProcess(undefined, { config, only: ['AUT-missing-credentials-401', 'AUT-invalid-credentials-401', 'AUT-key-not-in-query'], format: 'json,md' });
      expect([ran.code, ran.error?.message], ran.out).toEqual([0, undefined]);
      const written = (await Promise.all((await readdir(ran.dir)).map((f) => readFile(join(ran.dir, f), 'utf8')))).join('\n');
      expect(written).toContain('AUT-key-not-in-query');
      for (const token of as.issued) expect(written).not.toContain(token.slice(0, 12));
      // A wrong client secret ends the run before any check, naming where the token comes from.
      Object.assign(process.env, envOf(as, 'not-the-secret'));
      const refused = await runInProcess(undefined, { config, only: ['AUT-key-not-in-query'] });
      expect([refused.code, refused.error?.code, refused.error?.message]).toEqual([2, 'ERR_CREDENTIALS_REJECTED', expect.stringMatching(/^the authorization server refused the API's access token \(client credentials, auth\.apiKey\.fromOAuth\): POST \/oauth\/token → 401 application\/json with error invalid_client/)]);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('refused mid-run (a wrong secret, no preflight): each check that needs it is an error naming the refusal, never a verdict', async () => {
    const as = await startOAuthServer({ tokenSeconds: 2, leewaySeconds: 0 });
    open = as;
    const profile = await loadProfile({ configPath: await configFor(as), env: envOf(as, 'not-the-secret') });
    const { results } = await runChecks({ profile, checks: [outlastsToken], seed: 3 });
    expect([results[0]!.status, results[0]!.errorCode]).toEqual(['error', 'ERR_CREDENTIALS_REJECTED']);
  });

  it('is a config error without auth.oauth, or with a public client, and fromOAuth beside a value is refused by the schema', async () => {
    const as = await startOAuthServer();
    open = as;
    const problems = async (auth: Record<string, unknown>): Promise<string> => {
      const err = await loadProfile({ configPath: await configFor(as, auth), env: envOf(as) }).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(RestprobeError);
      return [(err as RestprobeError).message, ...(err as RestprobeError).problems].join('\n');
    };
    const noSecret = await problems({ apiKey: { fromOAuth: true }, oauth: { clientId: 'c' } });
    expect(noSecret).toMatch(/auth\.apiKey\.fromOAuth: needs auth\.oauth\.clientSecret: client credentials are for a confidential client/);
    expect(await problems({ apiKey: { fromOAuth: true, value: { env: 'X' } } })).toMatch(/auth\.apiKey: must have value \(\{ "env": "NAME" \}\) or fromOAuth: true, not both/);
    // Without auth.oauth at all.
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-api-token-'));
    const path = join(dir, 'c.json');
    await writeFile(path, JSON.stringify({ baseUrl: as.url, auth: { apiKey: { fromOAuth: true } } }));
    await expect(loadProfile({ configPath: path, env: {} })).rejects.toThrow(/auth\.apiKey\.fromOAuth: needs auth\.oauth, whose client gets the token with client credentials/);
  });
});
