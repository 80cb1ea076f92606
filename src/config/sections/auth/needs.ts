/** What checks need of the `auth` section's credentials (OAuth and JWT: the `oauth` section). */
import { need } from '../../../model/need.js';
import { Unmet } from '../../../model/unmet.js';
import type { ApiKeyAuth, LimitedAuth, MintAuth, SessionAuth } from './profile.js';

/** A configured part of `auth` that a check can use only by writing: unmet when absent (`missing`), or on a read-only run. */
function configuredForWrites<T>(p: { readonly safety: { readonly readOnly: boolean } }, value: T | undefined, missing: Unmet, writes: string): T | Unmet {
  if (value === undefined) return missing;
  return p.safety.readOnly ? new Unmet(`read-only run: ${writes}`, 'safety.readOnly') : value;
}

/** The needs the configured credentials meet. */
export const authNeeds = {
  /** Configured credentials. */
  credentials: need<ApiKeyAuth>({
    label: 'credentials',
    keys: ['auth.apiKey'],
    resolve: (p) => p.auth.apiKey ?? new Unmet('no credentials configured', 'auth.apiKey'),
  }),
  /** A second credential that lacks the write scope. */
  limitedCredential: need<LimitedAuth>({
    label: 'a credential without write scope',
    keys: ['auth.limited'],
    resolve: (p) => {
      const limited = p.auth.limited;
      if (limited === undefined) return new Unmet('no credential without write scope configured', 'auth.limited');
      return limited.value.value === '' ? new Unmet(`environment variable ${limited.value.envName} (auth.limited) is not set`, 'auth.limited') : limited;
    },
  }),
  /** A login that sets a session cookie, on a run that may send it. */
  session: need<SessionAuth>({
    label: 'a session login',
    keys: ['auth.session', 'safety.readOnly'],
    resolve: (p) => configuredForWrites(p, p.auth.session, new Unmet('no session login configured', 'auth.session'), 'logging in and out writes'),
  }),
  /** Where an API key can be minted, on a run that may write. */
  mint: need<MintAuth>({
    label: 'a way to mint an API key',
    keys: ['auth.mint', 'safety.readOnly'],
    resolve: (p) => configuredForWrites(p, p.auth.mint, new Unmet('no way to mint an API key configured', 'auth.mint'), 'minting a key writes'),
  }),
} as const;
