/**
 * What Ctrl-C (SIGINT) and a cancelled CI job (SIGTERM) do to `restprobe run`, from the
 * moment the checks start until the reports are written: the first signal starts no new
 * check and lets running ones finish and delete what they created; the second ends the
 * running checks at once (each still deletes what it created); the reports are written
 * either way. The third quits at once: what the run still owns is already in the ledger
 * file, for `restprobe cleanup`.
 */
import { ExitCode } from '../errors.js';
import type { RunOutcome } from '../engine/run.js';
import type { Interruption } from '../report/model.js';

export type RunSignal = 'SIGINT' | 'SIGTERM';

export interface InterruptsOptions {
  readonly out: NodeJS.WritableStream;
  /** The line printed as the third signal quits: where the run's leftovers are listed, and how to remove them. */
  readonly onQuit: () => string;
  /** Ends the process (a test passes its own). */
  readonly exit?: (code: number) => void;
}

/**
 * @example
 * ```ts
 * const interrupts = Interrupts.listen({ out: process.stdout, onQuit: () => 'restprobe cleanup reports deletes what is left' });
 * await runChecks({ …, signal: interrupts.interrupt, stop: interrupts.stop });
 * interrupts.checksEnded();
 * await writeReports(…);
 * interrupts.close();
 * ```
 */
export class Interrupts {
  private readonly interruptController = new AbortController();
  private readonly stopController = new AbortController();
  private count = 0;
  private checksOver = false;
  /** The first signal the run got, if any. */
  first: RunSignal | undefined;

  private constructor(private readonly options: InterruptsOptions) {}

  /** Starts listening for SIGINT and SIGTERM (until {@link close}). */
  static listen(options: InterruptsOptions): Interrupts {
    const interrupts = new Interrupts(options);
    process.on('SIGINT', interrupts.onSignal);
    process.on('SIGTERM', interrupts.onSignal);
    return interrupts;
  }

  /** Aborted by the first signal: no new check starts. */
  get interrupt(): AbortSignal {
    return this.interruptController.signal;
  }

  /** Aborted by the second: the running checks end at once, and clean up. */
  get stop(): AbortSignal {
    return this.stopController.signal;
  }

  /** The checks (and their cleanup) are over: a signal now only hurries the reports along. */
  checksEnded(): void {
    this.checksOver = true;
  }

  close(): void {
    process.off('SIGINT', this.onSignal);
    process.off('SIGTERM', this.onSignal);
  }

  /** Public for tests: what a signal does. */
  readonly onSignal = (signal: RunSignal): void => {
    this.count += 1;
    this.first ??= signal;
    const { out } = this.options;
    if (this.count >= 3) {
      out.write(`\nrestprobe: quitting at once; ${this.options.onQuit()}\n`);
      (this.options.exit ?? process.exit)(ExitCode.interrupted);
      return;
    }
    if (this.checksOver) {
      out.write('\nrestprobe: the checks have ended; writing the reports and the list of what is left (signal again to quit at once)\n');
      return;
    }
    if (this.count === 2) {
      out.write('\nrestprobe: stopping running checks; each deletes what it created, then the reports list what is left (signal again to quit at once)\n');
      this.stopController.abort();
      return;
    }
    out.write('\nrestprobe: interrupted; letting running checks finish and delete what they created (signal again to stop them now)\n');
    this.interruptController.abort();
  };
}

/**
 * What the report says of a run a signal cut short: a check never started, or running ones
 * were ended at once. A signal that came once every check had started, and let them finish,
 * left a whole run (undefined).
 *
 * @example
 * ```ts
 * const interruption = interruptionOf(interrupts, outcome); // { signal: 'SIGINT', notRun: [...], mark: 'restprobe-1a2b3c4d' }
 * ```
 */
export function interruptionOf(interrupts: Pick<Interrupts, 'first' | 'stop'>, outcome: Pick<RunOutcome, 'notRun' | 'mark'>): Interruption | undefined {
  return interrupts.first !== undefined && (outcome.notRun.length > 0 || interrupts.stop.aborted) ? { signal: interrupts.first, notRun: outcome.notRun, mark: outcome.mark } : undefined;
}
