/**
 * The run's circuit breaker: a target that stops answering ends the run at once, with one
 * error naming its state, rather than each remaining check timing out request by request
 * (a dead target once took a run 25 minutes).
 *
 * Every request of the run passes its guard. A response of any status resets the count; a
 * request that got no answer (a timeout, a refused connection, a connection broken
 * mid-exchange) adds one, unless restprobe itself cancelled it. At
 * `http.maxConsecutiveFailures` in a row the breaker trips: from then on every request is
 * refused before it is sent, with the same error, and the run stops its checks. A stated
 * wait the run cannot afford (the polite client's 429 past `http.maxRetryWaitMs`) trips it
 * too, through {@link CircuitBreaker.trip}.
 */
import { RestprobeError, type RestprobeErrorCode } from '../errors.js';
import type { Guard } from './guards.js';

/** Failures that mean the target gave no answer, as a breaker counts them. */
const noAnswer: Partial<Record<RestprobeErrorCode, string>> = {
  ERR_TIMEOUT: 'timed out',
  ERR_TARGET_UNREACHABLE: 'were refused',
  ERR_PROTOCOL: 'broke off mid-exchange',
};

/**
 * @example
 * ```ts
 * const breaker = new CircuitBreaker(10);
 * breaker.onTrip((why) => stopChecks.abort(why));
 * const send = guard(client.send.bind(client), [breaker.guard('END-get-item-200')]);
 * ```
 */
export class CircuitBreaker {
  private streak: { count: number; since: string; kinds: Map<string, number> } | undefined;
  private why: RestprobeError | undefined;
  private readonly listeners: ((why: RestprobeError) => void)[] = [];

  /** @param limit consecutive requests without an answer that trip it (`http.maxConsecutiveFailures`). */
  constructor(readonly limit: number) {}

  /** The error that stopped the run, once tripped. */
  get tripped(): RestprobeError | undefined {
    return this.why;
  }

  /** Called once, when the breaker trips (at once when it has). */
  onTrip(listener: (why: RestprobeError) => void): void {
    if (this.why) listener(this.why);
    else this.listeners.push(listener);
  }

  /** Stops the run with `why`: every later request is refused with it. The first reason wins. */
  trip(why: RestprobeError): void {
    if (this.why) return;
    this.why = why;
    for (const listener of this.listeners.splice(0)) listener(why);
  }

  /** The guard for requests sent on behalf of `owner` (a check's name: "since CHECK" names where the silence began). */
  guard(owner: string): Guard {
    return (next) => (req) => {
      if (this.why) return Promise.reject(this.why);
      return next(req).then(
        (res) => {
          this.streak = undefined;
          return res;
        },
        (err: unknown) => {
          // A request restprobe cancelled (a check's deadline, the run stopping) says nothing of the target.
          const kind = err instanceof RestprobeError && !req.signal?.aborted ? noAnswer[err.code] : undefined;
          if (kind !== undefined) this.failed(kind, owner);
          throw err;
        },
      );
    };
  }

  private failed(kind: string, owner: string): void {
    const streak = (this.streak ??= { count: 0, since: owner, kinds: new Map() });
    streak.count++;
    streak.kinds.set(kind, (streak.kinds.get(kind) ?? 0) + 1);
    if (streak.count < this.limit || this.why) return;
    const what = streak.kinds.size === 1 ? [...streak.kinds.keys()][0]! : `got no answer (${[...streak.kinds].map(([k, n]) => `${n} ${k}`).join(', ')})`;
    const message = `the target stopped answering: ${streak.count} consecutive requests ${what}, since ${streak.since}; the run stopped (http.maxConsecutiveFailures is ${this.limit})`;
    this.trip(new RestprobeError('ERR_TARGET_UNREACHABLE', message, [], { rootCause: message }));
  }
}
