/**
 * Receiver mode against the reference receiver: the clean receiver passes every check;
 * each receiver fault fails exactly the checks it names; the secret is never printed.
 */
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { checkReceiver } from '../src/webhooks/check-receiver.js';
import { checkReceiverCommand } from '../src/cli/webhooks-command.js';
import { receiverFaultCatalogue, startReferenceReceiver } from '../reference-server/src/index.js';

const secret = `whsec_${randomBytes(24).toString('base64')}`;
const fast = { answerWithinMs: 300, slowMs: 700 };

async function judged(faults: string[]) {
  const receiver = await startReferenceReceiver({ secret, faults, slowMs: fast.slowMs });
  try {
    const processedUrl = new URL('/processed/{id}', receiver.url).href.replace('%7Bid%7D', '{id}');
    return { results: await checkReceiver({ url: receiver.url, secret, scheme: 'standard', answerWithinMs: fast.answerWithinMs, processedUrl }), processed: receiver.processed };
  } finally {
    await receiver.close();
  }
}

describe('webhooks check-receiver', () => {
  it('passes the clean reference receiver, which processes a repeated event once', async () => {
    const { results, processed } = await judged([]);
    expect(results.map((r) => [r.id, r.status, r.message])).toEqual(results.map((r) => [r.id, 'pass', '']));
    expect([...processed.values()].every((n) => n === 1)).toBe(true);
  });

  it.concurrent.each(receiverFaultCatalogue.map((f) => [f.name, f.detects] as const))('%s fails %s and nothing else', async (name, detects) => {
    const { results } = await judged([name]);
    expect(results.filter((r) => r.status !== 'pass').map((r) => [r.id, r.status])).toEqual(detects.map((id) => [id, 'fail']));
  });

  it('without --processed-url, a receiver that processes a repeat again is only seen acknowledging it', async () => {
    const receiver = await startReferenceReceiver({ secret, faults: ['receiver-processes-twice'] });
    try {
      const results = await checkReceiver({ url: receiver.url, secret, scheme: 'standard', answerWithinMs: fast.answerWithinMs });
      expect(results.find((r) => r.id === 'EVT-receiver-duplicate-2xx')?.status).toBe('pass');
      expect([...receiver.processed.values()]).toContain(2);
    } finally {
      await receiver.close();
    }
  });

  it('prints verdicts, never the secret, and exits 1 on a failure', async () => {
    const receiver = await startReferenceReceiver({ secret, faults: ['receiver-accepts-bad-signature'] });
    let out = '';
    try {
      const code = await checkReceiverCommand(receiver.url, { secretEnv: 'HOOK_SECRET', scheme: 'standard', answerWithinMs: '2000', toleranceSeconds: '300' }, { HOOK_SECRET: secret }, { write: (s: string) => ((out += s), true) } as never);
      expect(code).toBe(1);
    } finally {
      await receiver.close();
    }
    expect(out).toMatch(/FAIL  EVT-receiver-bad-signature-4xx/);
    expect(out).not.toContain(secret.slice(6, 20));
  });

  it('says an unset secret variable is missing, and an unreachable receiver could not be reached', async () => {
    await expect(checkReceiverCommand('http://127.0.0.1:9/x', { secretEnv: 'NOPE', scheme: 'standard', answerWithinMs: '100', toleranceSeconds: '300' }, {})).rejects.toThrow(/NOPE/);
    const code = await checkReceiverCommand('http://127.0.0.1:9/x', { secretEnv: 'S', scheme: 'standard', answerWithinMs: '100', toleranceSeconds: '300' }, { S: secret }, { write: () => true } as never);
    expect(code).toBe(3);
  });
});
