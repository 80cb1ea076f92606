/** How restprobe itself runs (`http`, `safety`, `properties`, and their flags), as the profile holds it. */

export interface HttpSettings {
  /** Per-request timeout, milliseconds. */
  readonly timeoutMs: number;
  /** Response-body cap, bytes. */
  readonly maxBodyBytes: number;
  /** Requests in flight at once across checks. */
  readonly concurrency: number;
  /** Send every request through this HTTP proxy (`--proxy`). */
  readonly proxy?: string;
  /** Extra trusted CA certificates, PEM (`--ca`, `http.ca`). */
  readonly ca?: string;
  /** The run's pace across all checks; undefined: none. */
  readonly maxRequestsPerSecond?: number;
  /** The longest single wait before a retry; a 429 stating a longer one stops the run. */
  readonly maxRetryWaitMs: number;
  /** Requests in a row the target leaves unanswered (timed out, refused, broken off) that stop the run; default {@link runDefaults}. */
  readonly maxConsecutiveFailures?: number;
}

export interface SafetySettings {
  /** Never send a request that writes (POST, PUT, PATCH, DELETE). */
  readonly readOnly: boolean;
  /** Hard cap on requests in one run. */
  readonly maxRequests: number;
  /** Send the probes that can hurt a target (oversized and deeply nested bodies). */
  readonly destructive: boolean;
}

/** fast-check settings for property checks. */
export interface PropertySettings {
  /**
   * Random cases each property check tries after its targeted ones. Unset, each check tries
   * its own few, chosen by what a case costs (1 to 5): the targeted cases already send every
   * kind of input, and a nightly run may ask for many more.
   */
  readonly numRuns?: number;
}

/** The defaults of the run's settings: model-level, since the engine applies one to a profile built without the loader. */
export const runDefaults = {
  timeoutMs: 10_000,
  maxBodyBytes: 5 * 1024 * 1024,
  concurrency: 4,
  maxRequests: 20_000,
  maxRetryWaitMs: 60_000,
  maxConsecutiveFailures: 10,
  readOnly: false,
  destructive: true,
} as const;
