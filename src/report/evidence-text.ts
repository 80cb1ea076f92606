/**
 * A check's evidence as plain text: the rule, expected and found, notes, property replay
 * data, and a curl command per exchange. Used where a report has a free-text slot
 * (JUnit failure bodies).
 */
import type { CheckResult, ExchangeRecord } from '../model/result.js';

/** The longest curl command, note or message a report for people shows whole. */
export const humanTextLimit = 2_000;

/**
 * `text`, cut for a report people read (a terminal, a PR comment, a CI dashboard), with a
 * pointer to where the whole of it is. The JSON report keeps everything.
 *
 * @example
 * ```ts
 * capped(hugeCurl); // "curl … [1198000 more characters: the whole text is in restprobe-report.json]"
 * ```
 */
export function capped(text: string, limit = humanTextLimit): string {
  return text.length <= limit ? text : `${text.slice(0, limit)} … [${text.length - limit} more characters: the whole text is in restprobe-report.json]`;
}

/** `GET https://… → 404 (12 ms)`, or the transport error instead of a status. */
export function exchangeSummary(exchange: ExchangeRecord): string {
  const outcome = exchange.response ? String(exchange.response.status) : (exchange.error ?? 'no response');
  return `${exchange.request.method} ${exchange.request.url} → ${outcome} (${Math.round(exchange.durationMs)} ms)`;
}

/**
 * The curl command that best reproduces the outcome: the exchange the verdict names, else
 * the last one, since a check stops at the request that broke the rule.
 *
 * @example
 * ```ts
 * reproducingCurl(result); // "curl -sS -i -X GET 'https://…/nope'"
 * ```
 */
export function reproducingCurl(result: CheckResult): string | undefined {
  const { exchanges, focus } = result.evidence;
  return (focus === undefined ? exchanges.at(-1) : exchanges[focus])?.curl;
}

/**
 * Multi-line evidence text for a result.
 *
 * @example
 * ```ts
 * evidenceText(result);
 * // Rule: An unknown path answers 404 …
 * // Expected: 404
 * // Found: 200
 * //
 * // # 1. GET https://…/nope → 200 (12 ms)
 * // curl -sS -i -X GET 'https://…/nope'
 * ```
 */
export function evidenceText(result: CheckResult): string {
  const { evidence } = result;
  const lines = [`Rule: ${result.rule}`];
  if (evidence.expected !== undefined) lines.push(`Expected: ${capped(evidence.expected)}`);
  if (evidence.found !== undefined) lines.push(`Found: ${capped(evidence.found)}`);
  for (const note of evidence.notes) lines.push(`Note: ${capped(note)}`);
  if (evidence.property) {
    const p = evidence.property;
    const path = p.path !== undefined ? `, path ${p.path}` : '';
    lines.push(`Property: ${p.numRuns} runs, seed ${p.seed}${path} (rerun with --seed ${p.seed})`);
    if (p.counterexample !== undefined) lines.push(`Counterexample${p.shrunk ? ' (shrunk)' : ''}: ${p.counterexample}`);
  }
  evidence.exchanges.forEach((exchange, i) => {
    lines.push('', `# ${i + 1}. ${capped(exchangeSummary(exchange))}`, capped(exchange.curl));
  });
  return lines.join('\n');
}
