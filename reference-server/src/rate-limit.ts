/**
 * The rate limiter (conventions §8.1–8.3, §7): a quota per client, keyed by the known API
 * key presented, a verified access token's client, or else the remote address (see
 * rate-limit-clients.ts), with one counter store shared by every node, since per-node
 * counters multiply the limit by the node count (§8.2). The store is bounded (see
 * rate-limit-counters.ts).
 *
 * Two quota tiers. The probe keys (`RESTPROBE_LIMIT_KEY`, `RESTPROBE_LIMIT_KEY_2`, read-only)
 * get a small quota with a short window, so that restprobe's rate-limit checks reach it in
 * a burst; every other client is unlimited unless `serve --rate-limit` gives it a quota
 * too, so a full run with the primary key is never throttled.
 *
 * The algorithm is a token bucket by default (capacity = limit, refilled at limit per
 * window), or a fixed window (§8.3: the choice is an implementation matter). A refused
 * request gets 429 problem+json with `Retry-After` (delta-seconds rounded up, or an
 * IMF-fixdate) and `Retry-After-Ms`, the same wait in milliseconds, since whole seconds
 * cannot say "in 40 ms" (Azure's APIs send the same field). Every response of a tier with a
 * quota carries `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers-10).
 * A client that keeps sending while limited, refused more often than its limit within one
 * window (counted from the window's start on the clock, whatever was served between), is
 * shed with 503 and `Retry-After` until that window ends (overload; `overload: false`
 * turns it off).
 */
import { newSecret } from './secrets.js';
import type { IncomingMessage } from 'node:http';
import type { KeyRing } from './auth.js';
import type { FaultName } from './faults.js';
import { genericProblem, ProblemError } from './problem.js';
import { LimitedClients, type TokenHolders } from './rate-limit-clients.js';
import { Counters, type Counter } from './rate-limit-counters.js';
import { problemReply, type Reply } from './respond.js';
import { readOnlyScopes } from './scopes.js';

export interface RateLimit {
  /** Requests each client may send per window. */
  readonly limit: number;
  readonly windowMs: number;
}

export type RateLimitAlgorithm = 'token-bucket' | 'fixed-window';
export const rateLimitAlgorithms: readonly RateLimitAlgorithm[] = ['token-bucket', 'fixed-window'];

/** How a refusal's `Retry-After` is written: delta-seconds, or an HTTP-date (IMF-fixdate). */
export type RetryAfterFormat = 'seconds' | 'http-date';
export const retryAfterFormats: readonly RetryAfterFormat[] = ['seconds', 'http-date'];

/** The rate-limit settings of `startReferenceServer` (see ReferenceServerOptions). */
export interface RateLimitOptions {
  /** The quota of every client but the probe keys (`serve --rate-limit 20/10s`); none by default. */
  readonly rateLimit?: RateLimit;
  /** The probe keys' quota; default {@link defaultProbeRateLimit}. */
  readonly probeRateLimit?: RateLimit;
  /** Default `token-bucket`. */
  readonly rateLimitAlgorithm?: RateLimitAlgorithm;
  /** Default `seconds`. */
  readonly retryAfter?: RetryAfterFormat;
  /** Shed a client that keeps sending while limited with 503 + Retry-After; default true. */
  readonly overload?: boolean;
  /** The two probe keys; default: 32 random bytes each, base64url. */
  readonly limitKeys?: readonly [string, string];
}

/**
 * The probe keys' quota unless the server is told otherwise: five requests in a quarter of a
 * second (a token every 50 ms), so the rate-limit checks, which run one after another and wait
 * out each window, take milliseconds each rather than a second.
 */
export const defaultProbeRateLimit: RateLimit = { limit: 5, windowMs: 250 };

/** `20/10s`, `600/1m`, `50/500ms` → a {@link RateLimit}; undefined when the text is not one. */
export function parseRateLimit(text: string): RateLimit | undefined {
  const m = /^(\d+)\/(\d+)(ms|s|m)$/.exec(text.trim());
  if (!m) return undefined;
  const limit = Number(m[1]);
  const windowMs = Number(m[2]) * (m[3] === 'ms' ? 1 : m[3] === 's' ? 1000 : 60_000);
  return limit >= 1 && windowMs >= 1 ? { limit, windowMs } : undefined;
}

/** A quota tier, named in RateLimit-Policy. */
interface Policy extends RateLimit {
  readonly name: string;
}

/** What the algorithm decided for one request. */
interface Take {
  readonly admitted: boolean;
  /** Whole requests left. */
  readonly remaining: number;
  /** Until a request would be admitted again (0 when this one was). */
  readonly retryMs: number;
  /** Until the quota is whole again. */
  readonly resetMs: number;
}

type Algorithm = (c: Counter, p: Policy, now: number) => Take;

