/**
 * Resolves `{ "env": NAME }` references from the environment. Gathers every missing
 * variable before failing, so one run tells the user all of them.
 */
import { RestprobeError } from '../errors.js';
import type { Secret } from '../model/profile.js';
import type { SecretRef } from './raw-config.js';

/**
 * @example
 * ```ts
 * const resolver = new SecretResolver(process.env);
 * const key = resolver.resolve('auth.apiKey.value', { env: 'RESTPROBE_API_KEY' });
 * resolver.assertComplete('restprobe.config.json'); // throws ERR_ENV_MISSING if unset
 * ```
 */
export class SecretResolver {
  readonly #env: NodeJS.ProcessEnv;
  readonly #resolved = new Map<string, Secret>();
  readonly #missing = new Map<string, string>();

  constructor(env: NodeJS.ProcessEnv) {
    this.#env = env;
  }

  /**
   * The secret `ref` names. When the variable is unset or empty, records the problem
   * and returns a placeholder; {@link assertComplete} then throws.
   */
  resolve(configPath: string, ref: SecretRef): Secret {
    const known = this.#resolved.get(ref.env);
    if (known) return known;
    const value = this.#env[ref.env];
    if (value === undefined || value === '') {
      if (!this.#missing.has(ref.env)) {
        const state = value === undefined ? 'is not set' : 'is set but empty';
        const hint = shownName(ref.env) === ref.env ? '' : ' (a name like a secret: if it is the secret itself, put it in a variable and name that)';
        this.#missing.set(ref.env, `${configPath}: environment variable ${shownName(ref.env)} ${state}${hint}`);
      }
      return { envName: ref.env, value: '' };
    }
    const secret: Secret = { envName: ref.env, value };
    this.#resolved.set(ref.env, secret);
    return secret;
  }

  /**
   * A secret that may be left unset: `value` is '' then, and nothing is recorded as
   * missing (the checks that need it skip, naming its key).
   */
  resolveOptional(ref: SecretRef): Secret {
    const value = this.#env[ref.env];
    if (value === undefined || value === '') return this.#resolved.get(ref.env) ?? { envName: ref.env, value: '' };
    return this.resolve('', ref);
  }

  /**
   * A value that is read from the environment but is not a secret (an OAuth client id:
   * scrubbing it would cut its pieces out of every report); '' when unset.
   */
  plain(ref: SecretRef): string {
    return this.#env[ref.env] ?? '';
  }

  /** Every secret resolved so far, one per variable. */
  get secrets(): Secret[] {
    return [...this.#resolved.values()];
  }

  /** Throws `ERR_ENV_MISSING`, one problem per variable, if any variable was missing. */
  assertComplete(source: string): void {
    if (this.#missing.size === 0) return;
    const names = [...this.#missing.keys()].map(shownName);
    const what = names.length === 1 ? `environment variable ${names[0]} is` : `environment variables ${names.join(', ')} are`;
    throw new RestprobeError('ERR_ENV_MISSING', `${source} reads secrets from the environment, but ${what} missing`, [
      ...this.#missing.values(),
    ]);
  }
}

/**
 * A variable's name as an error shows it: whole, unless it looks like a secret pasted where the
 * name goes (`{ "env": "sk_live_51Hx…" }`: long, with lower-case letters and digits, where names
 * are UPPER_SNAKE), which is cut to its first four characters.
 */
function shownName(name: string): string {
  return name.length >= 20 && /[a-z]/.test(name) && /\d/.test(name) ? `${name.slice(0, 4)}…` : name;
}
