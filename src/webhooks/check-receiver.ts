/**
 * Receiver mode (`restprobe webhooks check-receiver URL --secret-env NAME`): restprobe
 * sends signed deliveries to a team's webhook receiver, as the scheme's real senders make
 * them (receiver-deliveries.ts), and judges its answers (conventions §6.3–4): a valid
 * delivery gets a 2xx quickly; a wrong signature, a body re-serialised after signing, a
 * stale timestamp and missing signature headers get a 4xx (a future timestamp should too);
 * the same event twice gets a 2xx both times and, where the receiver tells, is processed once.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { hasTimestamp, type SignatureScheme } from './signing.js';
import { companionHeaders, probeEvent, signatureHeaders, type ProbeEvent } from './receiver-deliveries.js';

export interface ReceiverCheckOptions {
  readonly url: string;
  readonly secret: string;
  readonly scheme: SignatureScheme;
  /** How fast a valid delivery must be answered (default 5 s). */
  readonly answerWithinMs?: number;
  /** The receiver's timestamp tolerance; stale and future probes go 10 times past it (default 300 s). */
  readonly toleranceSeconds?: number;
  /**
   * Where the receiver tells how often it processed an event (`{id}` is replaced by the
   * event id): a GET answering JSON with a numeric `count`. With it, a repeat must be
   * processed once, not only acknowledged.
   */
  readonly processedUrl?: string;
  /**
   * How long after the repeat's answer the processed count may take to settle (default
   * 2000 ms): a receiver that does the work asynchronously, as the conventions tell it to,
   * counts later. It is read until then, and judged as it stands at the end.
   */
  readonly settleMs?: number;
  /** Headers sent with every delivery after the scheme's own (a team's gateway key), overriding them. */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ReceiverCheckResult {
  readonly id: string;
  readonly title: string;
  /** `warn`: the receiver breaks a SHOULD (it takes a timestamp from the future). */
  readonly status: 'pass' | 'fail' | 'warn' | 'skip' | 'error';
  readonly message: string;
  /** What was sent and answered, one line each (no secret in them). */
  readonly evidence: readonly string[];
}

interface Sent {
  readonly status: number;
  readonly ms: number;
  readonly line: string;
}

/** The receiver-mode checks, in the order they run. */
export const receiverChecks = [
  { id: 'EVT-receiver-valid-2xx', title: 'A valid delivery gets a 2xx quickly' },
  { id: 'EVT-receiver-bad-signature-4xx', title: 'A wrong signature gets a 4xx' },
  { id: 'EVT-receiver-reserialised-4xx', title: 'A body re-serialised after signing gets a 4xx' },
  { id: 'EVT-receiver-timestamp-4xx', title: 'A stale timestamp gets a 4xx (and a future one should)' },
  { id: 'EVT-receiver-unsigned-4xx', title: 'A delivery without signature headers gets a 4xx' },
  { id: 'EVT-receiver-duplicate-2xx', title: 'The same event delivered twice gets a 2xx both times, and is processed once' },
] as const;

export const defaultSettleMs = 2_000;

