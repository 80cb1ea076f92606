/**
 * Who a request counts as for the rate limiter (conventions §8.1: a quota per client, keyed
 * by API key, user id or address):
 *
 * - an API key the server knows: that key, named by its id (no secret is kept as a name);
 * - a JWT access token that verifies (the signature and claims, as authentication checks
 *   them, never just decoded): its client, so that a client's tokens share one quota however
 *   many it obtains, since a token costs the client nothing. A user's token (code flow)
 *   counts as its client and user together: the conventions key by user id too, each user
 *   must log in, and one user's burst should not empty the client's own quota;
 * - anything else (no credential, an unknown key, a token that does not verify): the remote
 *   address, one bucket whatever values it presents, so made-up keys neither get quotas of
 *   their own nor each take the limiter's memory.
 */
import type { IncomingMessage } from 'node:http';
import { jwtShape, type KeyRing } from './auth.js';

/** Whom a valid access token was issued to (see oauth/access-tokens.ts, `holderOf`). */
export interface TokenHolders {
  holderOf(token: string): Promise<{ readonly client: string; readonly user?: string } | undefined>;
}

/** What a request presents, as far as it can be told without verifying a token. */
export interface Presented {
  /** The id of a known API key it presents. */
  readonly keyId?: string;
  /** A bearer JWT, still to verify. */
  readonly jwt?: string;
}

export class LimitedClients {
  constructor(
    private readonly keys: KeyRing,
    /** Without it every bearer value is an API key, as authentication takes it then. */
    private readonly tokens?: TokenHolders,
  ) {}

  /** X-API-Key wins over a Bearer value, which is a JWT when it has a JWT's shape. */
  presented(req: IncomingMessage): Presented {
    const apiKey = req.headers['x-api-key'];
    if (typeof apiKey === 'string' && apiKey.trim() !== '') return this.known(apiKey.trim());
    const bearer = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '')?.[1];
    if (bearer === undefined) return {};
    if (this.tokens !== undefined && jwtShape.test(bearer)) return { jwt: bearer };
    return this.known(bearer);
  }

  private known(key: string): Presented {
    const keyId = this.keys.find(key)?.id;
    return keyId === undefined ? {} : { keyId };
  }

  /** The name of the request's client: its key, its token's client (and user), else its address. */
  async nameOf(req: IncomingMessage, presented: Presented): Promise<string> {
    if (presented.keyId !== undefined) return `key:${presented.keyId}`;
    const holder = presented.jwt === undefined ? undefined : await this.tokens?.holderOf(presented.jwt);
    if (holder !== undefined) return `oauth:${JSON.stringify(holder.user === undefined ? [holder.client] : [holder.client, holder.user])}`;
    return `address:${req.socket.remoteAddress ?? 'unknown'}`;
  }
}
