/**
 * A sender whose item ids are reused (SQLite's rowid, an in-memory counter reset by a
 * delete): after each write of the check's item, an event about an earlier item that held
 * the same id arrives (its delete, carrying the id alone). That is another event, not a
 * retry: the retry checks wait for the refused event itself, and pass. A sender that
 * retries with a new id or other bytes still fails. An update event that is a diff (no mark)
 * is the update's. A sender that delivers before it answers the create is recognised by the
 * item's mark, and refused all the same.
 */
import { createServer, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { closeSenders, listenSender, readJson, replyTo, runAgainstSender, subscribed, type Sender } from './support/webhook-sender.js';
import { catalogue } from '../suites/catalogue.js';

const checksOf = (...ids: string[]) => catalogue.filter((c) => ids.includes(c.id));
const retryChecks = checksOf('EVT-retry-after-500', 'EVT-retry-after-timeout');

type Retry = 'same' | 'new-id' | 'new-bytes';

/** Posts `body` to `url` as webhook `id`, again (up to 3 times) while the answer is not a 2xx or takes over 300 ms. */
function deliver(url: string, id: string, body: string, attempt = 1, retry: Retry = 'same'): void {
  const sent = attempt > 1 && retry === 'new-bytes' ? body.replace('{', `{"attempt":${attempt},`) : body;
  const req = request(url, { method: 'POST', timeout: 300, headers: { 'content-type': 'application/json', 'webhook-id': attempt > 1 && retry === 'new-id' ? `${id}-${attempt}` : id, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' } });
  const again = () => {
    if (attempt < 3) setTimeout(() => deliver(url, id, body, attempt + 1, retry), 30);
  };
  req.once('response', (res) => {
    res.resume();
    if ((res.statusCode ?? 500) >= 300) again();
  });
  req.once('timeout', () => {
    req.destroy();
    again();
  });
  req.once('error', () => undefined);
  req.end(sent);
}

interface Shape {
  /** The sender delivers before it answers the write (an outbox flushed in the request). */
  eventFirst?: boolean;
  /** A create brings a second event of another type, the whole item as well (an audit hook's project.updated), with an id of its own. */
  followUp?: boolean;
  /** The deletes of two earlier holders of the id, byte for byte alike, come before the write's own event. */
  staleFirst?: boolean;
  /** Events name the item by its id alone, a create's too (no mark). */
  thin?: boolean;
}

/** Every project is id 7; each write's event is followed by an event about the id's previous holder. */
async function startSender(retry: Retry, { eventFirst = false, followUp = false, staleFirst = false, thin = false }: Shape = {}): Promise<Sender> {
  const subscribers: string[] = [];
  let events = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readJson(req);
      const send = replyTo(res);
      if (req.method === 'POST' && req.url === '/hooks') return subscribed(send, subscribers.push(String(body['url'])));
      const write = ({ 'POST /projects': 'created', 'PATCH /projects/7': 'updated', 'DELETE /projects/7': 'deleted' } as Record<string, string>)[`${req.method} ${req.url}`];
      if (write !== undefined) {
        const answer = () => (write === 'created' ? send(201, { id: 7, ...body }, '/projects/7') : write === 'updated' ? send(200, { id: 7, ...body }) : send(204));
        if (eventFirst) setTimeout(answer, 100);
        else answer();
        const event = `msg_${++events}`;
        const stale = [`msg_${++events}`, `msg_${++events}`];
        // The delete of an earlier holder of the id, delivered late: the id alone, no label.
        const staleDelete = JSON.stringify({ type: 'project.deleted', data: { id: 7 } });
        for (const url of subscribers) {
          // The update's event is a diff: the id and what changed, not the item (no mark).
          const data = write === 'deleted' || thin ? { id: 7 } : write === 'updated' ? { id: 7, changes: { name: body['name'] } } : { id: 7, ...body };
          const own = () => deliver(url, event, JSON.stringify({ type: `project.${write}`, data }), 1, retry);
          if (staleFirst) {
            // Spaced so that the check holds the first and the second comes before its retry.
            setTimeout(() => deliver(url, stale[0]!, staleDelete), 40);
            setTimeout(() => deliver(url, stale[1]!, staleDelete), 80);
            setTimeout(own, 120);
            continue;
          }
          own();
          if (followUp && write === 'created') setTimeout(() => deliver(url, `msg_${++events}`, JSON.stringify({ type: 'project.updated', data })), 2);
          setTimeout(() => deliver(url, stale[0]!, staleDelete), 5);
        }
        return;
      }
      if (req.method === 'DELETE') return send(204);
      send(404, { type: 'about:blank', title: 'Not Found', status: 404 });
    })();
  });
  return listenSender(server);
}

