/**
 * What `restprobe run` prints while checks run. On a terminal: each result's line, and
 * under them one status line redrawn in place (checks done of total, the check running
 * longest, what the run waits for, requests sent, time so far), so a long run shows it is
 * alive. Elsewhere (a CI log, a pipe): the result lines, and the same status line as a line
 * of its own whenever nothing was printed for `heartbeatMs` (15 s), so a run waiting out a
 * rate limit never looks hung.
 */
import type { Wait } from '../http/polite.js';
import { formatDuration } from '../report/wording.js';

export interface ProgressOptions {
  readonly out: NodeJS.WritableStream;
  /** Redraw a status line (a TTY that is not TERM=dumb). */
  readonly live: boolean;
  readonly total: number;
  /** Requests sent so far (the client's count). */
  readonly requests: () => number;
  /** Milliseconds between redraws of the status line while nothing else prints. */
  readonly refreshMs?: number;
  /** Without a TTY: the longest silence before a status line is printed (default 15 s). */
  readonly heartbeatMs?: number;
}

export const defaultHeartbeatMs = 15_000;

/** Erases the current terminal line and returns to its start. */
const clearLine = '\r\x1b[K';

/**
 * @example
 * ```ts
 * const progress = new Progress({ out: process.stdout, live: process.stdout.isTTY, total: 62, requests: () => client.requestCount });
 * progress.started('END-get-item-200 [projects]');
 * progress.finished('END-get-item-200 [projects]', '✔ pass  END-get-item-200 [projects]');
 * progress.stop();
 * ```
 */
export class Progress {
  private done = 0;
  private readonly running = new Set<string>();
  private readonly startedAt = Date.now();
  private readonly timer: NodeJS.Timeout | undefined;
  /** Without a TTY: the status line due when nothing else is printed first. */
  private heartbeat: NodeJS.Timeout | undefined;
  private stopped = false;
  private lastWait: (Wait & { readonly at: number }) | undefined;

  constructor(private readonly options: ProgressOptions) {
    if (options.live) this.timer = setInterval(() => this.draw(), options.refreshMs ?? 250).unref();
    else this.armHeartbeat();
  }

  /** A request started waiting to be retried: the status line says what for until the wait ends. */
  waiting(wait: Wait): void {
    this.lastWait = { ...wait, at: Date.now() };
    this.draw();
  }

  /** A check started. */
  started(name: string): void {
    this.running.add(name);
    this.draw();
  }

  /** A check ended: its line is printed (above the status line on a terminal). */
  finished(name: string, line: string): void {
    this.running.delete(name);
    this.done++;
    const { out, live, total } = this.options;
    if (!live) {
      this.print(line);
      return;
    }
    out.write(`${clearLine}[${String(this.done).padStart(String(total).length)}/${total}] ${line}\n`);
    this.draw();
  }

  /**
   * The status line: `⏳ 12/62 · END-get-item-200 [projects] (+3 more) · 340 requests · 4.1 s`,
   * with what the run waits for while a retry waits: `· waiting 10.0 s: GET /v2/projects
   * answered 429 (Retry-After: 10), wait 3`.
   */
  statusLine(): string {
    const [first] = this.running;
    const current = first === undefined ? 'waiting' : `${first}${this.running.size > 1 ? ` (+${this.running.size - 1} more)` : ''}`;
    const seconds = ((Date.now() - this.startedAt) / 1000).toFixed(1);
    const wait = this.lastWait !== undefined && Date.now() < this.lastWait.at + this.lastWait.ms ? ` · waiting ${formatDuration(this.lastWait.ms)}: ${this.lastWait.why}, wait ${this.lastWait.count}` : '';
    return `⏳ ${this.done}/${this.options.total} · ${current}${wait} · ${this.options.requests()} requests · ${seconds} s`;
  }

  /** Stops redrawing and erases the status line. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    clearTimeout(this.heartbeat);
    if (this.options.live) this.options.out.write(clearLine);
  }

  private print(line: string): void {
    this.options.out.write(`${line}\n`);
    this.armHeartbeat();
  }

  /** A status line `heartbeatMs` after the last line printed, unless another line comes first. */
  private armHeartbeat(): void {
    clearTimeout(this.heartbeat);
    if (this.stopped) return;
    this.heartbeat = setTimeout(() => this.print(this.statusLine()), this.options.heartbeatMs ?? defaultHeartbeatMs).unref();
  }

  private draw(): void {
    if (!this.options.live) return;
    // Cut to the terminal's width: a wrapped status line could not be erased in place.
    const width = (this.options.out as NodeJS.WriteStream).columns || 80;
    this.options.out.write(`${clearLine}${this.statusLine().slice(0, Math.max(10, width - 1))}`);
  }
}