const algorithms: Readonly<Record<RateLimitAlgorithm, Algorithm>> = {
  'token-bucket': (c, p, now) => {
    const rate = p.limit / p.windowMs;
    c.tokens = Math.min(p.limit, c.tokens + (now - c.at) * rate);
    c.at = now;
    const admitted = c.tokens >= 1;
    if (admitted) c.tokens -= 1;
    return { admitted, remaining: Math.floor(c.tokens), retryMs: admitted ? 0 : (1 - c.tokens) / rate, resetMs: (p.limit - c.tokens) / rate };
  },
  'fixed-window': (c, p, now) => {
    if (now - c.at >= p.windowMs) {
      c.at = now - ((now - c.at) % p.windowMs);
      c.used = 0;
    }
    const admitted = c.used < p.limit;
    if (admitted) c.used++;
    const left = c.at + p.windowMs - now;
    return { admitted, remaining: p.limit - c.used, retryMs: admitted ? 0 : left, resetMs: c.used === 0 ? 0 : left };
  },
};

/** How long fault `retry-after-too-short` keeps a refused key limited while saying 0. */
const penaltyMs = 750;

/** How much longer than the real wait fault `retry-after-too-long` says. */
const overstateMs = 3_000;

/** The key ids of the two probe keys in the key ring. */
const probeKeyIds = ['rate-limit-probe-1', 'rate-limit-probe-2'] as const;

/**
 * Every node's limiter, over one counter store (one per node under fault
 * `rate-limit-per-node`), and the probe keys, registered as read-only credentials.
 */
export class RateLimits {
  readonly secrets: { readonly RESTPROBE_LIMIT_KEY: string; readonly RESTPROBE_LIMIT_KEY_2: string };
  private readonly shared = new Counters();
  private readonly settings: LimiterSettings;

  /** `tokens`: the authorization server's access tokens, whose clients are counted, not each token. */
  constructor(options: RateLimitOptions, faults: ReadonlySet<FaultName>, keys: KeyRing, tokens?: TokenHolders) {
    const [first, second] = options.limitKeys ?? [newSecret(), newSecret()];
    this.secrets = { RESTPROBE_LIMIT_KEY: first, RESTPROBE_LIMIT_KEY_2: second };
    keys.add(probeKeyIds[0], first, readOnlyScopes);
    keys.add(probeKeyIds[1], second, readOnlyScopes);
    this.settings = {
      faults,
      clients: new LimitedClients(keys, tokens),
      probe: { name: 'probe', ...(options.probeRateLimit ?? defaultProbeRateLimit) },
      ...(options.rateLimit && { general: { name: 'default', ...options.rateLimit } }),
      algorithm: algorithms[options.rateLimitAlgorithm ?? 'token-bucket'],
      retryAfter: options.retryAfter ?? 'seconds',
      overload: options.overload ?? true,
    };
  }

  /** A node's limiter: over the store every node shares (its own under fault `rate-limit-per-node`). */
  nodeLimiter(): RateLimiter {
    return new RateLimiter(this.settings, this.settings.faults.has('rate-limit-per-node') ? new Counters() : this.shared);
  }

  /** How many clients the shared store tracks now (bounded: see rate-limit-counters.ts). */
  get trackedClients(): number {
    return this.shared.size;
  }
}

interface LimiterSettings {
  readonly faults: ReadonlySet<FaultName>;
  readonly clients: LimitedClients;
  readonly probe: Policy;
  /** Every other client's policy; none: they are not counted. */
  readonly general?: Policy;
  readonly algorithm: Algorithm;
  readonly retryAfter: RetryAfterFormat;
  readonly overload: boolean;
}

/** What a request's verdict says, as the client sees it. */
interface Verdict extends Take {
  /** The wait the refusal states (the real one, unless a fault lies). */
  readonly statedMs: number;
}

/** Worker processes under fault `rate-limit-per-worker`. */
const workers = 4;

export class RateLimiter {
  /** The RateLimit fields of each request still being answered. */
  private readonly fields = new WeakMap<IncomingMessage, Record<string, string>>();
  /** Under fault `rate-limit-per-worker`: the worker process the next request goes to. */
  private nextWorker = 0;

  constructor(
    private readonly settings: LimiterSettings,
    private readonly counters: Counters,
  ) {}

