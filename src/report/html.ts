/**
 * The HTML report: one self-contained file (inline style and script, nothing fetched) to
 * read offline or attach to a CI run. A chart of compliance per conventions section, the
 * root causes of what could not run, then every check with its rule, verdict and evidence
 * (the exchanges, a curl command with a copy button, property replay data), filterable
 * by status, section and name.
 *
 * Everything from a run is written as escaped text ({@link html}), and the page's
 * Content-Security-Policy allows only its own style and script (by hash) and no fetch at
 * all, so a hostile body shows as text and could not run even if it slipped through.
 */
import { createHash } from 'node:crypto';
import { resultName, type CheckResult, type ExchangeRecord, type Status } from '../model/result.js';
import { capped, exchangeSummary } from './evidence-text.js';
import { anchorId, html, htmlWithCode } from './html-escape.js';
import { htmlScript } from './html-script.js';
import { htmlStyle } from './html-style.js';
import { statuses, type Report, type RootCause, type SectionSummary } from './model.js';
import { baselineGroups, baselineLine, baselineVerdict, cleanupNote, damageLine, formatDuration, interruptionLine, leftoverLines, notRunResults, requestsSent, skipReason, totalsLine, verdict } from './wording.js';

/** Bodies, curl commands and notes longer than this are cut in the page (the JSON report keeps them). */
export const htmlTextLimit = 20_000;

const verdictText = { interrupted: 'interrupted', failed: 'failed', incomplete: 'incomplete', passed: 'passed' } as const;

const cspHash = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** Escaped, cut text for the page. */
const text = (value: string): string => html(capped(value, htmlTextLimit));

/** The share of judged checks (pass, fail, warn) that passed, or undefined when none was judged. */
function compliance(summary: Record<Status, number>): number | undefined {
  const judged = summary.pass + summary.fail + summary.warn;
  return judged === 0 ? undefined : summary.pass / judged;
}

/** A stacked bar of one section's outcomes: an SVG (no inline style, which the CSP forbids). */
function bar(label: string, summary: Record<Status, number>): string {
  const total = statuses.reduce((sum, s) => sum + summary[s], 0);
  let x = 0;
  const rects = statuses
    .filter((s) => summary[s] > 0)
    .map((s) => {
      const width = (summary[s] / total) * 100;
      const rect = `<rect class="${s}" x="${x.toFixed(3)}" y="0" width="${width.toFixed(3)}" height="10"><title>${html(`${label}: ${summary[s]} ${s}`)}</title></rect>`;
      x += width;
      return rect;
    });
  return `<svg viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label="${html(`${label}: ${totalsLine(summary)}`)}">${rects.join('')}</svg>`;
}

function chartRow(label: string, summary: Record<Status, number>, cls: string, section?: string): string {
  const share = compliance(summary);
  const pct = share === undefined ? 'not judged' : `${Math.floor(share * 100)}%`;
  return [
    `<tr class="${cls}"${section === undefined ? '' : ` data-section="${html(section)}"`}>`,
    `<td class="label">${html(label)}</td>`,
    `<td class="bar">${bar(label, summary)}</td>`,
    ...statuses.map((s) => `<td class="num" data-status="${s}">${summary[s]}</td>`),
    `<td class="pct">${pct}</td>`,
    '</tr>',
  ].join('');
}

function chart(report: Report): string {
  return [
    '<section id="sections"><h2>Compliance by section</h2>',
    `<div class="legend">${statuses.map((s) => `<span><i class="${s}"></i>${s}</span>`).join('')}</div>`,
    '<table class="chart"><thead><tr><th>Section</th><th>Outcomes</th>',
    ...statuses.map((s) => `<th class="num">${s}</th>`),
    '<th title="passed, of the checks that judged the target (pass, fail, warn)">compliant</th></tr></thead><tbody>',
    ...report.sections.map((s: SectionSummary) => chartRow(`${s.section} ${s.name}`, s.summary, 'section', s.section)),
    chartRow('Total', report.summary, 'total'),
    '</tbody></table></section>',
  ].join('\n');
}

