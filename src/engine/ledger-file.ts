/**
 * The ledger on disk: `restprobe-ledger.jsonl` in the report directory, one JSON line per
 * change, appended and handed to the kernel before the run goes on, so whatever ends the
 * run (a third Ctrl-C, SIGKILL, a crash) the items it created stay accounted for:
 * `restprobe cleanup` reads the file back and deletes what the ledger still owns, and the
 * next run in the directory says that an earlier one left items.
 *
 * The file holds URLs, check names and marks only, never a credential: each line passes
 * the secret scrub, and a URL's user and password are dropped.
 */
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Secret } from '../model/profile.js';
import { scrubSecrets } from '../secrets-scrub.js';
import { runMark, type Certainty, type LedgerEntry, type LedgerEvent, type LedgerJournal } from './ledger.js';

/** The ledger's file in a report directory. */
export const ledgerFileName = 'restprobe-ledger.jsonl';

/** The first line of a run's part of the file: what the run was. */
interface RunLine {
  readonly e: 'run';
  readonly run: string;
  readonly startedAt: string;
  readonly baseUrl: string;
  readonly mark: string;
  readonly version: string;
}

/** The last line of a run whose cleanup ended: whatever the run still owned then is listed after it. */
interface EndLine {
  readonly e: 'end';
  readonly run: string;
  readonly at: string;
}

type Line = RunLine | EndLine | LedgerEvent;

/** A URL without its user and password: the ledger holds no credential. */
function withoutUserinfo(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}

/**
 * A run's journal: appends each change to the report directory's ledger file with a
 * synchronous write, so the line is on disk (in the kernel's hands) before the run sends
 * anything more.
 *
 * @example
 * ```ts
 * const journal = LedgerFile.open('reports', { baseUrl: profile.baseUrl, version: '0.1.0', secrets: profile.secrets });
 * const outcome = await runChecks({ profile, checks, seed, journal });
 * journal.end();
 * ```
 */
export class LedgerFile implements LedgerJournal {
  readonly run = randomUUID().slice(0, 8);
  readonly path: string;
  private fd: number | undefined;

