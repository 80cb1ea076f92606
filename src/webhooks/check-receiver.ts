/**
 * Receiver mode (`restprobe webhooks check-receiver URL --secret-env NAME`): restprobe
 * sends signed deliveries to a team's webhook receiver and judges its answers
 * (conventions §6.3–4): a valid delivery gets a 2xx quickly; a wrong signature, a body
 * re-serialised after signing, a stale or future timestamp and missing signature headers
 * get a 4xx; the same event twice gets a 2xx both times.
 */
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'undici';
import { hasTimestamp, signHeaders, type SignatureScheme } from './signing.js';

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
}

export interface ReceiverCheckResult {
  readonly id: string;
  readonly title: string;
  readonly status: 'pass' | 'fail' | 'skip' | 'error';
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
  { id: 'EVT-receiver-timestamp-4xx', title: 'A stale and a future timestamp get a 4xx' },
  { id: 'EVT-receiver-unsigned-4xx', title: 'A delivery without signature headers gets a 4xx' },
  { id: 'EVT-receiver-duplicate-2xx', title: 'The same event delivered twice gets a 2xx both times' },
] as const;

export async function checkReceiver(opts: ReceiverCheckOptions): Promise<ReceiverCheckResult[]> {
  const within = opts.answerWithinMs ?? 5_000;
  const offset = 10 * (opts.toleranceSeconds ?? 300);
  const agent = new Agent({ connections: 2 });
  const event = (): { id: string; body: Buffer } => {
    const id = `evt_restprobe_${randomBytes(12).toString('hex')}`;
    const value = { id, type: 'restprobe.probe', created_at: new Date().toISOString(), data: { note: 'a test delivery from restprobe' } };
    return { id, body: Buffer.from(JSON.stringify(value)) };
  };
  const now = (): number => Math.floor(Date.now() / 1000);
  const send = async (what: string, headers: Record<string, string>, body: Buffer): Promise<Sent> => {
    const t0 = performance.now();
    try {
      const res = await request(opts.url, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': 'restprobe', ...headers }, body, dispatcher: agent, signal: AbortSignal.timeout(Math.max(within * 2, 10_000)) });
      await res.body.dump();
      const ms = Math.round(performance.now() - t0);
      return { status: res.statusCode, ms, line: `${what}: POST ${opts.url} → ${res.statusCode} in ${ms} ms` };
    } catch (err) {
      const ms = Math.round(performance.now() - t0);
      return { status: 0, ms, line: `${what}: POST ${opts.url} → no answer after ${ms} ms (${(err as Error).message})` };
    }
  };
  const signed = (e: { id: string; body: Buffer }, ts = now(), secret = opts.secret, body = e.body) => signHeaders(opts.scheme, secret, e.id, ts, body);
  const is4xx = (s: Sent) => s.status >= 400 && s.status < 500;
  const is2xx = (s: Sent) => s.status >= 200 && s.status < 300;

  const results: ReceiverCheckResult[] = [];
  const judge = (index: number, sent: Sent[], ok: boolean, failure: string, skip?: string): void => {
    const { id, title } = receiverChecks[index]!;
    const unreachable = sent.find((s) => s.status === 0 && !s.line.includes('aborted') && !s.line.includes('timeout'));
    const status = skip !== undefined ? 'skip' : unreachable ? 'error' : ok ? 'pass' : 'fail';
    results.push({ id, title, status, message: status === 'skip' ? skip! : status === 'error' ? 'the receiver could not be reached' : ok ? '' : failure, evidence: sent.map((s) => s.line) });
  };

  try {
    const e = event();
    const valid = await send('a valid delivery', signed(e), e.body);
    judge(0, [valid], is2xx(valid) && valid.ms <= within, is2xx(valid) ? `answered after ${valid.ms} ms, more than ${within} ms` : `answered ${valid.status || 'nothing'} to a valid delivery`);

    const bad = event();
    const badSent = await send('signed with another secret', signed(bad, now(), `whsec_${randomBytes(24).toString('base64')}`), bad.body);
    judge(1, [badSent], is4xx(badSent), `accepted a wrong signature (${badSent.status})`);

    const re = event();
    // Signed compact, sent pretty-printed: the same JSON, other bytes.
    const pretty = Buffer.from(JSON.stringify(JSON.parse(re.body.toString('utf8')), null, 2));
    const reSent = await send('signed, then re-serialised', signed(re), pretty);
    judge(2, [reSent], is4xx(reSent), `accepted a body whose bytes are not the ones signed (${reSent.status}): it verifies re-serialised JSON, not the raw bytes`);

    if (!hasTimestamp(opts.scheme)) {
      judge(3, [], false, '', `the ${opts.scheme} scheme carries no timestamp`);
    } else {
      const stale = event();
      const future = event();
      const sent = [await send(`timestamp ${offset} s old`, signed(stale, now() - offset), stale.body), await send(`timestamp ${offset} s ahead`, signed(future, now() + offset), future.body)];
      judge(3, sent, sent.every(is4xx), `accepted a ${is4xx(sent[0]!) ? 'future' : 'stale'} timestamp (${sent.map((s) => s.status).join(', ')})`);
    }

    const unsigned = event();
    const bare: Record<string, string> = opts.scheme === 'stripe' ? {} : opts.scheme === 'github' ? { 'x-github-delivery': unsigned.id } : { 'webhook-id': unsigned.id };
    const unsignedSent = await send('without signature headers', bare, unsigned.body);
    judge(4, [unsignedSent], is4xx(unsignedSent), `accepted a delivery without signature headers (${unsignedSent.status})`);

    const dup = event();
    const headers = signed(dup);
    const twice = [await send('an event', headers, dup.body), await send('the same event again', headers, dup.body)];
    const processed = twice.every(is2xx) && opts.processedUrl !== undefined ? await processedCount(opts.processedUrl, dup.id, agent) : undefined;
    if (processed !== undefined) twice.push({ status: processed.status, ms: 0, line: processed.line });
    const once = processed === undefined || processed.count === 1;
    judge(5, twice, twice.slice(0, 2).every(is2xx) && once, once ? `answered ${twice.map((s) => s.status).join(' then ')}: a repeat (delivery is at-least-once) must be acknowledged and skipped` : `acknowledged a repeat but processed the event ${processed?.count ?? '?'} times, expected once`);
  } finally {
    await agent.close();
  }
  return results;
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