  /** Counts the request: undefined when it may go on, else the refusal (429, or 503 when shed). */
  async admit(req: IncomingMessage): Promise<Reply | undefined> {
    const { faults, clients } = this.settings;
    const presented = clients.presented(req);
    const probe = probeKeyIds.some((id) => presented.keyId === id);
    const policy = probe ? this.settings.probe : this.settings.general;
    if (policy === undefined || faults.has('rate-limit-absent')) return undefined;
    // Fault `rate-limit-global-counter`: every client of the tier shares one counter.
    const client = faults.has('rate-limit-global-counter') ? policy.name : `${policy.name}:${await clients.nameOf(req, presented)}`;
    // Fault `rate-limit-per-worker`: four worker processes behind one port (a cluster, PM2), each with its own in-memory counters, taking requests in turn.
    const id = faults.has('rate-limit-per-worker') ? `${client}#${this.nextWorker++ % workers}` : client;
    const now = Date.now();
    const counter = this.counters.counter(id, policy, now);
    const blocked = now < counter.blockedUntil;
    const verdict = this.decide(counter, policy, now);
    const fields = this.rateLimitFields(policy, verdict);
    this.fields.set(req, fields);
    if (verdict.admitted) return undefined;
    // Only the quota's refusals make a client abusive, not a fault's block.
    const window = Math.floor(now / policy.windowMs);
    if (counter.refusalsIn !== window) [counter.refusalsIn, counter.refusals] = [window, 0];
    if (!blocked) counter.refusals++;
    const headers = { ...fields, ...this.retryHeaders(verdict.statedMs, now, 429) };
    if (this.settings.overload && counter.refusals > policy.limit) {
      const shedMs = Math.max(verdict.statedMs, (window + 1) * policy.windowMs - now);
      const shed = new ProblemError(genericProblem(503, 'This client kept sending while rate limited: it is shed until this window ends; see Retry-After.'), { ...fields, ...this.retryHeaders(shedMs, now, 503) });
      return problemReply(shed);
    }
    if (faults.has('rate-limited-plain-text')) return { status: 429, headers, content: { type: 'text/plain; charset=utf-8', text: 'Too Many Requests' } };
    const detail = `This client sent more than ${policy.limit} requests in ${policy.windowMs} ms; see Retry-After.`;
    return problemReply(new ProblemError(genericProblem(429, detail), headers));
  }

  /** `reply` with the request's RateLimit fields, when its client has a quota. */
  withFields(req: IncomingMessage, reply: Reply): Reply {
    const fields = this.fields.get(req);
    return fields === undefined ? reply : { ...reply, headers: { ...reply.headers, ...fields } };
  }

  private decide(counter: Counter, policy: Policy, now: number): Verdict {
    const { faults } = this.settings;
    const refillMs = policy.windowMs / policy.limit;
    if (now < counter.blockedUntil) {
      // A key a fault keeps limited: the fields and Retry-After say what the fault says.
      const left = counter.blockedUntil - now;
      return faults.has('retry-after-too-short')
        ? { admitted: false, remaining: 0, retryMs: left, resetMs: left, statedMs: 0 }
        : { admitted: false, remaining: 0, retryMs: refillMs, resetMs: refillMs, statedMs: refillMs };
    }
    const take = this.settings.algorithm(counter, policy, now);
    if (take.admitted) return { ...take, statedMs: 0 };
    if (faults.has('retry-after-too-short')) {
      counter.blockedUntil = now + penaltyMs;
      return { ...take, retryMs: penaltyMs, statedMs: 0 };
    }
    if (faults.has('rate-limit-never-recovers')) counter.blockedUntil = Number.POSITIVE_INFINITY;
    return { ...take, statedMs: take.retryMs };
  }

  /** `RateLimit-Policy` and `RateLimit` (draft-10); `t` names the same moment as Retry-After on a refusal. */
  private rateLimitFields(policy: Policy, v: Verdict): Record<string, string> {
    // The draft's `w` is whole seconds: a shorter window is not named rather than misnamed.
    const w = policy.windowMs % 1000 === 0 ? `;w=${policy.windowMs / 1000}` : '';
    const remaining = this.settings.faults.has('ratelimit-fields-wrong') ? policy.limit : v.remaining;
    const t = Math.ceil((v.admitted ? v.resetMs : v.retryMs) / 1000);
    return { 'RateLimit-Policy': `"${policy.name}";q=${policy.limit}${w}`, RateLimit: `"${policy.name}";r=${remaining};t=${t}` };
  }

  /** `Retry-After` (rounded up: a client that waits it is never early) and `Retry-After-Ms`. */
  private retryHeaders(statedMs: number, now: number, status: 429 | 503): Record<string, string> {
    const { faults } = this.settings;
    if (status === 429 && faults.has('retry-after-missing')) return {};
    const ms = Math.ceil(statedMs);
    if (status === 503 && faults.has('overload-retry-after-fractional')) return { 'Retry-After': (ms / 1000).toFixed(2), 'Retry-After-Ms': String(ms) };
    const said = status === 429 && faults.has('retry-after-too-long') ? ms + overstateMs : ms;
    const retryAfter = this.settings.retryAfter === 'http-date' ? new Date(Math.ceil((now + said) / 1000) * 1000).toUTCString() : String(Math.ceil(said / 1000));
    return { 'Retry-After': retryAfter, 'Retry-After-Ms': String(ms) };
  }
}
