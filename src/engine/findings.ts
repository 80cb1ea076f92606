/**
 * When a dependent's result only repeats what a dependency found. A check runs beside the
 * checks it depends on; when one of them failed, the dependent's own verdict stands unless
 * it says the same thing again, so one defect gives one failure and never silences a check
 * that judged a subject of its own (see run.ts).
 */
import type { CheckResult } from '../model/result.js';

/** A segment that names one item rather than a route: a number, a UUID, a long token with a digit (not `notification-preferences`), or a run's mark. */
const itemSegment = /^(?:\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?=[^/]*\d)[A-Za-z0-9_.~-]{20,}|restprobe-.*)$/i;

/**
 * `/v2/projects/7f3c…/tasks?cursor=…` → `/v2/projects/{}/tasks`: the route, whatever item
 * and page. A route that names one item is `…/{}`, whatever collection: how an API answers
 * for an item (a 204 where a GET owes 200, no ETag) is one defect on all of them.
 */
function routeOf(url: string): string {
  const path = URL.canParse(url) ? new URL(url).pathname : url.split('?')[0]!;
  const segments = path.split('/').map((s) => (itemSegment.test(safeDecode(s)) ? '{}' : s));
  // A trailing slash (Django's routes) names the same item.
  const last = segments.at(-1) === '' ? segments.at(-2) : segments.at(-1);
  return last === '{}' ? '…/{}' : segments.join('/');
}

const safeDecode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/**
 * What a failure (or warning) found, in forms another check's result can be matched with:
 * its root cause when its check named one, and the answer it judged (the method and route,
 * the status, and what was expected), so "GET /v2/projects/{} → 204, expected 200" found by
 * `END-get-item-200` is the same finding when a check after it meets it too. Empty for any
 * other result.
 *
 * @example
 * ```ts
 * findingsOf(result); // ['GET /v2/projects/{} → 204 · expected 200']
 * ```
 */
export function findingsOf(result: CheckResult): string[] {
  if (result.status !== 'fail' && result.status !== 'warn') return [];
  const focus = result.evidence.focus === undefined ? undefined : result.evidence.exchanges[result.evidence.focus];
  const answer = focus?.response === undefined ? [] : [`${focus.request.method} ${routeOf(focus.request.url)} → ${focus.response.status} · expected ${result.evidence.expected ?? '?'}`];
  return [...(result.rootCause === undefined ? [] : [result.rootCause]), ...answer];
}

/**
 * Whether a dependent's own result (with `ownFindings`, its {@link findingsOf}), beside a
 * dependency whose findings (with those of what did not pass before it) are `found`, would
 * only say that again: it could not make what it needed (ERR_SETUP), it was blocked itself,
 * or it failed on the same finding. A pass, a skip, an
 * error of another kind or a failure of its own stands.
 */
export function repeats(own: CheckResult, ownFindings: readonly string[], found: ReadonlySet<string>): boolean {
  return own.errorCode === 'ERR_SETUP' || own.errorCode === 'ERR_BLOCKED' || ownFindings.some((f) => found.has(f));
}
