/** One request as the HTTP client sends it, and its answer: what the transport and the checks' raw access share. */
export interface RawRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array | undefined;
  /** Cleanup requests may go past `maxRequests` (counted apart), to delete what the run created. */
  readonly outsideBudget?: boolean;
  /** When the caller started timing the exchange (`performance.now()`); the deadline counts from it. */
  readonly startedAt?: number;
  /**
   * Cancels the exchange: `send` rejects at once with the signal's reason when that is a
   * {@link RestprobeError}, else with an ERR_TIMEOUT "aborted" error. An aborted signal
   * sends nothing and spends no budget.
   */
  readonly signal?: AbortSignal | undefined;
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[]>;
  readonly body: Buffer;
  /** The headers the request finally left with, where a guard added a precondition the target required (428): the evidence shows them. */
  readonly sentHeaders?: Readonly<Record<string, string>>;
}
