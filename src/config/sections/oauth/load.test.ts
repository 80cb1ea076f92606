import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RestprobeError } from '../../../errors.js';
import { loadProfile } from '../../load.js';
import { resolveCodeFlow, resolveConfidentialClient, resolveJwtAccess, resolveOAuthClient, resolveSigningKey } from './needs.js';
import { Unmet } from '../../../model/needs.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'restprobe-oauth-config-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(auth: unknown, env: Record<string, string> = {}) {
  const path = join(dir, `c${Math.random().toString(36).slice(2)}.json`);
  await writeFile(path, JSON.stringify({ baseUrl: 'https://api.example.com/v2', auth }));
  return { path, profile: loadProfile({ configPath: path, env }) };
}

const env = { CLIENT_ID: 'restprobe-client', CLIENT_SECRET: 'cs-0123456789abcdef', USER: 'probe-user', PASSWORD: 'pw-0123456789', JWT_KEY: '{"kty":"oct","k":"c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0"}' };

describe('auth.oauth and auth.jwt', () => {
  it('takes extra parameters for the authorization server (auth.oauth.parameters), but none restprobe sets itself', async () => {
    const ok = await load({ oauth: { clientId: 'c', parameters: { audience: 'https://api.example.com', resource: 'https://api.example.com/v2' } } });
    expect((await ok.profile).auth.oauth?.parameters).toEqual({ audience: 'https://api.example.com', resource: 'https://api.example.com/v2' });
    const bad = await load({ oauth: { clientId: 'c', parameters: { scope: 'write:*', audience: 3 } } });
    const err = await bad.profile.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RestprobeError);
    expect((err as RestprobeError).problems).toEqual([
      'auth.oauth.parameters: must not be a parameter restprobe sets itself (response_type, client_id, redirect_uri, scope, state, code_challenge, grant_type, …) (found string "scope")',
      'auth.oauth.parameters.audience: must be a string (found number 3)',
    ]);
  });

  it('resolves the client, the login form fields and the test key; the client id is no secret', async () => {
    const { profile } = await load(
      {
        oauth: { clientId: { env: 'CLIENT_ID' }, clientSecret: { env: 'CLIENT_SECRET' }, scopes: ['read:*'], redirectUri: 'http://127.0.0.1/cb', login: { form: { fields: { username: { env: 'USER' }, password: { env: 'PASSWORD' }, remember: 'yes' } } } },
        jwt: { testSigningKey: { env: 'JWT_KEY' }, algorithms: ['HS256'] },
      },
      env,
    );
    const p = await profile;
    expect(p.auth.oauth).toEqual({ clientId: 'restprobe-client', clientSecret: { envName: 'CLIENT_SECRET', value: env.CLIENT_SECRET }, scopes: ['read:*'], parameters: {}, redirectUri: 'http://127.0.0.1/cb', login: { kind: 'form', fields: { username: 'probe-user', password: env.PASSWORD, remember: 'yes' }, unset: [] }, clientIdEnv: 'CLIENT_ID' });
    expect(p.auth.jwt).toMatchObject({ algorithms: ['HS256'], testSigningKey: { envName: 'JWT_KEY', value: env.JWT_KEY } });
    expect(p.secrets.map((s) => s.envName).sort()).toEqual(['CLIENT_SECRET', 'JWT_KEY', 'PASSWORD', 'USER']);
    expect(resolveCodeFlow(p)).not.toBeInstanceOf(Unmet);
    expect(resolveSigningKey(p)).not.toBeInstanceOf(Unmet);
  });

  it('gives auth.jwt its defaults when only auth.oauth is configured, and the needs name the missing keys', async () => {
    const p = await (await load({ oauth: { clientId: 'c', clientSecret: { env: 'CLIENT_SECRET' } } }, env)).profile;
    expect(p.auth.jwt?.algorithms).toEqual(['RS256']);
    expect(p.auth.jwt?.personalData.claims).toContain('phone');
    expect(resolveOAuthClient(p)).not.toBeInstanceOf(Unmet);
    expect((resolveCodeFlow(p) as Unmet).configKey).toBe('auth.oauth.login');
    expect((resolveSigningKey(p) as Unmet).configKey).toBe('auth.jwt.testSigningKey');
    expect((resolveOAuthClient({ ...p, auth: { queryParams: [] } }) as Unmet).configKey).toBe('auth.oauth');
  });

  it('takes a client without a secret (or with clientAuth none) for a public one: met, but not where a confidential client is needed, and its tokens come from the code flow', async () => {
    for (const oauth of [{ clientId: 'c' }, { clientId: 'c', clientAuth: 'none' }]) {
      const p = await (await load({ oauth })).profile;
      expect(resolveOAuthClient(p)).toMatchObject({ oauth: { clientId: 'c' } });
      expect(resolveConfidentialClient(p)).toEqual(new Unmet('the client is public (no auth.oauth.clientSecret): this check needs a confidential client, one with a secret', 'auth.oauth.clientSecret'));
      expect((resolveJwtAccess(p) as Unmet).configKey).toBe('auth.oauth.login');
    }
    const withLogin = await (await load({ oauth: { clientId: 'c', redirectUri: 'http://127.0.0.1/cb', login: { command: './login.sh' } } })).profile;
    expect(resolveJwtAccess(withLogin)).toMatchObject({ codeFlow: { oauth: { clientId: 'c' } } });
    // A secret configured but unset, or a secret-based clientAuth without one: nothing is taken for public.
    expect((resolveOAuthClient(await (await load({ oauth: { clientId: 'c', clientSecret: { env: 'NO_SUCH_SECRET' } } })).profile) as Unmet).configKey).toBe('auth.oauth.clientSecret');
    expect((resolveOAuthClient(await (await load({ oauth: { clientId: 'c', clientAuth: 'client_secret_post' } })).profile) as Unmet).reason).toBe('no client secret configured, though auth.oauth.clientAuth is client_secret_post');
  });

  it('leaves unset variables to the needs: the checks skip naming the key, the rest of the run goes on', async () => {
    const p = await (await load({ oauth: { clientId: { env: 'NO_SUCH_ID' }, clientSecret: { env: 'CLIENT_SECRET' }, redirectUri: 'http://127.0.0.1/cb', login: { form: { fields: { username: { env: 'USER' }, password: { env: 'NO_SUCH_PASSWORD' } } } } } }, env)).profile;
    expect(resolveOAuthClient(p)).toEqual(new Unmet('environment variable NO_SUCH_ID (auth.oauth.clientId) is not set', 'auth.oauth'));
    const withId = { ...p, auth: { ...p.auth, oauth: { ...p.auth.oauth!, clientId: 'c' } } };
    expect(resolveCodeFlow(withId)).toEqual(new Unmet("the login form's password (NO_SUCH_PASSWORD) is not set", 'auth.oauth.login'));
  });

  it('splits a login command and places a relative program beside the config file', async () => {
    const { path, profile } = await load({ oauth: { clientId: 'c', redirectUri: 'http://127.0.0.1/cb', login: { command: './login.sh --user probe', timeoutMs: 5000 } } });
    expect((await profile).auth.oauth?.login).toEqual({ kind: 'command', argv: [join(dir, 'login.sh'), '--user', 'probe'], timeoutMs: 5000 });
    expect(path.startsWith(dir)).toBe(true);
  });

  it('names the path of what is wrong', async () => {
    const problems = async (auth: unknown, e: Record<string, string> = {}): Promise<string> => {
      const err = await (await load(auth, e)).profile.then(() => undefined, (x: unknown) => x);
      expect(err).toBeInstanceOf(RestprobeError);
      return [(err as RestprobeError).message, ...(err as RestprobeError).problems].join('\n');
    };
    expect(await problems({ oauth: { clientId: 'c', clientSecret: 'literal-secret' } })).toMatch(/auth\.oauth\.clientSecret: must be \{ "env": "NAME" \}/);
    expect(await problems({ oauth: { clientId: 'c', clientAuth: 'none', clientSecret: { env: 'CLIENT_SECRET' } } }, env)).toMatch(/auth\.oauth\.clientSecret: a public client \(clientAuth none\) has no secret/);
    expect(await problems({ oauth: { clientId: 'c', login: { form: { fields: { u: 'x' } } } } })).toMatch(/auth\.oauth\.redirectUri: required with auth\.oauth\.login/);
    expect(await problems({ oauth: { clientId: 'c', redirectUri: 'http://127.0.0.1/cb', login: { script: 'x' } } })).toMatch(/auth\.oauth\.login: must be \{ "form"/);
    expect(await problems({ jwt: { personalDataPatterns: { claims: ['(unclosed'] } } })).toMatch(/auth\.jwt\.personalDataPatterns\.claims\[0\]: not a regular expression/);
    expect(await problems({ jwt: { algorithms: ['none'] } })).toMatch(/auth\.jwt\.algorithms\[0\]/);
    const literal = await problems({ oauth: { clientId: 'c', redirectUri: 'http://127.0.0.1/cb', login: { form: { fields: { username: 'probe', password: 'hunter2-literal' } } } } });
    expect(literal).toMatch(/auth\.oauth\.login\.form\.fields\.password: a secret is never literal/);
    expect(literal).not.toContain('hunter2-literal');
    // A session login's password likewise: it would be in the login's curl line.
    const session = await problems({ session: { login: { path: '/v2/sessions', body: { username: 'probe', password: 'hunter2-literal' } }, logout: { path: '/v2/sessions/current' } } });
    expect(session).toMatch(/auth\.session\.login\.body\.password: a secret is never literal/);
    expect(session).not.toContain('hunter2-literal');
  });
});