function header(report: Report): string {
  const outcome = verdict(report);
  const facts = [
    `target <code>${html(report.target.baseUrl)}</code>`,
    `started ${html(report.startedAt)}`,
    `took ${formatDuration(report.durationMs)}`,
    `sent ${requestsSent(report)}`,
    `seed ${report.seed}`,
    report.strict ? 'strict' : 'not strict',
    ...(report.shard ? [`shard ${report.shard.index} of ${report.shard.total}`] : []),
    `restprobe ${html(report.tool.version)}`,
  ];
  return [
    `<h1>restprobe compliance report <span class="verdict ${outcome}" id="verdict">${verdictText[outcome]}</span>${baselineVerdict(report) ? `<small>${html(baselineVerdict(report)!)}</small>` : ''}</h1>`,
    `<p class="facts">${facts.map((f) => `<span>${f}</span>`).join('')}</p>`,
    `<div class="totals" id="totals">${statuses.map((s) => `<span class="badge ${s}" data-status="${s}">${report.summary[s]} ${s}</span>`).join('')}</div>`,
  ].join('\n');
}

function banners(report: Report): string {
  const lines = [interruptionLine(report), damageLine(report), cleanupNote(report)].filter((l): l is string => l !== undefined);
  return lines.map((l) => `<p class="banner">${html(l)}</p>`).join('\n');
}

function baselineSection(report: Report): string {
  if (report.baseline === undefined) return '';
  const groups = baselineGroups(report.baseline).map(
    (g) => `<h3>${html(g.title)} (${g.lines.length})</h3><ul>${g.lines.map((l) => `<li>${html(l)}</li>`).join('')}</ul>`,
  );
  return ['<section id="baseline" class="baseline"><h2>Compared with the baseline</h2>', `<p>${html(baselineLine(report.baseline))}</p>`, ...groups, '</section>'].join('\n');
}

/** A list of causes, each with links to its checks; `what` words a group's size. */
function causeSection(id: string, title: string, causes: readonly RootCause[], what: (n: number) => string, anchors: Map<string, string>): string {
  if (causes.length === 0) return '';
  const item = ({ cause, checks }: RootCause): string => {
    const links = checks.map((name) => `<a href="#${anchors.get(name) ?? ''}">${html(name)}</a>`).join(', ');
    return `<li><strong>${html(cause)}</strong>: ${what(checks.length)} (${links})</li>`;
  };
  return [`<section id="${id}" class="causes"><h2>${title}</h2><ul>`, ...causes.map(item), '</ul></section>'].join('\n');
}

const rootCauseSection = (report: Report, anchors: Map<string, string>): string =>
  causeSection('root-causes', 'Could not run, by root cause', report.rootCauses, (n) => `${n} ${n === 1 ? 'check' : 'checks'} could not run`, anchors);

const failureCauseSection = (report: Report, anchors: Map<string, string>): string =>
  causeSection('failure-causes', 'Findings, by root cause', report.failureCauses, (n) => `one fix, ${n} findings`, anchors);

const headerLines = (headers: Record<string, string | string[]>): string =>
  Object.entries(headers)
    .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => `${name}: ${v}`))
    .join('\n');

/** Whether an exchange was kept as a summary only (a passing check's): no headers, body or curl. */
const summaryOnly = (x: ExchangeRecord): boolean =>
  x.curl === '' && Object.keys(x.request.headers).length === 0 && x.request.body === undefined && x.response?.body === undefined && Object.keys(x.response?.headers ?? {}).length === 0;

