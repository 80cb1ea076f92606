/** The profile's part from the target's own places: its plain-HTTP URL, other nodes, the requests that return a secret. */

/** A request whose response holds a secret (a minted key, a token). */
export interface SecretEndpoint {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  readonly path: string;
  readonly body?: Record<string, unknown>;
}
