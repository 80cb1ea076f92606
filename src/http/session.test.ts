/**
 * RecordingSession: what it records is redacted, truncated and repeatable as curl, and a
 * credential never reaches the evidence.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deepToken, hostileSecrets, startHostileServer, type HostileServer } from '../../test/support/hostile-server.js';
import { RestprobeError } from '../errors.js';
import type { TargetProfile, VersionProfile } from '../model/profile.js';
import type { Send } from './guards.js';
import { testProfile } from '../../test/support/profile.js';
import { HttpClient } from './client.js';
import { REDACTED } from './redact.js';
import { RecordingSession, unversionedUrl, versionedUrl } from './session.js';

const apiKey = 'sk-live-4f9c2e7a1b3d5f60';
const fast = { timeout: 5_000 };

function profileFor(baseUrl: string, header = 'X-API-Key'): TargetProfile {
  return testProfile(baseUrl, { apiKey, keyHeader: header });
}

let server: HostileServer;
let client: HttpClient;

beforeAll(async () => {
  server = await startHostileServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  // Patient: a loaded machine may take far longer than a short deadline to answer (the one test about the deadline has its own client).
  client = new HttpClient({ timeoutMs: 10_000, maxBodyBytes: 1 << 20, connections: 2, maxRequests: 1_000 });
});
afterEach(async () => {
  await client.close();
});

/** Every string a report could be built from. */
const everything = (session: RecordingSession): string => JSON.stringify(session.records('full'));

