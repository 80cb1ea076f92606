/**
 * Authorization codes (RFC 6749 §4.1.2, RFC 7636): opaque, bound to the client, the
 * redirect URI, the user, the scopes and the PKCE challenge; valid 60 s and single-use.
 * A used code is remembered until its record expires, so a second redemption is
 * recognised and revokes the tokens of the first (their refresh family).
 */
import { createHash } from 'node:crypto';
import type { FaultName } from '../faults.js';
import type { Scope } from '../scopes.js';
import { ExpiringStore } from '../secret-store.js';
import { newSecret } from '../secrets.js';

/** Codes are accepted for 60 s. */
export const codeSeconds = 60;

/** A used code's record is kept a while longer, to recognise a replay. */
const keptMs = 10 * 60_000;

/** The PKCE challenge of an authorization request; method `plain` only under fault `pkce-plain-accepted`. */
export interface Challenge {
  readonly value: string;
  readonly method: 'S256' | 'plain';
}

export interface CodeGrant {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly userId: string;
  readonly scopes: readonly Scope[];
  /** Absent only under fault `pkce-optional`. */
  readonly challenge?: Challenge;
}

interface CodeRecord {
  readonly grant: CodeGrant;
  readonly expiresAt: number;
  /** Set on first redemption: the refresh family its tokens started. */
  family?: string;
  used: boolean;
}

/** What a redemption found. */
export type Redemption =
  | { readonly ok: true; readonly grant: CodeGrant; readonly settle: (family: string) => void }
  | { readonly ok: false; readonly description: string; readonly replayedFamily?: string };

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
export const verifierPattern = /^[A-Za-z0-9._~-]{43,128}$/;

/** Whether `verifier` answers `challenge` (RFC 7636 §4.6). */
export function verifierMatches(challenge: Challenge, verifier: string): boolean {
  if (!verifierPattern.test(verifier)) return false;
  const derived = challenge.method === 'S256' ? createHash('sha256').update(verifier, 'ascii').digest('base64url') : verifier;
  return derived === challenge.value;
}

export class Codes {
  private readonly store = new ExpiringStore<CodeRecord>(codeSeconds * 1000 + keptMs);

  constructor(private readonly faults: ReadonlySet<FaultName>) {}

  issue(grant: CodeGrant): string {
    const code = newSecret();
    this.store.set(code, { grant, expiresAt: Date.now() + codeSeconds * 1000, used: false });
    return code;
  }

  /**
   * Takes a code for `clientId` (PKCE and redirect URI are the token endpoint's to check).
   * A replay is refused and names the family to revoke (fault `code-reusable`: served again).
   */
  redeem(code: string, clientId: string): Redemption {
    const record = this.store.get(code);
    if (record === undefined || record.grant.clientId !== clientId) return { ok: false, description: 'The code is unknown, or was issued to another client.' };
    if (record.used && !this.faults.has('code-reusable')) {
      return { ok: false, description: 'The code was already used; the tokens issued for it are revoked.', ...(record.family !== undefined && { replayedFamily: record.family }) };
    }
    if (Date.now() >= record.expiresAt) return { ok: false, description: 'The code has expired.' };
    record.used = true;
    return { ok: true, grant: record.grant, settle: (family) => { record.family = family; } };
  }
}
