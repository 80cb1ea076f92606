/**
 * A sender that delivers late (an outbox polled every so often): EVT-unsubscribe-stops
 * watches after unsubscribing for twice as long as the create's own event took, so a sender
 * that ignores the DELETE is caught even when its pace is slower than webhooks.quietMs, and
 * one that honours it passes.
 */
import { createServer, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { closeSenders, listenSender, replyTo, runAgainstSender, senderSecret as secret, type Sender } from './support/webhook-sender.js';
import { signHeaders } from '../src/webhooks/signing.js';
import { catalogue } from '../suites/catalogue.js';

const unsubscribeChecks = catalogue.filter((c) => c.id === 'EVT-unsubscribe-stops');

/** Delivers each create's event `delayMs` after it, to the subscribers of that moment (or of ever, when `ignoresUnsubscribe`). */
async function startSender(delayMs: number, ignoresUnsubscribe: boolean): Promise<Sender> {
  const subscribers = new Map<string, string>();
  const ever = new Set<string>();
  let events = 0;
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += String(c)));
    req.on('end', () => {
      const body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
      const send = replyTo(res);
      if (req.method === 'POST' && req.url === '/hooks') {
        const id = `s${subscribers.size + ever.size + 1}`;
        subscribers.set(id, String(body['url']));
        ever.add(String(body['url']));
        return send(201, { id, secret }, `/hooks/${id}`);
      }
      if (req.method === 'DELETE' && req.url?.startsWith('/hooks/')) {
        subscribers.delete(req.url.slice('/hooks/'.length));
        return send(204);
      }
      if (req.method === 'POST' && req.url === '/projects') {
        const id = String(++events);
        send(201, { id, ...body }, `/projects/${id}`);
        const payload = Buffer.from(JSON.stringify({ type: 'project.created', data: { id, ...body } }));
        const targets = ignoresUnsubscribe ? [...ever] : [...subscribers.values()];
        setTimeout(() => {
          for (const url of targets) {
            const out = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...signHeaders('standard', secret, `msg_${id}`, Math.floor(Date.now() / 1000), payload) } });
            out.on('response', (r) => r.resume());
            out.on('error', () => undefined);
            out.end(payload);
          }
        }, delayMs);
        return;
      }
      if (req.method === 'DELETE') return send(204);
      send(404, { type: 'about:blank', title: 'Not Found', status: 404 });
    });
  });
  return listenSender(server);
}

afterEach(closeSenders);

async function judge(delayMs: number, ignoresUnsubscribe: boolean) {
  const results = await runAgainstSender(await startSender(delayMs, ignoresUnsubscribe), unsubscribeChecks, {}, { deliveryWithinMs: 3000, quietMs: 200 });
  return results[0]!;
}

describe('EVT-unsubscribe-stops against a sender that delivers 500 ms late', () => {
  it('fails one that ignores the DELETE, though its event comes after webhooks.quietMs (200 ms)', async () => {
    expect(await judge(500, true)).toMatchObject({ status: 'fail', message: 'an event was delivered after the subscription was deleted', evidence: { notes: expect.arrayContaining([expect.stringMatching(/^the create's event came \d+ ms after it: watched \d+ ms, twice that, rather than webhooks\.quietMs \(200 ms\)$/)]) } });
  });

  it('passes one that honours it', async () => {
    expect(await judge(500, false)).toMatchObject({ status: 'pass' });
  });
});
