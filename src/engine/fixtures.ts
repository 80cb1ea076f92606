/**
 * Fixtures shared by a run's checks, with the run's lifetime: started when a check first
 * asks, closed when the run ends (also when it was interrupted). Today: the webhook
 * listener, one per run.
 */
import { WebhookListener } from '../webhooks/listener.js';

export class SharedFixtures {
  private listener: Promise<WebhookListener> | undefined;
  private closed = false;

  /** The run's webhook listener on 127.0.0.1, started on first use. */
  webhookListener(publicUrl?: string): Promise<WebhookListener> {
    if (this.closed) return Promise.reject(new Error('the run has ended: its webhook listener is closed'));
    this.listener ??= WebhookListener.start(publicUrl);
    return this.listener;
  }

  /** Closes whatever was started; safe to call twice. */
  async close(): Promise<void> {
    this.closed = true;
    const listener = this.listener;
    this.listener = undefined;
    if (listener !== undefined) await (await listener.catch(() => undefined))?.close();
  }
}