  private constructor(
    dir: string,
    private readonly secrets: readonly Secret[],
    fresh: boolean,
  ) {
    this.path = join(dir, ledgerFileName);
    this.fd = openSync(this.path, fresh ? 'w' : 'a+');
    // A line a killed process cut short is ended here, so this run's first line stays whole.
    const { size } = fstatSync(this.fd);
    const last = Buffer.alloc(1);
    if (size > 0 && readSync(this.fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a) writeSync(this.fd, '\n');
  }

  /**
   * Opens the directory's ledger and writes the run's first line. It appends to what
   * earlier runs wrote, unless `fresh` (every earlier run ended and left nothing).
   */
  static open(dir: string, run: { baseUrl: string; version: string; secrets: readonly Secret[]; fresh?: boolean }): LedgerFile {
    const file = new LedgerFile(dir, run.secrets, run.fresh ?? false);
    file.line({ e: 'run', run: file.run, startedAt: new Date().toISOString(), baseUrl: withoutUserinfo(run.baseUrl), mark: runMark(file.run), version: run.version });
    return file;
  }

  /**
   * Opens the directory's ledger to record what becomes of entries earlier runs wrote
   * (`restprobe cleanup`): no run line of its own, since each change names its entry's run.
   */
  static resume(dir: string, secrets: readonly Secret[]): LedgerFile {
    return new LedgerFile(dir, secrets, false);
  }

  /** The prefix of every mark the run gives its items. */
  get mark(): string {
    return runMark(this.run);
  }

  write(event: LedgerEvent): void {
    this.line('url' in event ? { ...event, url: withoutUserinfo(event.url) } : event);
  }

  /** The run's cleanup is over: the line says so, and the file is closed. */
  end(): void {
    this.line({ e: 'end', run: this.run, at: new Date().toISOString() });
    this.close();
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private line(line: Line): void {
    // Closed once the run's cleanup is over: nothing changes the ledger after that.
    if (this.fd === undefined) return;
    writeSync(this.fd, `${scrubSecrets(JSON.stringify(line), this.secrets)}\n`);
  }
}

/** One run's part of a ledger file, read back. */
export interface RecordedRun {
  readonly run: string;
  readonly startedAt: string;
  readonly baseUrl: string;
  readonly mark: string;
  /** Whether the run got as far as the end of its cleanup. */
  readonly ended: boolean;
  /** What the run still owns: items not proven gone, and creates that named no item (with the mark to search by). */
  readonly outstanding: LedgerEntry[];
}

/** What a run's entry is while the file is read: intents are creates not yet resolved. */
function replay(lines: readonly Line[]): RecordedRun[] {
  const runs = new Map<string, { head: RunLine; ended: boolean; entries: Map<number, LedgerEntry> }>();
  for (const line of lines) {
    if (line.e === 'run') {
      runs.set(line.run, { head: line, ended: false, entries: new Map() });
      continue;
    }
    const run = runs.get(line.run);
    if (run === undefined) continue;
    if (line.e === 'end') {
      run.ended = true;
      continue;
    }
    const entry = run.entries.get(line.n);
    switch (line.e) {
      case 'creating':
        run.entries.set(line.n, { run: line.run, n: line.n, url: line.url, owner: line.owner, state: 'left', exists: 'possible', lastAnswer: 'the run ended before its create was answered', ...(line.mark && { lookFor: line.mark }) });
        break;
      case 'created':
        run.entries.set(line.n, { run: line.run, n: line.n, url: line.url, owner: line.owner, state: 'owned', exists: line.certainty, ...(line.proof && { proof: line.proof }) });
        break;
      case 'unlocated':
        if (entry) Object.assign(entry, { exists: line.certainty, lastAnswer: line.why });
        break;
      case 'certain':
        if (entry) entry.exists = 'certain';
        break;
      case 'proof-lost':
        if (entry) delete entry.proof;
        break;
      case 'proof-moved':
        if (entry) entry.proof = line.proof;
        break;
      case 'own-delete':
        if (entry) Object.assign(entry, { state: 'deleted-unverified', ownDeleteStatus: line.status });
        break;
      case 'left':
        // The state stays what it was: a later cleanup retries by the same rules.
        if (entry) Object.assign(entry, { exists: line.certainty, lastAnswer: line.why });
        break;
      case 'gone':
      case 'not-created':
        run.entries.delete(line.n);
        break;
    }
  }
  return [...runs.values()].map(({ head, ended, entries }) => ({ run: head.run, startedAt: head.startedAt, baseUrl: head.baseUrl, mark: head.mark, ended, outstanding: [...entries.values()] }));
}

/** A ledger file read back: its runs, and the lines that are no ledger entry. */
export interface ReadLedger {
  readonly runs: RecordedRun[];
  /**
   * 1-based numbers of the lines that are not a ledger entry (not JSON, or JSON of another
   * shape), but for lines cut short (a killed run's last write): what they recorded, if
   * anything, is not known.
   */
  readonly unreadableLines: readonly number[];
}

/** How every line {@link LedgerFile} writes begins (JSON.stringify keeps the key order). */
const tornPrefix = '{"e":"';

/** Whether a parsed line has the shape every ledger line has: an event name and its run. */
function isLine(value: unknown): value is Line {
  if (typeof value !== 'object' || value === null) return false;
  const { e, run } = value as { e?: unknown; run?: unknown };
  return typeof e === 'string' && typeof run === 'string';
}

/**
 * The runs a ledger file records, each with what it still owns, and the lines it could not
 * read. A missing file is no runs; a line cut short (the process was killed mid-write) is
 * skipped without a word: the run's earlier line (the intent before a create) covers it.
 *
 * @example
 * ```ts
 * const { runs, unreadableLines } = await readLedger('reports/restprobe-ledger.jsonl');
 * runs.flatMap((r) => r.outstanding).length; // 3
 * unreadableLines; // []
 * ```
 */
export async function readLedger(path: string): Promise<ReadLedger> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return { runs: [], unreadableLines: [] };
    throw err;
  }
  const lines: Line[] = [];
  const unreadableLines: number[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      // A line cut short: a killed run's last write (the next run ends it with a newline).
      if (raw.startsWith(tornPrefix)) return;
    }
    if (isLine(parsed)) lines.push(parsed);
    else unreadableLines.push(i + 1);
  });
  return { runs: replay(lines), unreadableLines };
}

/**
 * The runs a ledger file records, each with what it still owns ({@link readLedger}'s runs).
 *
 * @example
 * ```ts
 * const runs = await readLedgerFile('reports/restprobe-ledger.jsonl');
 * runs.flatMap((r) => r.outstanding).length; // 3
 * ```
 */
export async function readLedgerFile(path: string): Promise<RecordedRun[]> {
  return (await readLedger(path)).runs;
}

/** How many items runs left, certain and possible. */
export function countOutstanding(runs: readonly RecordedRun[]): Record<Certainty, number> & { total: number } {
  const all = runs.flatMap((r) => r.outstanding);
  const certain = all.filter((e) => e.exists === 'certain' && e.state !== 'deleted-unverified').length;
  return { certain, possible: all.length - certain, total: all.length };
}

/**
 * Ledger lines as a message names them, at most five.
 *
 * @example
 * ```ts
 * lineNumbers([3]); // "line 3"
 * lineNumbers([1, 2, 7]); // "lines 1, 2 and 7"
 * ```
 */
export function lineNumbers(lines: readonly number[]): string {
  if (lines.length === 1) return `line ${lines[0]}`;
  const named = lines.slice(0, 5);
  const rest = lines.length - named.length;
  return `lines ${rest > 0 ? `${named.join(', ')} and ${rest} more` : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`}`;
}
