/**
 * Fixtures shared by a run's checks, with the run's lifetime: started when a check first
 * asks, closed when the run ends (also when it was interrupted): the webhook listener,
 * one per run, and leased values that expire (an OAuth access token).
 */
import { WebhookListener } from '../webhooks/listener.js';
import type { Lease } from '../model/context.js';

export class SharedFixtures {
  private listener: Promise<WebhookListener> | undefined;
  private closed = false;
  private readonly leases = new Map<string, Promise<Lease<unknown>>>();

  /**
   * The value leased under `key`: made once by the first check that asks (with its own
   * session, so the exchanges are its evidence) and shared until `expiresAt`, then made
   * again. A failed acquisition is not kept: the next check that asks tries again.
   */
  async lease<T>(key: string, acquire: () => Promise<Lease<T>>): Promise<T> {
    if (this.closed) throw new Error('the run has ended: its shared fixtures are closed');
    const held = this.leases.get(key) as Promise<Lease<T>> | undefined;
    const current = held === undefined ? undefined : await held.catch(() => undefined);
    if (current !== undefined && current.expiresAt > Date.now()) return current.value;
    // Another check may have started a fresh acquisition while this one waited.
    const now = this.leases.get(key) as Promise<Lease<T>> | undefined;
    if (now !== undefined && now !== held) return this.lease(key, acquire);
    const made = acquire();
    this.leases.set(key, made);
    made.catch(() => {
      if (this.leases.get(key) === made) this.leases.delete(key);
    });
    return (await made).value;
  }

  /** The run's webhook listener on 127.0.0.1, started on first use. */
  webhookListener(publicUrl?: string): Promise<WebhookListener> {
    if (this.closed) return Promise.reject(new Error('the run has ended: its webhook listener is closed'));
    this.listener ??= WebhookListener.start(publicUrl);
    return this.listener;
  }

  /** Closes whatever was started; safe to call twice. */
  async close(): Promise<void> {
    this.closed = true;
    this.leases.clear();
    const listener = this.listener;
    this.listener = undefined;
    if (listener !== undefined) await (await listener.catch(() => undefined))?.close();
  }
}