function exchange(x: ExchangeRecord, index: number, id: string, focused: boolean): string {
  if (summaryOnly(x)) return `<div class="exchange-line">${index + 1}. ${text(exchangeSummary(x))}</div>`;
  const curlId = `${id}-curl-${index + 1}`;
  const request = [`${x.request.method} ${x.request.url}`, headerLines(x.request.headers)].filter((l) => l !== '').join('\n');
  const parts = [
    `<details class="exchange"${focused ? ' open' : ''}><summary>${index + 1}. ${text(exchangeSummary(x))}${focused ? ' · the verdict is about this one' : ''}</summary>`,
    `<div>Request</div><pre>${text(request)}</pre>`,
    ...(x.request.body !== undefined ? [`<pre>${text(x.request.body)}</pre>`] : []),
  ];
  if (x.response) {
    parts.push(`<div>Response</div><pre>${text(`${x.response.status}\n${headerLines(x.response.headers)}`)}</pre>`);
    if (x.response.body !== undefined) {
      parts.push(`<pre class="body">${text(x.response.body)}</pre>`);
      if (x.response.bodyTruncated) parts.push('<div class="cut">(body cut for the report; the check saw all of it)</div>');
    }
  }
  if (x.error !== undefined) parts.push(`<div>Error</div><pre>${text(x.error)}</pre>`);
  parts.push(
    `<div class="curl-head">Reproduce <button type="button" class="copy" data-copy="${curlId}">Copy</button></div>`,
    `<pre class="curl" id="${curlId}">${text(x.curl)}</pre>`,
    '</details>',
  );
  return parts.join('\n');
}

function facts(result: CheckResult): string {
  const { evidence } = result;
  const row = (term: string, value: string): string => `<dt>${term}</dt><dd>${value}</dd>`;
  const rows = [
    row('Rule', htmlWithCode(result.rule)),
    row('Severity', result.severity),
    row('Verdict', `<span class="badge ${result.status}">${result.status}</span>`),
    row('Message', `<pre>${text(result.status === 'skip' ? skipReason(result) : result.message)}</pre>`),
    ...(evidence.expected !== undefined ? [row('Expected', `<pre class="expected">${text(evidence.expected)}</pre>`)] : []),
    ...(evidence.found !== undefined ? [row('Found', `<pre class="found">${text(evidence.found)}</pre>`)] : []),
    ...(result.rootCause !== undefined ? [row('Root cause', html(result.rootCause))] : []),
    ...(result.errorCode !== undefined ? [row('Error code', html(result.errorCode))] : []),
    ...evidence.notes.map((n) => row('Note', text(n))),
  ];
  const p = evidence.property;
  if (p) {
    rows.push(row('Property', html(`${p.numRuns} runs, seed ${p.seed}${p.path !== undefined ? `, path ${p.path}` : ''}: rerun with --seed ${p.seed}`)));
    if (p.counterexample !== undefined) rows.push(row(`Counterexample${p.shrunk ? ' (shrunk)' : ''}`, `<pre>${text(p.counterexample)}</pre>`));
  }
  rows.push(row('Requests', `${evidence.requestCount} sent, ${formatDuration(result.durationMs)}`));
  return `<dl>${rows.join('')}</dl>`;
}

/** Each result's standing against the baseline, by name: a tag beside its verdict. */
function baselineTags(report: Report): Map<string, string> {
  const b = report.baseline;
  if (b === undefined) return new Map();
  const tagged = (changes: readonly { name: string }[], tag: string): [string, string][] => changes.map((c) => [c.name, tag]);
  return new Map([...tagged(b.newFailures, 'new failure'), ...tagged(b.nowSkipped, 'now skipped'), ...tagged(b.fixed, 'fixed'), ...tagged(b.stillFailing, 'known failure')]);
}

function checkEntry(result: CheckResult, id: string, tag: string | undefined): string {
  const name = resultName(result.id, result.collection);
  // Failures open; of the errors, those with their own story (a blocked check points at its blocker).
  const open = result.status === 'fail' || (result.status === 'error' && result.errorCode !== 'ERR_BLOCKED');
  const { exchanges, focus } = result.evidence;
  const focusIndex = focus ?? exchanges.length - 1;
  const summaryText = result.status === 'skip' ? skipReason(result) : result.message;
  return [
    `<details class="check ${result.status}" id="${id}" data-status="${result.status}" data-section="${result.section}" data-name="${html(`${name} ${result.title}${tag === undefined ? '' : ` ${tag}`}`)}"${open ? ' open' : ''}>`,
    `<summary><span class="badge ${result.status}">${result.status}</span>${tag === undefined ? '' : `<span class="tag">${tag}</span>`}<span class="name">${html(name)}</span><span class="title">${html(result.title)}</span><span class="msg">${text(summaryText)}</span></summary>`,
    '<div class="check-body">',
    facts(result),
    ...(exchanges.length > 0 ? [`<h4>Exchanges (${exchanges.length})</h4>`, ...exchanges.map((x, i) => exchange(x, i, id, i === focusIndex && result.status !== 'pass'))] : []),
    '</div></details>',
  ].join('\n');
}

