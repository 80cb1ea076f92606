/** The `webhooks` section as the profile holds it. */
import type { Scheme } from '../../../model/signature-scheme.js';
import type { Secret } from '../../../model/secret.js';

/** How restprobe subscribes to the target's webhooks, triggers events and judges deliveries. */
export interface WebhooksProfile {
  readonly subscribePath: string;
  /** The subscribing POST's body; "{url}" strings become the URL to deliver to. */
  readonly subscribeBody: Record<string, unknown>;
  readonly secretField: string;
  /** The signing secret from the config, when the target does not return one. */
  readonly secret?: Secret;
  /** The collection whose writes trigger events; default the first that can. */
  readonly collection?: string;
  readonly actions: readonly ('create' | 'update' | 'delete')[];
  /** A named scheme, or the config's own (`webhooks.signature`). */
  readonly scheme: Scheme;
  readonly publicUrl?: string;
  readonly toleranceSeconds: number;
  readonly deliveryWithinMs: number;
  readonly slowAnswerMs: number;
  readonly quietMs: number;
}
