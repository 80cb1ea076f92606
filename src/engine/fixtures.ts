/**
 * Fixtures shared by a run's checks, with the run's lifetime: started when a check first
 * asks, closed when the run ends (also when it was interrupted): the webhook listener,
 * one per run, leased values that expire (an OAuth access token), and items made once for
 * every check that asks (a collection filled past its page cap), deleted when the run ends.
 */
import { WebhookListener } from '../webhooks/listener.js';
import type { Lease } from '../model/context.js';

export class SharedFixtures {
  private listener: Promise<WebhookListener> | undefined;
  private closed = false;
  private readonly leases = new Map<string, Promise<Lease<unknown>>>();
  private readonly made = new Map<string, Promise<unknown>>();
  /** How to remove each run fixture's items, by key: run when the run ends. */
  private readonly releases = new Map<string, () => Promise<void>>();

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

  /**
   * The fixture made under `key`: by the first check that asks, shared by every later one
   * until the run ends, when `release` removes it (registered with the first attempt, so
   * what a failed attempt left is removed too). A failed `make` is not kept.
   */
  async fixture<T>(key: string, make: () => Promise<T>, release: () => Promise<void>): Promise<T> {
    if (this.closed) throw new Error('the run has ended: its shared fixtures are closed');
    const held = this.made.get(key) as Promise<T> | undefined;
    // Another check's failed attempt is not this one's finding: it tries for itself.
    if (held !== undefined) return held.catch(() => this.fixture(key, make, release));
    if (!this.releases.has(key)) this.releases.set(key, release);
    const making = make();
    this.made.set(key, making);
    making.catch(() => {
      if (this.made.get(key) === making) this.made.delete(key);
    });
    return making;
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
    // Made fixtures may still be in use by a check that is ending: wait for them first.
    await Promise.allSettled([...this.made.values()]);
    this.made.clear();
    // One fixture after another: each deletes its items as many at once as the pool has connections.
    for (const release of this.releases.values()) await release().catch(() => undefined);
    this.releases.clear();
    const listener = this.listener;
    this.listener = undefined;
    if (listener !== undefined) await (await listener.catch(() => undefined))?.close();
  }
}
