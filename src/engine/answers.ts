/**
 * What a check's requests got back, for the engine's floor under every pass: a check passes
 * only when it judged an answer its rule is about. A 5xx is the server failing, not the
 * rule's verdict; a redirect the check did not ask about is no answer to the request it
 * sent; a transport error is no answer at all. A check that got nothing else judged
 * nothing, whatever its assertions say (a `status >= 400` holds for a 503 too).
 *
 * The tally sits in the check's guards, outside the polite client, so it counts what the
 * check was handed (after retries), and is not reset when a property check trims its
 * recording. Cleanup's requests are not counted.
 */
import type { AnswerClass } from '../model/check.js';
import type { RestprobeErrorCode } from '../errors.js';
import { isRestprobeError } from '../errors.js';
import type { Guard } from '../http/guards.js';

/** Why a pass was refused: an error when the check got answers it cannot judge, a skip when it sent nothing. */
export interface Refusal {
  readonly status: 'error' | 'skip';
  readonly message: string;
  /** One line shared by every check refused for the same answers, for grouping in reports. */
  readonly rootCause: string;
}

/**
 * @example
 * ```ts
 * const answers = new AnswerTally();
 * const send = guard(client.send.bind(client), [answers.guard]);
 * await send(req);                       // answered 503
 * answers.refusal(['2xx', '4xx'])?.message; // 'no response to judge: 1 request sent, 1 answered 503; expected a 2xx or 4xx answer …'
 * ```
 */
export class AnswerTally {
  /** Final answers by status; a redirect to the URL it answered is kept apart as a loop. */
  private readonly statuses = new Map<string, number>();
  /** Requests that got no answer, by error code. */
  private readonly failures = new Map<RestprobeErrorCode | 'unknown', number>();
  private readonly classes = new Set<AnswerClass | 'other'>();
  /** The check said it judged a subject that is no answer (CheckContext.observed). */
  private saidJudged = false;

  /** A subject the check judged that is no answer of the target's: a pass stands on it. */
  observed(): void {
    this.saidJudged = true;
  }

  readonly guard: Guard = (next) => (req) =>
    next(req).then(
      (res) => {
        this.answered(req.url, res);
        return res;
      },
      (err: unknown) => {
        this.count(this.failures, isRestprobeError(err) ? err.code : 'unknown');
        throw err;
      },
    );

  /** Counts an answer the check was handed: by its own request, or shared by the check that sent it. */
  answered(url: string, res: { readonly status: number; readonly headers: Readonly<Record<string, string | string[] | undefined>> }): void {
    const location = res.headers['location'];
    const loops = res.status >= 300 && res.status < 400 && typeof location === 'string' && URL.canParse(location, url) && new URL(location, url).href === new URL(url).href;
    this.count(this.statuses, loops ? `${res.status} (a redirect to itself: a loop)` : String(res.status));
    this.classes.add(classOf(res.status));
  }

  /**
   * Undefined when a pass stands: the check got at least one answer of a class it judges,
   * or said what else it judged.
   * Otherwise why not: the answers it got instead, or that it sent nothing.
   */
  refusal(judges: readonly AnswerClass[]): Refusal | undefined {
    if (this.saidJudged || judges.some((c) => this.classes.has(c))) return undefined;
    const answered = [...this.statuses.values()].reduce((a, b) => a + b, 0);
    const failed = [...this.failures.values()].reduce((a, b) => a + b, 0);
    if (answered + failed === 0) {
      return { status: 'skip', message: 'nothing observed: the check sent no request, so it judged nothing', rootCause: 'nothing observed' };
    }
    const got = [...[...this.statuses].map(([s, n]) => `${n} answered ${s}`), ...[...this.failures].map(([code, n]) => `${n} got no answer (${code})`)];
    const total = answered + failed;
    return {
      status: 'error',
      message: `no response to judge: ${total} ${total === 1 ? 'request' : 'requests'} sent, ${got.join(', ')}; expected a ${judges.join(' or ')} answer to judge the rule by (a 5xx is the server failing, a redirect not asked about answers nothing), so the check did not pass`,
      rootCause: `no response to judge: the target ${[...[...this.statuses.keys()].map((s) => `answered ${s}`), ...[...this.failures.keys()].map((c) => `gave no answer (${c})`)].join(' or ')}`,
    };
  }

  private count<K>(map: Map<K, number>, key: K): void {
    map.set(key, (map.get(key) ?? 0) + 1);
  }
}

function classOf(status: number): AnswerClass | 'other' {
  const c = `${Math.floor(status / 100)}xx`;
  return c === '2xx' || c === '3xx' || c === '4xx' || c === '5xx' ? c : 'other';
}
