/**
 * `Idempotency-Key` on POST (conventions §4 rule 6; draft-ietf-httpapi-idempotency-key-header):
 * the server stores the key with the first result and answers a repeat with the same key
 * and the same body with that stored result, so a retried create makes one resource. The
 * same key with another body is refused with 422 (§2.7); a repeat while the first is
 * still being handled gets 409. A POST without the key is handled as usual.
 *
 * Keys are kept per client (the credentials presented) and per path, so two clients
 * never see each other's results. One store serves every node.
 */
import { faultActive } from './request-faults.js';
import type { Handler } from './context.js';
import { ProblemError } from './problem.js';
import type { Reply } from './respond.js';

interface Stored {
  /** The request body, canonical JSON, that the key was first used with. */
  readonly fingerprint: string;
  /** The first result; undefined while the first request is still being handled. */
  reply?: Reply;
}

/** The problem types of refused keys. */
export const idempotencyProblems = {
  reused: 'urn:restprobe:problem:idempotency-key-reused',
  inFlight: 'urn:restprobe:problem:idempotency-key-in-flight',
} as const;

/** Before a value: text to write out as is; else the value itself, to serialise. */
type Piece = { readonly text: string } | { readonly value: unknown };

/**
 * JSON with object members sorted, so `{a,b}` and `{b,a}` are one body. Iterative, with a
 * work stack of its own: the body may nest as deep as 1 MiB allows (JSON.parse takes it),
 * and recursion (or JSON.stringify of a container) would overflow the call stack into a 500.
 */
export function canonical(value: unknown): string {
  const out: string[] = [];
  const work: Piece[] = [{ value }];
  // Pieces are pushed in reverse, so they pop in writing order.
  for (let piece = work.pop(); piece !== undefined; piece = work.pop()) {
    if ('text' in piece) {
      out.push(piece.text);
      continue;
    }
    const v = piece.value;
    if (Array.isArray(v)) {
      work.push({ text: ']' });
      for (let i = v.length - 1; i >= 0; i--) {
        work.push({ value: v[i] });
        if (i > 0) work.push({ text: ',' });
      }
      out.push('[');
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      work.push({ text: '}' });
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, member] = entries[i]!;
        work.push({ value: member }, { text: `${i > 0 ? ',' : ''}${JSON.stringify(k)}:` });
      }
      out.push('{');
    } else {
      out.push(JSON.stringify(v));
    }
  }
  return out.join('');
}

/** The key as sent: an sf-string (`"abc"`, as the draft says) or a bare token (as Stripe sends it) name the same key. */
export function keyOf(header: string | string[] | undefined): string | undefined {
  const raw = (Array.isArray(header) ? header[0] : header)?.trim();
  if (raw === undefined || raw === '') return undefined;
  return /^"(?:[^"\\]|\\.)*"$/.test(raw) ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
}

export class IdempotencyStore {
  private readonly entries = new Map<string, Stored>();

  /** Wraps a POST handler so it honours `Idempotency-Key`. */
  wrap(handler: Handler): Handler {
    return async (ctx) => {
      const key = keyOf(ctx.headers['idempotency-key']);
      if (key === undefined || faultActive('idempotency-key-ignored')) return handler(ctx);
      const scope = JSON.stringify([ctx.credentials?.keys ?? [], ctx.credentials?.session ?? null, ctx.path, key]);
      const fingerprint = canonical(ctx.body ?? null);
      const stored = this.entries.get(scope);
      if (stored !== undefined) {
        if (stored.fingerprint !== fingerprint) {
          // Fault `idempotency-key-reuse-accepted`: the new body is handled as a new request.
          if (faultActive('idempotency-key-reuse-accepted')) return handler(ctx);
          throw new ProblemError({ type: idempotencyProblems.reused, title: 'Idempotency-Key reused', status: 422, detail: 'This Idempotency-Key was already used with another request body; use a new key for a new request.' });
        }
        if (stored.reply === undefined) {
          throw new ProblemError({ type: idempotencyProblems.inFlight, title: 'Request in progress', status: 409, detail: 'A request with this Idempotency-Key is still being handled; retry later.' });
        }
        // Fault `idempotency-replay-creates`: the retry gets the stored answer, and is handled again all the same.
        if (faultActive('idempotency-replay-creates')) await handler(ctx);
        return stored.reply;
      }
      const entry: Stored = { fingerprint };
      this.entries.set(scope, entry);
      try {
        entry.reply = await handler(ctx);
        return entry.reply;
      } catch (error) {
        // Nothing was done: the key is free for the corrected request.
        this.entries.delete(scope);
        throw error;
      }
    };
  }
}
