/**
 * How restprobe itself runs: the `http`, `safety` and `properties` sections with their flags
 * (`--proxy`, `--ca`, `--read-only`, `--no-destructive`), defaults applied ({@link runDefaults}).
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve as resolvePath } from 'node:path';
import { RestprobeError } from '../../../errors.js';
import { normaliseBaseUrl } from '../../base-url.js';
import type { LoadProfileOptions } from '../../load-options.js';
import type { RawConfig } from '../../raw-config.js';
import { runDefaults, type HttpSettings, type PropertySettings, type SafetySettings } from './profile.js';

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

/** The CAs to trust: `--ca`'s file, else `http.ca`'s, relative to the config file. */
export function caOf(config: RawConfig, opts: LoadProfileOptions): Promise<string | undefined> {
  return readCa(opts.ca ?? (config.http?.ca === undefined || opts.configPath === undefined ? undefined : resolvePath(dirname(opts.configPath), config.http.ca)), opts.ca !== undefined ? '--ca' : 'http.ca');
}

function proxyUrl(raw: string): string {
  const result = normaliseBaseUrl(raw);
  if (!result.ok) throw new RestprobeError('ERR_USAGE', `--proxy ${result.problem}`);
  return result.url;
}

/** The run's settings; `ca` is what {@link caOf} read. */
export function runSettings(config: RawConfig, opts: LoadProfileOptions, ca: string | undefined): { readonly http: HttpSettings; readonly safety: SafetySettings; readonly properties: PropertySettings } {
  return {
    http: {
      timeoutMs: config.http?.timeoutMs ?? runDefaults.timeoutMs,
      maxBodyBytes: config.http?.maxBodyBytes ?? runDefaults.maxBodyBytes,
      concurrency: config.http?.concurrency ?? runDefaults.concurrency,
      ...(opts.proxy !== undefined && { proxy: proxyUrl(opts.proxy) }),
      ...(ca !== undefined && { ca }),
      ...(config.http?.maxRequestsPerSecond !== undefined && { maxRequestsPerSecond: config.http.maxRequestsPerSecond }),
      maxRetryWaitMs: config.http?.maxRetryWaitMs ?? runDefaults.maxRetryWaitMs,
      maxConsecutiveFailures: config.http?.maxConsecutiveFailures ?? runDefaults.maxConsecutiveFailures,
    },
    safety: {
      readOnly: (opts.readOnly ?? false) || (config.safety?.readOnly ?? runDefaults.readOnly),
      maxRequests: config.safety?.maxRequests ?? runDefaults.maxRequests,
      destructive: (opts.destructive ?? true) && (config.safety?.destructive ?? runDefaults.destructive),
    },
    properties: { ...(config.properties?.numRuns !== undefined && { numRuns: config.properties.numRuns }) },
  };
}
