/**
 * A sender that delivers an event again written anew (its attempt count in the body, so other
 * bytes) keeps the event's id and type: EVT-events-for-actions takes such a late re-delivery
 * of the create's event for no event of the update. A sender that sends the update's event as
 * well passes; one that sends only the re-delivery fails.
 */
import { createServer, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogue } from '../suites/catalogue.js';
import { closeSenders, listenSender, readJson, replyTo, runAgainstSender, subscribed, type Sender } from './support/webhook-sender.js';

/** Posts one webhook, Standard Webhooks headers (the signature is not what these checks judge). */
function post(url: string, id: string, body: unknown): void {
  const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' } });
  req.once('response', (res) => res.resume());
  req.once('error', () => undefined);
  req.end(JSON.stringify(body));
}

/** After the PATCH, the create's event comes again, written anew; `updateEvent`: the update's own event too. */
async function startSender(updateEvent: boolean): Promise<Sender> {
  const subscribers: string[] = [];
  let project: Record<string, unknown> = {};
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readJson(req);
      const send = replyTo(res);
      if (req.method === 'POST' && req.url === '/hooks') return subscribed(send, subscribers.push(String(body['url'])));
      if (req.method === 'DELETE' && req.url?.startsWith('/hooks/')) return send(204);
      if (req.method === 'POST' && req.url === '/projects') {
        project = { id: 'p1', ...body };
        send(201, project, '/projects/p1');
        for (const url of subscribers) post(url, 'evt_create', { type: 'project.created', attempt: 1, data: project });
        return;
      }
      if (req.method === 'PATCH' && req.url === '/projects/p1') {
        project = { ...project, ...body };
        send(200, project);
        for (const url of subscribers) {
          post(url, 'evt_create', { type: 'project.created', attempt: 2, data: { ...project, name: 'p' } });
          if (updateEvent) setTimeout(() => post(url, 'evt_update', { type: 'project.updated', attempt: 1, data: project }), 50);
        }
        return;
      }
      if (req.method === 'DELETE' && req.url === '/projects/p1') {
        send(204);
        for (const url of subscribers) post(url, 'evt_delete', { type: 'project.deleted', attempt: 1, data: { id: 'p1', label: project['label'] } });
        return;
      }
      send(404, { type: 'about:blank', title: 'Not Found', status: 404 });
    })();
  });
  return listenSender(server);
}

afterEach(closeSenders);

async function verdict(updateEvent: boolean): Promise<string> {
  const [result] = await runAgainstSender(await startSender(updateEvent), catalogue.filter((c) => c.id === 'EVT-events-for-actions'), { patch: { body: { name: 'q' } } }, { actions: ['create', 'update', 'delete'], deliveryWithinMs: 1000 });
  return `${result!.status}: ${result!.message ?? ''}`;
}

describe('EVT-events-for-actions and a re-delivery written anew', () => {
  it('passes a sender that re-delivers the create\'s event and sends the update\'s', async () => {
    expect(await verdict(true)).toMatch(/^pass/);
  });

  it('fails a sender whose only delivery after the update is the create\'s event again, with its id and type', async () => {
    expect(await verdict(false)).toMatch(/^fail: no webhook delivery about the item came within 1000 ms of the PATCH/);
  });
});
