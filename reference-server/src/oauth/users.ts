/**
 * The one user of the login page, for unattended code flows: `probe-user`, with a
 * password made at start. Tokens name the user by an opaque id, never by name or email.
 */
import { randomUUID } from 'node:crypto';
import { newSecret, sameSecret } from '../secrets.js';

export const testUser = {
  username: 'probe-user',
  /** Personal data that only fault `jwt-pii-in-claims` puts in tokens. */
  email: 'probe-user@example.test',
  name: 'Probe User',
} as const;

export class Users {
  /** The user's password: 24 random bytes, base64url. */
  readonly password = newSecret(24);
  /** The `sub` of the user's tokens. */
  readonly userId = randomUUID();

  /** The user id when the login is right; constant-time in the password. */
  login(username: string, password: string): string | undefined {
    const passwordRight = sameSecret(password, this.password);
    return username === testUser.username && passwordRight ? this.userId : undefined;
  }
}
