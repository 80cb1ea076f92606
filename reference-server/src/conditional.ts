/**
 * Validators and conditional requests (RFC 9110 §8.8.3, §13; conventions §4 "Conditional
 * and cache headers").
 *
 * An ETag is a strong validator derived only from the representation's bytes, so every
 * node behind a load balancer computes the same value for the same representation.
 * Preconditions are evaluated as RFC 9110 §13.2 orders them, after the normal request
 * checks (route, credentials, Accept, body, 404): a request whose unconditional answer
 * would be an error never reaches them.
 *
 * - GET and HEAD: the pipeline evaluates them on the finished 200 ({@link ConditionalRequest.complete}):
 *   If-Match false → 412; If-None-Match true (weak comparison) → 304.
 * - PUT, PATCH and DELETE of an item: the handler evaluates them against the item's current
 *   representation just before it writes ({@link ConditionalRequest.checkWrite}):
 *   If-Match false (strong comparison) → 412; If-None-Match true → 412.
 * - POST ignores them.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FaultName } from './faults.js';
import { faultActive } from './request-faults.js';
import { genericProblem, ProblemError } from './problem.js';
import { contentText, mediaTypes, type Reply } from './respond.js';

/** One `entity-tag` as received: `opaque` keeps its quotes (`"x"`). */
export interface EntityTag {
  readonly weak: boolean;
  readonly opaque: string;
}

/** An `If-Match` / `If-None-Match` value: `*`, or a (possibly empty) list of entity-tags. */
export type TagList = { readonly any: true } | { readonly any: false; readonly tags: readonly EntityTag[] };

/** `etagc = %x21 / %x23-7E / obs-text` (RFC 9110 §8.8.3). */
function isEtagc(code: number): boolean {
  return code === 0x21 || (code >= 0x23 && code <= 0x7e) || (code >= 0x80 && code <= 0xff);
}

function badList(header: string, detail: string): ProblemError {
  return new ProblemError(genericProblem(400, `${header} ${detail}`));
}

/**
 * Parses `"*" / #entity-tag` (RFC 9110 §13.1.1, §13.1.2). Empty list elements are allowed,
 * as for every `#` list (§5.6.1); an empty value is an empty list, which nothing matches.
 *
 * @throws ProblemError 400 when the value is not in the grammar, including a list that
 *   mixes `*` with entity-tags (§13.2.1).
 */
export function parseTagList(header: string, value: string): TagList {
  const tags: EntityTag[] = [];
  let stars = 0;
  let i = 0;
  let needSeparator = false;
  while (i < value.length) {
    const c = value[i];
    if (c === ' ' || c === '\t') {
      i++;
    } else if (c === ',') {
      needSeparator = false;
      i++;
    } else if (needSeparator) {
      throw badList(header, 'must be "*" or a comma-separated list of entity-tags such as "abc" or W/"abc".');
    } else if (c === '*') {
      stars++;
      needSeparator = true;
      i++;
    } else {
      const weak = value.startsWith('W/', i);
      const open = weak ? i + 2 : i;
      if (value[open] !== '"') {
        throw badList(header, 'must be "*" or a comma-separated list of entity-tags such as "abc" or W/"abc".');
      }
      let close = open + 1;
      while (close < value.length && isEtagc(value.charCodeAt(close))) close++;
      if (value[close] !== '"') {
        throw badList(header, 'has an entity-tag that is not a quoted string of allowed characters.');
      }
      tags.push({ weak, opaque: value.slice(open, close + 1) });
      needSeparator = true;
      i = close + 1;
    }
  }
  if (stars > 0 && (stars > 1 || tags.length > 0)) {
    throw badList(header, 'is either "*" or a list of entity-tags, never both.');
  }
  return stars === 1 ? { any: true } : { any: false, tags };
}

/** Strong comparison (§8.8.3.2): both tags strong, opaque-tags identical. `current` is ours, always strong. */
function strongMatch(tag: EntityTag, current: string): boolean {
  return !tag.weak && tag.opaque === current;
}