describe('RecordingSession with an X-API-Key header', () => {
  it('sends the key, records it redacted, and writes it as $API_KEY in curl', fast, async () => {
    const session = new RecordingSession(client, profileFor(server.url));
    const res = await session.send({ method: 'GET', path: '/echo' });

    // The target got the key; the check sees the whole response.
    expect(res.status).toBe(200);
    expect((res.json as { headers: Record<string, string> }).headers['x-api-key']).toBe(apiKey);

    expect(session.records('full')).toHaveLength(1);
    const x = session.records('full')[0]!;
    expect(x.request.headers['x-api-key']).toBe(REDACTED);
    expect(x.request.url).toBe(`${server.url}/echo`);
    expect(x.curl).toContain(`"x-api-key: $API_KEY"`);
    expect(x.curl).not.toContain(apiKey);
    // The echoed key in the response body is redacted too.
    expect(x.response?.status).toBe(200);
    expect(everything(session)).not.toContain(apiKey);
  });

  it('hands the check a response that shows no request credentials when spread or printed, and whose headers are frozen', fast, async () => {
    const session = new RecordingSession(client, profileFor(server.url));
    const res = await session.send({ method: 'GET', path: '/big?bytes=20' });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res)).not.toContain(apiKey);
    expect(JSON.stringify({ ...res })).not.toContain(apiKey);
    expect(Object.isFrozen(res.headers)).toBe(true);
    // The evidence still has the request as it was sent (redacted when reported).
    expect(session.records('full')[0]!.request.headers['x-api-key']).toBe(REDACTED);
  });

  it('sends no credentials when the check asks for none', fast, async () => {
    const session = new RecordingSession(client, profileFor(server.url));
    const res = await session.send({ method: 'GET', path: '/echo', auth: false });
    expect((res.json as { headers: Record<string, string> }).headers['x-api-key']).toBeUndefined();
    expect(session.records('full')[0]!.curl).not.toContain('x-api-key');
  });

  it('never records the key wherever a check puts it (URL, body, another header)', fast, async () => {
    const session = new RecordingSession(client, profileFor(server.url));
    await session.send({
      method: 'POST',
      path: `/echo?api_key=${apiKey}`,
      headers: { 'x-forwarded-key': apiKey },
      json: { note: `the key is ${apiKey}` },
    });
    const x = session.records('full')[0]!;
    expect(x.request.url).toContain('api_key=$API_KEY');
    expect(x.request.headers['x-forwarded-key']).toBe('$API_KEY');
    expect(x.request.body).toContain('$API_KEY');
    expect(everything(session)).not.toContain(apiKey);
  });

  it('never records the key when the target sends it back in a response header', fast, async () => {
    const session = new RecordingSession(client, profileFor(server.url));
    const res = await session.send({ method: 'GET', path: '/echo', headers: { 'x-reflect': `key=${apiKey}` } });
    expect(res.headers['x-reflected']).toBe(`key=${apiKey}`);
    expect(session.records('full')[0]!.response!.headers['x-reflected']).toBe('key=$API_KEY');
    expect(everything(session)).not.toContain(apiKey);
  });

  it('redacts Set-Cookie and token/secret/password members of the response', fast, async () => {
    const session = new RecordingSession(client, profileFor(server.url));
    const res = await session.send({ method: 'POST', path: '/set-cookie', json: { grant_type: 'client_credentials' } });

    // The check itself sees everything.
    expect(res.headers['set-cookie']).toContain(hostileSecrets.cookieValue);
    // Repeated fields are joined; Set-Cookie by newlines, since its values may hold commas.
    expect(res.headers['set-cookie']!.split('\n')).toEqual([hostileSecrets.cookie, 'theme=dark']);
    expect(res.mediaType).toBe('application/json');
    expect(res.json).toMatchObject({ access_token: hostileSecrets.accessToken });

    const response = session.records('full')[0]!.response!;
    expect(response.status).toBe(200);
    expect(response.headers['set-cookie']).toBe(REDACTED);
    expect(response.headers['content-type']).toBe('application/json');
    const body = JSON.parse(response.body!) as Record<string, unknown>;
    expect(body).toMatchObject({
      access_token: REDACTED,
      refresh_token: REDACTED,
      client_secret: REDACTED,
      password: REDACTED,
      expires_in: 3600,
    });

    const all = everything(session);
    for (const value of [apiKey, hostileSecrets.cookieValue, hostileSecrets.accessToken, hostileSecrets.refreshToken, hostileSecrets.clientSecret, hostileSecrets.password]) {
      expect(all).not.toContain(value);
    }
  });

  it('truncates bodies over 4 KiB in the evidence, not for the check', fast, async () => {
    const session = new RecordingSession(client, profileFor(server.url));
    const res = await session.send({ method: 'GET', path: '/big?bytes=10000' });
    expect(res.text.length).toBe(10_000);
    const response = session.records('full')[0]!.response!;
    expect(response.body).toHaveLength(4096);
    expect(response.bodyTruncated).toBe(true);

    const small = await session.send({ method: 'GET', path: '/big?bytes=4096' });
    expect(small.text.length).toBe(4096);
    expect(session.records('full')[1]!.response!.bodyTruncated).toBeUndefined();
    expect(session.records('full')[1]!.response!.body).toHaveLength(4096);
  });

  it('truncates a large request body in the evidence', fast, async () => {
    const session = new RecordingSession(client, profileFor(server.url));
    await session.send({ method: 'POST', path: '/echo', body: 'r'.repeat(10_000) });
    expect(session.records('full')[0]!.request.body).toHaveLength(4096);
  });

  it('records a transport error as an exchange with curl, then rethrows it', fast, async () => {
    const short = new HttpClient({ timeoutMs: 300, maxBodyBytes: 1 << 20, connections: 2, maxRequests: 1_000 });
    const session = new RecordingSession(short, profileFor(server.url));
    const err = await session.send({ method: 'GET', path: '/no-headers' }).catch((e: unknown) => e);
    await short.close();
    expect(err).toBeInstanceOf(RestprobeError);
    expect((err as RestprobeError).code).toBe('ERR_TIMEOUT');

    expect(session.records('full')).toHaveLength(1);
    const x = session.records('full')[0]!;
    expect(x.response).toBeUndefined();
    expect(x.error).toContain('no complete response within 300 ms');
    expect(x.curl).toContain(`'${server.url}/no-headers'`);
    expect(x.curl).toContain(`"x-api-key: $API_KEY"`);
    expect(everything(session)).not.toContain(apiKey);
  });

  it('records a protocol error the same way', fast, async () => {
    const session = new RecordingSession(client, profileFor(server.url));
    await expect(session.send({ method: 'GET', path: `/garbage?k=${apiKey}` })).rejects.toMatchObject({ code: 'ERR_PROTOCOL' });
    const x = session.records('full')[0]!;
    expect(x.error).toContain('/garbage');
    expect(x.curl).toMatch(/^curl /);
    expect(everything(session)).not.toContain(apiKey);
  });

  it('records a deeply nested response (with a token beside it) without failing the exchange', fast, async () => {
    const session = new RecordingSession(client, profileFor(server.url));
    const res = await session.send({ method: 'GET', path: '/deep?depth=100000' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ access_token: deepToken });
    const x = session.records('full')[0]!;
    expect(x.error).toBeUndefined();
    expect(x.response?.status).toBe(200);
    expect(everything(session)).not.toContain(deepToken);
  });
});

