/**
 * From config file, command-line flags and environment to a {@link TargetProfile}:
 * read, validate against the bundled schema, apply defaults, resolve secrets.
 */
import { RestprobeError } from '../errors.js';
import type { ApiKeyAuth, AuthProfile, CollectionProfile, JwtProfile, OAuthProfile, TargetProfile, VersionProfile, WebhooksProfile } from '../model/profile.js';
import { normaliseBaseUrl } from './base-url.js';
import { configDefaults as defaults } from './defaults.js';
import { problemsFromAjv } from './problems.js';
import type { RawCollection, RawConfig, RawWebhooks, SecretRef } from './raw-config.js';
import { readConfigFile } from './read.js';
import { loadConfigValidator } from './schema.js';
import type { ValidateFunction } from 'ajv';
import type { Scheme } from '../webhooks/signing.js';
import { readFile } from 'node:fs/promises';
import { dirname, resolve as resolvePath } from 'node:path';
import { SecretResolver } from './secrets.js';
import { rateLimitProfile } from './rate-limit.js';
import { jwtProfile, oauthProfile } from './oauth.js';
// The run's own API credential, when auth.oauth issues it, is requested by the check kit's OAuth helpers.
import { ApiToken, apiTokenCredential } from '../check-kit/api-token.js';

export interface LoadProfileOptions {
  /** Path of the config file (JSON or YAML). Without it, a profile with no collections. */
  readonly configPath?: string;
  /** Base URL from the command line; wins over `baseUrl` in the file. */
  readonly baseUrl?: string;
  /** Where `{ "env": NAME }` secrets are read. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** `--read-only` from the command line; ORed with `safety.readOnly`. */
  readonly readOnly?: boolean;
  /** `--proxy` from the command line: send every request through this HTTP proxy. */
  readonly proxy?: string;
  /** `--node` from the command line: more base URLs of the deployment, after the config's. */
  readonly nodes?: readonly string[];
  /** `--ca` from the command line: a PEM file of CAs to trust (wins over `http.ca`). */
  readonly ca?: string;
  /** `--no-destructive` from the command line; ANDed with `safety.destructive`. */
  readonly destructive?: boolean;
  /** `--plain-http-url` from the command line; wins over `plainHttpUrl`. */
  readonly plainHttpUrl?: string;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The PEM text of a CA file; a file that cannot be read or holds no certificate is a config error naming it. */
async function readCa(path: string | undefined, from: string): Promise<string | undefined> {
  if (path === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new RestprobeError('ERR_CONFIG_UNREADABLE', `${from}: cannot read the CA file ${path} (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new RestprobeError('ERR_CONFIG_INVALID', `${from}: ${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return text;
}

/** Schema validation, plus the rules a JSON Schema cannot say (unique collection names). */
function validate(data: unknown, source: string, check: ValidateFunction<RawConfig>): RawConfig {
  const problems = check(data) ? [] : problemsFromAjv(check.errors ?? []);
  if (problems.length === 0) problems.push(...duplicateNames(data as RawConfig));
  if (problems.length > 0) {
    throw new RestprobeError('ERR_CONFIG_INVALID', `${source} has ${plural(problems.length, 'problem')}`, problems);
  }
  return data as RawConfig;
}

/** Collections are named in messages and selected by name, so names must be unique. */
function duplicateNames(config: RawConfig): string[] {
  const firstIndex = new Map<string, number>();
  const problems: string[] = [];
  (config.collections ?? []).forEach((c, i) => {
    const first = firstIndex.get(c.name);
    if (first === undefined) firstIndex.set(c.name, i);
    else problems.push(`collections[${i}].name: must be unique (found "${c.name}", also the name of collections[${first}])`);
  });
  return problems;
}

/** The base URL to probe: the command line's, else the file's. */
function resolveBaseUrl(cli: string | undefined, file: string | undefined): string {
  if (cli !== undefined) {
    const result = normaliseBaseUrl(cli);
    if (!result.ok) throw new RestprobeError('ERR_USAGE', `base URL on the command line ${result.problem}`);
    return result.url;
  }
  if (file !== undefined) {
    const result = normaliseBaseUrl(file);
    if (!result.ok) throw new RestprobeError('ERR_CONFIG_INVALID', `baseUrl ${result.problem}`, [`baseUrl: ${result.problem}`]);
    return result.url;
  }
  throw new RestprobeError('ERR_USAGE', 'no base URL: pass one on the command line or set baseUrl in the config');
}

function configNodeUrl(raw: string, index: number): string {
  const result = normaliseBaseUrl(raw);
  if (!result.ok) throw new RestprobeError('ERR_CONFIG_INVALID', `nodes[${index}] ${result.problem}`, [`nodes[${index}]: ${result.problem}`]);
  return result.url;
}

function nodeUrl(raw: string): string {
  const result = normaliseBaseUrl(raw);
  if (!result.ok) throw new RestprobeError('ERR_USAGE', `--node ${result.problem}`);
  return result.url;
}

function proxyUrl(raw: string): string {
  const result = normaliseBaseUrl(raw);
  if (!result.ok) throw new RestprobeError('ERR_USAGE', `--proxy ${result.problem}`);
  return result.url;
}

/** The named scheme, or `webhooks.signature` when the scheme is `custom` (which needs it). */
function webhookScheme(raw: RawWebhooks): Scheme {
  const scheme = raw.scheme ?? defaults.webhookScheme;
  if (scheme !== 'custom') return scheme;
  const sig = raw.signature;
  if (sig === undefined) throw new RestprobeError('ERR_CONFIG_INVALID', 'webhooks.scheme is custom, but webhooks.signature does not describe it', ['webhooks.signature: required when webhooks.scheme is custom']);
  return {
    header: sig.header,
    prefix: sig.prefix ?? defaults.webhookSignaturePrefix,
    encoding: sig.encoding ?? defaults.webhookSignatureEncoding,
    signed: sig.signed ?? defaults.webhookSignatureSigned,
    ...(sig.idHeader !== undefined && { idHeader: sig.idHeader }),
    ...(sig.timestampHeader !== undefined && { timestampHeader: sig.timestampHeader }),
  };
}

/** A version as the checks use it: `v2` and `2` are both `2`. */
const bareVersion = (v: string): string => v.replace(/^v/i, '');

function versionProfile(raw: NonNullable<RawConfig['version']>): VersionProfile {
  return {
    scheme: raw.scheme,
    current: bareVersion(raw.current),
    deprecated: (raw.deprecated ?? defaults.versionList).map(bareVersion),
    removed: (raw.removed ?? defaults.versionList).map(bareVersion),
    header: raw.header ?? defaults.versionHeader,
    ...(raw.vendor !== undefined && { vendor: raw.vendor }),
    queryParam: raw.queryParam ?? defaults.versionQueryParam,
    renames: raw.renames ?? [],
  };
}

/**
 * The API's access token from `auth.oauth` (`auth.apiKey.fromOAuth`): its client must be
 * confidential (client credentials), and its id and secret set, since every check sends it.
 */
function oauthApiKey(raw: NonNullable<RawConfig['auth']>, oauth: OAuthProfile | undefined, jwt: JwtProfile | undefined, header: string | undefined, secrets: SecretResolver, profile: () => TargetProfile): ApiKeyAuth {
  const invalid = (key: string, problem: string): RestprobeError => new RestprobeError('ERR_CONFIG_INVALID', `${key}: ${problem}`, [`${key}: ${problem}`]);
  if (oauth === undefined || jwt === undefined || raw.oauth === undefined) throw invalid('auth.apiKey.fromOAuth', 'needs auth.oauth, whose client gets the token with client credentials');
  if (raw.oauth.clientSecret === undefined) throw invalid('auth.apiKey.fromOAuth', 'needs auth.oauth.clientSecret: client credentials are for a confidential client');
  if (oauth.clientId === '') throw new RestprobeError('ERR_ENV_MISSING', `auth.oauth.clientId: environment variable ${oauth.clientIdEnv} is not set (auth.apiKey.fromOAuth gets the API's token with it)`, [`auth.oauth.clientId: environment variable ${oauth.clientIdEnv} is not set`]);
  // Required here, where the run's own credential depends on it: an unset variable is reported with the others.
  const clientSecret = secrets.resolve('auth.oauth.clientSecret', raw.oauth.clientSecret);
  const token = new ApiToken({ oauth: { ...oauth, clientSecret }, jwt }, profile);
  return apiTokenCredential(token, header ?? 'Authorization');
}

/** The credentials the config gives, secrets resolved (a login body's `{ "env": NAME }` members too). */
function authProfile(raw: NonNullable<RawConfig['auth']>, secrets: SecretResolver, configPath: string | undefined, profile: () => TargetProfile): AuthProfile {
  const key = (where: string, k: { readonly header?: string; readonly value: SecretRef }): ApiKeyAuth => ({ header: k.header ?? defaults.apiKeyHeader, value: secrets.resolve(where, k.value) });
  const { apiKey, limited, session, mint } = raw;
  const oauth = raw.oauth && oauthProfile(raw.oauth, secrets, configPath);
  // Tokens from an authorization server are judged with the defaults when auth.jwt is absent.
  const jwt = (raw.jwt ?? raw.oauth) && jwtProfile(raw.jwt ?? {}, secrets);
  return {
    ...(apiKey && { apiKey: 'fromOAuth' in apiKey ? oauthApiKey(raw, oauth, jwt, apiKey.header, secrets, profile) : key('auth.apiKey.value', apiKey) }),
    // Optional: unset, the scope check skips naming it, and the rest of the run goes on.
    ...(limited && { limited: { header: limited.header ?? defaults.apiKeyHeader, value: secrets.resolveOptional(limited.value), scopes: limited.scopes ?? [] } }),
    ...(session && {
      session: {
        loginPath: session.login.path,
        loginBody: Object.fromEntries(Object.entries(session.login.body ?? {}).map(([k, v]) => [k, isSecretRef(v) ? secrets.resolve(`auth.session.login.body.${k}`, v).value : v])),
        logoutPath: session.logout.path,
        ...(session.cookie !== undefined && { cookie: session.cookie }),
      },
    }),
    ...(mint && { mint: { path: mint.path, body: mint.body ?? {}, secretField: mint.secretField ?? defaults.mintSecretField } }),
    queryParams: raw.queryParams ?? defaults.queryParams,
    ...(oauth && { oauth }),
    ...(jwt && { jwt }),
  };
}

function webhooksProfile(raw: RawWebhooks, secrets: SecretResolver): WebhooksProfile {
  return {
    subscribePath: raw.subscribe.path,
    subscribeBody: raw.subscribe.body ?? { url: '{url}' },
    secretField: raw.subscribe.secretField ?? defaults.webhookSecretField,
    ...(raw.secret && { secret: secrets.resolve('webhooks.secret', raw.secret) }),
    ...(raw.collection !== undefined && { collection: raw.collection }),
    actions: raw.actions ?? defaults.webhookActions,
    scheme: webhookScheme(raw),
    ...(raw.publicUrl !== undefined && { publicUrl: raw.publicUrl }),
    toleranceSeconds: raw.toleranceSeconds ?? defaults.webhookToleranceSeconds,
    deliveryWithinMs: raw.deliveryWithinMs ?? defaults.webhookDeliveryWithinMs,
    slowAnswerMs: raw.slowAnswerMs ?? defaults.webhookSlowAnswerMs,
    quietMs: raw.quietMs ?? defaults.webhookQuietMs,
  };
}

const isSecretRef = (v: unknown): v is SecretRef => typeof v === 'object' && v !== null && Object.keys(v).length === 1 && typeof (v as { env?: unknown }).env === 'string';

/** The plain-HTTP URL must be plain http: a redirect from HTTPS to HTTPS proves nothing. */
function plainUrl(raw: string, where: string): string {
  const result = normaliseBaseUrl(raw);
  if (result.ok && result.url.startsWith('http://')) return result.url;
  throw new RestprobeError(where.startsWith('--') ? 'ERR_USAGE' : 'ERR_CONFIG_INVALID', `${where}: must be an http:// URL, not "${raw}"`, [`${where}: must be an http:// URL`]);
}

function collectionProfile(raw: RawCollection): CollectionProfile {
  return {
    name: raw.name,
    path: raw.path,
    itemPath: raw.itemPath ?? `${raw.path.replace(/\/+$/, '')}/{id}`,
    idField: raw.idField ?? defaults.idField,
    createBody: raw.create?.body,
    replaceBody: raw.replace?.body,
    patchBody: raw.patch?.body,
    invalidBody: raw.invalid?.body,
    volatileFields: raw.volatileFields ?? defaults.volatileFields,
    newId: raw.newId ?? defaults.newId,
    idType: raw.idType ?? defaults.idType,
    methods: raw.methods ?? defaults.methods,
    pagination: { ...defaults.pagination, ...raw.pagination },
    filters: raw.filters ?? defaults.filters,
    sorts: raw.sorts ?? defaults.sorts,
    ...(raw.mark && { markField: raw.mark.field }),
    ...(raw.personalised !== undefined && { personalised: raw.personalised }),
    ...(raw.notConsumed !== undefined && { notConsumed: raw.notConsumed }),
    actions: raw.actions ?? defaults.actions,
    children: (raw.children ?? defaults.children).map((child) => ({
      name: child.name,
      path: child.path,
      itemPath: child.itemPath,
      idField: child.idField ?? defaults.idField,
      createBody: child.create.body,
      actions: child.actions ?? defaults.actions,
    })),
  };
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
  const plainHttpUrl = opts.plainHttpUrl ?? config.plainHttpUrl;
  secrets.assertComplete(source);
  const collections = (config.collections ?? []).map(collectionProfile);
  const rateLimit = config.rateLimit && rateLimitProfile(config.rateLimit, auth, collections, secrets);
  const webhooks = config.webhooks && webhooksProfile(config.webhooks, secrets);
  const ca = await readCa(opts.ca ?? (config.http?.ca === undefined || opts.configPath === undefined ? undefined : resolvePath(dirname(opts.configPath), config.http.ca)), opts.ca !== undefined ? '--ca' : 'http.ca');

  profile = {
    baseUrl,
    auth,
    ...(plainHttpUrl !== undefined && { plainHttpUrl: plainUrl(plainHttpUrl, opts.plainHttpUrl !== undefined ? '--plain-http-url' : 'plainHttpUrl') }),
    collections,
    secretEndpoints: config.secretEndpoints ?? defaults.secretEndpoints,
    nodes: [...new Set([...(config.nodes ?? defaults.nodes).map((n, i) => configNodeUrl(n, i)), ...(opts.nodes ?? []).map((n) => nodeUrl(n))])],
    http: {
      timeoutMs: config.http?.timeoutMs ?? defaults.timeoutMs,
      maxBodyBytes: config.http?.maxBodyBytes ?? defaults.maxBodyBytes,
      concurrency: config.http?.concurrency ?? defaults.concurrency,
      ...(opts.proxy !== undefined && { proxy: proxyUrl(opts.proxy) }),
      ...(ca !== undefined && { ca }),
      ...(config.http?.maxRequestsPerSecond !== undefined && { maxRequestsPerSecond: config.http.maxRequestsPerSecond }),
      maxRetryWaitMs: config.http?.maxRetryWaitMs ?? defaults.maxRetryWaitMs,
      maxConsecutiveFailures: config.http?.maxConsecutiveFailures ?? defaults.maxConsecutiveFailures,
    },
    safety: {
      readOnly: (opts.readOnly ?? false) || (config.safety?.readOnly ?? defaults.readOnly),
      maxRequests: config.safety?.maxRequests ?? defaults.maxRequests,
      destructive: (opts.destructive ?? true) && (config.safety?.destructive ?? defaults.destructive),
    },
    properties: { numRuns: config.properties?.numRuns ?? defaults.numRuns },
    ...(rateLimit && { rateLimit }),
    ...(webhooks && { webhooks }),
    ...(config.version && { version: versionProfile(config.version) }),
    secrets: secrets.secrets,
  };
  return profile;
}
