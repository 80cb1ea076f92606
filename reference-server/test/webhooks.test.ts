/**
 * The reference server's webhooks, clean: the secret shown once (no-store), signed
 * deliveries over the exact bytes sent, retries with the same id and bytes, backoff with
 * jitter, and no delivery after unsubscribing. The signing code against the Standard
 * Webhooks published vector.
 */
import { describe, expect, it } from 'vitest';
import { standardSignature } from '../src/webhook-signature.js';
import { backoffMs, webhookSchedules } from '../src/webhooks.js';
import { startHarness } from './client.js';
import { pause, startCapture, subscribe } from './webhook-capture.js';

describe('standardSignature', () => {
  it('reproduces the Standard Webhooks test vector', () => {
    const body = Buffer.from('{"test": 2432232314}');
    expect(standardSignature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
});

describe('backoffMs', () => {
  it('doubles each retry, jittered between half and all of it', () => {
    const s = webhookSchedules.short;
    for (let n = 1; n <= 4; n++) {
      const full = s.firstRetryMs * 2 ** (n - 1);
      for (let i = 0; i < 20; i++) expect(backoffMs(s, n)).toBeGreaterThanOrEqual(full / 2 - 1), expect(backoffMs(s, n)).toBeLessThanOrEqual(full);
    }
  });
});

describe('webhook deliveries', () => {
  it('shows the secret once, no-store, signs the raw bytes, retries with the same id and bytes, and stops after unsubscribing', async () => {
    const h = await startHarness([], { webhookSchedule: 'short' });
    const capture = await startCapture();
    try {
      const created = await h.call('POST', '/v2/webhook-subscriptions', { json: { url: capture.url } });
      expect(created.status).toBe(201);
      expect(created.headers['cache-control']).toContain('no-store');
      const { secret } = created.json();
      expect(secret).toMatch(/^whsec_/);
      const location = created.headers['location']!;
      expect((await h.call('GET', location)).json().secret).toBeUndefined();

      capture.answer = (n) => (n === 0 ? { status: 500 } : n === 1 ? { status: 204, delayMs: 600 } : { status: 204 });
      const project = await h.createProject();
      const [a, b, c] = await capture.waitFor(3);
      const id = String(a!.headers['webhook-id']);
      const ts = Number(a!.headers['webhook-timestamp']);
      expect(a!.headers['content-type']).toBe('application/json');
      expect(a!.json).toMatchObject({ type: 'project.created', data: { id: project.id } });
      expect(a!.headers['webhook-signature']).toBe(standardSignature(secret, id, ts, a!.raw));
      expect(a!.raw.toString()).not.toBe(JSON.stringify(a!.json));
      for (const retry of [b!, c!]) {
        expect(retry.headers['webhook-id']).toBe(id);
        expect(retry.raw.equals(a!.raw)).toBe(true);
        // Each attempt signed anew, with the time it is sent.
        const at = Number(retry.headers['webhook-timestamp']);
        expect(at).toBeGreaterThanOrEqual(ts);
        expect(retry.headers['webhook-signature']).toBe(standardSignature(secret, id, at, retry.raw));
      }
      expect((await h.call('DELETE', location)).status).toBe(204);
      await h.call('DELETE', `/v2/projects/${project.id}`);
      await pause(300);
      expect(capture.deliveries).toHaveLength(3);
    } finally {
      await capture.close();
      await h.close();
    }
  });

  it('emits created, updated, completed and deleted events', async () => {
    const h = await startHarness([], { webhookSchedule: 'short' });
    const capture = await startCapture();
    try {
      await subscribe(h, capture);
      const project = await h.createProject();
      await h.call('PATCH', `/v2/projects/${project.id}`, { json: { name: 'x' }, headers: { 'content-type': 'application/merge-patch+json' } });
      const task = (await h.call('POST', `/v2/projects/${project.id}/tasks`, { json: { title: 't' } })).json();
      await h.call('POST', `/v2/tasks/${task.id}/completion`);
      await h.call('DELETE', `/v2/projects/${project.id}`);
      const types = (await capture.waitFor(5)).map((d) => d.json.type).sort();
      expect(types).toEqual(['project.created', 'project.deleted', 'project.updated', 'task.completed', 'task.created']);
    } finally {
      await capture.close();
      await h.close();
    }
  });
});