export async function checkReceiver(opts: ReceiverCheckOptions): Promise<ReceiverCheckResult[]> {
  const within = opts.answerWithinMs ?? 5_000;
  const offset = 10 * (opts.toleranceSeconds ?? 300);
  const { scheme } = opts;
  const agent = new Agent({ connections: 2 });
  const event = (): ProbeEvent => probeEvent(scheme, opts.url);
  const now = (): number => Math.floor(Date.now() / 1000);
  const send = async (what: string, headers: Record<string, string>, body: Buffer): Promise<Sent> => {
    const t0 = performance.now();
    try {
      const res = await request(opts.url, { method: 'POST', headers: { ...headers, ...opts.headers }, body, dispatcher: agent, signal: AbortSignal.timeout(Math.max(within * 2, 10_000)) });
      await res.body.dump();
      const ms = Math.round(performance.now() - t0);
      return { status: res.statusCode, ms, line: `${what}: POST ${opts.url} → ${res.statusCode} in ${ms} ms` };
    } catch (err) {
      const ms = Math.round(performance.now() - t0);
      return { status: 0, ms, line: `${what}: POST ${opts.url} → no answer after ${ms} ms (${(err as Error).message})` };
    }
  };
  /** The delivery as the scheme's senders make it, signed over `body` with `secret`. */
  const signed = (e: ProbeEvent, ts = now(), secret = opts.secret, body = e.body): Record<string, string> => ({ ...companionHeaders(scheme, e, ts), ...signatureHeaders(scheme, secret, e, ts, body) });
  const is4xx = (s: Sent) => s.status >= 400 && s.status < 500;
  const is2xx = (s: Sent) => s.status >= 200 && s.status < 300;

  const results: ReceiverCheckResult[] = [];
  /** `verdict`: undefined for a pass, else the status and its message. */
  const judge = (index: number, sent: readonly Sent[], verdict?: { readonly status: 'fail' | 'warn' | 'skip'; readonly message: string }): void => {
    const { id, title } = receiverChecks[index]!;
    const unreachable = verdict?.status !== 'skip' && sent.some((s) => s.status === 0 && !s.line.includes('aborted') && !s.line.includes('timeout'));
    const status = unreachable ? 'error' : (verdict?.status ?? 'pass');
    results.push({ id, title, status, message: unreachable ? 'the receiver could not be reached' : (verdict?.message ?? ''), evidence: sent.map((s) => s.line) });
  };
  const failUnless = (ok: boolean, message: string) => (ok ? undefined : { status: 'fail' as const, message });

  try {
    const e = event();
    const valid = await send('a valid delivery', signed(e), e.body);
    judge(0, [valid], failUnless(is2xx(valid) && valid.ms <= within, is2xx(valid) ? `answered after ${valid.ms} ms, more than ${within} ms` : `answered ${valid.status || 'nothing'} to a valid delivery`));

    const bad = event();
    const otherSecret = scheme === 'standard' ? `whsec_${randomBytes(24).toString('base64')}` : randomBytes(24).toString('hex');
    const badSent = await send('signed with another secret', signed(bad, now(), otherSecret), bad.body);
    judge(1, [badSent], failUnless(is4xx(badSent), `accepted a wrong signature (${badSent.status})`));

    const re = event();
    // Signed compact, sent pretty-printed: the same JSON, other bytes.
    const pretty = Buffer.from(JSON.stringify(JSON.parse(re.body.toString('utf8')), null, 2));
    const reSent = await send('signed, then re-serialised', signed(re), pretty);
    judge(2, [reSent], failUnless(is4xx(reSent), `accepted a body whose bytes are not the ones signed (${reSent.status}): it verifies re-serialised JSON, not the raw bytes`));

    if (!hasTimestamp(scheme)) {
      judge(3, [], { status: 'skip', message: `the ${scheme} scheme carries no timestamp` });
    } else {
      const stale = event();
      const future = event();
      const [old, ahead] = [await send(`timestamp ${offset} s old`, signed(stale, now() - offset), stale.body), await send(`timestamp ${offset} s ahead`, signed(future, now() + offset), future.body)];
      // Refusing replays is the rule; a timestamp from the future is no replay, and Stripe's own library takes one.
      judge(
        3,
        [old, ahead],
        !is4xx(old)
          ? { status: 'fail', message: `accepted a timestamp ${offset} s old (${old.status}): a replayed event is not refused` }
          : is4xx(ahead)
            ? undefined
            : { status: 'warn', message: `accepted a timestamp ${offset} s ahead (${ahead.status}), though it refused one as old: a receiver should refuse a timestamp outside its tolerance either way` },
      );
    }

    const unsigned = event();
    const unsignedSent = await send('without signature headers', companionHeaders(scheme, unsigned, now()), unsigned.body);
    judge(4, [unsignedSent], failUnless(is4xx(unsignedSent), `accepted a delivery without signature headers (${unsignedSent.status})`));

    const dup = event();
    const headers = signed(dup);
    const twice = [await send('an event', headers, dup.body), await send('the same event again', headers, dup.body)];
    if (!twice.every(is2xx)) judge(5, twice, { status: 'fail', message: `answered ${twice.map((s) => s.status).join(' then ')}: a repeat (delivery is at-least-once) must be acknowledged and skipped` });
    else if (opts.processedUrl === undefined) judge(5, twice, { status: 'skip', message: 'both deliveries were acknowledged, but whether the repeat was processed again was not judged: give --processed-url, where the receiver tells how often it processed an event' });
    else {
      const settle = opts.settleMs ?? defaultSettleMs;
      const processed = await settledCount(opts.processedUrl, dup.id, agent, settle);
      const evidence = [...twice, { status: processed.status, ms: 0, line: processed.line }];
      const message = processed.count === undefined ? 'the processed URL answered no numeric count' : processed.count === 0 ? `the event was not processed within ${settle} ms (--settle-ms) of its repeat's answer, expected once` : `acknowledged a repeat but processed the event ${processed.count} times, expected once`;
      judge(5, evidence, failUnless(processed.count === 1, message));
    }
  } finally {
    await agent.close();
  }
  return results;
}

/**
 * How often the receiver says it processed event `id`, read until `settleMs` has passed
 * (a count above one ends the wait: nothing can undo a second processing).
 */
async function settledCount(template: string, id: string, agent: Agent, settleMs: number): Promise<{ count: number | undefined; status: number; line: string }> {
  const started = performance.now();
  let reads = 0;
  for (;;) {
    const read = await processedCount(template, id, agent);
    reads++;
    const waited = performance.now() - started;
    if (read.status === 0 || (read.count ?? 0) > 1 || waited >= settleMs) return { ...read, line: `${read.line} (read ${reads} times over ${Math.round(waited)} ms, --settle-ms ${settleMs})` };
    await sleep(Math.min(100, settleMs - waited));
  }
}

/** How often the receiver says it processed event `id` (`count` in the JSON `template` answers). */
async function processedCount(template: string, id: string, agent: Agent): Promise<{ count: number | undefined; status: number; line: string }> {
  const url = template.replace('{id}', encodeURIComponent(id));
  try {
    const res = await request(url, { method: 'GET', dispatcher: agent, signal: AbortSignal.timeout(10_000) });
    const text = await res.body.text();
    let count: number | undefined;
    try {
      const value: unknown = (JSON.parse(text) as Record<string, unknown>)['count'];
      count = typeof value === 'number' ? value : undefined;
    } catch {
      count = undefined;
    }
    return { count, status: res.statusCode, line: `GET ${url} → ${res.statusCode}: count ${count ?? 'not given'}` };
  } catch (err) {
    return { count: undefined, status: 0, line: `GET ${url} failed: ${err instanceof Error ? err.message : String(err)}` };
  }
}
