/**
 * From config file, command-line flags and environment to a {@link TargetProfile}:
 * read, validate against the bundled schema, then each section's loader
 * (`sections/<section>/load.ts`) applies its defaults and resolves its secrets.
 */
import type { ValidateFunction } from 'ajv';
import { RestprobeError } from '../errors.js';
import type { TargetProfile } from '../model/profile.js';
import type { LoadProfileOptions } from './load-options.js';
import { problemsFromAjv } from './problems.js';
import type { RawConfig } from './raw-config.js';
import { readConfigFile } from './read.js';
import { loadConfigValidator } from './schema.js';
import { SecretResolver } from './secrets.js';
import { authProfile } from './sections/auth/load.js';
import { collectionProfile, duplicateNames } from './sections/collections/load.js';
import { rateLimitProfile } from './sections/rate-limit/load.js';
import { caOf, runSettings } from './sections/run/load.js';
import { resolveBaseUrl, targetPlaces } from './sections/target/load.js';
import { versionProfile } from './sections/version/load.js';
import { webhooksProfile } from './sections/webhooks/load.js';

export type { LoadProfileOptions } from './load-options.js';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Schema validation, plus the rules a JSON Schema cannot say (unique collection names). */
function validate(data: unknown, source: string, check: ValidateFunction<RawConfig>): RawConfig {
  const problems = check(data) ? [] : problemsFromAjv(check.errors ?? []);
  if (problems.length === 0) problems.push(...duplicateNames(data as RawConfig));
  if (problems.length > 0) {
    throw new RestprobeError('ERR_CONFIG_INVALID', `${source} has ${plural(problems.length, 'problem')}`, problems);
  }
  return data as RawConfig;
}

/**
 * The validated target profile, every field filled.
 *
 * Throws {@link RestprobeError}: `ERR_CONFIG_UNREADABLE` (file missing or not JSON/YAML),
 * `ERR_CONFIG_INVALID` (schema problems, one line each in `problems`), `ERR_USAGE` (no
 * base URL, or a bad one on the command line), `ERR_ENV_MISSING` (a secret's variable is
 * unset, one line per variable).
 *
 * @example
 * ```ts
 * const profile = await loadProfile({ configPath: 'restprobe.config.json', baseUrl: 'http://127.0.0.1:8080/' });
 * profile.baseUrl;         // 'http://127.0.0.1:8080'
 * profile.http.timeoutMs;  // 10000 unless the file sets it
 * ```
 */
export async function loadProfile(opts: LoadProfileOptions = {}): Promise<TargetProfile> {
  const source = opts.configPath ?? 'the config';
  const config = opts.configPath === undefined ? {} : validate(await readConfigFile(opts.configPath), source, await loadConfigValidator());
  const baseUrl = resolveBaseUrl(opts.baseUrl, config.baseUrl);

  const secrets = new SecretResolver(opts.env ?? process.env);
  // The API's token from auth.oauth reads the finished profile when it is first requested.
  let profile: TargetProfile | undefined;
  const auth = authProfile(config.auth ?? {}, secrets, opts.configPath, () => profile!);
  secrets.assertComplete(source);
  const collections = (config.collections ?? []).map(collectionProfile);
  const rateLimit = config.rateLimit && rateLimitProfile(config.rateLimit, auth, collections, secrets);
  const webhooks = config.webhooks && webhooksProfile(config.webhooks, secrets);
  const ca = await caOf(config, opts);

  profile = {
    baseUrl,
    auth,
    collections,
    ...targetPlaces(config, opts),
    ...runSettings(config, opts, ca),
    ...(rateLimit && { rateLimit }),
    ...(webhooks && { webhooks }),
    ...(config.version && { version: versionProfile(config.version) }),
    secrets: secrets.secrets,
  };
  return profile;
}