/** Weak comparison (§8.8.3.2): opaque-tags identical, `W/` ignored. */
function weakMatch(tag: EntityTag, current: string): boolean {
  return tag.opaque === current;
}

/**
 * What all nodes of one server share about validators. Only faults use it: the clean
 * server needs no memory, since a tag is a function of the bytes.
 */
export class ValidatorMemory {
  /** Fault `etag-stale-after-write`: the first tag issued per item id. */
  readonly firstTags = new Map<string, string>();
  /** Fault `etag-unstable`: a salt that changes with every tag issued. */
  issued = 0;
  /** Fault `if-match-accepts-any-issued`: every tag issued per item id. */
  readonly everIssued = new Map<string, Set<string>>();
}

/** The item id a representation names at its top level (a project or task), if any. */
function itemIdOf(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const id = (value as { id?: unknown }).id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** How one node computes ETags. */
export class Validators {
  constructor(
    private readonly faults: ReadonlySet<FaultName>,
    private readonly memory: ValidatorMemory = new ValidatorMemory(),
    /** 1 for the first node; only fault `etag-per-node` lets it show. */
    private readonly node = 1,
  ) {}

  /**
   * The strong ETag of a representation: `"` base64url(SHA-256(bytes)), 27 characters, `"`
   * (162 bits; identical bytes, identical tag, on every node).
   */
  etag(text: string): string {
    const hash = createHash('sha256').update(text, 'utf8');
    if (this.faults.has('etag-per-node')) hash.update(`\0node-${this.node}`);
    if (this.faults.has('etag-unstable')) hash.update(`\0issue-${++this.memory.issued}`);
    const tag = `"${hash.digest('base64url').slice(0, 27)}"`;
    if (this.faults.has('if-match-accepts-any-issued')) {
      const id = itemIdOf(text);
      if (id !== undefined) this.memory.everIssued.set(id, (this.memory.everIssued.get(id) ?? new Set()).add(tag));
    }
    if (this.faults.has('etag-stale-after-write')) {
      const id = itemIdOf(text);
      if (id !== undefined) {
        const first = this.memory.firstTags.get(id);
        if (first !== undefined) return first;
        this.memory.firstTags.set(id, tag);
      }
    }
    return tag;
  }

  /** Fault `if-match-accepts-any-issued`: the tags issued so far for the item a representation names. */
  issuedFor(text: string): ReadonlySet<string> {
    const id = itemIdOf(text);
    return (id === undefined ? undefined : this.memory.everIssued.get(id)) ?? new Set();
  }
}

type Outcome = 'proceed' | 'not-modified' | 'if-match-failed' | 'if-none-match-failed';

const readMethods = new Set(['GET', 'HEAD']);
// Not PUT: the stored item adds id and timestamps to what was sent, and RFC 9110 §9.3.4
// forbids a validator on a PUT response unless the content was stored untransformed.
const representingWrites = new Set(['POST', 'PATCH']);

function preconditionFailed(outcome: 'if-match-failed' | 'if-none-match-failed'): ProblemError {
  return new ProblemError(
    genericProblem(
      412,
      outcome === 'if-match-failed'
        ? 'If-Match names no current representation of this resource: it changed (or does not exist) since you read it. GET it again, and retry with its current ETag.'
        : 'If-None-Match matches the current representation of this resource, so the request was not applied.',
    ),
  );
}

/** The preconditions of one request, bound to the node that answers it. */
export class ConditionalRequest {
  /** Faults `precondition-failed-but-applied` and `put-precondition-failed-but-applied`: a write ran although its precondition failed. */
  private failedButApplied: 'if-match-failed' | 'if-none-match-failed' | undefined;

  constructor(
    private readonly method: string,
    private readonly headers: IncomingHttpHeaders,
    private readonly validators: Validators,
  ) {}

  /** The ETag this node gives a representation. */
  etag(text: string): string {
    return this.validators.etag(text);
  }

  /**
   * RFC 9110 §13.2.2 steps 1 and 3 against the current ETag (`undefined`: the target
   * has no current representation). If-Unmodified-Since, If-Modified-Since and If-Range
   * do not apply: the server sends no Last-Modified and no ranges.
   */
  private evaluate(current: string | undefined, alsoAccepted: ReadonlySet<string> = new Set()): Outcome {
    const ifMatch = this.list('If-Match');
    const ifNoneMatch = this.list('If-None-Match');
    if (ifMatch !== undefined && !faultActive('if-match-ignored')) {
      const holds =
        !faultActive('if-match-always-412') &&
        current !== undefined &&
        (ifMatch.any || ifMatch.tags.some((tag) => strongMatch(tag, current) || (!tag.weak && alsoAccepted.has(tag.opaque))));
      if (!holds) return 'if-match-failed';
    }
    if (ifNoneMatch !== undefined && !faultActive('if-none-match-ignored')) {
      const matches = current !== undefined && (ifNoneMatch.any || ifNoneMatch.tags.some((tag) => weakMatch(tag, current)));
      if (matches) return readMethods.has(this.method) ? 'not-modified' : 'if-none-match-failed';
    }
    return 'proceed';
  }

  private list(header: 'If-Match' | 'If-None-Match'): TagList | undefined {
    const value = this.headers[header.toLowerCase()];
    if (value === undefined) return undefined;
    return parseTagList(header, Array.isArray(value) ? value.join(', ') : value);
  }

  /**
   * Before a PUT, PATCH or DELETE of an item writes: its preconditions against the item's
   * current representation (`undefined`: the item does not exist, so If-Match fails).
   *
   * @throws ProblemError 412 when they fail (400 when a header is malformed).
   */
  checkWrite(currentRepresentation: string | undefined): void {
    const current = currentRepresentation === undefined ? undefined : this.etag(currentRepresentation);
    // Fault `if-match-accepts-any-issued`: a tag the item once had passes too (a lost update).
    const alsoAccepted = currentRepresentation !== undefined && faultActive('if-match-accepts-any-issued') ? this.validators.issuedFor(currentRepresentation) : undefined;
    const outcome = this.evaluate(current, alsoAccepted);
    if (outcome === 'proceed' || outcome === 'not-modified') return;
    if (faultActive('precondition-failed-but-applied') || (this.method === 'PUT' && faultActive('put-precondition-failed-but-applied'))) {
      // Faults: the write (or a PUT) goes ahead; complete() answers 412 after it.
      this.failedButApplied = outcome;
      return;
    }
    throw preconditionFailed(outcome);
  }

  /**
   * The handler's reply, finished: a representation (a JSON 200 to GET/HEAD, a JSON 200
   * or 201 to POST/PATCH) gets its ETag, and GET/HEAD preconditions are answered
   * (412, or 304 carrying the headers the 200 would have; the content stays on the reply
   * for `send` to drop).
   */
  complete(reply: Reply): Reply {
    if (this.failedButApplied !== undefined) throw preconditionFailed(this.failedButApplied);
    const { content } = reply;
    const read = readMethods.has(this.method);
    if (content === undefined || content.type !== mediaTypes.json) return reply;
    if (read ? reply.status !== 200 : !representingWrites.has(this.method) || (reply.status !== 200 && reply.status !== 201)) {
      return reply;
    }
    // The ETag is of the route's representation, its links as route paths (the same for every version).
    const etag = this.etag(contentText(content));
    const headers = read && faultActive('etag-missing') ? { ...reply.headers } : { ...reply.headers, ETag: etag };
    if (read) {
      const outcome = this.evaluate(etag);
      if (outcome === 'not-modified') return { status: 304, headers, content };
      if (outcome !== 'proceed') throw preconditionFailed(outcome);
    }
    return { ...reply, headers };
  }
}
