/**
 * `restprobe serve`'s rate-limit flags: read and checked here, described in the lines
 * `serve` prints. The limiter itself is the reference server's (rate-limit.ts).
 */
import {
  defaultProbeRateLimit,
  parseRateLimit,
  rateLimitAlgorithms,
  retryAfterFormats,
  type RateLimit,
  type RateLimitAlgorithm,
  type RateLimitOptions,
  type RetryAfterFormat,
} from '../../reference-server/src/index.js';
import { RestprobeError } from '../errors.js';

export interface RateLimitFlags {
  /** `requests/window` for every client but the probe keys (`20/10s`); none by default. */
  readonly rateLimit?: string;
  /** `requests/window` for the probe keys; default 5/250ms. */
  readonly probeRateLimit?: string;
  readonly rateLimitAlgorithm?: string;
  readonly retryAfter?: string;
  /** false with `--no-overload`. */
  readonly overload?: boolean;
}

const example = 'expected requests/window, e.g. 20/10s, 600/1m or 50/500ms';

function limitFlag(flag: string, text: string | undefined): RateLimit | undefined {
  if (text === undefined) return undefined;
  const limit = parseRateLimit(text);
  if (limit === undefined) throw new RestprobeError('ERR_USAGE', `${flag}: "${text}" is not a limit; ${example}`);
  return limit;
}

function oneOf<T extends string>(flag: string, text: string | undefined, allowed: readonly T[]): T | undefined {
  if (text === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(text)) throw new RestprobeError('ERR_USAGE', `${flag}: "${text}" is not one of ${allowed.join(', ')}`);
  return text as T;
}

/** The server options the flags ask for; a flag that does not parse is a usage error naming it. */
export function rateLimitOptions(flags: RateLimitFlags): RateLimitOptions {
  const rateLimit = limitFlag('--rate-limit', flags.rateLimit);
  const probeRateLimit = limitFlag('--probe-rate-limit', flags.probeRateLimit);
  const rateLimitAlgorithm = oneOf<RateLimitAlgorithm>('--rate-limit-algorithm', flags.rateLimitAlgorithm, rateLimitAlgorithms);
  const retryAfter = oneOf<RetryAfterFormat>('--retry-after', flags.retryAfter, retryAfterFormats);
  return {
    ...(rateLimit && { rateLimit }),
    ...(probeRateLimit && { probeRateLimit }),
    ...(rateLimitAlgorithm && { rateLimitAlgorithm }),
    ...(retryAfter && { retryAfter }),
    ...(flags.overload === false && { overload: false }),
  };
}

const per = (l: RateLimit): string => `${l.limit} requests per ${l.windowMs} ms`;

/** The comment lines `serve` prints about its limiter. */
export function describeRateLimits(o: RateLimitOptions): string[] {
  const how = `${o.rateLimitAlgorithm ?? 'token-bucket'}, one counter shared by every node, 429 + Retry-After (${o.retryAfter ?? 'seconds'}) + RateLimit fields${o.overload === false ? '' : '; a client that keeps sending while limited gets 503 + Retry-After'}`;
  return [
    `# rate limit: RESTPROBE_LIMIT_KEY and RESTPROBE_LIMIT_KEY_2 ${per(o.probeRateLimit ?? defaultProbeRateLimit)} each; every other client ${o.rateLimit ? per(o.rateLimit) : 'unlimited'} (${how})`,
  ];
}
