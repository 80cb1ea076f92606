/**
 * Thin events: a sender that names the item by its id alone, under a name of its own
 * (`object_id`, `project_id`), never the item itself (Stripe's thin events, many hand-written
 * outboxes). The event is the item's all the same; an event naming another item is not.
 */
import { createServer, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { closeSenders, listenSender, replyTo, runAgainstSender, subscribed, type Sender } from './support/webhook-sender.js';
import { catalogue } from '../suites/catalogue.js';

const eventsForActions = catalogue.filter((c) => c.id === 'EVT-events-for-actions');

/** Each project a new integer id; each write's event names it as `member` (at the top, or in `data`), or, with `wrongId`, the id after it. */
async function startSender(member: string, inData: boolean, wrongId = false): Promise<Sender> {
  const subscribers: string[] = [];
  let ids = 0;
  let events = 0;
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += String(c)));
    req.on('end', () => {
      const send = replyTo(res);
      const body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
      if (req.method === 'POST' && req.url === '/hooks') return subscribed(send, subscribers.push(String(body['url'])));
      const [, id] = /^\/projects\/(\d+)$/.exec(req.url ?? '') ?? [];
      const write = req.method === 'POST' && req.url === '/projects' ? 'created' : id === undefined ? undefined : ({ PATCH: 'updated', DELETE: 'deleted' } as Record<string, string>)[req.method ?? ''];
      if (write === undefined) return send(404, { type: 'about:blank', title: 'Not Found', status: 404 });
      const itemId = write === 'created' ? ++ids : Number(id);
      if (write === 'created') send(201, { id: itemId, ...body }, `/projects/${itemId}`);
      else if (write === 'updated') send(200, { id: itemId, ...body });
      else send(204);
      const named = { [member]: wrongId ? itemId + 1000 : itemId };
      const event = JSON.stringify({ id: `evt_${++events}`, type: `project.${write}`, ...(inData ? { data: named } : named) });
      for (const url of subscribers) {
        const out = request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'webhook-id': `evt_${events}`, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' } });
        out.once('response', (r) => r.resume());
        out.once('error', () => undefined);
        out.end(event);
      }
    });
  });
  return listenSender(server);
}

afterEach(closeSenders);

async function judge(sender: Promise<Sender>): Promise<string> {
  const [result] = await runAgainstSender(await sender, eventsForActions, { patch: { body: { name: 'q' } } }, { actions: ['create', 'update', 'delete'], deliveryWithinMs: 1_000 });
  return `${result!.status}${result!.message ? `: ${result!.message}` : ''}`;
}

describe('thin events, naming the item by its id alone', () => {
  it.each([
    ['object_id', false],
    ['project_id', true],
    ['objectId', true],
  ] as const)('are the item\'s where they name it as %s (in data: %s)', async (member, inData) => {
    expect(await judge(startSender(member, inData))).toBe('pass');
  });

  it('are not the item\'s where they name another id', async () => {
    expect(await judge(startSender('object_id', false, true))).toMatch(/^fail: /);
  });
});
