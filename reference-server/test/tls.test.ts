/**
 * The reference server with `tls: true` (conventions §5.11): HTTPS with a CA generated at
 * start, Strict-Transport-Security on every HTTPS response, and a plain-HTTP listener
 * that only redirects.
 */
import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:tls';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../src/index.js';
import { startHarness, type Harness } from './client.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness([], { tls: true, nodes: 2 });
});
afterAll(async () => {
  await h.close();
});

describe('HTTPS', () => {
  it('serves every node over https with a CA given as PEM and as a file', () => {
    expect(h.server.url).toBe(`https://127.0.0.1:${h.server.port}`);
    expect(h.server.urls).toHaveLength(2);
    for (const url of h.server.urls) expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(h.server.ca).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
    expect(readFileSync(h.server.caPath ?? '', 'utf8')).toBe(h.server.ca);
    const ca = new X509Certificate(h.server.ca ?? '');
    expect(ca.ca).toBe(true);
  });

  it('presents a certificate the CA issued, for 127.0.0.1 and localhost', async () => {
    const agent = new Agent({ connect: { ca: h.server.ca ?? '' } });
    try {
      for (const host of ['127.0.0.1', 'localhost']) {
        const res = await request(`https://${host}:${h.server.port}/v2`, { dispatcher: agent, headers: { 'x-api-key': h.server.secrets.RESTPROBE_API_KEY } });
        expect(res.statusCode).toBe(200);
        await res.body.text();
      }
    } finally {
      await agent.close();
    }
  });

  it('fails verification for a client that does not trust the CA', async () => {
    await expect(request(`${h.server.url}/v2`)).rejects.toMatchObject({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
  });

  it('sends Strict-Transport-Security with max-age on every response, errors included', async () => {
    const project = await h.createProject();
    const answers = [
      await h.call('GET', '/v2/projects'),
      await h.call('GET', `/v2/projects/${project.id}`, { node: 1 }),
      await h.call('DELETE', `/v2/projects/${project.id}`),
      await h.call('GET', '/v2/projects', { auth: false }),
      await h.call('GET', '/nowhere'),
      await h.call('OPTIONS', '/v2/projects', { auth: false }),
      await h.call('PUT', '/v2/projects'),
      await h.call('POST', '/v2/projects', { auth: false, headers: { 'x-api-key': h.server.secrets.RESTPROBE_READONLY_KEY }, json: { name: 'n' } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 204, 401, 404, 204, 405, 403]);
    for (const res of answers) expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('sends Strict-Transport-Security on the answer to a request Node cannot parse', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: h.server.port, ca: h.server.ca ?? '', servername: 'localhost' }, () => socket.write('NOT HTTP\r\n\r\n'));
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw).toContain('Strict-Transport-Security: max-age=31536000\r\n');
  });
});

describe('the plain-HTTP listener', () => {
  it('redirects every method to the same path and query over https, with no data and no HSTS', async () => {
    const plain = h.server.plainUrl ?? '';
    expect(plain).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await h.createProject();
    for (const [method, path] of [['GET', '/v2/projects?limit=1&sort=name'], ['POST', '/v2/projects'], ['DELETE', '/v2/projects/x'], ['GET', '/nowhere']] as const) {
      const res = await h.call(method, path, { origin: plain, ...(method === 'POST' && { json: { name: 'n' } }) });
      expect(res.status, `${method} ${path}`).toBe(308);
      expect(res.headers['location']).toBe(`${h.server.url}${path}`);
      expect(res.text).toBe('');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });
});

describe('without tls', () => {
  it('serves plain HTTP with no CA, no plain listener and no Strict-Transport-Security', async () => {
    const server = await startReferenceServer();
    try {
      expect(server.url).toMatch(/^http:\/\//);
      expect(server.ca).toBeUndefined();
      expect(server.caPath).toBeUndefined();
      expect(server.plainUrl).toBeUndefined();
      const res = await fetch(`${server.url}/v2`, { headers: { 'x-api-key': server.secrets.RESTPROBE_API_KEY } });
      expect(res.status).toBe(200);
      expect(res.headers.get('strict-transport-security')).toBeNull();
    } finally {
      await server.close();
    }
  });
});

describe('close', () => {
  it('removes the CA file', async () => {
    const server = await startReferenceServer({ tls: true });
    const path = server.caPath ?? '';
    expect(existsSync(path)).toBe(true);
    await server.close();
    expect(existsSync(path)).toBe(false);
  });
});
