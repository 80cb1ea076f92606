/**
 * Receiver mode (`restprobe webhooks check-receiver URL --secret-env NAME`): the receiver
 * is the run's base URL, and the receiver-mode checks (suites/06-events/receiver.ts) run
 * through the engine like any other, with the receiver as their need. They send signed
 * deliveries, as the scheme's real senders make them, and judge the answers (conventions
 * §6.3–4): a valid delivery gets a 2xx quickly; a wrong signature, a body re-serialised
 * after signing, a stale timestamp and missing signature headers get a 4xx (a future
 * timestamp should too); the same event twice gets a 2xx both times and, where the
 * receiver tells, is processed once.
 */
import { defaultStripeApiVersion } from '../webhooks/receiver-deliveries.js';
import { receiverCatalogue } from '../../suites/06-events/receiver.js';
import { loadProfile } from '../config/load.js';
import { runChecks, type RunInput, type RunOutcome } from '../engine/run.js';
import type { Check } from '../model/check.js';
import type { Secret, TargetProfile } from '../model/profile.js';
import type { ReceiverTarget } from '../model/receiver-need.js';
import type { CheckResult } from '../model/result.js';
import type { SignatureScheme } from '../model/signature-scheme.js';

export interface ReceiverCheckOptions {
  readonly url: string;
  readonly secret: string;
  /** The variable the secret came from: curl commands and scrubbed text say `$NAME` for it (default WEBHOOK_SECRET). */
  readonly secretEnv?: string;
  readonly scheme: SignatureScheme;
  /** How fast a valid delivery must be answered (default 5 s). */
  readonly answerWithinMs?: number;
  /** The receiver's timestamp tolerance; stale and future probes go 10 times past it (default 300 s). */
  readonly toleranceSeconds?: number;
  /** Where the receiver tells how often it processed an event ({@link ReceiverTarget.processedUrl}). */
  readonly processedUrl?: string;
  /** How long the processed count may take to settle (default 2000 ms). */
  readonly settleMs?: number;
  /** Headers sent with every delivery after the scheme's own (a team's gateway key), overriding them. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The stripe scheme's event `api_version` (default {@link defaultStripeApiVersion}). */
  readonly stripeApiVersion?: string;
}

export const defaultSettleMs = 2_000;

/**
 * The values of the headers sent with every delivery, as secrets: such a header is most often
 * a gateway's key (Azure Functions' `x-functions-key`, APIM's `Ocp-Apim-Subscription-Key`,
 * Kong's `apikey`), and a name alone cannot tell. Curl lines say `$HEADER_<NAME>` for each.
 *
 * @example
 * ```ts
 * headerSecrets({ 'x-functions-key': 'kf_0123' }); // [{ envName: 'HEADER_X_FUNCTIONS_KEY', value: 'kf_0123' }]
 * ```
 */
export function headerSecrets(headers: Readonly<Record<string, string>>): Secret[] {
  return Object.entries(headers).map(([name, value]) => ({ envName: `HEADER_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`, value }));
}

/** What a receiver run keeps out of every report and line it prints: the signing secret and the --header values. */
export function receiverSecrets(receiver: ReceiverTarget): Secret[] {
  return [receiver.secret, ...headerSecrets(receiver.headers)];
}

/** The receiver as the checks' need sees it, defaults filled in. */
export function receiverTarget(opts: ReceiverCheckOptions): ReceiverTarget {
  return {
    url: opts.url,
    secret: { envName: opts.secretEnv ?? 'WEBHOOK_SECRET', value: opts.secret },
    scheme: opts.scheme,
    answerWithinMs: opts.answerWithinMs ?? 5_000,
    toleranceSeconds: opts.toleranceSeconds ?? 300,
    settleMs: opts.settleMs ?? defaultSettleMs,
    headers: opts.headers ?? {},
    stripeApiVersion: opts.stripeApiVersion ?? defaultStripeApiVersion,
    ...(opts.processedUrl !== undefined && { processedUrl: opts.processedUrl }),
  };
}

/**
 * The run's profile: the receiver as its base URL, no config, the secret among the
 * profile's secrets (so every report scrubs it), deliveries one at a time (a timing
 * verdict must not wait behind another check's delivery), and a request timeout past the
 * answer time, so a slow answer is judged, not cut off.
 */
export async function receiverProfile(receiver: ReceiverTarget): Promise<TargetProfile> {
  const profile = await loadProfile({ baseUrl: receiver.url, env: {} });
  return {
    ...profile,
    secrets: [...profile.secrets, ...receiverSecrets(receiver)],
    http: { ...profile.http, concurrency: 1, timeoutMs: Math.max(receiver.answerWithinMs * 2, profile.http.timeoutMs) },
  };
}

/**
 * Runs the receiver-mode checks against one receiver through the engine.
 *
 * @example
 * ```ts
 * const { outcome } = await runReceiverChecks({ url: 'http://127.0.0.1:3000/hooks', secret, scheme: 'standard' });
 * ```
 */
export async function runReceiverChecks(opts: ReceiverCheckOptions, run: Partial<Pick<RunInput, 'seed' | 'onStart' | 'onResult' | 'signal' | 'stop'>> = {}, checks: readonly Check[] = receiverCatalogue): Promise<{ profile: TargetProfile; outcome: RunOutcome }> {
  const receiver = receiverTarget(opts);
  const profile = await receiverProfile(receiver);
  const outcome = await runChecks({ seed: 0, ...run, profile, checks, inputs: { receiver } });
  return { profile, outcome };
}

/**
 * The receiver-mode verdicts, in plan order.
 *
 * @example
 * ```ts
 * const results = await checkReceiver({ url, secret, scheme: 'github', processedUrl: 'https://hooks.example.com/processed/{id}' });
 * ```
 */
export async function checkReceiver(opts: ReceiverCheckOptions): Promise<CheckResult[]> {
  return (await runReceiverChecks(opts)).outcome.results;
}