describe('RecordingSession with an Authorization header', () => {
  it('sends "Bearer <key>", records it redacted, and writes "authorization: Bearer $API_KEY" in curl', fast, async () => {
    const session = new RecordingSession(client, profileFor(server.url, 'Authorization'));
    const res = await session.send({ method: 'GET', path: '/echo' });
    expect((res.json as { headers: Record<string, string> }).headers['authorization']).toBe(`Bearer ${apiKey}`);

    const x = session.records('full')[0]!;
    expect(x.request.headers['authorization']).toBe(REDACTED);
    expect(x.curl).toContain(`"authorization: Bearer $API_KEY"`);
    expect(x.curl).not.toContain(apiKey);
    expect(everything(session)).not.toContain(apiKey);
  });

  it('redacts a custom credential header name', fast, async () => {
    const session = new RecordingSession(client, profileFor(server.url, 'X-Tenant-Token'));
    const res = await session.send({ method: 'GET', path: '/echo' });
    expect((res.json as { headers: Record<string, string> }).headers['x-tenant-token']).toBe(apiKey);
    expect(session.records('full')[0]!.request.headers['x-tenant-token']).toBe(REDACTED);
    expect(session.records('full')[0]!.curl).toContain(`"x-tenant-token: $API_KEY"`);
    expect(everything(session)).not.toContain(apiKey);
  });
});

describe('RecordingSession under the query version scheme', () => {
  /** A transport that answers 204 and keeps the URLs it was asked for. */
  function capturing(): { urls: string[]; transport: { send: Send; protocolErrors: readonly string[] } } {
    const urls: string[] = [];
    return { urls, transport: { send: async (req) => (urls.push(req.url), { status: 204, headers: {}, body: Buffer.alloc(0) }), protocolErrors: [] } };
  }
  const version: VersionProfile = { scheme: 'query', current: '2', deprecated: ['1'], removed: [], header: 'Accept', queryParam: 'api-version', renames: [] };

  it('names the current version on every request to the target, unless the request names one; never elsewhere', fast, async () => {
    const { urls, transport } = capturing();
    const session = new RecordingSession(transport, { ...testProfile('http://127.0.0.1:9'), version });
    await session.send({ method: 'GET', path: '/projects' });
    await session.send({ method: 'GET', path: '/projects?limit=5' });
    await session.send({ method: 'POST', path: '/projects', json: {} });
    await session.send({ method: 'GET', path: '/projects?api-version=1' });
    await session.send({ method: 'GET', url: 'http://127.0.0.1:9/projects/1' });
    await session.send({ method: 'GET', url: 'https://docs.example.com/deprecations' });
    expect(urls).toEqual([
      'http://127.0.0.1:9/projects?api-version=2',
      'http://127.0.0.1:9/projects?limit=5&api-version=2',
      'http://127.0.0.1:9/projects?api-version=2',
      'http://127.0.0.1:9/projects?api-version=1',
      'http://127.0.0.1:9/projects/1?api-version=2',
      'https://docs.example.com/deprecations',
    ]);
    // The evidence shows the request as sent.
    expect(session.records('full')[0]!.curl).toContain('/projects?api-version=2');
  });

  it('takes the added version off again, for the ledger, and only that', () => {
    const profile = { ...testProfile('http://127.0.0.1:9'), version };
    for (const url of ['http://127.0.0.1:9/projects/1', 'http://127.0.0.1:9/projects?limit=5']) expect(unversionedUrl(profile, versionedUrl(profile, url))).toBe(url);
    expect(unversionedUrl(profile, 'http://127.0.0.1:9/projects/1?api-version=1')).toBe('http://127.0.0.1:9/projects/1?api-version=1');
  });

  it('leaves the URL alone under the other schemes', fast, async () => {
    const { urls, transport } = capturing();
    const session = new RecordingSession(transport, { ...testProfile('http://127.0.0.1:9'), version: { ...version, scheme: 'url' } });
    await session.send({ method: 'GET', path: '/v2/projects' });
    expect(urls).toEqual(['http://127.0.0.1:9/v2/projects']);
  });
});

describe('RecordingSession form bodies', () => {
  it('sends form fields urlencoded with their content type, and records a secret among them as its name', fast, async () => {
    const secret = 'cs pa+ss~0123456789';
    const profile = { ...profileFor(server.url), secrets: [...profileFor(server.url).secrets, { envName: 'CLIENT_SECRET', value: secret }] };
    const session = new RecordingSession(client, profile);
    const res = await session.send({ method: 'POST', path: '/echo', auth: false, form: { grant_type: 'client_credentials', client_secret: secret } });
    const echoed = res.json as { headers: Record<string, string>; body: string };
    expect(echoed.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(echoed.body).get('client_secret')).toBe(secret);
    const x = session.records('full')[0]!;
    expect(x.request.body).toBe('grant_type=client_credentials&client_secret=$CLIENT_SECRET');
    expect(x.curl).not.toContain('0123456789');
  });
});