afterEach(closeSenders);

async function judge(retry: Retry, checks = retryChecks, shape: Shape = {}): Promise<Record<string, string>> {
  const results = await runAgainstSender(await startSender(retry, shape), checks, { patch: { body: { name: 'q' } } }, { actions: ['create', 'update', 'delete'], deliveryWithinMs: 2000, slowAnswerMs: 400 });
  return Object.fromEntries(results.map((r) => [r.id, `${r.status}${r.message ? `: ${r.message}` : ''}`]));
}

describe('webhook retries where item ids are reused', () => {
  it('take a later event about an earlier holder of the id for no retry, and pass', async () => {
    expect(await judge('same')).toEqual({ 'EVT-retry-after-500': 'pass', 'EVT-retry-after-timeout': 'pass' });
  });

  it('still fail a retry with a new id, and one with other bytes', async () => {
    const newId = await judge('new-id');
    expect(newId['EVT-retry-after-500']).toMatch(/^fail: the retry after a 500 carries a new event id/);
    expect(newId['EVT-retry-after-timeout']).toMatch(/^fail: the retry after an answer held 400 ms .* carries a new event id/);
    const newBytes = await judge('new-bytes');
    expect(newBytes['EVT-retry-after-500']).toMatch(/^fail: the retry after a 500 changed the body/);
  });

  it('take a second event of another type about the item (an audit hook\'s project.updated after each create, the whole item, an id of its own) for no retry, and pass; a retry with a new id still fails', async () => {
    expect(await judge('same', retryChecks, { followUp: true })).toEqual({ 'EVT-retry-after-500': 'pass', 'EVT-retry-after-timeout': 'pass' });
    expect((await judge('new-id', retryChecks, { followUp: true }))['EVT-retry-after-500']).toMatch(/^fail: the retry after a 500 carries a new event id/);
  });

  it('hold an earlier holder\'s delete when it comes first, and take its retry by its id, not the other earlier holder\'s delete of the same bytes, and pass', async () => {
    expect(await judge('same', retryChecks, { staleFirst: true })).toEqual({ 'EVT-retry-after-500': 'pass', 'EVT-retry-after-timeout': 'pass' });
  });

  it('with thin events (the id alone, no mark), pass a sender that retries with the id, and fail one that retries the bytes with a new id, saying so', async () => {
    expect(await judge('same', retryChecks, { thin: true })).toEqual({ 'EVT-retry-after-500': 'pass', 'EVT-retry-after-timeout': 'pass' });
    expect((await judge('new-id', retryChecks, { thin: true }))['EVT-retry-after-500']).toMatch(/^fail: the delivery was not retried with its event id within \d+ ms after a 500; its bytes came again with the id msg_[\d-]+: a retry that carries a new event id, or another event of the same bytes/);
  });

  it('take an update event that is a diff (the id and the change, no mark) for the update\'s, though the create\'s showed the item', async () => {
    expect(await judge('same', checksOf('EVT-events-for-actions'))).toEqual({ 'EVT-events-for-actions': 'pass' });
  });

  it('refuse a first delivery that comes before the create is answered, known by its mark', async () => {
    expect(await judge('same', retryChecks, { eventFirst: true })).toEqual({ 'EVT-retry-after-500': 'pass', 'EVT-retry-after-timeout': 'pass' });
    expect((await judge('new-id', retryChecks, { eventFirst: true }))['EVT-retry-after-500']).toMatch(/^fail: the retry after a 500 carries a new event id/);
  });
});
