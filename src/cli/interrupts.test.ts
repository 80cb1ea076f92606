import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Interrupts } from './interrupts.js';

function listening() {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d: Buffer) => (text += d.toString()));
  const exits: number[] = [];
  const interrupts = Interrupts.listen({ out, onQuit: () => 'see reports/restprobe-ledger.jsonl', exit: (code) => exits.push(code) });
  return { interrupts, exits, text: () => text };
}

describe('Interrupts', () => {
  it('during the checks: the first signal starts nothing new, the second stops running checks, the third quits with 130', () => {
    const { interrupts, exits, text } = listening();
    try {
      interrupts.onSignal('SIGTERM');
      expect([interrupts.interrupt.aborted, interrupts.stop.aborted, interrupts.first]).toEqual([true, false, 'SIGTERM']);
      interrupts.onSignal('SIGINT');
      expect([interrupts.stop.aborted, exits]).toEqual([true, []]);
      interrupts.onSignal('SIGINT');
      expect(exits).toEqual([130]);
      expect(text()).toContain('quitting at once; see reports/restprobe-ledger.jsonl');
    } finally {
      interrupts.close();
    }
  });

  it('after the checks: a first or second signal only says the reports are being written; the third quits', () => {
    const { interrupts, exits, text } = listening();
    try {
      interrupts.checksEnded();
      interrupts.onSignal('SIGINT');
      interrupts.onSignal('SIGINT');
      expect([interrupts.interrupt.aborted, interrupts.stop.aborted, exits]).toEqual([false, false, []]);
      expect(text().match(/the checks have ended; writing the reports/g)).toHaveLength(2);
      interrupts.onSignal('SIGINT');
      expect(exits).toEqual([130]);
    } finally {
      interrupts.close();
    }
  });
});
