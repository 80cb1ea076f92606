/**
 * The target's own places: the base URL (the command line's, else the file's), its plain-HTTP
 * URL, its OpenAPI document, its other nodes (the config's, then `--node`'s) and the requests that return a secret.
 */
import { dirname, resolve } from 'node:path';
import { RestprobeError } from '../../../errors.js';
import { normaliseBaseUrl } from '../../base-url.js';
import type { LoadProfileOptions } from '../../load-options.js';
import type { RawConfig } from '../../raw-config.js';
import type { SecretEndpoint } from './profile.js';

/** What the target's places hold where the config says nothing. */
export const targetDefaults = {
  nodes: [] as readonly string[],
  secretEndpoints: [] as readonly never[],
} as const;

/** The base URL to probe: the command line's, else the file's. */
export function resolveBaseUrl(cli: string | undefined, file: string | undefined): string {
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

/** The plain-HTTP URL must be plain http: a redirect from HTTPS to HTTPS proves nothing. */
function plainUrl(raw: string, where: string): string {
  const result = normaliseBaseUrl(raw);
  if (result.ok && result.url.startsWith('http://')) return result.url;
  // The base URL's own wording, which never echoes credentials or a query's values.
  const problem = result.ok ? 'must be an http:// URL (found https://)' : result.problem;
  throw new RestprobeError(where.startsWith('--') ? 'ERR_USAGE' : 'ERR_CONFIG_INVALID', `${where}: ${problem}`, [`${where}: ${problem}`]);
}

/** Where the OpenAPI document is: a URL as it is, a file path absolute (the config's relative to its folder, the flag's to the working directory). */
function documentSource(config: RawConfig, opts: LoadProfileOptions): string | undefined {
  const source = opts.openapi ?? config.openapi;
  if (source === undefined || /^https?:\/\//i.test(source)) return source;
  return opts.openapi !== undefined || opts.configPath === undefined ? resolve(source) : resolve(dirname(opts.configPath), source);
}

/** The target's places besides its base URL. */
export function targetPlaces(config: RawConfig, opts: LoadProfileOptions): { readonly plainHttpUrl?: string; readonly openapi?: string; readonly nodes: readonly string[]; readonly secretEndpoints: readonly SecretEndpoint[] } {
  const plainHttpUrl = opts.plainHttpUrl ?? config.plainHttpUrl;
  const openapi = documentSource(config, opts);
  return {
    ...(plainHttpUrl !== undefined && { plainHttpUrl: plainUrl(plainHttpUrl, opts.plainHttpUrl !== undefined ? '--plain-http-url' : 'plainHttpUrl') }),
    ...(openapi !== undefined && { openapi }),
    secretEndpoints: config.secretEndpoints ?? targetDefaults.secretEndpoints,
    nodes: [...new Set([...(config.nodes ?? targetDefaults.nodes).map((n, i) => configNodeUrl(n, i)), ...(opts.nodes ?? []).map((n) => nodeUrl(n))])],
  };
}
