/**
 * Issue 24: an API that authenticates as Django REST Framework's TokenAuthentication does
 * (`Authorization: Token <key>`, and 401 with `WWW-Authenticate: Token` without it) is
 * judged with `auth.apiKey.scheme: "Token"`: the health phase accepts the key, the
 * credential checks judge the refusals, and curl names the key as `Token $API_KEY`. Sent as
 * Bearer (the default), the same key is refused before any check runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProfile } from '../src/config/load.js';
import { healthPhase } from '../src/engine/health.js';
import { runChecks } from '../src/engine/run.js';
import { clientForProfile } from '../src/http/client.js';
import { credentialChecks } from '../suites/05-authentication/credentials.js';

const key = 'drf-3f1c9a0e5b7d2c4f6a8e0b1d3c5f7a9e';
let server: Server;
let url: string;

beforeAll(async () => {
  // As DRF answers: 401 with a Token challenge unless `Authorization: Token <key>`.
  server = createServer((req, res) => {
    if (req.headers.authorization !== `Token ${key}`) {
      res.writeHead(401, { 'content-type': 'application/problem+json', 'www-authenticate': 'Token' }).end(JSON.stringify({ type: 'about:blank', title: 'Unauthorized', status: 401 }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [], next_cursor: null }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

async function profileWith(scheme?: string) {
  const dir = await mkdtemp(join(tmpdir(), 'restprobe-token-scheme-'));
  const path = join(dir, 'restprobe.config.json');
  await writeFile(path, JSON.stringify({ baseUrl: url, collections: [{ name: 'snippets', path: '/snippets', methods: ['GET'] }], auth: { apiKey: { header: 'Authorization', ...(scheme !== undefined && { scheme }), value: { env: 'DRF_TOKEN' } } } }));
  return loadProfile({ configPath: path, env: { DRF_TOKEN: key } });
}

describe('auth.apiKey.scheme', () => {
  it('sends the key as "Token <key>": the health phase accepts it, and the credential checks judge the API', async () => {
    const profile = await profileWith('Token');
    const client = clientForProfile(profile);
    try {
      expect(await healthPhase(profile, (req) => client.send(req))).toContain('GET /snippets → 200');
      const { results } = await runChecks({ profile, checks: credentialChecks, seed: 1, client });
      const by = Object.fromEntries(results.map((r) => [r.id, r.status]));
      expect(by, results.map((r) => `${r.id}: ${r.message}`).join('\n')).toMatchObject({ 'AUT-missing-credentials-401': 'pass', 'AUT-invalid-credentials-401': 'pass', 'AUT-key-not-in-query': 'pass' });
      expect(JSON.stringify(results)).not.toContain(key);
    } finally {
      await client.close();
    }
  });

  it('without it the key goes as Bearer, which this API refuses before any check runs', async () => {
    const profile = await profileWith();
    const client = clientForProfile(profile);
    try {
      await expect(healthPhase(profile, (req) => client.send(req))).rejects.toMatchObject({ code: 'ERR_CREDENTIALS_REJECTED' });
    } finally {
      await client.close();
    }
  });

  it('is refused by the schema when it is not an auth scheme', async () => {
    await expect(profileWith('Token abc')).rejects.toMatchObject({ code: 'ERR_CONFIG_INVALID', problems: [expect.stringContaining('auth.apiKey')] });
  });
});
