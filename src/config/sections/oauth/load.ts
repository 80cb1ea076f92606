/**
 * The `auth.oauth` and `auth.jwt` sections as the profile holds them: defaults applied,
 * secrets resolved, the login command split and placed relative to the config file, and
 * the rules a JSON Schema cannot say (patterns that compile, a redirect URI for a login).
 */
import { dirname, isAbsolute, resolve as resolvePath } from 'node:path';
import { RestprobeError } from '../../../errors.js';
import { isSecretMemberName } from '../../../http/redact.js';
import type { RawJwt, RawOAuth } from '../../raw-config.js';
import type { SecretResolver } from '../../secrets.js';
import type { JwtProfile, OAuthLogin, OAuthProfile } from './profile.js';

/** What `auth.oauth` and `auth.jwt` hold where the config says nothing. */
export const oauthDefaults = {
  jwtAlgorithms: ['RS256'] as readonly string[],
  loginCommandTimeoutMs: 30_000,
  /**
   * Claim names that are personal data (conventions §5.6: signed is not encrypted). `address`
   * stands alone or after `_`/`-` (OIDC's `address`, `home_address`), so Keycloak's
   * `clientAddress` (a machine client's IP) is not taken for a postal address.
   */
  personalDataClaims: ['e-?mail', 'phone', '^(given_|family_|middle_|nick|full_?|first_?|last_?|user_?)?name$', 'passw', '^pwd$', '(^|[_-])address', 'street', 'postal', 'zip', 'birth', 'ssn', 'iban', 'credit_?card'] as readonly string[],
  /** String values that look like personal data: an email address, a phone number. */
  personalDataValues: ['^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$', '^\\+[1-9][0-9 ().-]{6,}[0-9]$'] as readonly string[],
} as const;

/** A config error at `path` (`auth.oauth.scopes`). */
export const invalid = (path: string, problem: string): RestprobeError => new RestprobeError('ERR_CONFIG_INVALID', `${path}: ${problem}`, [`${path}: ${problem}`]);

/**
 * Refuses a secret-named member (`password`, `client_secret`) given literally under `path`: it
 * would sit in the config and, unknown as a secret, in the evidence of every request that sends it.
 */
export function refuseLiteralSecrets(members: Readonly<Record<string, unknown>>, path: string): void {
  for (const [name, v] of Object.entries(members)) {
    if (typeof v === 'string' && isSecretMemberName(name)) throw invalid(`${path}.${name}`, 'a secret is never literal: use { "env": "NAME" }');
  }
}

/** A login command's argv: a string split on spaces (no shell, no quoting), a relative program path taken from the config's folder. */
function commandArgv(command: string | readonly string[], configPath: string | undefined): string[] {
  const argv = typeof command === 'string' ? command.trim().split(/\s+/) : [...command];
  const program = argv[0]!;
  if (configPath !== undefined && !isAbsolute(program) && /^\.\.?[/\\]/.test(program)) argv[0] = resolvePath(dirname(configPath), program);
  return argv;
}

function login(raw: NonNullable<RawOAuth['login']>, secrets: SecretResolver, configPath: string | undefined): OAuthLogin {
  if ('command' in raw) return { kind: 'command', argv: commandArgv(raw.command, configPath), timeoutMs: raw.timeoutMs ?? oauthDefaults.loginCommandTimeoutMs };
  refuseLiteralSecrets(raw.form.fields, 'auth.oauth.login.form.fields');
  // Optional like the client secret: an unset variable skips the code-flow checks, naming auth.oauth.login.
  const fields = Object.entries(raw.form.fields).map(([name, v]) => [name, typeof v === 'string' ? v : secrets.resolveOptional(v).value] as const);
  const unset = Object.entries(raw.form.fields).flatMap(([name, v]) => (typeof v !== 'string' && secrets.resolveOptional(v).value === '' ? [`${name} (${v.env})`] : []));
  return { kind: 'form', fields: Object.fromEntries(fields), unset, ...(raw.form.consent === true && { consent: true as const }) };
}


/** `auth.oauth`, or a config error naming the path. */
export function oauthProfile(raw: RawOAuth, secrets: SecretResolver, configPath: string | undefined): OAuthProfile {
  if (raw.login !== undefined && raw.redirectUri === undefined) throw invalid('auth.oauth.redirectUri', 'required with auth.oauth.login: the code is read from the redirect to it');
  if (raw.clientAuth === 'none' && raw.clientSecret !== undefined) throw invalid('auth.oauth.clientSecret', 'a public client (clientAuth none) has no secret: remove one or the other');
  return {
    ...(raw.issuer !== undefined && { issuer: raw.issuer.replace(/\/+$/, '') }),
    ...(raw.authorizationEndpoint !== undefined && { authorizationEndpoint: raw.authorizationEndpoint }),
    ...(raw.tokenEndpoint !== undefined && { tokenEndpoint: raw.tokenEndpoint }),
    ...(raw.jwksUrl !== undefined && { jwksUrl: raw.jwksUrl }),
    clientId: typeof raw.clientId === 'string' ? raw.clientId : secrets.plain(raw.clientId),
    ...(typeof raw.clientId !== 'string' && { clientIdEnv: raw.clientId.env }),
    // Absent: a public client. Configured but unset: the checks skip naming it.
    ...(raw.clientSecret !== undefined && { clientSecret: secrets.resolveOptional(raw.clientSecret) }),
    ...(raw.clientAuth !== undefined && { clientAuth: raw.clientAuth }),
    scopes: raw.scopes ?? [],
    parameters: raw.parameters ?? {},
    ...(raw.redirectUri !== undefined && { redirectUri: raw.redirectUri }),
    ...(raw.login !== undefined && { login: login(raw.login, secrets, configPath) }),
  };
}

/** Each pattern must compile: a typo is a config error naming it, not a crash mid-run. */
function patterns(list: readonly string[] | undefined, fallback: readonly string[], path: string): readonly string[] {
  (list ?? []).forEach((p, i) => {
    try {
      new RegExp(p, 'i');
    } catch (err) {
      throw invalid(`${path}[${i}]`, `not a regular expression (${(err as Error).message})`);
    }
  });
  return list ?? fallback;
}

/** `auth.jwt` with its defaults (also when only `auth.oauth` is configured). */
export function jwtProfile(raw: RawJwt, secrets: SecretResolver): JwtProfile {
  return {
    ...(raw.issuer !== undefined && { issuer: raw.issuer }),
    ...(raw.audience !== undefined && { audience: raw.audience }),
    ...(raw.jwksUrl !== undefined && { jwksUrl: raw.jwksUrl }),
    algorithms: raw.algorithms ?? oauthDefaults.jwtAlgorithms,
    // Optional: unset, the checks that sign tokens skip naming it.
    ...(raw.testSigningKey !== undefined && { testSigningKey: secrets.resolveOptional(raw.testSigningKey) }),
    personalData: {
      claims: patterns(raw.personalDataPatterns?.claims, oauthDefaults.personalDataClaims, 'auth.jwt.personalDataPatterns.claims'),
      values: patterns(raw.personalDataPatterns?.values, oauthDefaults.personalDataValues, 'auth.jwt.personalDataPatterns.values'),
    },
  };
}
