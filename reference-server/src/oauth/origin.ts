/**
 * Where the authorization server is: the first node's origin, known only once it listens.
 * Every node reads the same instance, so issuer and audience are one on all nodes.
 */
export class ServerOrigin {
  private origin = '';

  constructor(
    /** The API's path below the origin (`/v2`, or empty under the schemes that keep the version out of the path). */
    private readonly apiBase: string,
  ) {}

  /** Called once the first node listens, with its URL (`http://127.0.0.1:PORT`). */
  set(url: string): void {
    this.origin = url.replace(/\/+$/, '');
  }

  /** The `iss` of every token and the metadata's `issuer`: the origin, no trailing slash. */
  get issuer(): string {
    return this.origin;
  }

  /** The `aud` of every token: the API's base URL on the first node. */
  get audience(): string {
    return `${this.origin}${this.apiBase}`;
  }

  /** An absolute URL on the first node. */
  endpoint(path: string): string {
    return `${this.origin}${path}`;
  }
}