function filters(report: Report): string {
  const box = (kind: string, value: string, label: string): string =>
    `<label><input type="checkbox" data-kind="${kind}" value="${html(value)}" checked> ${html(label)}</label>`;
  return [
    '<div class="filters" id="filters" hidden>',
    `<fieldset><legend>Status</legend>${statuses.map((s) => box('status', s, `${s} (${report.summary[s]})`)).join('')}</fieldset>`,
    `<fieldset><legend>Section</legend>${report.sections.map((s) => box('section', s.section, s.section)).join('')}</fieldset>`,
    '<input type="search" id="filter-text" placeholder="filter by id or title" aria-label="filter by id or title">',
    '<button type="button" id="open-all">Expand all</button><button type="button" id="close-all">Collapse all</button>',
    '<span id="shown-count"></span>',
    '</div>',
  ].join('\n');
}

function checksSection(report: Report, anchors: Map<string, string>): string {
  const tags = baselineTags(report);
  const groups = report.sections.map((s) => {
    const results = report.checks.filter((r) => r.section === s.section);
    return [
      `<div class="section-group" data-section="${s.section}"><h3>${html(`${s.section} ${s.name}`)}</h3>`,
      ...results.map((r) => checkEntry(r, anchors.get(resultName(r.id, r.collection))!, tags.get(resultName(r.id, r.collection)))),
      '</div>',
    ].join('\n');
  });
  return ['<section id="checks"><h2>Checks</h2>', filters(report), ...groups, '</section>'].join('\n');
}

function notRunSection(report: Report): string {
  const notRun = notRunResults(report);
  if (notRun.length === 0) return '';
  return [`<section id="not-run"><h2>Not run (${notRun.length}): the run was interrupted</h2><ul>`, ...notRun.map((r) => `<li>${html(`${resultName(r.id, r.collection)}: ${r.title}`)}</li>`), '</ul></section>'].join('\n');
}

function leftoverSection(report: Report): string {
  if (report.leftovers.length === 0) return '';
  return [`<section id="leftovers"><h2>Left on the target (${report.leftovers.length}): delete these by hand</h2><ul>`, ...leftoverLines(report).map((l) => `<li>${html(l)}</li>`), '</ul></section>'].join('\n');
}

/**
 * The whole page.
 *
 * @example
 * ```ts
 * await writeFile('reports/restprobe-report.html', renderHtml(report));
 * ```
 */
export function renderHtml(report: Report): string {
  const taken = new Set<string>();
  const anchors = new Map(report.checks.map((r) => [resultName(r.id, r.collection), anchorId(resultName(r.id, r.collection), taken)]));
  const csp = `default-src 'none'; style-src ${cspHash(htmlStyle)}; script-src ${cspHash(htmlScript)}; img-src data:; base-uri 'none'; form-action 'none'`;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${html(`restprobe: ${verdictText[verdict(report)]} · ${report.target.baseUrl}`)}</title>`,
    `<style>${htmlStyle}</style>`,
    '</head><body>',
    header(report),
    banners(report),
    chart(report),
    baselineSection(report),
    failureCauseSection(report, anchors),
    rootCauseSection(report, anchors),
    checksSection(report, anchors),
    notRunSection(report),
    leftoverSection(report),
    `<footer>restprobe ${html(report.tool.version)} · report schema ${report.schemaVersion} · the JSON report holds every text whole</footer>`,
    `<script>${htmlScript}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}
