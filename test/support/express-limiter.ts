/**
 * Test support: a stand-in API limited by express-rate-limit, as many Node APIs are, keyed
 * by X-API-Key, sending the RateLimit fields of the draft it is told (`draft-6`:
 * RateLimit-Limit, -Remaining, -Reset and a RateLimit-Policy of integers; `draft-7`: one
 * RateLimit Dictionary; `draft-8`: named policies) and Retry-After on its 429, whose body
 * is problem+json. `GET /things` answers 200 `{ "data": [] }` until the quota is spent.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { rateLimit } from 'express-rate-limit';
import type { LimiterServer } from './limiter-server.js';

export interface ExpressLimiterOptions {
  readonly limit: number;
  readonly windowMs: number;
  readonly standardHeaders: 'draft-6' | 'draft-7' | 'draft-8';
}

export async function startExpressLimiter(o: ExpressLimiterOptions): Promise<LimiterServer> {
  const keys = { API_KEY: 'sk-express-api-5b1e8c20d4', LIMIT_KEY: 'sk-express-limit-8f3a61c9e2', LIMIT_KEY_2: 'sk-express-limit-2-0d7c4b95a1' };
  const known = new Set<string>(Object.values(keys));
  const app = express();
  app.use((req, res, next) => {
    if (known.has(req.get('x-api-key') ?? '')) return next();
    res.status(401).type('application/problem+json').set('www-authenticate', 'ApiKey').send(JSON.stringify({ type: 'about:blank', title: 'Unauthorized', status: 401 }));
  });
  app.use(
    rateLimit({
      windowMs: o.windowMs,
      limit: o.limit,
      standardHeaders: o.standardHeaders,
      legacyHeaders: false,
      keyGenerator: (req) => req.get('x-api-key') ?? '',
      handler: (_req, res) => {
        res.status(429).type('application/problem+json').send(JSON.stringify({ type: 'about:blank', title: 'Too Many Requests', status: 429, detail: `at most ${o.limit} requests per ${o.windowMs} ms` }));
      },
    }),
  );
  app.get('/things', (_req, res) => {
    res.json({ data: [] });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    urls: [url],
    keys,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
