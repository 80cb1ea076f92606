/** Layered system: the harness through a proxy (--proxy), and cross-node checks (--node). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCheck } from '../src/engine/execute.js';
import { clientForProfile } from '../src/http/client.js';
import { loadProfile } from '../src/config/load.js';
import { catalogue } from '../suites/catalogue.js';
import { startReferenceServer, type ReferenceServer } from '../reference-server/src/index.js';
import { startProxy, type TestProxy } from './support/proxy.js';
import { jsonOf, startRewritingProxy, type Rewrites } from './support/rewriting-proxy.js';
import { createHash } from 'node:crypto';
import { isObject } from '../src/model/json.js';
import { referenceConfig } from './support/target.js';

let server: ReferenceServer;
let proxy: TestProxy;
beforeAll(async () => {
  server = await startReferenceServer({ port: 0, nodes: 2 });
  proxy = await startProxy();
});
afterAll(async () => {
  await proxy.close();
  await server.close();
});

const check = (id: string) => catalogue.find((c) => c.id === id)!;

describe('--proxy', () => {
  it('sends every request through the proxy, and the checks still pass', async () => {
    const profile = await loadProfile({ configPath: referenceConfig, baseUrl: server.url, env: { ...server.secrets }, proxy: proxy.url });
    const client = clientForProfile(profile);
    try {
      for (const id of ['END-get-item-200', 'END-if-none-match-304', 'ERR-unknown-path-404']) {
        const result = await executeCheck(check(id), { profile, client, seed: 1 });
        expect(result.status, `${id}: ${result.message}`).toBe('pass');
      }
      expect(proxy.passed()).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('refuses a proxy that is not an http(s) URL with a usage error', async () => {
    await expect(loadProfile({ baseUrl: server.url, proxy: 'socks5://127.0.0.1:1' })).rejects.toMatchObject({ code: 'ERR_USAGE' });
  });
});

describe('--node', () => {
  it('adds nodes after the config\'s, and CON-etag-same-across-nodes passes across them', async () => {
    const profile = await loadProfile({ configPath: referenceConfig, baseUrl: server.url, env: { ...server.secrets }, nodes: [`${server.urls[1]}/`] });
    expect(profile.nodes).toEqual([server.urls[1]]);
    const client = clientForProfile(profile);
    try {
      const result = await executeCheck(check('CON-etag-same-across-nodes'), { profile, client, seed: 1 });
      expect(result.status, result.message).toBe('pass');
    } finally {
      await client.close();
    }
  });

  it('nodes whose answers name the Host asked (absolute links) are not compared: a skip, not a failure; nodes that agree byte for byte still are', async () => {
    // Each node behind its own proxy that adds a link built from the Host and hashes the body into the ETag, as Express and DRF do.
    const hosted: Rewrites = {
      response: (res, req) => {
        const body = jsonOf(res);
        if (req.method !== 'GET' || res.status !== 200 || !isObject(body)) return res;
        const text = JSON.stringify({ ...body, url: `http://${req.headers['host']}${req.path}` });
        return { ...res, headers: { ...res.headers, etag: `"${createHash('sha1').update(text).digest('hex')}"` }, body: text };
      },
    };
    const proxies = await Promise.all(server.urls.map((u) => startRewritingProxy(u, hosted)));
    try {
      const profile = await loadProfile({ configPath: referenceConfig, baseUrl: proxies[0]!.url, env: { ...server.secrets }, nodes: [proxies[1]!.url] });
      const client = clientForProfile(profile);
      try {
        const result = await executeCheck(check('CON-etag-same-across-nodes'), { profile, client, seed: 1 });
        expect([result.status, result.message]).toEqual(['skip', expect.stringMatching(/no node sent the same bytes/)]);
      } finally {
        await client.close();
      }
    } finally {
      await Promise.all(proxies.map((p) => p.close()));
    }
  });

  it('without nodes, the cross-node check skips and names the config key', async () => {
    const profile = await loadProfile({ configPath: referenceConfig, baseUrl: server.url, env: { ...server.secrets } });
    const client = clientForProfile(profile);
    try {
      const result = await executeCheck(check('CON-etag-same-across-nodes'), { profile, client, seed: 1 });
      expect({ status: result.status, configKey: result.configKey }).toEqual({ status: 'skip', configKey: 'nodes' });
    } finally {
      await client.close();
    }
  });
});
