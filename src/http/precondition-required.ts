/**
 * Targets that require conditional writes (RFC 6585 §3, 428 Precondition Required:
 * drf-extensions' `APIETAGProcessor`, many API gateways' optimistic-locking policies) refuse a
 * PUT, PATCH or DELETE sent without `If-Match`. The conventions neither require nor forbid
 * that, so restprobe writes as such a client must: it reads the item's validator and sends
 * the write again, conditional on it. Only where restprobe owns the item (it created it) and
 * the write carried no precondition of its own: a check that judges preconditions sends
 * them itself and gets the target's answer as it is.
 */
import type { RawRequest, RawResponse } from './client.js';
import type { Guard } from './guards.js';

const writes = new Set(['PUT', 'PATCH', 'DELETE']);
const preconditions = ['if-match', 'if-unmodified-since', 'if-none-match'];
/** What a write carries that a read of the item must not: its body's headers, its own key. */
const notForTheRead = new Set(['content-type', 'content-length', 'content-encoding', 'idempotency-key', ...preconditions]);

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * Answers a 428 to a write on an item `owns` accepts with a GET of the item and the write
 * again under `If-Match` (its ETag) or, without one, `If-Unmodified-Since` (its
 * Last-Modified; see {@link conditionFor}). Each step is a request of its own through the
 * guards inside this one (counted, paced, recorded for review checks); `note` says what was
 * done, once per method.
 *
 * @example
 * ```ts
 * const send = guard(client.send.bind(client), [conditionalWhenRequired((url) => ledger.names(url), note)]);
 * ```
 */
export function conditionalWhenRequired(owns: (url: string) => boolean, note: (line: string) => void): Guard {
  const noted = new Set<string>();
  return (send) => {
    const conditionally = async (req: RawRequest): Promise<RawResponse> => {
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !notForTheRead.has(name.toLowerCase())));
      // Each step is timed from its own start, and cleanup's may go past a spent budget as the write may.
      const read = await send({ method: 'GET', url: req.url, headers, ...(req.signal && { signal: req.signal }), ...(req.outsideBudget && { outsideBudget: true }) });
      const [name, value] = conditionFor(req.method, read);
      if (!noted.has(`${req.method} ${name}`)) {
        noted.add(`${req.method} ${name}`);
        note(`${req.method} ${new URL(req.url).pathname} answered 428 Precondition Required: the target requires conditional writes, so restprobe sends its ${req.method} requests to its own items again with ${name}: ${value} after a GET of the item (${read.status})`);
      }
      const { startedAt: _first, ...unsent } = req;
      const conditional = { ...unsent, headers: { ...req.headers, [name.toLowerCase()]: value } };
      return { ...(await send(conditional)), sentHeaders: conditional.headers };
    };
    // Reads, and writes with a precondition of their own, pass straight through.
    return (req) =>
      writes.has(req.method) && !preconditions.some((h) => headerOf(req, h) !== undefined)
        ? send(req).then((res) => (res.status === 428 && owns(req.url) ? conditionally(req) : res))
        : send(req);
  };
}

/**
 * The precondition that lets the write through as it was meant: the item's strong ETag, else
 * its Last-Modified; for an item the GET did not show (gone, or a request without credentials),
 * `*`, which a server must ignore where its answer would be neither 2xx nor 412 (RFC 9110
 * §13.2.1): the unconditional write's answer, 404 or 401, then comes back. A PUT to an
 * absent item creates it only if still absent, `If-None-Match: *`.
 */
function conditionFor(method: string, read: RawResponse): [string, string] {
  const etag = read.status === 200 ? first(read.headers['etag']) : undefined;
  // If-Match compares strongly (RFC 9110 §13.1.1): a weak tag (Express's) never matches.
  if (etag !== undefined && !etag.startsWith('W/')) return ['If-Match', etag];
  const lastModified = read.status === 200 ? first(read.headers['last-modified']) : undefined;
  if (lastModified !== undefined) return ['If-Unmodified-Since', lastModified];
  return method === 'PUT' && (read.status === 404 || read.status === 410) ? ['If-None-Match', '*'] : ['If-Match', '*'];
}

function headerOf(req: RawRequest, name: string): string | undefined {
  for (const [key, value] of Object.entries(req.headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}
