/**
 * The `receiver` need: a team's webhook receiver that restprobe sends signed deliveries to
 * (`restprobe webhooks check-receiver`). It is a run input, not a fact of a target's config:
 * the command gives it, and the receiver is that run's base URL.
 */
import type { Secret } from './profile.js';
import type { RunInputs } from './run-inputs.js';
import type { SignatureScheme } from './signature-scheme.js';
import { Unmet } from './unmet.js';

/** A webhook receiver as `restprobe webhooks check-receiver` describes it. */
export interface ReceiverTarget {
  /** Where deliveries are POSTed. */
  readonly url: string;
  /** The signing secret, and the variable it came from (curl commands and scrubbing name it). */
  readonly secret: Secret;
  readonly scheme: SignatureScheme;
  /** How fast a valid delivery must be answered. */
  readonly answerWithinMs: number;
  /** The receiver's timestamp tolerance; stale and future probes go 10 times past it. */
  readonly toleranceSeconds: number;
  /**
   * Where the receiver tells how often it processed an event (`{id}` is replaced by the
   * event id): a GET answering JSON with a numeric `count`. With it, a repeat must be
   * processed once, not only acknowledged.
   */
  readonly processedUrl?: string;
  /**
   * How long after the repeat's answer the processed count may take to settle: a receiver
   * that does the work asynchronously, as the conventions tell it to, counts later.
   */
  readonly settleMs: number;
  /** Headers sent with every delivery after the scheme's own (a team's gateway key), overriding them. */
  readonly headers: Readonly<Record<string, string>>;
  /** The `api_version` a stripe-scheme event carries: Stripe stamps each with the endpoint's pinned version, and stripe-go and Stripe.net refuse another. */
  readonly stripeApiVersion: string;
}

/**
 * @example
 * ```ts
 * resolveReceiver(profile, { receiver }); // the receiver, or Unmet naming `webhooks check-receiver`
 * ```
 */
export function resolveReceiver(_profile: unknown, inputs: RunInputs): ReceiverTarget | Unmet {
  return inputs.receiver ?? new Unmet('no webhook receiver given: receiver-mode checks run under restprobe webhooks check-receiver', 'webhooks check-receiver');
}
