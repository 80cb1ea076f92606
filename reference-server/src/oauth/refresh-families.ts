/**
 * Refresh tokens (conventions §3 refresh table; RFC 9700 §4.14.2): opaque random strings
 * in families. A code redemption starts a family; each refresh rotates it (the new token
 * is the only valid one); presenting a rotated-out token is taken as theft and revokes the
 * whole family, the newest token included.
 */
import type { FaultName } from '../faults.js';
import type { Scope } from '../scopes.js';
import { ExpiringStore } from '../secret-store.js';
import { digestOf, newSecret } from '../secrets.js';

/** Refresh tokens (and their families) are kept a day. */
const familyMs = 24 * 60 * 60_000;

/** Whom a family's tokens stand for. */
export interface FamilyGrant {
  readonly clientId: string;
  readonly userId: string;
  readonly scopes: readonly Scope[];
}

interface Family {
  readonly id: string;
  readonly grant: FamilyGrant;
  /** Digests of the tokens that may still be redeemed (one, unless a fault keeps old ones). */
  valid: Set<string>;
  revoked: boolean;
}

/** What a refresh found. */
export type Refresh =
  | { readonly ok: true; readonly grant: FamilyGrant; readonly refreshToken: string | undefined }
  | { readonly ok: false; readonly description: string };

export class RefreshFamilies {
  /** Token → its family (rotated-out tokens stay, to recognise reuse). */
  private readonly tokens = new ExpiringStore<Family>(familyMs);
  private readonly families = new ExpiringStore<Family>(familyMs);

  constructor(private readonly faults: ReadonlySet<FaultName>) {}

  /** Starts a family; returns its id and first token. */
  start(grant: FamilyGrant): { family: string; refreshToken: string } {
    const family: Family = { id: newSecret(16), grant, valid: new Set(), revoked: false };
    this.families.set(family.id, family);
    return { family: family.id, refreshToken: this.add(family) };
  }

  /** Revokes every token of a family. */
  revoke(familyId: string): void {
    const family = this.families.get(familyId);
    if (family !== undefined) family.revoked = true;
  }

  /**
   * Token revocation (RFC 7009 §2.1): revokes the whole family of `token` when it is one of
   * `clientId`'s. An unknown token is no error (§2.2); another client's is (`false`).
   */
  revokeToken(token: string, clientId: string): boolean {
    const family = this.tokens.get(token);
    if (family === undefined) return true;
    if (family.grant.clientId !== clientId) return false;
    family.revoked = true;
    return true;
  }

  /** Redeems a token of `clientId`'s: the grant and the token that replaces it. */
  refresh(token: string, clientId: string): Refresh {
    const family = this.tokens.get(token);
    if (family === undefined || family.grant.clientId !== clientId) return { ok: false, description: 'The refresh token is unknown, or was issued to another client.' };
    if (family.revoked) return { ok: false, description: 'The refresh token was revoked.' };
    const f = this.faults;
    if (!family.valid.has(digestOf(token))) {
      // Reuse of a rotated-out token: theft, unless fault `refresh-reuse-no-revoke`.
      if (!f.has('refresh-reuse-no-revoke')) family.revoked = true;
      return { ok: false, description: 'The refresh token was already used; its whole family is revoked.' };
    }
    // Fault `refresh-not-rotated`: no new token; the old one stays the valid one.
    if (f.has('refresh-not-rotated')) return { ok: true, grant: family.grant, refreshToken: undefined };
    // Fault `old-refresh-still-valid`: a new token is issued, the old one is kept valid.
    if (!f.has('old-refresh-still-valid')) family.valid = new Set();
    return { ok: true, grant: family.grant, refreshToken: this.add(family) };
  }

  private add(family: Family): string {
    const token = newSecret();
    family.valid.add(digestOf(token));
    this.tokens.set(token, family);
    return token;
  }
}
