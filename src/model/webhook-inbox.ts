/**
 * What a check sees of the run's webhook listener (src/webhooks/listener.ts): a channel of
 * its own, whose deliveries it reads and whose answers it decides.
 */
export interface Delivery {
  readonly method: string;
  readonly path: string;
  /** Lower-case names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly raw: Buffer;
  readonly receivedAt: number;
  /** What the channel answered. */
  answered?: string;
}

/** How a channel answers one delivery: a status, after a delay. */
export interface Answer {
  readonly status: number;
  readonly delayMs?: number;
}

export interface Channel {
  /** Where the target is to deliver: the listener's URL, or the public URL that forwards to it. */
  readonly url: string;
  readonly deliveries: readonly Delivery[];
  /** Decides the answer to each delivery as it arrives; default 204 at once. */
  answer: (delivery: Delivery) => Answer;
  /** The first delivery (after `from`) that `matches`, or undefined when none came within `withinMs`. */
  next(matches: (d: Delivery) => boolean, withinMs: number, signal: AbortSignal, from?: number): Promise<Delivery | undefined>;
  close(): void;
}

/** The run's listener, as checks use it. */
export interface WebhookInbox {
  /** A new channel: a URL of its own, for this check's subscription. */
  channel(): Channel;
}
