/**
 * Receiver mode against the reference receiver: the clean receiver passes every check;
 * each receiver fault fails exactly the checks it names; the secret is never printed. And
 * against receivers built on the senders' own libraries (@octokit/webhooks, Stripe's):
 * the deliveries carry what those senders send, a future timestamp is a warning, an
 * asynchronous receiver's count is read until it settles, and a team's headers go along.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkReceiver, receiverProfile, receiverTarget, runReceiverChecks } from '../src/cli/check-receiver.js';
import { runChecks } from '../src/engine/run.js';
import type { CheckResult } from '../src/model/result.js';
import { startRecordingProxy } from './support/recording-proxy.js';
import { receiverCatalogue } from '../suites/catalogue.js';
import { checkReceiverCommand, parseHeaderLines } from '../src/cli/webhooks-command.js';
import { startLibraryReceiver, type LibraryReceiver, type LibraryReceiverOptions } from './support/webhook-receivers.js';
import { receiverFaultCatalogue, startReferenceReceiver } from '../reference-server/src/index.js';
import { verify } from '../src/webhooks/signing.js';

const secret = `whsec_${randomBytes(24).toString('base64')}`;
const fast = { answerWithinMs: 300, slowMs: 700 };

const processedUrlOf = (receiver: { url: string }): string => new URL('/processed/{id}', receiver.url).href.replace('%7Bid%7D', '{id}');

async function judged(faults: string[], options: { processAfterMs?: number; settleMs?: number } = {}) {
  const receiver = await startReferenceReceiver({ secret, faults, slowMs: fast.slowMs, ...(options.processAfterMs !== undefined && { processAfterMs: options.processAfterMs }) });
  try {
    return { results: await checkReceiver({ url: receiver.url, secret, scheme: 'standard', answerWithinMs: fast.answerWithinMs, processedUrl: processedUrlOf(receiver), settleMs: options.settleMs ?? 300 }), processed: receiver.processed };
  } finally {
    await receiver.close();
  }
}

describe('webhooks check-receiver', () => {
  it('passes the clean reference receiver, which processes a repeated event once', async () => {
    const { results, processed } = await judged([]);
    expect(results.map((r) => [r.id, r.status, r.message])).toEqual(results.map((r) => [r.id, 'pass', r.message]));
    expect(results).toHaveLength(receiverCatalogue.length);
    expect([...processed.values()].every((n) => n === 1)).toBe(true);
  });

  it.concurrent.each(receiverFaultCatalogue.map((f) => [f.name, f.detects] as const))('%s fails %s and nothing else', async (name, detects) => {
    const { results } = await judged([name]);
    // Results come in the engine's plan order.
    expect(results.filter((r) => r.status !== 'pass').map((r) => [r.id, r.status]).sort()).toEqual(detects.map((id) => [id, 'fail']).sort());
  });

  it('without --processed-url, whether a repeat is processed again is not judged: a skip that names the flag, never a pass', async () => {
    const receiver = await startReferenceReceiver({ secret, faults: ['receiver-processes-twice'] });
    try {
      const results = await checkReceiver({ url: receiver.url, secret, scheme: 'standard', answerWithinMs: fast.answerWithinMs });
      expect(results.find((r) => r.id === 'EVT-receiver-duplicate-2xx')).toMatchObject({ status: 'skip', message: expect.stringContaining('give --processed-url') });
      expect([...receiver.processed.values()]).toContain(2);
    } finally {
      await receiver.close();
    }
  });

  it('Ctrl-C after the first verdict: no further check starts, the report says interrupted and lists those not run, and it ends ERR_INTERRUPTED (exit 130), as run does', async () => {
    const receiver = await startReferenceReceiver({ secret });
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-receiver-'));
    let out = '';
    let signalled = false;
    const listening = process.listenerCount('SIGINT');
    const write = (s: string): boolean => {
      out += s;
      // The first check's line: the signal a user sends while the next one runs.
      if (!signalled && /EVT-receiver-/.test(s)) {
        signalled = true;
        process.emit('SIGINT', 'SIGINT');
      }
      return true;
    };
    try {
      await expect(checkReceiverCommand(receiver.url, { secretEnv: 'HOOK_SECRET', scheme: 'standard', answerWithinMs: '2000', toleranceSeconds: '300', reportDir: dir, format: 'json' }, { HOOK_SECRET: secret }, { write } as never)).rejects.toMatchObject({ code: 'ERR_INTERRUPTED', message: expect.stringMatching(/^interrupted by SIGINT after \d+ of 7 checks; the report says so and lists the \d+ not run$/) });
      const report = JSON.parse(await readFile(join(dir, 'restprobe-report.json'), 'utf8')) as { checks: unknown[]; interrupted?: { signal: string; notRun: { id: string }[] } };
      expect(report.interrupted?.signal).toBe('SIGINT');
      expect(report.checks.length + report.interrupted!.notRun.length).toBe(7);
      expect(report.interrupted!.notRun.length).toBeGreaterThan(0);
      expect(out).toMatch(/INTERRUPTED/);
      // Its listeners are gone: a later SIGINT is no longer this command's.
      expect(process.listenerCount('SIGINT')).toBe(listening);
    } finally {
      await receiver.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('prints verdicts and writes the report files as run does, never the secret nor a --header value, and exits 1 on a failure', async () => {
    const gatewayKey = 'kf_7Qm2xV9pLr4TzW8n';
    const receiver = await startReferenceReceiver({ secret, faults: ['receiver-accepts-bad-signature'] });
    const dir = await mkdtemp(join(tmpdir(), 'restprobe-receiver-'));
    let out = '';
    try {
      // A gateway's key sent with every delivery (Azure Functions): a secret too, whatever its header's name.
      const code = await checkReceiverCommand(receiver.url, { secretEnv: 'HOOK_SECRET', scheme: 'standard', answerWithinMs: '2000', toleranceSeconds: '300', reportDir: dir, format: 'json,junit,md,html,allure', header: [`x-functions-key: ${gatewayKey}`] }, { HOOK_SECRET: secret }, { write: (s: string) => ((out += s), true) } as never);
      expect(code).toBe(1);
      expect(out).toMatch(/FAIL  EVT-receiver-bad-signature-4xx/);
      expect(out).toMatch(/Total .*\n/);
      const report = JSON.parse(await readFile(join(dir, 'restprobe-report.json'), 'utf8')) as { checks: { id: string; status: string; evidence: { exchanges: { curl: string }[] } }[] };
      expect(report.checks.map((c) => c.id).sort()).toEqual(receiverCatalogue.map((c) => c.id).sort());
      const bad = report.checks.find((c) => c.id === 'EVT-receiver-bad-signature-4xx')!;
      expect(bad.status).toBe('fail');
      expect(bad.evidence.exchanges[0]?.curl).toMatch(/^curl .*-X POST.*x-functions-key: \$HEADER_X_FUNCTIONS_KEY/);
      const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((f) => f.isFile());
      expect(files.map((f) => f.name)).toEqual(expect.arrayContaining(['restprobe-report.json', 'restprobe-junit.xml', 'restprobe-report.md', 'restprobe-report.html']));
      for (const f of files) {
        const text = await readFile(join(f.parentPath, f.name), 'utf8');
        expect(text, f.name).not.toContain(secret.slice(6, 20));
        expect(text, f.name).not.toContain(gatewayKey.slice(3, 11));
      }
    } finally {
      await receiver.close();
      await rm(dir, { recursive: true, force: true });
    }
    expect(out).not.toContain(secret.slice(6, 20));
    expect(out).not.toContain(gatewayKey.slice(3, 11));
  });

  it('says an unset secret variable is missing, and an unreachable receiver could not be reached', async () => {
    await expect(checkReceiverCommand('http://127.0.0.1:9/x', { secretEnv: 'NOPE', scheme: 'standard', answerWithinMs: '100', toleranceSeconds: '300' }, {})).rejects.toThrow(/NOPE/);
    // A processed URL that is none is a usage error at once, not a harness fault of one check later.
    await expect(checkReceiverCommand('http://127.0.0.1:9/x', { secretEnv: 'HOOK', scheme: 'standard', answerWithinMs: '100', toleranceSeconds: '300', processedUrl: 'notemplate' }, { HOOK: 'whsec_x' })).rejects.toThrow(/^--processed-url: "notemplate" is not an http or https URL/);
    const code = await checkReceiverCommand('http://127.0.0.1:9/x', { secretEnv: 'S', scheme: 'standard', answerWithinMs: '100', toleranceSeconds: '300' }, { S: secret }, { write: () => true } as never);
    expect(code).toBe(3);
  });
});

describe('a receiver slow on its first delivery only (a cold start)', () => {
  it('passes: a second delivery judges its pace, and the slow first is noted; one slow every time still fails', async () => {
    const valid = receiverCatalogue.filter((c) => c.id === 'EVT-receiver-valid-2xx');
    const receiver = await startReferenceReceiver({ secret, slowMs: fast.slowMs });
    let posts = 0;
    const proxy = await startRecordingProxy(new URL(receiver.url).origin, { delayMs: (req) => (req.method === 'POST' && ++posts === 1 ? fast.slowMs : 0) });
    try {
      const [cold] = (await runReceiverChecks({ url: new URL(new URL(receiver.url).pathname, proxy.url).href, secret, scheme: 'standard', answerWithinMs: fast.answerWithinMs }, {}, valid)).outcome.results;
      expect(cold).toMatchObject({ status: 'pass', evidence: { notes: expect.arrayContaining([expect.stringMatching(/^the first valid delivery was answered after \d+ ms, more than 300 ms: a second one judges the pace$/)]) } });
      expect(posts).toBe(2);
    } finally {
      await proxy.close();
      await receiver.close();
    }
    const { results } = await judged(['receiver-slow']);
    expect(results.find((r) => r.id === 'EVT-receiver-valid-2xx')).toMatchObject({ status: 'fail', message: expect.stringMatching(/^answered after \d+ ms, then \d+ ms to a second delivery, more than 300 ms$/) });
  });
});

describe('a receiver that answers nothing', () => {
  /** The receiver checks through the engine, as runReceiverChecks runs them, but with a request timeout of a second (not 10). */
  async function withTimeout(url: string): Promise<CheckResult[]> {
    const receiver = receiverTarget({ url, secret, scheme: 'standard', answerWithinMs: 1_000 });
    const profile = await receiverProfile(receiver);
    return (await runChecks({ seed: 0, profile: { ...profile, http: { ...profile.http, timeoutMs: 1_000 } }, checks: receiverCatalogue, inputs: { receiver } })).results;
  }

  it('is given two deliveries, not one each: the checks after them are not judged without waiting the timeout again', async () => {
    let posts = 0;
    const silent = createServer((req) => void (req.resume(), posts++));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const results = await withTimeout(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/hooks`);
      expect(posts).toBe(2);
      expect(results.map((r) => [r.status, r.errorCode])).toEqual(results.map(() => ['error', 'ERR_TIMEOUT']));
      expect(results.slice(2).map((r) => r.message)).toEqual(results.slice(2).map(() => expect.stringMatching(/: not sent, since the receiver answered no delivery: 2 in a row got no complete response within the request timeout$/)));
      // One cause for all but the first (whose cause was not known yet): the report groups them.
      expect(new Set(results.slice(1).map((r) => r.rootCause)).size).toBe(1);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('at first only (a cold start): the one delivery left unanswered is that check\'s error, and every other check is judged', async () => {
    const receiver = await startReferenceReceiver({ secret, slowMs: fast.slowMs });
    let posts = 0;
    const proxy = await startRecordingProxy(new URL(receiver.url).origin, { delayMs: (req) => (req.method === 'POST' && ++posts === 1 ? 5_000 : 0) });
    try {
      const results = await withTimeout(new URL(new URL(receiver.url).pathname, proxy.url).href);
      expect(results.filter((r) => r.status === 'error').map((r) => r.errorCode)).toEqual(['ERR_TIMEOUT']);
      expect(results.filter((r) => r.status !== 'error').map((r) => r.status)).toEqual(results.slice(1).map((r) => (r.id === 'EVT-receiver-duplicate-2xx' ? 'skip' : 'pass')));
    } finally {
      await proxy.close();
      await receiver.close();
    }
  });
});

describe('a receiver that does the work asynchronously (its count comes later)', () => {
  it('passes: the count is read until it settles (--settle-ms), not the instant the repeat is answered', async () => {
    const { results } = await judged([], { processAfterMs: 400, settleMs: 2_000 });
    expect(results.find((r) => r.id === 'EVT-receiver-duplicate-2xx')).toMatchObject({ status: 'pass', evidence: { notes: expect.arrayContaining([expect.stringMatching(/count 1 \(read \d+ times over \d+ ms, (\d+ ms watched, )?--settle-ms 2000\)$/)]) } });
  });

  it('fails when it processes the repeat again, however late', async () => {
    const { results } = await judged(['receiver-processes-twice'], { processAfterMs: 400, settleMs: 2_000 });
    expect(results.find((r) => r.id === 'EVT-receiver-duplicate-2xx')).toMatchObject({ status: 'fail', message: 'acknowledged a repeat but processed the event 2 times, expected once' });
  });

  it('fails one whose queue worker processes the repeat again after the first event, though a count read until --settle-ms after the repeat would still say 1: the repeat waits for the first processing, and the count is read twice as long as that took', async () => {
    // Before, both went at once: the worker did the first 400 ms later and the repeat 800 ms later, and the count read 600 ms (--settle-ms) after the repeat was 1: a pass.
    const { results } = await judged(['receiver-processes-twice'], { processAfterMs: 400, settleMs: 600 });
    expect(results.find((r) => r.id === 'EVT-receiver-duplicate-2xx')).toMatchObject({ status: 'fail', message: 'acknowledged a repeat but processed the event 2 times, expected once' });
  });

  const duplicate = receiverCatalogue.filter((c) => c.id === 'EVT-receiver-duplicate-2xx');

  /** EVT-receiver-duplicate-2xx alone on a reference receiver that processes a repeat again, its work taking `processAfterMs`. */
  async function duplicateOnTwiceProcessing(processAfterMs: number | ((repeat: boolean) => number), settleMs: number) {
    const receiver = await startReferenceReceiver({ secret, faults: ['receiver-processes-twice'], processAfterMs });
    try {
      return (await runReceiverChecks({ url: receiver.url, secret, scheme: 'standard', answerWithinMs: fast.answerWithinMs, processedUrl: processedUrlOf(receiver), settleMs }, {}, duplicate)).outcome.results[0];
    } finally {
      await receiver.close();
    }
  }

  it('fails one whose repeat takes longer to process than --settle-ms, though no longer than twice the first (300 ms, then 500 ms; --settle-ms 400): the count after the repeat is read for twice as long as the first processing took', async () => {
    const result = await duplicateOnTwiceProcessing((repeat) => (repeat ? 500 : 300), 400);
    expect(result).toMatchObject({ status: 'fail', message: 'acknowledged a repeat but processed the event 2 times, expected once' });
  });

  it('fails one whose first processing takes longer than --settle-ms (500 ms; --settle-ms 300) and which processes the repeat again: the first is waited on for a few windows, and the repeat read as long again', async () => {
    // Before, the first was read for --settle-ms only, its time unknown; the count read 300 ms after the repeat still said 1.
    const result = await duplicateOnTwiceProcessing(500, 300);
    expect(result).toMatchObject({ status: 'fail', message: 'acknowledged a repeat but processed the event 2 times, expected once' });
  });

  it('fails a processed URL that answers 200 with no numeric count, at once, not after waiting for a count that never comes', async () => {
    const receiver = await startReferenceReceiver({ secret });
    const counts = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"processed":"yes"}'));
    await new Promise<void>((resolve) => counts.listen(0, '127.0.0.1', resolve));
    try {
      const processedUrl = `http://127.0.0.1:${(counts.address() as AddressInfo).port}/processed/{id}`;
      const [result] = (await runReceiverChecks({ url: receiver.url, secret, scheme: 'standard', answerWithinMs: fast.answerWithinMs, processedUrl, settleMs: 300 }, {}, duplicate)).outcome.results;
      expect(result).toMatchObject({ status: 'fail', message: 'the processed URL answered no numeric count' });
    } finally {
      await new Promise<void>((resolve) => counts.close(() => resolve()));
      await receiver.close();
    }
  });

  it('reads on past a processed URL that answers 404 until the event is processed (no count yet), and passes', async () => {
    const receiver = await startReferenceReceiver({ secret, processAfterMs: 200 });
    let reads = 0;
    const proxy = await startRecordingProxy(new URL(receiver.url).origin, { intercept: (req) => (req.method === 'GET' && ++reads <= 3 ? 404 : undefined) });
    try {
      const [result] = (await runReceiverChecks({ url: receiver.url, secret, scheme: 'standard', answerWithinMs: fast.answerWithinMs, processedUrl: processedUrlOf(proxy), settleMs: 1_000 }, {}, duplicate)).outcome.results;
      expect(result, result?.message).toMatchObject({ status: 'pass' });
      expect(reads).toBeGreaterThan(3);
    } finally {
      await proxy.close();
      await receiver.close();
    }
  });

  it('skips, naming --settle-ms, when the work is not done within the settle window: not processed yet is no second processing', async () => {
    const { results } = await judged([], { processAfterMs: 1_000, settleMs: 200 });
    expect(results.find((r) => r.id === 'EVT-receiver-duplicate-2xx')).toMatchObject({ status: 'skip', message: expect.stringMatching(/^both deliveries were acknowledged, but the processed URL did not count the first within 800 ms \(4 × --settle-ms\), so how long the repeat's processing may take to show is not known: .* \(a longer --settle-ms waits for it\)$/) });
  });
});

describe('receivers built on the senders\' own libraries', () => {
  const open: LibraryReceiver[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((r) => r.close()));
  });
  async function receiver(options: LibraryReceiverOptions): Promise<LibraryReceiver> {
    const r = await startLibraryReceiver(options);
    open.push(r);
    return r;
  }
  const verdicts = (results: readonly { id: string; status: string }[]) => Object.fromEntries(results.map((r) => [r.id, r.status]));
  /** A hand-written receiver on 127.0.0.1:0, answering each delivery from its headers and raw body; closed after the test. Its /webhooks URL. */
  async function standIn(answer: (req: IncomingMessage, body: Buffer) => number): Promise<string> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => res.writeHead(answer(req, Buffer.concat(chunks)), { 'content-type': 'text/plain' }).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    open.push({ url: '', processedUrl: '', close: () => new Promise((resolve) => server.close(() => resolve())) });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  }
  const allPass = Object.fromEntries(receiverCatalogue.map((c) => [c.id, 'pass']));
  // The github scheme carries no timestamp and one signature a delivery: those checks skip.
  const githubPass = { ...allPass, 'EVT-receiver-timestamp-4xx': 'skip', 'EVT-receiver-rotation-2xx': 'skip' };
  const ghSecret = 'gh-secret-for-the-stand-in';

  it('@octokit/webhooks takes the github scheme\'s deliveries (X-GitHub-Event, X-GitHub-Delivery, X-Hub-Signature-256) and refuses the bad ones', async () => {
    const r = await receiver({ library: 'github', secret: ghSecret, processAfterMs: 50 });
    const results = await checkReceiver({ url: r.url, secret: ghSecret, scheme: 'github', answerWithinMs: 2_000, processedUrl: r.processedUrl, settleMs: 300 });
    expect(verdicts(results)).toEqual(githubPass);
  });

  it('a GitHub receiver that never checks the signature fails every signature check', async () => {
    const r = await receiver({ library: 'github', secret: ghSecret, verify: false });
    const results = await checkReceiver({ url: r.url, secret: ghSecret, scheme: 'github', answerWithinMs: 2_000, processedUrl: r.processedUrl, settleMs: 300 });
    expect(verdicts(results)).toEqual({ ...githubPass, 'EVT-receiver-bad-signature-4xx': 'fail', 'EVT-receiver-reserialised-4xx': 'fail', 'EVT-receiver-unsigned-4xx': 'fail' });
  });

  it('a GitHub receiver that checks only the legacy SHA-1 X-Hub-Signature fails the bad-signature check: its HMAC-SHA256 is never verified', async () => {
    const url = await standIn((req, body) => (req.headers['x-hub-signature'] === `sha1=${createHmac('sha1', ghSecret).update(body).digest('hex')}` ? 200 : 401));
    const results = await checkReceiver({ url, secret: ghSecret, scheme: 'github', answerWithinMs: 2_000, settleMs: 300 });
    const bad = results.find((r) => r.id === 'EVT-receiver-bad-signature-4xx')!;
    expect([bad.status, bad.message]).toEqual(['fail', expect.stringMatching(/^accepted a wrong X-Hub-Signature-256 beside a right legacy SHA-1 X-Hub-Signature/)]);
  });

  it("Stripe's library refuses an old timestamp and takes a future one: a warning (SHOULD), not a failure; the run exits 0", async () => {
    const stripeSecret = `whsec_${randomBytes(24).toString('hex')}`;
    const r = await receiver({ library: 'stripe', secret: stripeSecret, processAfterMs: 50 });
    const results = await checkReceiver({ url: r.url, secret: stripeSecret, scheme: 'stripe', answerWithinMs: 2_000, processedUrl: r.processedUrl, settleMs: 300 });
    expect(verdicts(results)).toEqual({ ...allPass, 'EVT-receiver-timestamp-4xx': 'warn' });
    expect(results.find((x) => x.id === 'EVT-receiver-timestamp-4xx')!.message).toMatch(/^accepted a timestamp 3000 s ahead \(200\), though it refused one as old/);
    let out = '';
    const code = await checkReceiverCommand(r.url, { secretEnv: 'STRIPE_HOOK', scheme: 'stripe', answerWithinMs: '2000', toleranceSeconds: '300', processedUrl: r.processedUrl, settleMs: '300' }, { STRIPE_HOOK: stripeSecret }, { write: (x: string) => ((out += x), true) } as never);
    expect(code).toBe(0);
    expect(out).toMatch(/warn  EVT-receiver-timestamp-4xx — accepted a timestamp 3000 s ahead/);
  });

  it('a Stripe receiver pinned to another API version (stripe-go, Stripe.net) refuses the default event, naming --stripe-api-version; given the endpoint\'s version, it passes', async () => {
    const stripeSecret = `whsec_${randomBytes(24).toString('hex')}`;
    const r = await receiver({ library: 'stripe', secret: stripeSecret, stripeApiVersion: '2025-01-27.acacia' });
    const without = await checkReceiver({ url: r.url, secret: stripeSecret, scheme: 'stripe', answerWithinMs: 2_000, settleMs: 300 });
    expect(without.find((x) => x.id === 'EVT-receiver-valid-2xx')!.message).toMatch(/^answered 400 to a valid delivery \(an event of API version 2024-06-20: a Stripe library pinned to another refuses it; --stripe-api-version names the endpoint's\)/);
    const given = await checkReceiver({ url: r.url, secret: stripeSecret, scheme: 'stripe', answerWithinMs: 2_000, settleMs: 300, stripeApiVersion: '2025-01-27.acacia' });
    expect(verdicts(given)).toEqual({ ...allPass, 'EVT-receiver-timestamp-4xx': 'warn', 'EVT-receiver-duplicate-2xx': 'skip' });
  });

  it('a receiver behind a gateway that wants a header of its own: refused without --header, judged with it', async () => {
    const r = await receiver({ library: 'github', secret: ghSecret, gatewayKey: 'gk-123' });
    const run = async (header: string[]) => {
      let out = '';
      const code = await checkReceiverCommand(r.url, { secretEnv: 'GH', scheme: 'github', answerWithinMs: '2000', toleranceSeconds: '300', header, json: true }, { GH: ghSecret }, { write: (x: string) => ((out += x), true) } as never);
      expect(out).not.toContain(ghSecret);
      return { code, checks: verdicts((JSON.parse(out) as { checks: { id: string; status: string }[] }).checks) };
    };
    expect(await run([])).toMatchObject({ code: 1, checks: { 'EVT-receiver-valid-2xx': 'fail' } });
    expect(await run(['X-Gateway-Key: gk-123'])).toEqual({ code: 0, checks: { ...githubPass, 'EVT-receiver-duplicate-2xx': 'skip' } });
  });

  it('a receiver that refuses every delivery (a Python verifier of json.dumps of the parsed body): valid-2xx fails, and the refusal checks are not judged, never passed', async () => {
    const url = await standIn(() => 400);
    const results = await checkReceiver({ url, secret, scheme: 'standard', answerWithinMs: 2_000, settleMs: 300 });
    const refusals = ['EVT-receiver-bad-signature-4xx', 'EVT-receiver-reserialised-4xx', 'EVT-receiver-timestamp-4xx', 'EVT-receiver-unsigned-4xx'];
    expect(verdicts(results)).toMatchObject({ 'EVT-receiver-valid-2xx': 'fail', ...Object.fromEntries(refusals.map((id) => [id, 'error'])) });
    for (const id of refusals) expect(results.find((r) => r.id === id)!.message).toMatch(/not judged: the receiver answered 400 here, and 400 to a valid delivery too/);
  });

  it('a receiver that reads Svix\'s own header names (svix-id, svix-timestamp, svix-signature), as Clerk\'s and Resend\'s documented receivers do, passes as one that reads the Standard Webhooks names', async () => {
    const seen = new Set<string>();
    const url = await standIn((req, body) => {
      const at = (name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : undefined);
      const ok = verify('standard', secret, { id: at('svix-id'), timestamp: at('svix-timestamp'), signature: at('svix-signature') }, body).ok && Math.abs(Date.now() / 1000 - Number(at('svix-timestamp'))) <= 300;
      if (ok) seen.add(at('svix-id')!);
      return ok ? 204 : 400;
    });
    const results = await checkReceiver({ url, secret, scheme: 'standard', answerWithinMs: 2_000, settleMs: 300 });
    expect(verdicts(results)).toEqual({ ...allPass, 'EVT-receiver-duplicate-2xx': 'skip' });
    expect(seen.size).toBeGreaterThan(0);
  });

  it('--header takes "Name: value" lines only', () => {
    expect(parseHeaderLines(['X-Gateway-Key: gk-123', 'authorization:Bearer t '])).toEqual({ 'x-gateway-key': 'gk-123', authorization: 'Bearer t' });
    for (const bad of ['no colon', ': no name', 'bad name: x']) expect(() => parseHeaderLines([bad])).toThrow(/--header: ".*" is not "Name: value"/);
  });

  it('--stripe-api-version takes a Stripe API version only', async () => {
    await expect(checkReceiverCommand('http://127.0.0.1:9/webhooks', { secretEnv: 'S', scheme: 'stripe', answerWithinMs: '2000', toleranceSeconds: '300', stripeApiVersion: 'latest' }, { S: 'whsec_x' })).rejects.toMatchObject({ code: 'ERR_USAGE', message: expect.stringMatching(/--stripe-api-version: "latest" is not a Stripe API version/) });
  });
});
