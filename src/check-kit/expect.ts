/**
 * Assertions for checks. Each throws a {@link CheckFailure} whose message says what was
 * found, then what was expected, and names the exchange it is about.
 */
import { CheckFailure } from '../model/check.js';
import type { HttpResponse } from '../model/context.js';
import { brief, describe, summarise } from '../model/describe-response.js';

export { brief, describe, summarise };

/**
 * @example
 * ```ts
 * expectStatus(res, [200, 204], 'PUT of an existing item');
 * ```
 */
export function expectStatus(res: HttpResponse, expected: number | readonly number[], what?: string, rootCause?: string): void {
  const allowed = typeof expected === 'number' ? [expected] : expected;
  if (!allowed.includes(res.status)) {
    const want = allowed.join(' or ');
    throw new CheckFailure(
      `${what ? `${what}: ` : ''}found ${describe(res)}, expected ${want}`,
      want,
      String(res.status),
      res.exchangeIndex,
      rootCause,
    );
  }
}

/** Returns the header's value; fails when it is absent or empty (for `rootCause`, see {@link CheckFailure}). */
export function expectHeader(res: HttpResponse, name: string, what?: string, rootCause?: string): string {
  const value = res.headers[name.toLowerCase()];
  if (value === undefined || value.trim() === '') {
    throw new CheckFailure(`${what ? `${what}: ` : ''}${describe(res)} has no ${name} header, expected one`, `a ${name} header`, 'none', res.exchangeIndex, rootCause);
  }
  return value;
}

/** Returns the body as a JSON object; fails on anything else. */
export function expectJsonObject(res: HttpResponse, what?: string): Record<string, unknown> {
  if (typeof res.json !== 'object' || res.json === null || Array.isArray(res.json)) {
    throw new CheckFailure(
      `${what ? `${what}: ` : ''}${describe(res)} body is ${summarise(res)}, expected a JSON object`,
      'a JSON object',
      summarise(res),
      res.exchangeIndex,
    );
  }
  return res.json as Record<string, unknown>;
}

/** Fails with `message` unless `condition` holds (for `rootCause`, see {@link CheckFailure}). */
export function ensure(condition: boolean, message: string, expected?: string, found?: string, rootCause?: string): asserts condition {
  if (!condition) throw new CheckFailure(message, expected, found, undefined, rootCause);
}

/**
 * Fails listing every response `problemOf` finds fault with, the first as the exchange the
 * verdict is about; `message` words the failure from the counts and what was found.
 *
 * @example
 * ```ts
 * expectEvery(responses, (r) => (r.status === 401 ? undefined : describe(r)), (bad, all, found) => `${bad} of ${all} were not 401 — ${found}`, '401');
 * ```
 */
export function expectEvery(
  responses: readonly HttpResponse[],
  problemOf: (res: HttpResponse) => string | undefined,
  message: (bad: number, all: number, found: string) => string,
  expected: string,
  /** The cause the offending responses share, when they share one (see {@link CheckFailure}'s `rootCause`). */
  rootCause?: (bad: readonly HttpResponse[]) => string | undefined,
): void {
  const bad = responses.map((r) => ({ r, why: problemOf(r) })).filter((x): x is { r: HttpResponse; why: string } => x.why !== undefined);
  if (bad.length === 0) return;
  const found = bad.map((b) => b.why).join('; ');
  throw new CheckFailure(message(bad.length, responses.length, found), expected, found, bad[0]!.r.exchangeIndex, rootCause?.(bad.map((b) => b.r)));
}

